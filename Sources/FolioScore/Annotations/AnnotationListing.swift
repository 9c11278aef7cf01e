import FolioPDF

/// A score's annotations where a musician sees them: each with its rectangle on the page as
/// displayed (points from the top-left corner, y down; turned pages and upright notes taken
/// into account). The one listing `folio annot list` and the server's annotation API share.
///
/// ```swift
/// for shown in try AnnotationListing.list(document, page: 2) {
///     print(shown.annotation.subtype, shown.display)   // "Square" [40.0, 60.0, 160.0, 30.0]
/// }
/// ```
public enum AnnotationListing {
    /// One annotation and where it shows.
    ///
    /// ```swift
    /// for shown in try AnnotationListing.list(document, page: 1) { print(shown.annotation.subtype, shown.display) }
    /// ```
    public struct Shown: Sendable {
        public let annotation: PDFAnnotation
        /// x, y, width, height on the displayed page.
        public let display: [Double]
    }

    /// The annotations of page `page` (1-based), or of every page, in page order; popups
    /// (the windows of notes) only when asked for. A page past the end is
    /// `PDFError` `pageOutOfRange`.
    public static func list(_ document: PDFDocument, page: Int? = nil, popups: Bool = true) throws -> [Shown] {
        let pages = document.pages()
        if let page, !pages.indices.contains(page - 1) { throw PDFError.pageOutOfRange(page, count: pages.count) }
        var result: [Shown] = []
        for (index, item) in pages.enumerated() where page == nil || page == index + 1 {
            let geometry = PDFPageGeometry(page: item)
            for annotation in document.annotations(of: item, pageIndex: index) where popups || annotation.subtype != "Popup" {
                let shown = geometry.toDisplay(annotation.rect, noRotate: annotation.staysUpright)
                result.append(Shown(annotation: annotation, display: [shown.x, shown.y, shown.width, shown.height]))
            }
        }
        return result
    }

    /// A subtype from a name as `folio annot add` and the API take it ("ink", "strikeout")
    /// or as PDF writes it ("Ink"): what removing marks by type matches.
    ///
    /// ```swift
    /// AnnotationListing.subtype(named: "freetext")   // "FreeText"
    /// ```
    public static func subtype(named name: String) -> String {
        if let kind = PDFAnnotationKind(rawValue: name.lowercased()) { return kind.subtype }
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
