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
    /// The score's own row, kept for writing the file again.
    public private(set) var score: ScoreMetadata
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
            return
        }
        let contents = try CSVIndex.read(text, pageCount: pageCount)
        bookmarks = contents.bookmarks
        score = contents.score ?? ScoreMetadata()
        problems = contents.problems
    }

    /// The index file that belongs to `pdf`: the same name with `.csv`.
    public static func path(besidePDF pdf: String) -> String {
        URL(fileURLWithPath: pdf).deletingPathExtension().appendingPathExtension("csv").path
    }

    public mutating func add(_ bookmark: Bookmark) -> Bool {
        guard accepts(bookmark) else { return false }
        bookmarks.replaceOrAppend(bookmark)
        return true
    }

    public mutating func remove(id: String) -> Bool {
        bookmarks.remove(id: id)
    }

    /// The file's new contents.
    public func text(fileName: String) -> String {
        CSVIndex.export(fileName: fileName, score: score, bookmarks: bookmarks)
    }
}
