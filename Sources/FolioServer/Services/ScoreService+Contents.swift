import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

extension ScoreService {
    /// A score's table of contents and bookmarks, for the contents panel.
    ///
    /// ```swift
    /// let (tag, contents) = try service.contents(score: 7)
    /// contents.toc.map(\.title)   // ["Vyšehrad", "Vltava", …]
    /// ```
    public struct Contents: Codable, Sendable, Equatable {
        /// An outline entry: `level` 0 at the top; `page` 1-based, nil for entries that
        /// lead elsewhere (a URL, another file).
        ///
        /// ```swift
        /// contents.toc.first?.page   // 1
        /// ```
        public struct Entry: Codable, Sendable, Equatable {
            public var title: String
            public var level: Int
            public var page: Int?
        }

        /// A bookmark: a name and the pages of the piece it marks (1-based).
        ///
        /// ```swift
        /// contents.bookmarks.map { "\($0.name) \($0.start ?? 0)–\($0.end ?? 0)" }
        /// ```
        public struct Bookmark: Codable, Sendable, Equatable {
            public var id: String
            public var name: String
            public var start: Int?
            public var end: Int?
        }

        public var toc: [Entry]
        public var bookmarks: [Bookmark]
        /// The bookmarks "bookmarks from TOC" would add (forScore's reading of the TOC).
        public var fromTOC: Int
        /// Where half-page turns split pages other than in the middle: page (1-based, as
        /// text) → fraction of its height from the top (`HalfTurns` in FolioScore).
        public var halfTurns: [String: Double] = [:]
    }

    /// The table of contents and the bookmarks where they are kept (`BookmarkChain`: a
    /// CSV index beside the PDF, then the PDF's XMP — Preview's, Nutrient's and Folio's),
    /// bookmarks in page order, with the file's version.
    public func contents(score id: Int64) throws -> (tag: String, contents: Contents) {
        let read = try read(score: id) { document, path in try Self.contents(of: document, pdf: path) }
        return (read.tag, read.value)
    }

    static func contents(of document: PDFDocument, pdf: String) throws -> Contents {
        let toc = TableOfContents.entries(of: document).map { entry in
            Contents.Entry(title: entry.title, level: entry.level, page: entry.page.flatMap { $0 <= document.pageCount ? $0 : nil })
        }
        let stored = try Self.mapped { try BookmarkChain.discovered(document: document, pdf: pdf) }.manager.bookmarks(in: .pageBased)
        let bookmarks = stored.map { bookmark in
            Contents.Bookmark(id: bookmark.id, name: bookmark.name ?? "",
                              start: bookmark.pages?.lowerBound ?? bookmark.pageIndex.map { $0 + 1 },
                              end: bookmark.pages?.upperBound ?? bookmark.pageIndex.map { $0 + 1 })
        }
        let halves = Dictionary(uniqueKeysWithValues: HalfTurns.splits(of: document).map { (String($0.key), $0.value) })
        return Contents(toc: toc, bookmarks: bookmarks, fromTOC: TableOfContents.missingBookmarks(of: document, existing: stored).count,
                        halfTurns: halves)
    }

    /// Stores forScore's page-range bookmarks from the TOC in the PDF's XMP (those not
    /// there yet), when the file is still at `expected`. Returns the contents after.
    public func bookmarksFromTOC(score id: Int64, expected: String?) throws -> (tag: String, contents: Contents) {
        let found = try score(id), path = found.1
        let saved = try edit(found, expected: expected, change: "Made bookmarks from the TOC") { document in
            let existing = try BookmarkChain.discovered(document: document, pdf: path).manager.bookmarks
            var xmp = XMPBookmarkProvider(document: document)
            let missing = TableOfContents.missingBookmarks(of: document, existing: existing)
            guard !missing.isEmpty else { throw ServiceError(.unreadable, "every TOC entry with a page is a bookmark already") }
            for piece in missing { _ = xmp.add(piece.bookmark) }
            try xmp.write(to: document)
            return try Self.contents(of: document, pdf: path)
        }
        return (saved.tag, saved.value)
    }

    /// Removes one bookmark where it is kept (the PDF's XMP, or the CSV index beside it) when
    /// the file is still at `expected`. Only a removal from the PDF can be undone.
    public func removeBookmark(score id: Int64, bookmark: String, expected: String?) throws -> (tag: String, contents: Contents) {
        let found = try score(id), path = found.1
        let saved = try edit(found, expected: expected, change: "Deleted a bookmark") { document in
            let chain = try BookmarkChain.discovered(document: document, pdf: path)
            var manager = chain.manager
            guard manager.remove(id: bookmark) else { throw ServiceError(.notFound, "no bookmark \(bookmark) in this score") }
            try chain.save(manager, into: document)
            return try Self.contents(of: document, pdf: path)
        }
        return (saved.tag, saved.value)
    }

    /// Brings the catalog's entry of one file (`relative` to the library) up to date after a
    /// save, so the library shows the change at once, without listing the folder; when that
    /// fails the watcher catches up on its next look.
    func refreshCatalog(_ relative: String) {
        _ = try? LibraryScanner(catalog: catalog).update(path: relative)
    }
}
