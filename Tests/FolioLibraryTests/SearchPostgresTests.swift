@testable import FolioLibrary
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// A catalog kept in a PostgreSQL database of its own, for a test that runs on one: made at
/// the first call, dropped at the end.
final class PostgresTestCatalog {
    private var server: TestPostgres?
    private var database: (name: String, address: PostgresAddress)?
    private var opened: [PostgresCatalog] = []

    /// A server's connection to the test's database (made at the first call, `prefix` its name's start).
    func shared(prefix: String) throws -> PostgresCatalog {
        if database == nil {
            let server = try TestPostgres.shared()
            self.server = server
            database = try server.newCatalog(prefix: prefix)
        }
        guard let database else { throw TestFailure("no database") }
        let catalog = try PostgresCatalog(address: database.address, maxConnections: 4)
        opened.append(catalog)
        return catalog
    }

    /// What `psql` answers in the test's database.
    func psql(_ sql: String) throws -> String {
        guard let server, let database else { throw TestFailure("no database") }
        return try server.psql(sql, database: database.name)
    }

    func close() {
        for catalog in opened { catalog.close() }
        opened = []
        if let server, let database { server.dropDatabase(database.name) }
        database = nil
    }
}

/// Every test of ``SearchSpellingTests`` again with the catalog in PostgreSQL: the same
/// spellings find the same scores in the same order.
final class SearchSpellingPostgresTests: SearchSpellingTests {
    private let postgres = PostgresTestCatalog()

    override func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path, shared: try postgres.shared(prefix: "pravopis"))
    }

    override func tearDownWithError() throws {
        try super.tearDownWithError()
        postgres.close()
    }

    /// SQLite's index is rebuilt from its entries; PostgreSQL's keeps its counts (what bm25
    /// weighs a row's length against) by a trigger: after scores are stored, replaced and
    /// removed, they are the rows' own, read by `psql`.
    override func testACatalogStoredBeforeTheseRulesIsIndexedAgain() throws {
        func check(_ label: String) throws {
            let counted = try postgres.psql("SELECT rows || ' ' || tokens FROM entry_text_stats")
            let real = try postgres.psql("SELECT count(*) || ' ' || coalesce(sum(tokens), 0) FROM entry_text")
            XCTAssertEqual(counted, real, label)
            XCTAssertEqual(try postgres.psql("SELECT count(*) FROM entry_text t LEFT JOIN entry e ON e.id = t.entryId WHERE e.id IS NULL"),
                           "0", "\(label): no text without its entry")
        }
        try check("stored")
        XCTAssertEqual(try found("rusalka"), ["Rusalka"])
        let rusalka = try XCTUnwrap(catalog.show("Dvořák/Rusalka.pdf").first)
        try catalog.storeWrite { try LibraryCatalog.remove(id: rusalka.id, in: $0) }
        try check("removed")
        XCTAssertEqual(try found("rusalka"), [])
        let record = ScoreRecord(stamp: FileStamp(path: "Wien/Donau.pdf", size: 2, modified: 2), pageCount: 4, version: "1.7",
                                 encrypted: false, metadata: ScoreMetadata(title: "An der schönen blauen Donau", composers: ["Johann Strauss II"]),
                                 bookmarks: [], annotations: [:], warnings: [], error: nil)
        let donau = try XCTUnwrap(catalog.show("Wien/Donau.pdf").first)
        _ = try catalog.storeWrite { try LibraryCatalog.store(record, id: donau.id, in: $0) }
        try check("replaced")
        XCTAssertEqual(try found("schoenen"), ["An der schönen blauen Donau"])
        XCTAssertEqual(try found("strasse"), [])
    }
}

/// Every test of ``SearchRankingTests`` again with the catalog in PostgreSQL, the expected
/// orders from SQLite's own bm25 over a twin catalog filled the same way.
final class SearchRankingPostgresTests: SearchRankingTests {
    private let postgres = PostgresTestCatalog()
    private var twin: LibraryCatalog?

    override func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path, shared: try postgres.shared(prefix: "řazení"))
    }

    override func reference() throws -> LibraryCatalog {
        if let twin { return twin }
        let made = try LibraryCatalog(folder: folder.path, databasePath: folder.appendingPathComponent("twin.sqlite").path)
        try Self.fill(made)
        twin = made
        return made
    }

    override func tearDownWithError() throws {
        twin = nil
        try super.tearDownWithError()
        postgres.close()
    }

    /// The rank is SQLite's to the last bit: queries of one phrase and of several (each then
    /// weighed by its inverse document frequency), prefixes in four scripts, whole, paged and
    /// with filters, give SQLite's answers in SQLite's order.
    override func testTheRankIsBm25WithoutTheFactorOfAQueryOfOnePhrase() throws {
        let sqlite = try reference()
        var checked = 0
        for text in ["pís", "písně", "Песни", "歌", "dvořák", "písně dvořák", "Τραγούδια písně", "Песни moravy",
                     "č", "99", "písně č 7", "leoš", "pisne janacek", "kosmické písně", "nic takového"] {
            for bookmarks in [false, true] {
                for limit in [nil, 1, 4, 13] as [Int?] {
                    for composer in [nil, "Dvořák"] as [String?] {
                        var query = LibraryQuery(text: text, includeBookmarks: bookmarks)
                        query.limit = limit
                        query.composers = composer.map { [$0] } ?? []
                        XCTAssertEqual(try catalog.search(query), try sqlite.search(query), "\(text) \(bookmarks) \(String(describing: limit)) \(composer ?? "")")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertEqual(checked, 240)
        XCTAssertGreaterThan(try catalog.search(LibraryQuery(text: "písně dvořák", includeBookmarks: true)).count, 3)
    }
}
