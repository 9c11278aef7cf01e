import FolioPDF

/// A piece inside a score: a named range of pages, as forScore's bookmarks are.
///
/// ```swift
/// let piece = PageRangeBookmark(title: "Sonata No. 2", start: 5, end: 9)
/// ```
public struct PageRangeBookmark: Sendable, Equatable {
    public var title: String
    /// First page, 1-based.
    public var start: Int
    /// Last page, 1-based, ≥ start.
    public var end: Int

    public init(title: String, start: Int, end: Int) {
        self.title = title
        self.start = start
        self.end = end
    }
}

/// forScore's reading of a table of contents (`../shared/seeds/forscore-pdf-metadata.txt`).
public enum TableOfContents {
    /// The bookmarks forScore imports from an outline: every entry (at any level) with a
    /// page of this document, in page order (entries on the same page keep their outline
    /// order); each ends one page before the next one starts, but never before its own
    /// start, and the last ends at the last page. URL, GoToR and other entries are left out.
    ///
    /// ```swift
    /// TableOfContents.bookmarks(from: doc.outline(), pageCount: doc.pageCount)
    /// // [PageRangeBookmark(title: "Allemande", start: 1, end: 2), …]
    /// ```
    public static func bookmarks(from outline: [PDFOutlineItem], pageCount: Int) -> [PageRangeBookmark] {
        var starts: [(title: String, page: Int)] = []
        for (_, item) in PDFOutlineItem.flatten(outline) {
            if case .page(let index)? = item.target, index < max(pageCount, 1) {
                starts.append((item.title, index + 1))
            }
        }
        // Swift's sort is not stable: the outline position breaks ties.
        let ordered = starts.enumerated().sorted { ($0.element.page, $0.offset) < ($1.element.page, $1.offset) }
            .map(\.element)
        return ordered.enumerated().map { position, entry in
            let next = position + 1 < ordered.count ? ordered[position + 1].page - 1 : max(pageCount, entry.page)
            return PageRangeBookmark(title: entry.title, start: entry.page, end: max(entry.page, next))
        }
    }
}
