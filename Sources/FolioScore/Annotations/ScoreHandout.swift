import FolioPDF
import Foundation

/// A copy of a score to hand out: with the marks of some layers taken out, or with no marks at
/// all (a clean part). Links and form fields stay; the file itself is not touched — the copy
/// is written whole (`PDFSaver.rewritten`).
///
/// ```swift
/// let clean = try ScoreHandout.bytes(of: document, keeping: .none)
/// let mine = try ScoreHandout.bytes(of: document, keeping: .exceptLayers(["Борис — Viola"]))
/// ```
public enum ScoreHandout {
    /// Which marks the copy keeps.
    public enum Marks: Sendable, Equatable {
        /// Every mark but those in these layers (optional content groups, by name).
        case exceptLayers(Set<String>)
        /// Every mark but those in these layers (optional content groups, by reference).
        case exceptGroups(Set<PDFReference>)
        /// No marks: a clean part (links and form fields stay).
        case none
    }

    /// The subtypes that are not marks: they stay in every copy.
    static let kept: Set<String> = ["Link", "Widget"]

    /// Takes the marks `keeping` does not keep out of `document` (in memory); returns how many.
    @discardableResult
    public static func strip(_ document: PDFDocument, keeping: Marks) throws -> Int {
        let groups = Dictionary(document.optionalContentGroups.map { ($0.reference, $0.name) }, uniquingKeysWith: { first, _ in first })
        let going = document.annotations().filter { annotation in
            guard !kept.contains(annotation.subtype) else { return false }
            switch keeping {
            case .none:
                return true
            case .exceptLayers(let layers):
                guard let group = annotation.dictionary["OC"]?.referenceValue, let name = groups[group] else { return false }
                return layers.contains(name)
            case .exceptGroups(let layers):
                return annotation.dictionary["OC"]?.referenceValue.map(layers.contains) ?? false
            }
        }
        guard !going.isEmpty else { return 0 }
        return try document.removeAnnotations(going).count
    }

    /// The copy's bytes: `document` with ``strip(_:keeping:)`` applied, written whole.
    public static func bytes(of document: PDFDocument, keeping: Marks) throws -> [UInt8] {
        try strip(document, keeping: keeping)
        return try PDFSaver.rewritten(document)
    }
}

extension AnnotationListing {
    /// The layer (optional content group, by name) of each listed annotation, in the listing's
    /// order (nil for one in no layer): read from each mark itself, so two marks that share an
    /// id (a name repeated on two pages of a file made elsewhere) keep their own layers.
    ///
    /// ```swift
    /// let listed = try AnnotationListing.list(document, page: 1, popups: false)
    /// AnnotationListing.layers(of: listed, in: document).first??.name   // "Anna Nováková — Violin II"
    /// ```
    public static func layers(of listed: [Shown], in document: PDFDocument) -> [MarkLayer?] {
        let groups = Dictionary(MarkLayer.all(in: document).map { ($0.group, $0) }, uniquingKeysWith: { first, _ in first })
        return listed.map { shown in shown.annotation.dictionary["OC"]?.referenceValue.flatMap { groups[$0] } }
    }
}

/// A layer marks are in, as the domain reads it: the optional content group's name, its own
/// entries (who a member's layer belongs to), and the group itself.
///
/// ```swift
/// for layer in MarkLayer.all(in: document) { print(layer.name, layer.entries["FolioMember"] ?? "shared") }
/// ```
public struct MarkLayer: Sendable, Equatable {
    public let name: String
    /// Text entries of the group's dictionary beyond the standard ones.
    public let entries: [String: String]
    public let group: PDFReference

    public init(_ group: PDFOptionalContentGroup) {
        name = group.name
        entries = group.entries
        self.group = group.reference
    }

    /// The document's layers in `/OCProperties /OCGs` order.
    public static func all(in document: PDFDocument) -> [MarkLayer] {
        document.optionalContentGroups.map(MarkLayer.init)
    }
}
