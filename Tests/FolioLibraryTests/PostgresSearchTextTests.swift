@testable import FolioLibrary
import FolioTestSupport
import Foundation
import XCTest

/// What the PostgreSQL search builds from text: `tsvector` and `tsquery` literals that
/// PostgreSQL itself reads back for any text (quotes, backslashes, every script, long words),
/// and the hits a row's tokens give a phrase, held to a plain reading of the same rule.
final class PostgresSearchTextTests: XCTestCase {
    private let alphabet: [Character] = Array("aá bč ďé'\\\\ Ωψ жё 歌楽 ß🎻 -_,;:0 9\n\t\"") + ["ﬁ", "e\u{301}", "İ"]

    private func randomText(_ generator: inout SeededGenerator, length: Int) -> String {
        String((0..<length).map { _ -> Character in alphabet.randomElement(using: &generator) ?? "a" })
    }

    /// The hits of a phrase: its tokens one after another within one column, the last a prefix.
    private func plainHits(_ phrase: [String], _ terms: String) -> Double {
        var count = 0
        for column in terms.components(separatedBy: "\n") {
            let tokens = column.split(separator: " ").map { Array($0.utf8) }
            guard tokens.count >= phrase.count, !phrase.isEmpty else { continue }
            for start in 0...(tokens.count - phrase.count) {
                let ok = phrase.enumerated().allSatisfy { offset, word in
                    offset == phrase.count - 1 ? tokens[start + offset].starts(with: word.utf8) : tokens[start + offset] == Array(word.utf8)
                }
                if ok { count += 1 }
            }
        }
        return Double(count)
    }

    func testHitsAreThePlainRule() throws {
        var generator = SeededGenerator(#function)
        let text = try PostgresSearchText()
        for _ in 0..<400 {
            let columns = (0..<3).map { _ in randomText(&generator, length: Int.random(in: 0...40, using: &generator)) }
            guard let row = try text.rows([columns]).first else { throw TestFailure("no row") }
            let tokens = row.terms.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            var phrases: [[String]] = [[]]
            if !tokens.isEmpty {
                let first = Int.random(in: 0..<tokens.count, using: &generator)
                let length = Int.random(in: 1...min(3, tokens.count - first), using: &generator)
                var phrase = Array(tokens[first..<first + length])
                phrase[phrase.count - 1] = String(phrase[phrase.count - 1].prefix(Int.random(in: 1...3, using: &generator)))
                phrases = [phrase, [String(tokens[first].prefix(1))]]
            }
            let hits = PostgresSearchText.hits(of: phrases, in: row.terms)
            XCTAssertEqual(hits, phrases.map { plainHits($0, row.terms) }, "\(columns) \(phrases)")
            XCTAssertEqual(row.length, tokens.count)
        }
    }

    /// 300 random texts stored as PostgreSQL reads them, each found again by a prefix of each of
    /// its tokens (and the phrase of its first two), never refused.
    func testPostgreSQLReadsEveryDocumentAndQuery() throws {
        var generator = SeededGenerator(#function)
        let server = try TestPostgres.shared()
        let made = try server.newCatalog(prefix: "lexémy")
        defer { server.dropDatabase(made.name) }
        let database = try PostgresCatalog(address: made.address, maxConnections: 2)
        defer { database.close() }
        let text = try PostgresSearchText()
        var found = 0
        try database.transaction { connection in
            try connection.execute("CREATE TEMP TABLE probe (id INTEGER, document TSVECTOR)")
            for id in 0..<300 {
                var columns = (0..<3).map { _ in randomText(&generator, length: Int.random(in: 0...60, using: &generator)) }
                if id % 50 == 0 { columns[0] += " " + String(repeating: "ž", count: 1_500) }   // past tsvector's 2,047 bytes
                guard let row = try text.rows([columns]).first else { throw TestFailure("no row") }
                try connection.execute("INSERT INTO probe VALUES (?, ?::tsvector)", [id, row.document])
                let tokens = row.terms.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
                    .filter { $0.utf8.count <= PostgresSearchText.longestToken }
                for token in tokens.prefix(5) {
                    let query = PostgresSearchText.tsquery([[String(token.prefix(2))]])
                    let hit: Bool? = try connection.scalar("SELECT document @@ ?::tsquery FROM probe WHERE id = ?", [query, id])
                    XCTAssertEqual(hit, true, "\(token) in \(columns)")
                    found += 1
                }
                let first = row.terms.split(separator: "\n", omittingEmptySubsequences: false)[0].split(separator: " ").map(String.init)
                if first.count >= 2, first[0].utf8.count <= PostgresSearchText.longestToken, first[1].utf8.count <= PostgresSearchText.longestToken {
                    let phrase = PostgresSearchText.tsquery([[first[0], first[1]]])
                    let hit: Bool? = try connection.scalar("SELECT document @@ ?::tsquery FROM probe WHERE id = ?", [phrase, id])
                    XCTAssertEqual(hit, true, "\(first.prefix(2)) in \(columns)")
                }
            }
        }
        XCTAssertGreaterThan(found, 300)
    }
}
