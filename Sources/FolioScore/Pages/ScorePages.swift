import FolioPDF
import Foundation

/// Page tools as a musician uses them — rotate a sideways scan, delete a blank page,
/// reorder, insert a blank page for notes, extract pages — with the score's bookmarks
/// (XMP, page numbers) following their pages. Pages are 1-based here.
///
/// ```swift
/// let warnings = try ScoreFile("Janáček – Scan.pdf").update { document in
///     try ScorePages.rotate(document, pages: [3], by: 90)
///     return try ScorePages.delete(document, pages: [7])
/// }
/// ```
public enum ScorePages {
    /// How many pages the score has.
    ///
    /// ```swift
    /// let pages = ScorePages.count(of: try ScoreFile("Ηχοι.pdf").open())
    /// ```
    public static func count(of document: PDFDocument) -> Int {
        document.pageCount
    }

    public static func rotate(_ document: PDFDocument, pages: [Int], by degrees: Int) throws {
        try check(pages, in: document)
        try document.rotatePages(pages.map { $0 - 1 }, by: degrees)
    }

    /// Deletes `pages`; returns what it had to change beyond them.
    public static func delete(_ document: PDFDocument, pages: [Int], date: Date = Date()) throws -> [String] {
        try check(pages, in: document)
        let gone = Set(pages)
        guard gone.count < document.pageCount else {
            throw ScoreError(.invalidValue, "deleting pages \(describe(pages)) would leave no page (the file has \(document.pageCount))")
        }
        return try arrange(document, (1...document.pageCount).filter { !gone.contains($0) }.map { .page($0 - 1) }, date: date)
    }

    /// Moves `pages` (in the order given) so that the first of them becomes page `position`
    /// of the result (1…page count).
    public static func move(_ document: PDFDocument, pages: [Int], to position: Int, date: Date = Date()) throws -> [String] {
        try check(pages, in: document)
        let moving = Set(pages)
        guard moving.count == pages.count else { throw ScoreError(.invalidValue, "a page is named twice in \(describe(pages))") }
        let count = document.pageCount
        guard (1...count).contains(position) else {
            throw ScoreError(.outOfRange, "position \(position) is out of range (valid: 1 to \(count))")
        }
        var rest = (1...count).filter { !moving.contains($0) }
        rest.insert(contentsOf: pages, at: min(position - 1, rest.count))
        return try arrange(document, rest.map { .page($0 - 1) }, date: date)
    }

    /// Inserts `count` blank pages before page `position` (page count + 1 appends), sized
    /// like the page before them (or after, at the start) unless `size` is given.
    public static func insertBlank(_ document: PDFDocument, at position: Int, count: Int = 1,
                                   size: (width: Double, height: Double)? = nil, date: Date = Date()) throws -> [String] {
        let pageCount = document.pageCount
        guard (1...(pageCount + 1)).contains(position) else {
            throw ScoreError(.outOfRange, "position \(position) is out of range (valid: 1 to \(pageCount + 1))")
        }
        guard (1...1000).contains(count) else { throw ScoreError(.outOfRange, "count \(count) is out of range (valid: 1 to 1000)") }
        var width = 595.0, height = 842.0
        if let size {
            (width, height) = size
        } else if pageCount > 0 {
            let neighbour = PDFPageGeometry(page: try document.page(at: max(position - 2, 0))).displaySize
            (width, height) = (neighbour.width, neighbour.height)
        }
        var slots = (0..<pageCount).map { PDFDocument.PageSlot.page($0) }
        slots.insert(contentsOf: Array(repeating: .blank(width: width, height: height), count: count), at: position - 1)
        return try arrange(document, slots, date: date)
    }

    /// How `crop` finds the box.
    ///
    /// ```swift
    /// try ScorePages.crop(document, pages: [1, 2], .auto(margin: 12))
    /// ```
    public enum Crop: Sendable, Equatable {
        /// x, y, width, height in points from the lower left corner of the page's media box.
        case box(x: Double, y: Double, width: Double, height: Double)
        /// What the page draws, grown by `margin` points on every side, as forScore's crop.
        case auto(margin: Double)
        /// Shows the whole page again.
        case reset
    }

    /// Crops `pages` (sets their crop box, which viewers and printers show). An auto crop of a
    /// page that draws nothing leaves it as it is, with a warning. Returns the warnings.
    public static func crop(_ document: PDFDocument, pages: [Int], _ crop: Crop) throws -> [String] {
        try check(pages, in: document)
        if case .auto(let margin) = crop, !(0...200).contains(margin) {
            throw ScoreError(.outOfRange, "margin \(margin) is out of range (valid: 0 to 200 pt)")
        }
        // One walk of the page tree for the whole crop; every box is worked out before any is set.
        let all = document.pages()
        var boxes: [(page: Int, box: PDFRect?)] = []
        var warnings: [String] = []
        for page in pages {
            let values = all[page - 1].mediaBox ?? [0, 0, 612, 792]
            let media = PDFRect(x1: values[0], y1: values[1], x2: values[2], y2: values[3])
            switch crop {
            case .reset:
                boxes.append((page - 1, nil))
            case .box(let x, let y, let width, let height):
                let box = PDFRect(x1: media.x1 + x, y1: media.y1 + y, x2: media.x1 + x + width, y2: media.y1 + y + height)
                guard width >= 1, height >= 1, x >= 0, y >= 0, media.contains(box, tolerance: 0.01) else {
                    throw ScoreError(.outOfRange, "the box \(x),\(y),\(width),\(height) does not fit page \(page) "
                        + "(valid: x, y ≥ 0, width and height ≥ 1, inside its \(format(media.width)) × \(format(media.height)) pt)")
                }
                boxes.append((page - 1, box))
            case .auto(let margin):
                guard let drawn = try document.contentBounds(of: all[page - 1]) else {
                    warnings.append("page \(page) draws nothing; left uncropped")
                    continue
                }
                let grown = drawn.insetBy(-margin)
                let box = PDFRect(x1: max(grown.x1, media.x1), y1: max(grown.y1, media.y1),
                                  x2: min(grown.x2, media.x2), y2: min(grown.y2, media.y2))
                guard !box.isEmpty else {
                    warnings.append("page \(page) draws only outside its media box; left uncropped")
                    continue
                }
                boxes.append((page - 1, box))
            }
        }
        try document.setCropBoxes(boxes)
        return warnings
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// Each page's label as viewers show it ("i", "ii", "1", "A-1"), or its number when the
    /// score has no page labels.
    ///
    /// ```swift
    /// ScorePages.labels(of: try ScoreFile("Book.pdf").open())   // ["i", "ii", "1", "2", …]
    /// ```
    public static func labels(of document: PDFDocument) -> [String] {
        let labels = document.pageLabels()
        return (0..<document.pageCount).map { labels?.label(forPage: $0) ?? String($0 + 1) }
    }

    /// Sets the page labels from ranges in page order ("i-iv,1-": four pages i to iv, then
    /// the rest from 1; styles 1, i, I, a, A; a decimal label may have a prefix, "A-1-"), or
    /// removes them when `spec` is nil. A spec that does not parse is an invalid value.
    ///
    /// ```swift
    /// try ScorePages.setLabels("i-iv,1-", in: document)
    /// ```
    public static func setLabels(_ spec: String?, in document: PDFDocument) throws {
        try document.setPageLabels(try spec.map { try PDFPageLabels(parsing: $0, pageCount: document.pageCount) })
    }

    /// A new PDF of `pages` (in the order given, repeats allowed) with the score's metadata,
    /// the outline entries and bookmarks that lead into them, and their annotations.
    public static func extract(_ document: PDFDocument, pages: [Int], date: Date = Date()) throws -> [UInt8] {
        try check(pages, in: document)
        // Consecutive pages make one part, so what they share is copied once.
        var runs: [ClosedRange<Int>] = []
        for page in pages.map({ $0 - 1 }) {
            if let last = runs.last, last.upperBound + 1 == page {
                runs[runs.count - 1] = last.lowerBound...page
            } else {
                runs.append(page...page)
            }
        }
        var outline: [PDFOutlineItem] = []
        var offset = 0
        let full = document.outline()
        for run in runs {
            outline += PDFOutlineItem.slice(full, pages: run, shift: offset - run.lowerBound)
            offset += run.count
        }
        let bytes = try PDFMerger.merge(runs.map { PDFMergePart(document: document, pages: $0, title: nil) }, outline: outline)
        var mapping: [Int: Int] = [:]
        for (index, page) in pages.enumerated() where mapping[page] == nil { mapping[page] = index + 1 }
        let bookmarks = XMPBookmarkProvider(document: document).bookmarks.compactMap { remapped($0, mapping).0 }
        let (metadata, _) = ScoreMetadata.read(from: document)
        return try NewScoreFile.finish(bytes, edit: ScoreEdit(setting: metadata), bookmarks: bookmarks, date: date).bytes
    }

    // MARK: - Helpers

    private static func arrange(_ document: PDFDocument, _ slots: [PDFDocument.PageSlot], date: Date) throws -> [String] {
        // Where each old page (1-based) lands.
        var mapping: [Int: Int] = [:]
        for (index, slot) in slots.enumerated() {
            if case .page(let old) = slot { mapping[old + 1] = index + 1 }
        }
        let stored = XMPBookmarkProvider(document: document)
        var warnings = try document.arrangePages(slots)
        guard !stored.bookmarks.isEmpty else { return warnings }
        var provider = stored
        for bookmark in stored.bookmarks {
            let (moved, warning) = remapped(bookmark, mapping)
            if let warning { warnings.append(warning) }
            if let moved { _ = provider.add(moved) } else { _ = provider.remove(id: bookmark.id) }
        }
        warnings += try provider.write(to: document, date: date)
        return warnings
    }

    /// `bookmark` on the pages its pages moved to: nil when none is left; its range spans
    /// what is left when the pages no longer follow each other (with a warning).
    private static func remapped(_ bookmark: Bookmark, _ mapping: [Int: Int]) -> (Bookmark?, String?) {
        let name = bookmark.name ?? "untitled"
        guard let pages = bookmark.pages else {
            guard let index = bookmark.pageIndex, let page = mapping[index + 1] else {
                return (nil, "bookmark \"\(name)\" was on a deleted page; removed")
            }
            var moved = bookmark
            moved.action = .page(index: page - 1)
            return (moved, nil)
        }
        let landed = pages.compactMap { mapping[$0] }
        guard let first = landed.first, let low = landed.min(), let high = landed.max() else {
            return (nil, "bookmark \"\(name)\" (pages \(pages.lowerBound)–\(pages.upperBound)) had only deleted pages; removed")
        }
        var moved = bookmark
        moved.pages = low...high
        moved.action = .page(index: first - 1)
        let contiguous = landed == Array(low...high)
        return (moved, contiguous ? nil : "bookmark \"\(name)\" (pages \(pages.lowerBound)–\(pages.upperBound)) is no longer "
            + "in one piece; it now spans pages \(low)–\(high)")
    }

    private static func check(_ pages: [Int], in document: PDFDocument) throws {
        let count = document.pageCount
        guard !pages.isEmpty else { throw ScoreError(.invalidValue, "no pages given") }
        // Compared, not `(1...count).contains`: a range to 0 traps, and a damaged file may have no pages.
        if let bad = pages.first(where: { $0 < 1 || $0 > count }) {
            throw ScoreError(.outOfRange, "page \(bad) is out of range (valid: 1 to \(count))")
        }
    }

    static func describe(_ pages: [Int]) -> String {
        pages.map(String.init).joined(separator: ",")
    }
}
