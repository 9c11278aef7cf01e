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
        public internal(set) var annotation: PDFAnnotation
        /// x, y, width, height on the displayed page.
        public let display: [Double]
    }

    /// The annotations of page `page` (1-based), or of every page, in page order; popups
    /// (the windows of notes) only when asked for. A page past the end is
    /// `PDFError` `pageOutOfRange`.
    public static func list(_ document: PDFDocument, page: Int? = nil, popups: Bool = true) throws -> [Shown] {
        var result: [Shown] = []
        try forEachPage(document, page: page, popups: popups) { _, shown in result += shown }
        return result
    }

    /// Each annotation of `document` by its id, told as a person would recognise it: its page
    /// (1-based), its kind and the first line of its text ("page 2, FreeText: dolce") — what
    /// a dry run of a removal names.
    ///
    /// ```swift
    /// let told = try AnnotationListing.described(document)
    /// print(told["obj-12"] ?? "")   // "page 1, Square"
    /// ```
    public static func described(_ document: PDFDocument) throws -> [String: String] {
        var told: [String: String] = [:]
        for shown in try list(document, popups: false) {
            let mark = shown.annotation
            let words = (mark.contents ?? "").split(whereSeparator: \.isNewline).first.map { String($0.prefix(60)) } ?? ""
            told[mark.id] = "page \(mark.pageIndex + 1), \(mark.subtype)" + (words.isEmpty ? "" : ": \(words)")
        }
        return told
    }

    /// The same listing handed over page by page (0-based index, that page's annotations,
    /// pages without any included): each page's objects are read when its turn comes and
    /// forgotten after `body` has seen them, so a file of thousands of links is listed in
    /// the memory of one page.
    ///
    /// ```swift
    /// try AnnotationListing.forEachPage(document) { index, shown in print(index + 1, shown.count) }
    /// ```
    public static func forEachPage(_ document: PDFDocument, page: Int? = nil, popups: Bool = true,
                                   _ body: (Int, [Shown]) throws -> Void) throws {
        let pages = document.pages()
        if let page, page < 1 || page > pages.count { throw PDFError.pageOutOfRange(page, count: pages.count) }
        for (index, item) in pages.enumerated() where page == nil || page == index + 1 {
            try body(index, listing(item, index, of: document, popups: popups))
        }
    }

    /// One page's annotations where they show, read once (see `PDFDocument.readingOnce`).
    static func listing(_ page: PDFPage, _ index: Int, of document: PDFDocument, popups: Bool) -> [Shown] {
        var shown = listing(page, index, of: document, popups: popups, positions: nil)
        identifyByName(&shown)
        return shown
    }

    /// The annotations at `positions` of a page's `/Annots` (all when nil) where they show,
    /// read once, before ``identifyByName(_:)`` has seen the whole page.
    static func listing(_ page: PDFPage, _ index: Int, of document: PDFDocument, popups: Bool, positions: Range<Int>?) -> [Shown] {
        let geometry = PDFPageGeometry(page: page)
        // A part of a large page: the page's /Annots is loaded outside the reading once, so
        // it stays for the page's other parts (an array of tens of thousands of references).
        if positions != nil { _ = document.annotationEntryCount(of: page) }
        return document.readingOnce {
            document.annotations(of: page, pageIndex: index, positions: positions).compactMap { annotation -> Shown? in
                guard popups || annotation.subtype != "Popup" else { return nil }
                let box = geometry.toDisplay(annotation.rect, noRotate: annotation.staysUpright)
                return Shown(annotation: annotation, display: [box.x, box.y, box.width, box.height])
            }
        }
    }

    /// `PDFDocument.identifyByName` over one whole page's listing.
    static func identifyByName(_ shown: inout [Shown]) {
        var parts = [shown]
        shown = []
        identifyByName(parts: &parts)
        shown = parts[0]
    }

    /// `PDFDocument.identifyByName` over one whole page's listing read in parts, each part
    /// changed in place: only the annotations a name identifies are touched, so a page of
    /// tens of thousands is named without a copy of it.
    static func identifyByName(parts: inout [[Shown]]) {
        var names: [String] = []
        for part in parts.indices {
            for position in parts[part].indices {
                if let name = parts[part][position].annotation.name { names.append(name) }
            }
        }
        let usable = PDFDocument.identifyingNames(names)
        guard !usable.isEmpty else { return }
        for part in parts.indices {
            for position in parts[part].indices {
                if let name = parts[part][position].annotation.name, usable.contains(name) {
                    parts[part][position].annotation.id = name
                }
            }
        }
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
