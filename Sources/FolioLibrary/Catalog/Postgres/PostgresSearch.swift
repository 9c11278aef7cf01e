import Foundation
import NIOConcurrencyHelpers

/// ``LibraryCatalog/search(_:)`` in a catalog kept in PostgreSQL: the same answers as SQLite's
/// (`PostgresSearchText` finds and ranks as FTS5 and ``SearchRank`` do), in the same order.
extension LibraryCatalog {
    /// ``search(_:rankingAtMost:)`` on PostgreSQL: filters, sorts and pages in SQL; the text's
    /// matches from the GIN index, ranked here by bm25 over their tokens.
    static func postgresSearch(_ query: LibraryQuery, rankingAtMost candidates: Int, version: Int64,
                               in statements: any CatalogStatements) throws -> [LibraryEntry] {
        guard let connection = statements as? PostgresCatalogConnection else {
            throw LibraryError(.internal, "a PostgreSQL search was given another database's statements")
        }
        var (conditions, arguments, filtered) = Self.conditions(of: query, dialect: .postgresql)
        let limit = query.limit.map { max(0, $0) }
        guard query.matchExpression != nil else {
            // No words: SQL does it all, as in SQLite.
            var sql = "SELECT \(entryColumns) FROM entry e JOIN score s ON s.id = e.scoreId"
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY \(query.sort.map { order($0, in: statements) } ?? statements.noCase("e.title")), \(lastOrder(in: statements))"
            if let limit {
                sql += " LIMIT ?"
                arguments.append(limit)
            }
            return try statements.rows(sql, arguments).map(entry)
        }
        // Words that give no token find nothing, as in FTS5.
        guard let phrases = try connection.searchText.phrases(of: query) else { return [] }
        let match = PostgresSearchText.tsquery(phrases)
        let scoresOnly = query.includeBookmarks ? "" : " AND t.rowid >= \(scoreTextOffset)"
        // What ranks a row; a query sorted by a field needs none.
        func ranking() throws -> (String, Int) -> Double {
            try Self.ranking(phrases, version: version, counts: connection.phraseCounts, in: statements)
        }

        // A page of text alone, best first: the `candidates` catalogued last, ranked (as rankedPage).
        if query.sort == nil, !filtered, let limit, limit <= candidates {
            // The latest rows first, in the rowid index's order: when enough of them match (a
            // common word), those are the candidates, found without reading the rest. Else the
            // text index finds every match (`+ 0`: not in the rowid index's order) and the latest
            // are kept: reading the rowid index further for a rarer word read 120,000 rows.
            let window = max(5_000, 5 * candidates)
            let picked = """
                SELECT e.id, e.scoreId, e.bookmark, s.path, c.terms, c.tokens FROM (%@) c
                JOIN entry e ON e.id = c.entryId JOIN score s ON s.id = e.scoreId
                """
            var found = try statements.rows(picked.replacingOccurrences(of: "%@", with: """
                SELECT w.rowid, w.entryId, w.terms, w.tokens FROM (
                    SELECT t.rowid, t.entryId, t.terms, t.tokens, t.document FROM entry_text t
                    WHERE TRUE\(scoresOnly) ORDER BY t.rowid DESC LIMIT ?
                ) w WHERE w.document @@ ?::tsquery ORDER BY w.rowid DESC LIMIT ?
                """), [window, match, candidates])
            if found.count < candidates {
                found = try statements.rows(picked.replacingOccurrences(of: "%@", with: """
                    SELECT t.rowid, t.entryId, t.terms, t.tokens FROM entry_text t
                    WHERE t.document @@ ?::tsquery\(scoresOnly) ORDER BY t.rowid + 0 DESC LIMIT ?
                    """), [match, candidates])
            }
            let rank = try ranking()
            let ranked = try found.map { row in
                Ranked(id: try row.value(at: 0), score: try row.value(at: 1), bookmark: row.optional(at: 2),
                       path: try row.value(at: 3), rank: rank(try row.value(at: 4), try row.value(at: 5)))
            }
            let ordered = Self.ordered(ranked, grouping: query.includeBookmarks)
            return try entries(ordered.prefix(limit).map(\.id), in: statements)
        }

        var sql = """
            SELECT \(entryColumns), t.terms, t.tokens FROM entry_text t JOIN entry e ON e.id = t.entryId
            JOIN score s ON s.id = e.scoreId WHERE t.document @@ ?::tsquery\(scoresOnly)
            """
        arguments.insert(match, at: 0)
        if !conditions.isEmpty { sql += " AND " + conditions.joined(separator: " AND ") }
        if let sort = query.sort {
            // Sorted by a field: no ranking, SQL orders and cuts.
            sql += " ORDER BY \(order(sort, in: statements)), \(lastOrder(in: statements))"
            if let limit {
                sql += " LIMIT ?"
                arguments.append(limit)
            }
            return try statements.rows(sql, arguments).map(entry)
        }
        let rank = try ranking()
        var byID: [Int64: LibraryEntry] = [:]
        var ranked: [Ranked] = []
        for row in try statements.rows(sql, arguments) {
            let found = try entry(row)
            let id: Int64 = try row.value(at: 0)
            byID[id] = found
            ranked.append(Ranked(id: id, score: found.id, bookmark: row.optional(at: 2), path: found.path,
                                 rank: rank(try row.value(at: 22), try row.value(at: 23))))
        }
        var ordered = Self.ordered(ranked, grouping: query.includeBookmarks)
        if let limit { ordered = Array(ordered.prefix(limit)) }
        return ordered.compactMap { byID[$0.id] }
    }

    /// An entry that matched, with what its place depends on.
    private struct Ranked {
        let id: Int64
        let score: Int64
        let bookmark: Int64?
        let path: String
        let rank: Double
    }

    /// `ranked` in SQLite's order (rank, then path by its bytes, the score before its bookmarks,
    /// bookmarks in order), with each score's together when `grouping` (``groupedByScore(_:score:isBookmark:)``).
    private static func ordered(_ ranked: [Ranked], grouping: Bool) -> [Ranked] {
        let sorted = ranked.sorted { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if !a.path.utf8.elementsEqual(b.path.utf8) { return a.path.utf8.lexicographicallyPrecedes(b.path.utf8) }
            if (a.bookmark == nil) != (b.bookmark == nil) { return a.bookmark == nil }
            return (a.bookmark ?? 0) < (b.bookmark ?? 0)
        }
        return grouping ? groupedByScore(sorted, score: \.score, isBookmark: { $0.bookmark != nil }) : sorted
    }

    /// The rank of a row from its terms and length, for `phrases` (``SearchRank``'s bm25: the
    /// index's counts, and each phrase's matches when there are several).
    private static func ranking(_ phrases: [[String]], version: Int64, counts: PhraseCounts,
                                in statements: any CatalogStatements) throws -> (String, Int) -> Double {
        let stats = try statements.row("SELECT rows, tokens FROM entry_text_stats")
        let rows: Int64 = try stats?.value(at: 0) ?? 0
        let tokens: Int64 = try stats?.value(at: 1) ?? 0
        let average = rows > 0 ? Double(tokens) / Double(rows) : 1
        var matches: [Int64] = []
        if phrases.count > 1 {
            for phrase in phrases {
                // Counted once per version of the catalog: typing a second word asks for the first's again.
                let text = PostgresSearchText.tsquery([phrase])
                if let kept = counts.count(of: text, version: version) {
                    matches.append(kept)
                    continue
                }
                let counted: Int64 = try statements.scalar("SELECT count(*) FROM entry_text WHERE document @@ ?::tsquery", [text]) ?? 0
                counts.keep(counted, of: text, version: version)
                matches.append(counted)
            }
        }
        let weights = PostgresSearchText.weights(rows: rows, matches: matches)
        return { terms, length in
            PostgresSearchText.rank(hits: PostgresSearchText.hits(of: phrases, in: terms), length: length,
                                    average: average, weights: weights)
        }
    }
}

/// How many rows of the text index each phrase matches, per version of the catalog: what a
/// query of several words weighs each by (bm25's inverse document frequency). Bounded: emptied
/// when full, and an entry of an older version is never used.
final class PhraseCounts: Sendable {
    private let kept = NIOLockedValueBox<[String: (version: Int64, count: Int64)]>([:])
    /// The most phrases kept.
    static let capacity = 4_096

    func count(of phrase: String, version: Int64) -> Int64? {
        kept.withLockedValue { $0[phrase] }.flatMap { $0.version == version ? $0.count : nil }
    }

    func keep(_ count: Int64, of phrase: String, version: Int64) {
        kept.withLockedValue { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[phrase] = (version, count)
        }
    }
}
