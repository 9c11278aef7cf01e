import Foundation
import GRDB

/// The text index of a catalog in PostgreSQL, made to find and rank exactly what SQLite's
/// FTS5 index (`entry_text`, see ``SearchText`` and ``SearchRank``) finds and ranks.
///
/// - Words are cut and folded by SQLite's own `unicode61 remove_diacritics 2` tokenizer (run on
///   a connection of its own in memory), for what is stored and for what is asked alike: no
///   second set of rules to drift from the first.
/// - A row (`entry_text`, one per entry, at the same rowid as in SQLite) keeps its words as a
///   `tsvector` built from those tokens as they are (`'token':position`, no parser, no
///   dictionary), indexed by GIN; a word typed is a prefix (`'token':*`), a word cut into
///   several tokens a phrase (`<->`), as in FTS5. The columns (title, people, words) are apart
///   by a gap of positions, so no phrase runs from one into the next.
/// - Ranking is ``SearchRank``'s bm25, computed here from the row's tokens (`terms`): its
///   hits per phrase and its length, over the index's row count and total length
///   (`entry_text_stats`, kept by a trigger), so the order is SQLite's to the last bit.
///
/// ```swift
/// let text = try PostgresSearchText()
/// try text.tokens(of: ["Dvořák: Rusalka"])   // [["dvorak", "rusalka"]]
/// ```
struct PostgresSearchText: Sendable {
    /// Only for its tokenizer: it holds no table.
    private let tokenizing: DatabaseQueue

    /// Opens the connection in memory whose tokenizer it uses.
    init() throws {
        do { tokenizing = try DatabaseQueue() } catch {
            throw LibraryError(.internal, "SQLite's tokenizer cannot be opened: \(error)")
        }
    }

    /// The longest token a `tsvector` keeps (PostgreSQL refuses longer ones: 2,047 bytes); a
    /// longer one is ranked but cannot be found.
    static let longestToken = 2_047

    /// The tokens of each text, as FTS5 stores them.
    func tokens(of texts: [String]) throws -> [[String]] {
        try tokenizing.inDatabase { db in
            let tokenizer = try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "remove_diacritics", "2"]))
            return try texts.map { text in
                try tokenizer.tokenize(document: text).compactMap { $0.flags.contains(.colocated) ? nil : $0.token }
            }
        }
    }

    /// A row of the index: the `tsvector` text and the `terms` the ranking reads (each
    /// column's tokens separated by spaces, the columns by a line break), and its length.
    struct Row: Equatable {
        let document: String
        let terms: String
        let length: Int
    }

    /// The rows for entries' columns `title`, `people`, `words` (as ``SearchText`` spells them),
    /// tokenized together.
    func rows(_ entries: [[String]]) throws -> [Row] {
        let tokenized = try tokens(of: entries.flatMap { $0 })
        var rows: [Row] = []
        var start = 0
        for columns in entries {
            rows.append(Self.row(Array(tokenized[start..<start + columns.count])))
            start += columns.count
        }
        return rows
    }

    /// The row of one entry's tokenized columns.
    private static func row(_ tokenized: [[String]]) -> Row {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        var position = 1
        for column in tokenized {
            for token in column {
                if positions[token] == nil { order.append(token) }
                // PostgreSQL keeps positions up to 16,383; the rest stand at the last.
                positions[token, default: []].append(min(position, 16_383))
                position += 1
            }
            position += 2   // no phrase across two columns
        }
        let lexemes = order.compactMap { token -> String? in
            guard token.utf8.count <= longestToken, let places = positions[token] else { return nil }
            // At most 256 positions per lexeme (PostgreSQL's limit), in order, none twice.
            var seen = Set<Int>()
            let kept = places.filter { seen.insert($0).inserted }.prefix(256)
            return quoted(token) + ":" + kept.map(String.init).joined(separator: ",")
        }
        return Row(document: lexemes.joined(separator: " "),
                   terms: tokenized.map { $0.joined(separator: " ") }.joined(separator: "\n"),
                   length: tokenized.reduce(0) { $0 + $1.count })
    }

    /// A token as a `tsvector` or `tsquery` lexeme: quoted, its quotes and backslashes doubled.
    static func quoted(_ token: String) -> String {
        "'" + token.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A query's phrases: each word of ``LibraryQuery/matchExpression``'s (a prefix), as tokens.
    /// A word that gives no token is left out, as FTS5 leaves it out of a query of several; nil
    /// when no word gives one (FTS5 then finds nothing).
    func phrases(of query: LibraryQuery) throws -> [[String]]? {
        let phrases = try tokens(of: query.words).filter { !$0.isEmpty }
        return phrases.isEmpty ? nil : phrases
    }

    /// The `tsquery` text of `phrases`: each a prefix, all required.
    static func tsquery(_ phrases: [[String]]) -> String {
        phrases.map { phrase in
            phrase.enumerated().map { index, token in
                quoted(token) + (index == phrase.count - 1 ? ":*" : "")
            }.joined(separator: " <-> ")
        }.joined(separator: " & ")
    }

    /// How often each phrase stands in `terms` (a row's): a phrase's tokens one after another
    /// in one column, its last a prefix, compared by their bytes as FTS5 compares them.
    static func hits(of phrases: [[String]], in terms: String) -> [Double] {
        // The tokens as byte ranges of `terms`, each with its column: no string made per token.
        var bytes = Array(terms.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var tokens: [(start: Int, end: Int, column: Int)] = []
        var column = 0, start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
            if index > start { tokens.append((start, index, column)) }
            if byte == UInt8(ascii: "\n") { column += 1 }
            start = index + 1
        }
        let wanted = phrases.map { $0.map { Array($0.utf8) } }
        return wanted.map { phrase in
            guard !phrase.isEmpty, tokens.count >= phrase.count else { return 0 }
            var count = 0
            for first in 0...(tokens.count - phrase.count) {
                var matched = true
                for (offset, word) in phrase.enumerated() {
                    let token = tokens[first + offset]
                    let length = token.end - token.start
                    let isLast = offset == phrase.count - 1
                    // One column only, the tokens' bytes equal (the last one's a prefix).
                    guard token.column == tokens[first].column, isLast ? length >= word.count : length == word.count,
                          bytes[token.start..<(token.start + word.count)].elementsEqual(word) else {
                        matched = false
                        break
                    }
                }
                if matched { count += 1 }
            }
            return Double(count)
        }
    }

    /// ``SearchRank``'s value for a row (smaller is better): `hits` per phrase, the row's
    /// `length` in tokens, the index's `average` length and each phrase's `weights`.
    static func rank(hits: [Double], length: Int, average: Double, weights: [Double]) -> Double {
        let k1 = SearchRank.k1, b = SearchRank.b
        let factor = 1 - b + b * Double(length) / average
        var score = 0.0
        for phrase in hits.indices {
            score += weights[phrase] * ((hits[phrase] * (k1 + 1)) / (hits[phrase] + k1 * factor))
        }
        return -score
    }

    /// Each phrase's weight: 1 for a query of one phrase, else bm25's inverse document frequency
    /// from `rows` in the index and the `matches` of each phrase.
    static func weights(rows: Int64, matches: [Int64]) -> [Double] {
        guard matches.count > 1 else { return [1] }
        return matches.map { matched in
            let idf = log((Double(rows) - Double(matched) + 0.5) / (Double(matched) + 0.5))
            return idf > 0 ? idf : 1e-6
        }
    }
}
