import FolioLibrary
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
    public func contents(score id: Int64, order: BookmarkOrder = .pageBased) throws -> (tag: String, contents: Contents) {
        let read = try read(score: id) { document, path in try Self.contents(of: document, pdf: path, order: order) }
        return (read.tag, read.value)
    }

    static func contents(of document: ScoreFile.Document, pdf: String, order: BookmarkOrder = .pageBased) throws -> Contents {
        let pageCount = ScorePages.count(of: document)
        let toc = TableOfContents.entries(of: document).map { entry in
            Contents.Entry(title: entry.title, level: entry.level, page: entry.page.flatMap { $0 <= pageCount ? $0 : nil })
        }
        let stored = try BookmarkChain.discovered(document: document, pdf: pdf).manager.bookmarks(in: order)
        let bookmarks = stored.map { bookmark in
            Contents.Bookmark(id: bookmark.id, name: bookmark.name ?? "",
                              start: bookmark.pages?.lowerBound ?? bookmark.pageIndex.map { $0 + 1 },
                              end: bookmark.pages?.upperBound ?? bookmark.pageIndex.map { $0 + 1 })
        }
        let halves = Dictionary(uniqueKeysWithValues: HalfTurns.splits(of: document).map { (String($0.key), $0.value) })
        return Contents(toc: toc, bookmarks: bookmarks, fromTOC: TableOfContents.missingBookmarks(of: document, existing: stored).count,
                        halfTurns: halves)
    }

    /// Stores forScore's page-range bookmarks from the TOC (those not there yet) where the
    /// score's bookmarks are kept (`BookmarkEdit.addFromContents`, as `folio bookmarks
    /// from-toc --save`), when the file is still at `expected`. Returns the contents after;
    /// 422 when every entry is a bookmark already (nothing to save).
    public func bookmarksFromTOC(score id: Int64, expected: String?) throws -> (tag: String, contents: Contents) {
        try editBookmarks(score: id, expected: expected, change: "Made bookmarks from the TOC", order: .pageBased) { manager, document in
            guard !BookmarkEdit.addFromContents(of: document, to: &manager).isEmpty else {
                throw LibraryError(.unreadable, "every TOC entry with a page is a bookmark already")
            }
        }
    }

    /// Removes one bookmark where it is kept (the PDF's XMP, or the CSV index beside it) when
    /// the file is still at `expected`. Only a removal from the PDF can be undone.
    public func removeBookmark(score id: Int64, bookmark: String, expected: String?,
                               order: BookmarkOrder = .pageBased) throws -> (tag: String, contents: Contents) {
        try editBookmarks(score: id, expected: expected, change: "Deleted a bookmark", order: order) { manager, _ in
            try BookmarkEdit.remove(id: bookmark, from: &manager)
        }
    }

    /// A bookmark made by hand: a name and its pages (1-based; `end` nil: one page).
    ///
    /// ```swift
    /// let new = try JSONDecoder().decode(ScoreService.NewBookmark.self, from: Data(#"{"name":"Vltava","start":5,"end":9}"#.utf8))
    /// ```
    public struct NewBookmark: Codable, Sendable {
        public var name: String
        public var start: Int
        public var end: Int?
    }

    /// Adds a bookmark (`BookmarkEdit` in FolioScore) where the chain keeps it, last in the
    /// custom order, when the file is still at `expected`.
    public func addBookmark(score id: Int64, expected: String?, _ input: NewBookmark,
                            order: BookmarkOrder = .pageBased) throws -> (tag: String, contents: Contents) {
        try editBookmarks(score: id, expected: expected, change: "Added a bookmark", order: order) { manager, document in
            try BookmarkEdit.add(name: input.name, first: input.start, last: input.end, to: &manager, in: document)
        }
    }

    /// A change to a bookmark: a new `name`, and/or a new place in the custom order —
    /// just before the bookmark `before`, or `last`.
    ///
    /// ```swift
    /// let change = try JSONDecoder().decode(ScoreService.BookmarkChange.self, from: Data(#"{"before":"5E0C…"}"#.utf8))
    /// ```
    public struct BookmarkChange: Codable, Sendable {
        public var name: String?
        public var before: String?
        public var last: Bool?
    }

    /// Renames and/or moves a bookmark when the file is still at `expected`.
    public func changeBookmark(score id: Int64, bookmark: String, expected: String?, _ input: BookmarkChange,
                               order: BookmarkOrder = .pageBased) throws -> (tag: String, contents: Contents) {
        guard input.name != nil || input.before != nil || input.last == true else {
            throw LibraryError(.invalidArgument, "send a name, a bookmark to go before, or last: true")
        }
        guard input.before == nil || input.last != true else { throw LibraryError(.invalidArgument, "send before or last, not both") }
        let change = input.name == nil ? "Moved a bookmark" : "Renamed a bookmark"
        return try editBookmarks(score: id, expected: expected, change: change, order: order) { manager, _ in
            if input.before != nil || input.last == true {
                try BookmarkEdit.move(id: bookmark, before: input.before, in: &manager)
            }
            // Renamed last: a CSV index derives the id from the name.
            if let name = input.name { try BookmarkEdit.rename(id: bookmark, to: name, in: &manager) }
        }
    }

    /// One edit of a score's bookmarks through its chain, saved when the file is still at
    /// `expected`; returns the contents after, bookmarks in `order`.
    func editBookmarks(score id: Int64, expected: String?, change: String, order: BookmarkOrder,
                       _ body: (inout BookmarkManager, ScoreFile.Document) throws -> Void) throws -> (tag: String, contents: Contents) {
        let found = try score(id), path = found.1
        let saved = try edit(found, expected: expected, change: change) { document in
            let chain = try BookmarkChain.discovered(document: document, pdf: path)
            var manager = chain.manager
            try body(&manager, document)
            try chain.save(manager, into: document)
            return try Self.contents(of: document, pdf: path, order: order)
        }
        return (saved.tag, saved.value)
    }
}
