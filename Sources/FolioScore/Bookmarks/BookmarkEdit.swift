import FolioPDF
import Foundation

/// A musician's bookmark edits by hand — add one for a page or a page range, rename, remove,
/// move in the custom order (Nutrient's sort keys) — each checked here with the valid values
/// named, through the ``BookmarkManager``'s providers, so Preview, Nutrient and forScore's
/// index read the result. The one place `folio bookmarks` and the server edit bookmarks.
///
/// ```swift
/// try BookmarkChain.update(ScoreFile("Dvořák.pdf"), index: nil) { manager, document in
///     let id = try BookmarkEdit.add(name: "Largo — Goin' Home", pages: 12...14, to: &manager, pageCount: document.pageCount)
///     try BookmarkEdit.move(id: id, before: manager.bookmarks(in: .custom).first?.id, in: &manager)
/// }
/// ```
public enum BookmarkEdit {
    /// The longest name taken.
    public static let maxName = 1000

    /// Adds a bookmark named `name` for `pages` (1-based, within `pageCount`) with the piece's
    /// `metadata`, last in the custom order; returns its id as stored (a CSV index derives its
    /// own from the name and pages).
    @discardableResult
    public static func add(name: String, pages: ClosedRange<Int>, metadata: ScoreMetadata = ScoreMetadata(),
                           to manager: inout BookmarkManager, pageCount: Int) throws -> String {
        let name = try checkedName(name)
        _ = try self.pages(first: pages.lowerBound, last: pages.upperBound, pageCount: pageCount)
        let keys = manager.bookmarks.compactMap(\.sortKey)
        let bookmark = Bookmark(name: name, action: .page(index: pages.lowerBound - 1), sortKey: keys.max().map { $0 + 1 },
                                pages: pages, metadata: metadata)
        let before = Set(manager.bookmarks.map(\.id))
        guard manager.add(bookmark) else { throw ScoreError(.invalidValue, "no store takes this bookmark") }
        return manager.bookmarks.first { !before.contains($0.id) }?.id ?? bookmark.id
    }

    /// The same for the pages `first` to `last` (nil: `first`) of the score open as `document`,
    /// checked against its page count.
    ///
    /// ```swift
    /// try BookmarkChain.update(ScoreFile("Альбом.pdf"), index: nil) { manager, document in
    ///     try BookmarkEdit.add(name: "Ёлочка", first: 3, last: 4, to: &manager, in: document)
    /// }
    /// ```
    @discardableResult
    public static func add(name: String, first: Int, last: Int?, metadata: ScoreMetadata = ScoreMetadata(),
                           to manager: inout BookmarkManager, in document: PDFDocument) throws -> String {
        let pages = try self.pages(first: first, last: last, pageCount: document.pageCount)
        return try add(name: name, pages: pages, metadata: metadata, to: &manager, pageCount: document.pageCount)
    }

    /// `first` and `last` (nil: the first) as a page range, or the error naming the valid ones.
    public static func pages(first: Int, last: Int?, pageCount: Int) throws -> ClosedRange<Int> {
        let last = last ?? first
        guard first >= 1, last >= first, last <= pageCount else {
            throw ScoreError(.outOfRange, "pages \(first)–\(last) are out of range (valid: 1 to \(pageCount), end not before start)")
        }
        return first...last
    }

    /// Renames the bookmark `id`.
    public static func rename(id: String, to name: String, in manager: inout BookmarkManager) throws {
        var bookmark = try find(id, in: manager)
        bookmark.name = try checkedName(name)
        manager.add(bookmark)
    }

    /// Removes the bookmark `id`.
    public static func remove(id: String, from manager: inout BookmarkManager) throws {
        guard manager.remove(id: id) else { throw missing(id) }
    }

    /// Moves the bookmark `id` in the custom order to just before `before` (nil: to the end);
    /// every bookmark then gets its place as its sort key, as Nutrient keeps them.
    public static func move(id: String, before: String?, in manager: inout BookmarkManager) throws {
        let moving = try find(id, in: manager)
        var order = manager.bookmarks(in: .custom).filter { $0.id != id }
        if let before {
            guard before != id else { throw ScoreError(.invalidValue, "a bookmark cannot move before itself") }
            guard let index = order.firstIndex(where: { $0.id == before }) else { throw missing(before) }
            order.insert(moving, at: index)
        } else {
            order.append(moving)
        }
        for (position, var bookmark) in order.enumerated() where bookmark.sortKey != position {
            bookmark.sortKey = position
            manager.add(bookmark)
        }
    }

    /// Adds forScore's page-range bookmarks from `document`'s table of contents that
    /// `manager` does not hold yet (same name and pages), and returns them: "bookmarks from
    /// TOC", for `folio bookmarks from-toc --save` and the server's button alike; the
    /// manager's chain decides where they are kept (XMP, or a CSV index).
    ///
    /// ```swift
    /// let added = BookmarkEdit.addFromContents(of: document, to: &manager)
    /// ```
    @discardableResult
    public static func addFromContents(of document: PDFDocument, to manager: inout BookmarkManager) -> [PageRangeBookmark] {
        let missing = TableOfContents.missingBookmarks(of: document, existing: manager.bookmarks)
        for piece in missing { manager.add(piece.bookmark) }
        return missing
    }

    static func find(_ id: String, in manager: BookmarkManager) throws -> Bookmark {
        guard let bookmark = manager.bookmarks.first(where: { $0.id == id }) else { throw missing(id) }
        return bookmark
    }

    static func missing(_ id: String) -> ScoreError {
        ScoreError(.notFound, "no bookmark has the id \(id) (`folio bookmarks list` shows them)")
    }

    static func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ScoreError(.invalidValue, "a bookmark needs a name") }
        guard trimmed.count <= maxName else {
            throw ScoreError(.outOfRange, "the name has \(trimmed.count) characters (valid: 1 to \(maxName))")
        }
        return trimmed
    }
}
