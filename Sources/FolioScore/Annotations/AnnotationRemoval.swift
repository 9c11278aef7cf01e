import FolioPDF

/// Which annotations to take off a score, and the one way they are taken off: by id (each
/// with its popup and replies; an id that names nothing is ``ScoreErrorCode/notFound``), or
/// every markup annotation, of some subtypes or all (links and form fields only when named),
/// on one page or all. `folio annot remove` and the server's Delete both run it.
///
/// ```swift
/// let ink = AnnotationRemoval.all(types: ["ink"], page: 3)
/// let removed = try ink.apply(to: document)   // the ids taken off
/// ```
public struct AnnotationRemoval: Sendable, Equatable {
    /// What is removed.
    public enum Selection: Sendable, Equatable {
        /// The annotations with these ids (`folio annot list` and the API show them).
        case ids([String])
        /// Every markup annotation of these subtypes ("Ink", "FreeText", or the names `annot
        /// add` takes, such as "ink"); all markup subtypes when empty.
        case all(types: [String])
    }

    public var selection: Selection
    /// Only on this page (1-based); nil: the whole score.
    public var page: Int?

    /// The annotations with `ids`, looked for on `page` or every page.
    public init(ids: [String], page: Int? = nil) {
        selection = .ids(ids)
        self.page = page
    }

    /// Every markup annotation of `types` (all when empty), on `page` or every page.
    public static func all(types: [String] = [], page: Int? = nil) -> AnnotationRemoval {
        var removal = AnnotationRemoval(ids: [], page: page)
        removal.selection = .all(types: types)
        return removal
    }

    /// Refuses what cannot name anything: no id, an empty id, a page below 1.
    public func validate() throws {
        if case .ids(let ids) = selection, ids.isEmpty || ids.contains(where: \.isEmpty) {
            throw ScoreError(.invalidValue, "name the annotations to remove by id (`folio annot list` shows them)")
        }
        if let page, page < 1 { throw ScoreError(.outOfRange, "page \(page) is out of range (valid: 1 or more)") }
    }

    /// Removes the annotations from `document` (saved by the caller) and returns their ids.
    /// A page past the last is ``ScoreErrorCode/outOfRange``; an id found nowhere (or not on
    /// `page`) is ``ScoreErrorCode/notFound``, and nothing is removed.
    public func apply(to document: PDFDocument) throws -> [String] {
        try validate()
        if let page, page > document.pageCount {
            throw ScoreError(.outOfRange, "page \(page) is out of range (valid: 1 to \(document.pageCount))")
        }
        let index = page.map { $0 - 1 }
        switch selection {
        case .ids(let ids):
            try document.requireAnnotations(ids, page: page)
            return try document.removeAnnotations(ids: ids, onPage: index)
        case .all(let types):
            return try document.removeAllAnnotations(subtypes: Set(types.map(AnnotationListing.subtype(named:))), onPage: index)
        }
    }
}

extension PDFDocument {
    /// Refuses ids no annotation of the document (or of `page`, 1-based) has, as
    /// ``ScoreErrorCode/notFound``: the one check before a mark is edited or removed.
    func requireAnnotations(_ ids: [String], page: Int?) throws {
        let present = Set((try page.map { try annotations(onPage: $0 - 1) } ?? annotations()).map(\.id))
        if let missing = ids.first(where: { !present.contains($0) }) {
            throw ScoreError(.notFound, "no annotation has the id \(missing)\(page.map { " on page \($0)" } ?? ""); `folio annot list` shows the ids")
        }
    }
}
