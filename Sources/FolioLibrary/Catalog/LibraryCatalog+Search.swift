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
    /// Why the file could not be read when it was catalogued; nil for a readable file. A
    /// listing flags such an entry: it is a file of the library, not a score to play.
    public var unreadable: String? = nil
    /// Who the file names beyond forScore's fields (a score's own entry only): the composer
    /// shown in ``metadata`` because forScore's fields name none, the arranger, the lyricist.
    public var credits: [ScoreCredit] = []
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
    /// How many of a text query's matches are ranked for a page of results (a query with a
    /// limit, no filters, best first): the latest catalogued, scores before bookmarks.
    ///
    /// FTS5 ranks a match in a microsecond or two, so a prefix typed into a search field that
    /// matched 90,000 entries of a library of 100,000 scores took 100 ms; with 1,000 ranked the
    /// slowest took 9 ms. A query matching fewer is ranked whole.
    static let rankedCandidates = 1_000

    /// How many bookmarks (pieces) each of the scores `ids` has; a score without any is left out.
    ///
    /// ```swift
    /// let pieces = try catalog.bookmarkCounts(of: results.map(\.id))   // [7: 12]: score 7 holds 12 pieces
    /// ```
    public func bookmarkCounts(of ids: [Int64]) throws -> [Int64: Int] {
        guard !ids.isEmpty else { return [:] }
        var counts: [Int64: Int] = [:]
        // In batches, under SQLite's limit on a statement's variables.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let batch = Array(ids[start..<min(start + 500, ids.count)])
            let marks = Array(repeating: "?", count: batch.count).joined(separator: ",")
            try storeRead { statements in
                for row in try statements.rows("""
                    SELECT scoreId, COUNT(*) AS pieces FROM entry WHERE bookmark IS NOT NULL AND scoreId IN (\(marks)) GROUP BY scoreId
                    """, batch) {
                    counts[try row.value(at: 0)] = try row.value(at: 1)
                }
            }
        }
        return counts
    }

    /// The scores (and, when asked, bookmarks) that match `query`, best first.
    ///
    /// A page of results (`limit`) for text alone, in the default order, ranks at most
    /// 1,000 matches: when more match, the 1,000 catalogued last, whole scores before
    /// bookmarks (the next letter typed narrows them).
    public func search(_ query: LibraryQuery) throws -> [LibraryEntry] {
        try search(query, rankingAtMost: Self.rankedCandidates)
    }

    /// ``search(_:)`` ranking at most `candidates` matches of a page of text results.
    func search(_ query: LibraryQuery, rankingAtMost candidates: Int) throws -> [LibraryEntry] {
        let key = Self.searchKey(query, rankingAtMost: candidates)
        // The catalog's version and the answer from one snapshot: a write by any process
        // (a scan beside the server) makes the kept answers of older versions stale.
        return try storeRead { statements in
            let version = try Self.catalogVersion(in: statements)
            if let kept = searches.entries(for: key, version: version) { return kept }
            let started = ContinuousClock.now
            let entries = if let sqlite = statements as? SQLiteStatements {
                try Self.search(query, rankingAtMost: candidates, in: sqlite)
            } else {
                try Self.postgresSearch(query, rankingAtMost: candidates, version: version, in: statements)
            }
            if searches.worthKeeping(started.duration(to: .now)) {
                searches.store(entries, for: key, version: version)
            }
            return entries
        }
    }

    /// What every search asks of the entries beside its text (`e`, and their score `s`): its
    /// field values, key and ranges, as conditions with their arguments; `filtered` when there is any.
    static func conditions(of query: LibraryQuery, dialect: CatalogDialect) -> (conditions: [String], arguments: CatalogArguments, filtered: Bool) {
        var conditions: [String] = []
        var arguments: CatalogArguments = []
        if !query.includeBookmarks { conditions.append("e.bookmark IS NULL") }
        var filtered = false
        for (field, values) in [("composer", query.composers), ("genre", query.genres), ("tag", query.tags),
                                ("label", query.labels)] {
            for value in values {
                let (condition, values) = FacetMatch.condition(field: field, value: value, dialect: dialect)
                conditions.append(condition)
                arguments += values
                filtered = true
            }
        }
        if let key = query.key {
            conditions.append("e.keysf = ? AND e.keymi = ?")
            arguments += [key.keysf, key.keymi]
            filtered = true
        }
        for (column, comparison) in [("e.rating", query.rating), ("e.difficulty", query.difficulty),
                                     ("e.duration", query.duration), ("s.pages", query.pages)] {
            guard let comparison else { continue }
            // The operation is one of five fixed strings (see Comparison), never user text.
            conditions.append("\(column) \(comparison.operation) ?")
            arguments.append(comparison.value)
            filtered = true
        }
        return (conditions, arguments, filtered)
    }

    /// The ORDER BY of a search sorted by `sort`, up to the order every search ends with.
    static func order(_ sort: LibraryQuery.Sort, in statements: any CatalogStatements) -> String {
        switch sort {
        case .title: statements.noCase("e.title")
        case .composer: "e.composers = '[]', \(statements.noCase("e.composers")), \(statements.noCase("e.title"))"
        case .added: "s.added DESC"
        case .rating: "e.rating IS NULL, e.rating DESC"
        case .duration: "e.duration IS NULL, e.duration"
        }
    }

    /// What every search's order ends with: path (by its bytes), the score before its
    /// bookmarks, bookmarks in order.
    static func lastOrder(in statements: any CatalogStatements) -> String {
        "\(statements.binary("s.path")), e.bookmark IS NOT NULL, e.bookmark"
    }

    /// ``search(_:rankingAtMost:)`` in the SQLite catalog: FTS5's `entry_text` and ``SearchRank``.
    private static func search(_ query: LibraryQuery, rankingAtMost candidates: Int, in statements: SQLiteStatements) throws -> [LibraryEntry] {
        let db = statements.db
        var conditions: [String] = []
        var arguments: CatalogArguments = []
        let match = query.matchExpression
        let offset = Self.scoreTextOffset
        // With text, the text index leads; scores alone are its upper rowid range.
        let rows = match == nil ? "entry e" : "entry_text JOIN entry e ON e.id = entry_text.rowid % \(offset)"
        var sql = "SELECT \(Self.entryColumns) FROM \(rows) JOIN score s ON s.id = e.scoreId"
        if let match {
            conditions.append("entry_text MATCH ?")
            arguments.append(match)
            if !query.includeBookmarks { conditions.append("entry_text.rowid >= \(offset)") }
        }
        let (others, values, filtered) = Self.conditions(of: query, dialect: .sqlite)
        conditions += others
        arguments += values
        // A page of text results, best first with nothing else to filter by, ranks only the
        // candidates (see rankedPage).
        if let match, query.sort == nil, !filtered, let limit = query.limit, limit <= candidates {
            return try Self.rankedPage(match: match, scoresOnly: !query.includeBookmarks, limit: max(0, limit),
                                       candidates: candidates, in: db)
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let order = query.sort.map { Self.order($0, in: statements) }
            ?? (match != nil ? "\(SearchRank.name)(entry_text)" : statements.noCase("e.title"))
        sql += " ORDER BY \(order), \(lastOrder(in: statements))"
        // Text results with bookmarks are grouped by score (groupedByScore) before the limit.
        let grouping = match != nil && query.sort == nil && query.includeBookmarks
        if let limit = query.limit, !grouping {
            sql += " LIMIT ?"
            arguments.append(max(0, limit))
        }
        var entries = try statements.uncachedRows(sql, arguments.map(CatalogValue.init)).map(Self.entry)
        if grouping {
            entries = Self.groupedByScore(entries, score: \.id, isBookmark: { $0.bookmark != nil })
            if let limit = query.limit { entries = Array(entries.prefix(max(0, limit))) }
        }
        return entries
    }

    /// `items` (best first) with each score's together: where the score itself stands when it
    /// matched — its bookmarks after it, so none that matched by what it has from its book
    /// stands above the book —, else where its best bookmark stands; the rest keep their order.
    ///
    /// ```swift
    /// // ranked: Duets › Largo, Dvořák – Rusalka, Duets, Duets › Humoreska
    /// // grouped: Dvořák – Rusalka, Duets, Duets › Largo, Duets › Humoreska
    /// ```
    static func groupedByScore<T>(_ items: [T], score: (T) -> Int64, isBookmark: (T) -> Bool) -> [T] {
        var anchor: [Int64: Int] = [:]
        for (index, item) in items.enumerated() where !isBookmark(item) { anchor[score(item)] = index }
        for (index, item) in items.enumerated() where anchor[score(item)] == nil { anchor[score(item)] = index }
        return items.enumerated().sorted { a, b in
            let (left, right) = (anchor[score(a.element)] ?? a.offset, anchor[score(b.element)] ?? b.offset)
            if left != right { return left < right }
            if isBookmark(a.element) != isBookmark(b.element) { return !isBookmark(a.element) }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The first `limit` of the `candidates` matches of `match` catalogued last (text rowids
    /// from the top: scores, then bookmarks), best first: in the order the whole query sorts
    /// by (``SearchRank``, then path, the score before its bookmarks, bookmarks in order).
    ///
    /// One pass over the text index reads the candidates with their rank, latest first, and
    /// stops at the bound; only the page (and any that tie with its last) is then read from
    /// the entries. Ranking in the query itself would join and sort every candidate, and
    /// finding where the candidates end takes a second pass over the text index.
    private static func rankedPage(match: String, scoresOnly: Bool, limit: Int, candidates: Int,
                                   in db: Database) throws -> [LibraryEntry] {
        let offset = scoreTextOffset
        var ranked: [(id: Int64, rank: Double)] = []
        let found = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT rowid, \(SearchRank.name)(entry_text) FROM entry_text WHERE entry_text MATCH ?\(scoresOnly ? " AND rowid >= \(offset)" : "")
            ORDER BY rowid DESC LIMIT ?
            """), arguments: [match, candidates])
        while let row = try found.next() { ranked.append((id: (row[0] as Int64) % offset, rank: row[1])) }
        guard limit > 0, !ranked.isEmpty else { return [] }
        ranked.sort { $0.rank < $1.rank }
        // With bookmarks, every candidate is put in order, then grouped by score and cut.
        let last = scoresOnly ? ranked[min(limit, ranked.count) - 1].rank : ranked[ranked.count - 1].rank
        // The page and any that tie with its last, each as the place of its rank among theirs
        // times the offset plus its id, then put in order by SQLite: by rank, then path (text
        // compared by its bytes), the score before its bookmarks, bookmarks in order. Ties are
        // common (a library of one publisher's series), and SQLite orders a thousand of them
        // faster than their paths come out of it. The keys go in as one JSON array, so each
        // statement is prepared once.
        var keys: [Int64] = []
        var place: Int64 = 0
        for index in ranked.indices {
            guard ranked[index].rank <= last else { break }
            if index > 0, ranked[index].rank != ranked[index - 1].rank { place += 1 }
            keys.append(place * offset + ranked[index].id)
        }
        func json(_ values: [Int64]) -> String { "[" + values.map(String.init).joined(separator: ",") + "]" }
        var order: [Int64]
        if scoresOnly {
            order = try Int64.fetchAll(db.cachedStatement(sql: """
                SELECT e.id FROM json_each(?) j JOIN entry e ON e.id = j.value % \(offset) JOIN score s ON s.id = e.scoreId
                ORDER BY j.value / \(offset), s.path, e.bookmark IS NOT NULL, e.bookmark LIMIT ?
                """), arguments: [json(keys), limit])
        } else {
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT e.id, e.scoreId, e.bookmark IS NOT NULL FROM json_each(?) j JOIN entry e ON e.id = j.value % \(offset)
                JOIN score s ON s.id = e.scoreId ORDER BY j.value / \(offset), s.path, e.bookmark IS NOT NULL, e.bookmark
                """), arguments: [json(keys)])
            let items = rows.map { (id: $0[0] as Int64, score: $0[1] as Int64, isBookmark: $0[2] as Bool) }
            order = Self.groupedByScore(items, score: \.score, isBookmark: \.isBookmark).prefix(limit).map(\.id)
        }
        return try entries(order, in: SQLiteStatements(db: db))
    }

    /// What ``SearchCache`` keeps an answer under: every field of the query (strings quoted
    /// and escaped) and the ranking's bound.
    static func searchKey(_ query: LibraryQuery, rankingAtMost candidates: Int = rankedCandidates) -> String {
        "\(candidates) " + String(reflecting: query)
    }

    /// One score by id, path relative to the library, or absolute path of a file inside it
    /// (``LibraryPaths/relative(_:)``), with its bookmarks after it.
    public func show(_ identifier: String) throws -> [LibraryEntry] {
        let relative = identifier.hasPrefix("/") ? files.relative(identifier) ?? identifier : identifier
        return try storeRead { statements in
            var id: Int64? = try statements.scalar("SELECT id FROM score WHERE pathKey = ?", [CatalogPath.key(relative)])
            if id == nil, let number = Int64(identifier) {
                id = try statements.scalar("SELECT id FROM score WHERE id = ?", [number])
            }
            guard let id else { throw LibraryError(.notFound, "no score \(identifier) in the catalog") }
            return try statements.rows("""
                SELECT \(Self.entryColumns) FROM entry e JOIN score s ON s.id = e.scoreId
                WHERE e.scoreId = ? ORDER BY e.bookmark IS NOT NULL, e.bookmark
                """, [id]).map(Self.entry)
        }
    }

    /// The whole score `id` (not one of its bookmarks), or nil when the catalog has none:
    /// what the server looks up on every request for a score's file or marks, so it is one
    /// statement prepared once per connection.
    ///
    /// ```swift
    /// if let entry = try catalog.score(1) { print(entry.path, entry.pages) }
    /// ```
    public func score(_ id: Int64) throws -> LibraryEntry? {
        try storeRead { statements in
            try statements.row("""
                SELECT \(Self.entryColumns) FROM entry e JOIN score s ON s.id = e.scoreId
                WHERE e.scoreId = ? AND e.bookmark IS NULL
                """, [id]).map(Self.entry)
        }
    }

    /// The entries `ids`, in that order (one that is gone is left out).
    static func entries(_ ids: [Int64], in statements: any CatalogStatements) throws -> [LibraryEntry] {
        guard !ids.isEmpty else { return [] }
        var entries: [Int64: LibraryEntry] = [:]
        // One statement whatever the count (prepared once): the ids as one JSON array.
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let among = statements.dialect == .sqlite ? "SELECT value FROM json_each(?)" : "SELECT jsonb_array_elements_text(?::jsonb)::bigint"
        for row in try statements.rows("""
            SELECT \(Self.entryColumns) FROM entry e JOIN score s ON s.id = e.scoreId WHERE e.id IN (\(among))
            """, [list]) {
            entries[try row.value(at: 0)] = try Self.entry(row)
        }
        return ids.compactMap { entries[$0] }
    }

    /// Composers, genres, tags, labels and keys with the number of scores carrying each.
    public func facets() throws -> [LibraryFacet] {
        try storeRead { statements in
            try statements.rows("""
                SELECT f.field, MIN(\(statements.binary("f.value"))) AS value, COUNT(DISTINCT e.scoreId) AS count
                FROM facet f JOIN entry e ON e.id = f.entryId WHERE e.bookmark IS NULL
                GROUP BY f.field, f.folded ORDER BY \(statements.binary("f.field")), count DESC, \(statements.noCase("MIN(\(statements.binary("f.value")))"))
                """).map { LibraryFacet(field: try $0.value(at: 0), value: try $0.value(at: 1), count: try $0.value(at: 2)) }
        }
    }

    /// The files the catalog could not read, with why.
    public func unreadable() throws -> [(path: String, error: String)] {
        try unreadableFiles()
    }

    /// How many scores and bookmarks the catalog holds.
    public func counts() throws -> (scores: Int, bookmarks: Int) {
        try storeRead { statements in
            (try statements.scalar("SELECT COUNT(*) FROM score") ?? 0,
             try statements.scalar("SELECT COUNT(*) FROM entry WHERE bookmark IS NOT NULL") ?? 0)
        }
    }

    /// The columns ``entry(_:)`` reads, by their place: looking a column up by name costs
    /// more than the value (a search reads fifty rows of twenty columns).
    static let entryColumns = """
        e.id, e.scoreId, e.bookmark, e.title, e.composers, e.genres, e.tags, e.labels, e.rating, e.difficulty, \
        e.duration, e.keysf, e.keymi, e.reference, e.tempo, e.timeSignature, e.startPage, e.endPage, s.path, s.pages, \
        s.error, e.credits
        """

    /// A list column's values (a JSON array of strings; [] for none or one that cannot be read).
    static func strings(stored text: String?) -> [String] {
        guard let text, text != "[]" else { return [] }  // most lists are empty; JSONDecoder costs microseconds each
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    /// An entry from a row of ``entryColumns``.
    static func entry(_ row: CatalogRow) throws -> LibraryEntry {
        func list(_ index: Int) -> [String] { strings(stored: row.optional(at: index)) }
        let keysf: Int? = row.optional(at: 11)
        let keymi: Int? = row.optional(at: 12)
        let key = keysf.flatMap { sf in keymi.flatMap { try? MusicalKey(keysf: sf, keymi: $0) } }
        let isBookmark = row[index: 2] != .null
        let title: String = try row.value(at: 3)
        let path: String = try row.value(at: 18)
        let metadata = ScoreMetadata(
            title: title.isEmpty ? ScoreMetadata.title(forFile: path) : title, composers: list(4),
            genres: list(5), tags: list(6), labels: list(7), rating: row.optional(at: 8),
            difficulty: row.optional(at: 9), duration: row.optional(at: 10), key: key, reference: row.optional(at: 13),
            tempo: row.optional(at: 14), timeSignature: row.optional(at: 15))
        return LibraryEntry(
            id: try row.value(at: 1), path: path, title: title, metadata: metadata, pages: row.optional(at: 19),
            bookmark: isBookmark ? LibraryEntry.BookmarkPages(title: title, start: row.optional(at: 16), end: row.optional(at: 17)) : nil,
            unreadable: row.optional(at: 20), credits: ScoreCredit.read(row.optional(at: 21)))
    }
}
