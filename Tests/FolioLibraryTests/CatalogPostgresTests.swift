@testable import FolioLibrary
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

// Every test of the catalog's setlists, tracks, parts and edit history again with the catalog in
// PostgreSQL: the same operations give the same answers (the parity of both stores). A test
// that opens the catalog again opens a new connection to the same database, as a restarted
// server does. Each class adds what the rows are where they should be: in PostgreSQL (read by
// `psql`), none in the SQLite file beside (read by Python's sqlite3).

/// How many rows `table` has in the SQLite file of `catalog`, read by Python's sqlite3.
func sqliteRows(_ table: String, of catalog: LibraryCatalog) throws -> Int {
    let count = try TestEnvironment.python("""
        import sqlite3, sys
        print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM \(table)").fetchone()[0])
        """, catalog.databasePath)
    return try XCTUnwrap(Int(count))
}

final class SetlistCatalogPostgresTests: SetlistCatalogTests {
    private let postgres = PostgresTestCatalog()

    override func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path, shared: try postgres.shared(prefix: "setlisty"))
    }

    /// Two servers adding to one setlist at once (a librarian at each): every entry is kept,
    /// at positions 0 to n − 1 with none twice, and both servers show the same list.
    func testTwoServersAddingToOneSetlistKeepEveryEntryInOrder() throws {
        let first = try makeCatalog()
        let second = try makeCatalog()
        _ = try LibraryScanner(catalog: first).scan()
        try first.createSetlist("Koncert – Дворжак", folder: "Sezóna 2026")
        let titles = ["Largo", "Humoreska", "Rusalka", "Polka", "Мазурка", "Furiant", "Dumka", "歌", "Valčík", "Finále"]
        let lock = NSLock()
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: titles.count) { index in
            do {
                try (index % 2 == 0 ? first : second).addToSetlist("Koncert – Дворжак", .placeholder(title: titles[index]))
            } catch {
                lock.lock()
                failures.append("\(error)")
                lock.unlock()
            }
        }
        XCTAssertEqual(failures, [])
        let shown = try first.setlist(named: "Koncert – Дворжак")
        XCTAssertEqual(shown, try second.setlist(named: "Koncert – Дворжак"))
        XCTAssertEqual(Set(shown.entries.map(\.title)), Set(titles))
        XCTAssertEqual(try postgres.psql("SELECT string_agg(position::text, ',' ORDER BY position) FROM setlist_entry"),
                       (0..<titles.count).map(String.init).joined(separator: ","))
        XCTAssertEqual(try sqliteRows("setlist", of: first), 0, "nothing of it in the SQLite file")
    }

    override func tearDownWithError() throws {
        postgres.close()
        try super.tearDownWithError()
    }
}

final class TrackCatalogPostgresTests: TrackCatalogTests {
    private let postgres = PostgresTestCatalog()
    private var made: [LibraryCatalog] = []

    override func makeCatalog() throws -> LibraryCatalog {
        let catalog = try LibraryCatalog(folder: folder.path, shared: try postgres.shared(prefix: "nahrávky"))
        made.append(catalog)
        return catalog
    }

    /// The links and audio files are PostgreSQL's rows, as `psql` reads them; the SQLite file has none.
    override func testSetlistPiecesOpenWithTheirTracks() throws {
        try super.testSetlistPiecesOpenWithTheirTracks()
        let catalog = try XCTUnwrap(made.last)
        XCTAssertEqual(try postgres.psql("SELECT string_agg(file || ' ' || coalesce(\"offset\"::text, '-'), ', ' ORDER BY id) FROM track"),
                       try catalog.tracks().map { "\($0.file) \($0.offset.map { String(Int($0)) } ?? "-")" }.joined(separator: ", "))
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM audio"), "2")
        XCTAssertEqual(try sqliteRows("track", of: catalog) + sqliteRows("audio", of: catalog), 0)
    }

    override func tearDownWithError() throws {
        postgres.close()
        try super.tearDownWithError()
    }
}

final class PartCatalogPostgresTests: PartCatalogTests {
    private let postgres = PostgresTestCatalog()

    override func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path, shared: try postgres.shared(prefix: "party"))
    }

    /// A label set through one server is what the other shows a player at once.
    override func testLabelsSetByHand() throws {
        try super.testLabelsSetByHand()
        let (one, other) = (try makeCatalog(), try makeCatalog())
        _ = try one.setPart(PartSetting(score: "Tuba – Vltava.pdf", label: "Труба", song: "Vltava"))
        XCTAssertEqual(try postgres.psql("SELECT partLabel || ' ' || partSong FROM score WHERE partLabel IS NOT NULL"), "Труба Vltava")
        let shown = try XCTUnwrap(try other.parts(of: "Tuba – Vltava.pdf").parts.first { $0.path == "Tuba – Vltava.pdf" })
        XCTAssertEqual(shown.label, PartLabel(userLabel: "Труба"))
        XCTAssertTrue(shown.set)
        XCTAssertEqual(try sqliteRows("score", of: other), 0)
    }

    override func tearDownWithError() throws {
        postgres.close()
        try super.tearDownWithError()
    }
}

final class LibraryEditPostgresTests: LibraryEditTests {
    private let postgres = PostgresTestCatalog()

    override func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path, shared: try postgres.shared(prefix: "úpravy"))
    }

    /// The locator opens the catalog the folder's `.folio/catalog` names, as every command does.
    override func testTheLocatorFindsTheLibraryAboveAFileAndOnlyCataloguedFiles() throws {
        let shared = try postgres.shared(prefix: "úpravy")
        let marker = folder.appendingPathComponent(LibraryCatalog.locationFile)
        try FileManager.default.createDirectory(at: marker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((shared.address.description + "\n").utf8).write(to: marker)
        setenv(CatalogLocation.passwordFileVariable, try TestPostgres.shared().passwordFile, 1)
        defer { unsetenv(CatalogLocation.passwordFileVariable) }
        try super.testTheLocatorFindsTheLibraryAboveAFileAndOnlyCataloguedFiles()
    }

    /// The history is PostgreSQL's: what one server recorded, the other lists, and `psql` reads.
    override func testAnotherWritersChangeIsNeverUndoneOver() throws {
        try super.testAnotherWritersChangeIsNeverUndoneOver()
        let other = try makeCatalog()
        let changes = try other.changes(score: "Opera/Dvořák – Rusalka.pdf")
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM undo_step"), String(changes.count))
        XCTAssertEqual(try sqliteRows("undo_step", of: other), 0)
    }

    override func tearDownWithError() throws {
        postgres.close()
        try super.tearDownWithError()
    }
}
