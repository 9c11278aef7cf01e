@testable import FolioLibrary
import Foundation
import GRDB
import XCTest

/// A page of text results ranks at most so many matches: the ones catalogued last, whole
/// scores before bookmarks. The expected pages come from the whole ranking (no limit), cut
/// to those candidates here, so a page equals what ranking everything would put first among
/// them; a query matching no more than the bound, or with a filter, is ranked whole.
class SearchRankingTests: XCTestCase {
    var folder: URL!
    var catalog: LibraryCatalog!

    /// Score titles that all match "pís" (Czech, with Greek, Russian and Japanese words beside),
    /// each score with two bookmarks that match too.
    private static let titles = [
        "Písně", "Písně lidové", "Τραγούδια και Písně", "Песни и Písně z Moravy", "歌 Písně", "Cigánské písně",
        "Biblické písně op. 99", "Večerní písně", "Milostné písně a balady", "Písně kosmické",
    ]

    /// The catalog the tests run on (SearchRankingPostgresTests: one kept in PostgreSQL).
    func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path)
    }

    /// The SQLite catalog whose own bm25 the expected orders come from: the one tested, or
    /// (on PostgreSQL) a twin filled the same way.
    func reference() throws -> LibraryCatalog {
        catalog
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-ranking-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        catalog = try makeCatalog()
        try Self.fill(catalog)
    }

    /// The titles' scores and bookmarks, stored as they are in either database.
    static func fill(_ catalog: LibraryCatalog) throws {
        try catalog.storeWrite { statements in
            var entryID: Int64 = 0
            for (index, title) in Self.titles.enumerated() {
                let scoreID = Int64(index + 1)
                let path = "Písně \(scoreID).pdf"
                try statements.execute("""
                    INSERT INTO score (id, path, pathKey, size, modified, fingerprint, added, pages)
                    VALUES (?, ?, ?, 1, 1, ?, 0, 4)
                    """, [scoreID, path, CatalogPath.key(path), "f\(scoreID)"])
                let people = index % 3 == 0 ? "Antonín Dvořák" : "Leoš Janáček"
                for (bookmark, text) in [(nil, title), (0, "Píseň \(title)"), (1, "Písně č. \(scoreID)")] as [(Int?, String)] {
                    entryID += 1
                    try statements.execute("INSERT INTO entry (id, scoreId, bookmark, title, composers) VALUES (?, ?, ?, ?, ?)",
                                           [entryID, scoreID, bookmark, text, "[\"\(people)\"]"])
                    let rowid = entryID + (bookmark == nil ? LibraryCatalog.scoreTextOffset : 0)
                    try statements.indexTexts([IndexedText(rowid: rowid, entryID: entryID, title: text, people: people, words: "")])
                    try LibraryCatalog.insertFacet(entryID: entryID, field: "composer", value: people, in: statements)
                }
            }
        }
    }

    override func tearDownWithError() throws {
        catalog = nil
        try? FileManager.default.removeItem(at: folder)
    }

    private func query(_ text: String, bookmarks: Bool, limit: Int?) -> LibraryQuery {
        var query = LibraryQuery(text: text, includeBookmarks: bookmarks)
        query.limit = limit
        return query
    }

    func testAPageRanksTheLatestScoresWhenMoreMatchThanTheBound() throws {
        for bookmarks in [false, true] {
            let everything = try catalog.search(query("pís", bookmarks: bookmarks, limit: nil), rankingAtMost: 4)
            XCTAssertEqual(everything.count, bookmarks ? 30 : 10, "without a limit every match is ranked")
            // Four candidates: the scores with the highest ids (scores lie above bookmarks).
            let candidates = Set(Int64(7)...10)
            let expected = everything.filter { $0.bookmark == nil && candidates.contains($0.id) }.prefix(3)
            let page = try catalog.search(query("pís", bookmarks: bookmarks, limit: 3), rankingAtMost: 4)
            XCTAssertEqual(page, Array(expected))
            XCTAssertEqual(page.count, 3)
            // A bound above the matches ranks them all: the page is the whole ranking's head.
            let whole = try catalog.search(query("pís", bookmarks: bookmarks, limit: 3), rankingAtMost: 40)
            XCTAssertEqual(whole, Array(everything.prefix(3)))
        }
    }

    func testBookmarksAreCandidatesWhenFewerScoresMatch() throws {
        // "píseň" is in the first bookmark of every score and in no score's title.
        let everything = try catalog.search(query("píseň", bookmarks: true, limit: nil))
        XCTAssertEqual(everything.count, 10)
        XCTAssertTrue(everything.allSatisfy { $0.bookmark?.title.hasPrefix("Píseň") == true })
        let page = try catalog.search(query("píseň", bookmarks: true, limit: 3), rankingAtMost: 4)
        XCTAssertEqual(page, Array(everything.filter { (7...10).contains($0.id) }.prefix(3)))
        // "biblické" is in score 7's title and its first bookmark: one candidate, the score.
        XCTAssertEqual(try catalog.search(query("biblické", bookmarks: true, limit: nil)).count, 2)
        let first = try catalog.search(query("biblické", bookmarks: true, limit: 1), rankingAtMost: 1)
        XCTAssertEqual(first.map(\.title), ["Biblické písně op. 99"])
        XCTAssertNil(first.first?.bookmark)
    }

    func testFiltersAndOrdersRankEveryMatch() throws {
        var filtered = query("pís", bookmarks: false, limit: 2)
        filtered.composers = ["antonin dvorak"]
        let dvorak = try catalog.search(filtered, rankingAtMost: 1)
        XCTAssertEqual(dvorak.map(\.id), Array(try catalog.search({ var all = filtered; all.limit = nil; return all }(), rankingAtMost: 1).map(\.id).prefix(2)))
        XCTAssertEqual(dvorak.count, 2)
        XCTAssertTrue(dvorak.allSatisfy { $0.metadata.composers == ["Antonín Dvořák"] })
        var byTitle = query("pís", bookmarks: false, limit: 3)
        byTitle.sort = .title
        XCTAssertEqual(try catalog.search(byTitle, rankingAtMost: 1).map(\.title), ["Biblické písně op. 99", "Cigánské písně", "Milostné písně a balady"])
        // A limit above the bound ranks every match.
        XCTAssertEqual(try catalog.search(query("pís", bookmarks: false, limit: 5), rankingAtMost: 4).count, 5)
    }

    /// The bound the library uses: 1,000 candidates, and a page of up to 1,000 is bounded.
    func testTheLibraryRanksAThousandCandidates() throws {
        XCTAssertEqual(LibraryCatalog.rankedCandidates, 1_000)
        XCTAssertEqual(try catalog.search(query("písně", bookmarks: true, limit: 50)),
                       Array(try catalog.search(query("písně", bookmarks: true, limit: nil)).prefix(50)))
    }

    /// `folio_rank` beside SQLite's own bm25 on the same rows: a query of one phrase differs
    /// from it by one factor for every row (the phrase's inverse document frequency), a query
    /// of several phrases not at all.
    func testTheRankIsBm25WithoutTheFactorOfAQueryOfOnePhrase() throws {
        func ranks(_ match: String) throws -> [(bm25: Double, rank: Double)] {
            try catalog.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT bm25(entry_text), \(SearchRank.name)(entry_text) FROM entry_text WHERE entry_text MATCH ?
                    """, arguments: [match]).map { (bm25: $0[0], rank: $0[1]) }
            }
        }
        for match in ["\"pís\"*", "\"písně\"", "\"Песни\"*", "\"歌\"", "\"dvořák\"*"] {
            let rows = try ranks(match)
            XCTAssertFalse(rows.isEmpty, match)
            let factor = rows[0].bm25 / rows[0].rank
            XCTAssertGreaterThan(factor, 0, match)
            for row in rows { XCTAssertEqual(row.bm25 / row.rank, factor, accuracy: factor * 1e-12, match) }
        }
        XCTAssertGreaterThan(Set(try ranks("\"pís\"*").map(\.rank)).count, 5, "rows of different lengths rank apart")
        for match in ["\"písně\"* \"dvořák\"*", "\"Τραγούδια\" \"písně\"", "\"balady\" OR \"písně\"", "\"Песни\"* \"moravy\""] {
            let rows = try ranks(match)
            XCTAssertFalse(rows.isEmpty, match)
            for row in rows { XCTAssertEqual(row.rank, row.bm25, accuracy: abs(row.bm25) * 1e-12, match) }
        }
    }

    /// Every page, cut anywhere (inside the ten bookmarks "Písně č. N" that rank equal, whose
    /// paths in byte order are not their ids' order), is the head of the order SQLite gives
    /// the whole match by bm25, then path, the score before its bookmarks — with each score's
    /// entries then read together, where the score stands (or its best bookmark, when the score
    /// itself did not match), the score first.
    func testAPageEndingAmongEqualRanksTakesThemByPath() throws {
        for text in ["písně", "písně č"] {
            let match = try XCTUnwrap(LibraryQuery(text: text).matchExpression)
            let ranked = try reference().read { db in
                try Row.fetchAll(db, sql: """
                    SELECT s.path, e.title, e.bookmark IS NOT NULL FROM entry_text
                    JOIN entry e ON e.id = entry_text.rowid % \(LibraryCatalog.scoreTextOffset)
                    JOIN score s ON s.id = e.scoreId WHERE entry_text MATCH ?
                    ORDER BY bm25(entry_text), s.path, e.bookmark IS NOT NULL, e.bookmark
                    """, arguments: [match]).map { (path: $0[0] as String, title: $0[1] as String, isBookmark: $0[2] as Bool) }
            }
            var anchor: [String: Int] = [:]
            for (index, row) in ranked.enumerated() where !row.isBookmark { anchor[row.path] = index }
            for (index, row) in ranked.enumerated() where anchor[row.path] == nil { anchor[row.path] = index }
            let expected = ranked.enumerated().sorted { a, b in
                let (left, right) = (anchor[a.element.path] ?? a.offset, anchor[b.element.path] ?? b.offset)
                return (left, a.element.isBookmark ? 1 : 0, a.offset) < (right, b.element.isBookmark ? 1 : 0, b.offset)
            }.map { "\($0.element.path) \($0.element.title)" }
            // "č" is a prefix: "c", accents ignored, so "Cigánské písně" and its bookmark match too.
            XCTAssertEqual(expected.count, text == "písně" ? 30 : 12)
            for limit in 1...expected.count {
                let page = try catalog.search(query(text, bookmarks: true, limit: limit))
                XCTAssertEqual(page.map { "\($0.path) \($0.title)" }, Array(expected.prefix(limit)), "\(text), \(limit)")
            }
        }
    }
}
