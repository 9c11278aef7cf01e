import FolioPDF

extension PDFAnnotationKind {
    /// The kind a shell names (`freetext`, `square`, `ink`, `strikeout`…, any case), or nil.
    ///
    /// ```swift
    /// PDFAnnotationKind(named: "FreeText")?.markName   // "text"
    /// ```
    public init?(named name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// What a musician calls the mark, as an undo button names it ("Added a pen stroke").
    public var markName: String {
        switch self {
        case .freeText: "text"
        case .square: "rectangle"
        case .circle: "circle"
        case .highlight: "highlight"
        case .underline: "underline"
        case .strikeOut: "strike-out"
        case .squiggly: "squiggle"
        case .ink: "pen stroke"
        case .line: "line"
        case .note: "note"
        case .stamp: "stamp"
        }
    }
}

extension PDFTextAlignment {
    /// The alignment a shell names: `left`, `center` (or `centre`), `right`, any case; nil for another.
    ///
    /// ```swift
    /// PDFTextAlignment(named: "Centre")   // .center
    /// ```
    public init?(named name: String) {
        switch name.lowercased() {
        case "left": self = .left
        case "center", "centre": self = .center
        case "right": self = .right
        default: return nil
        }
    }

    /// The names ``init(named:)`` takes, one per alignment.
    public static let names = ["left", "center", "right"]
}

/// Flattening: marks drawn into their pages' content, so every viewer shows them and none
/// can edit them any more.
///
/// ```swift
/// try ScoreFile("Ηχοι.pdf").update { document in try AnnotationFlattening.apply(to: document, page: 2) }
/// ```
public enum AnnotationFlattening {
    /// Flattens the annotations of `page` (1-based), or of every page; returns the ids of those
    /// flattened. A page out of range is ``ScoreErrorCode/outOfRange``.
    public static func apply(to document: PDFDocument, page: Int? = nil) throws -> [String] {
        if let page, page < 1 || page > document.pageCount {
            throw ScoreError(.outOfRange, "page \(page) is out of range (valid: 1 to \(document.pageCount))")
        }
        return try document.flattenAnnotations(onPage: page.map { $0 - 1 })
    }
}
