import FolioScore
import Foundation
import GRDB

/// One search result: a score, or a bookmark inside one (with its pages).
///
/// ```swift
/// for entry in try catalog.search(query) {
///     print(entry.path, entry.title, entry.bookmark?.start ?? 1)
/// }
/// ```
public struct LibraryEntry: Sendable, Equatable {
    /// A bookmark's title and 1-based pages.
    ///
    /// ```swift
    /// for entry in try catalog.search(LibraryQuery(text: "Vltava", includeBookmarks: true)) {
    ///     if let piece = entry.bookmark { print(piece.title, piece.start ?? 0, piece.end ?? 0) }
    /// }
    /// ```
    public struct BookmarkPages: Sendable, Equatable {
        public let title: String
        public let start: Int?
        public let end: Int?
    }

    /// The score's id (stable across renames).
    public let id: Int64
    /// Relative to the library folder.
    public let path: String
    /// The score's title (its file name when it has none) or the bookmark's.
    public let title: String
    /// The fields in effect: a bookmark's own, else its score's; the title is the file's
    /// name when the score has none.
    public let metadata: ScoreMetadata
    /// The score's page count.
    public let pages: Int?
    /// Nil for a whole score.
    public let bookmark: BookmarkPages?
}

/// How many scores carry each value of a field (a filter sidebar).
///
/// ```swift
/// for facet in try catalog.facets() where facet.field == "composer" {
///     print("\(facet.value) (\(facet.count))")   // "Antonín Dvořák (12)"
/// }
/// ```
public struct LibraryFacet: Sendable, Equatable {
    public let field: String
    public let value: String
    public let count: Int
}

extension LibraryCatalog {
    /// The scores (and, when asked, bookmarks) that match `query`, best first.
    public func search(_ query: LibraryQuery) throws -> [LibraryEntry] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        let match = query.matchExpression
        let offset = Self.scoreTextOffset
        // With text, the text index leads; scores alone are its upper rowid range.
        let rows = match == nil ? "entry e" : "entry_text JOIN entry e ON e.id = entry_text.rowid % \(offset)"
        var sql = "SELECT e.*, s.path, s.pages, s.added FROM \(rows) JOIN score s ON s.id = e.scoreId"
        if let match {
            conditions.append("entry_text MATCH ?")
            arguments += [match]
            if !query.includeBookmarks { conditions.append("entry_text.rowid >= \(offset)") }
        }
        if !query.includeBookmarks { conditions.append("e.bookmark IS NULL") }
        for (field, values) in [("composer", query.composers), ("genre", query.genres), ("tag", query.tags),
                                ("label", query.labels)] {
            for value in values {
                conditions.append("e.id IN (SELECT entryId FROM facet WHERE field = ? AND folded = ?)")
                arguments += [field, LibraryQuery.fold(value)]
            }
        }
        if let key = query.key {
            conditions.append("e.keysf = ? AND e.keymi = ?")
            arguments += [key.keysf, key.keymi]
        }
        for (column, comparison) in [("e.rating", query.rating), ("e.difficulty", query.difficulty),
                                     ("e.duration", query.duration), ("s.pages", query.pages)] {
            guard let comparison else { continue }
            // The operation is one of five fixed strings (see Comparison), never user text.
            conditions.append("\(column) \(comparison.operation) ?")
            arguments += [comparison.value]
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let order: String
        switch query.sort {
        case .title: order = "e.title COLLATE NOCASE"
        case .composer: order = "e.composers = '[]', e.composers COLLATE NOCASE, e.title COLLATE NOCASE"
        case .added: order = "s.added DESC"
        case .rating: order = "e.rating IS NULL, e.rating DESC"
        case .duration: order = "e.duration IS NULL, e.duration"
        case nil: order = match != nil ? "bm25(entry_text)" : "e.title COLLATE NOCASE"
        }
        sql += " ORDER BY \(order), s.path, e.bookmark IS NOT NULL, e.bookmark"
        if let limit = query.limit {
            sql += " LIMIT ?"
            arguments += [max(0, limit)]
        }
        let key = String(reflecting: query)  // every field, strings quoted and escaped
        if let kept = searches.entries(for: key) { return kept }
        let generation = searches.generation, started = ContinuousClock.now
        let entries = try read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.entry)
        }
        if searches.worthKeeping(started.duration(to: .now)) {
            searches.store(entries, for: key, generation: generation)
        }
        return entries
    }

    /// One score by id or relative path, with its bookmarks after it.
    public func show(_ identifier: String) throws -> [LibraryEntry] {
        let relative = identifier.hasPrefix(folder + "/") ? String(identifier.dropFirst(folder.count + 1)) : identifier
        return try read { db in
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM score WHERE pathKey = ?", arguments: [CatalogPath.key(relative)])
                ?? Int64(identifier).flatMap { try? Int64.fetchOne(db, sql: "SELECT id FROM score WHERE id = ?", arguments: [$0]) }
            guard let id else { throw LibraryError(.notFound, "no score \(identifier) in the catalog") }
            return try Row.fetchAll(db, sql: """
                SELECT e.*, s.path, s.pages, s.added FROM entry e JOIN score s ON s.id = e.scoreId
                WHERE e.scoreId = ? ORDER BY e.bookmark IS NOT NULL, e.bookmark
                """, arguments: [id]).map(Self.entry)
        }
    }

    /// Composers, genres, tags, labels and keys with the number of scores carrying each.
    public func facets() throws -> [LibraryFacet] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT f.field, MIN(f.value) AS value, COUNT(DISTINCT e.scoreId) AS count
                FROM facet f JOIN entry e ON e.id = f.entryId WHERE e.bookmark IS NULL
                GROUP BY f.field, f.folded ORDER BY f.field, count DESC, value COLLATE NOCASE
                """).map { LibraryFacet(field: $0["field"], value: $0["value"], count: $0["count"]) }
        }
    }

    /// The files the catalog could not read, with why.
    public func unreadable() throws -> [(path: String, error: String)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT path, error FROM score WHERE error IS NOT NULL ORDER BY path")
                .map { (path: $0["path"], error: $0["error"]) }
        }
    }

    /// How many scores and bookmarks the catalog holds.
    public func counts() throws -> (scores: Int, bookmarks: Int) {
        try read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM score") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE bookmark IS NOT NULL") ?? 0)
        }
    }

    private static func entry(_ row: Row) -> LibraryEntry {
        func list(_ column: String) -> [String] {
            let text: String = row[column] ?? "[]"
            guard text != "[]" else { return [] }  // most lists are empty; JSONDecoder costs microseconds each
            return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
        }
        let keysf: Int? = row["keysf"]
        let keymi: Int? = row["keymi"]
        let key = keysf.flatMap { sf in keymi.flatMap { try? MusicalKey(keysf: sf, keymi: $0) } }
        let isBookmark = (row["bookmark"] as Int?) != nil
        let title: String = row["title"]
        let path: String = row["path"]
        let metadata = ScoreMetadata(
            title: title.isEmpty ? ScoreMetadata.title(forFile: path) : title, composers: list("composers"),
            genres: list("genres"), tags: list("tags"), labels: list("labels"), rating: row["rating"],
            difficulty: row["difficulty"], duration: row["duration"], key: key, reference: row["reference"],
            tempo: row["tempo"], timeSignature: row["timeSignature"])
        return LibraryEntry(
            id: row["scoreId"], path: path, title: title, metadata: metadata, pages: row["pages"],
            bookmark: isBookmark ? LibraryEntry.BookmarkPages(title: title, start: row["startPage"],
                                                              end: row["endPage"]) : nil)
    }
}
