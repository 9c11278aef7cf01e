import Foundation

/// Bookmarks kept in a CSV index beside the PDF (`Book.pdf` → `Book.csv`), in forScore's
/// library layout: the second link of a provider chain, for bookmarks a user keeps out of
/// the PDF. Reading and writing the file is the caller's; this type holds the contents.
///
/// ```swift
/// let csv = try? String(contentsOfFile: CSVBookmarkProvider.path(besidePDF: "Book.pdf"), encoding: .utf8)
/// var provider = try CSVBookmarkProvider(text: csv, pageCount: doc.pageCount)
/// var manager = BookmarkManager(providers: [provider, XMPBookmarkProvider(document: doc)])
/// ```
public struct CSVBookmarkProvider: BookmarkProvider {
    public private(set) var bookmarks: [Bookmark]
    /// The score's own row, kept for writing the file again (for a new index, set it to
    /// the PDF's metadata).
    public var score: ScoreMetadata
    /// Whether there was no index yet.
    public let isNew: Bool
    /// Rows of the file that could not be read.
    public let problems: [CSVIndex.Problem]
    /// Which bookmarks this provider takes; by default page-range bookmarks only.
    public var accepts: @Sendable (Bookmark) -> Bool = { $0.pages != nil }

    /// `text` nil means there is no index yet.
    public init(text: String?, pageCount: Int) throws {
        guard let text else {
            bookmarks = []
            score = ScoreMetadata()
            problems = []
            isNew = true
            return
        }
        let contents = try CSVIndex.read(text, pageCount: pageCount)
        bookmarks = contents.bookmarks   // sort keys: the rows' order
        score = contents.score ?? ScoreMetadata()
        problems = contents.problems
        isNew = false
    }

    /// The index file that belongs to `pdf`: the same name with `.csv`.
    public static func path(besidePDF pdf: String) -> String {
        URL(fileURLWithPath: pdf).deletingPathExtension().appendingPathExtension("csv").path
    }

    /// Takes `bookmark` when ``accepts`` does. An index row has no identifier of its own,
    /// so the bookmark is stored under the one derived from its title and pages, as it
    /// will be read back (a new one replaces the bookmark with its old identifier).
    public mutating func add(_ bookmark: Bookmark) -> Bool {
        guard accepts(bookmark), let pages = bookmark.pages else { return false }
        _ = bookmarks.remove(id: bookmark.id)
        let name = bookmark.name ?? ""
        let occurrence = bookmarks.filter { ($0.name ?? "") == name && $0.pages == pages }.count
        let id = BookmarkIdentifier.derived(title: name, pages: pages, occurrence: occurrence)
        bookmarks.replaceOrAppend(Bookmark(id: id, name: bookmark.name, action: bookmark.action, sortKey: bookmark.sortKey,
                                           pages: pages, metadata: bookmark.metadata))
        return true
    }

    public mutating func remove(id: String) -> Bool {
        bookmarks.remove(id: id)
    }

    /// The file's new contents, comma- or (`tabs`) tab-separated, rows in the custom order.
    public func text(fileName: String, tabs: Bool = false) -> String {
        CSVIndex.export(fileName: fileName, score: score, bookmarks: bookmarks, tabs: tabs, order: .custom)
    }
}
