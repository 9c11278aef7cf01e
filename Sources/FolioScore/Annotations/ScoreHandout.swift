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
    /// The layer (optional content group, by name) each listed annotation is in, by id;
    /// annotations in no layer are left out.
    ///
    /// ```swift
    /// let listed = try AnnotationListing.list(document, page: 1, popups: false)
    /// AnnotationListing.layers(of: listed, in: document)["obj-12"]   // "Anna Nováková — Violin II"
    /// ```
    public static func layers(of listed: [Shown], in document: PDFDocument) -> [String: String] {
        let groups = Dictionary(document.optionalContentGroups.map { ($0.reference, $0.name) }, uniquingKeysWith: { first, _ in first })
        var layers: [String: String] = [:]
        for shown in listed {
            if let group = shown.annotation.dictionary["OC"]?.referenceValue, let name = groups[group] { layers[shown.annotation.id] = name }
        }
        return layers
    }
}
