@testable import FolioLibrary
import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// `migrate(to:)`: a library's catalog — scores, bookmarks, setlists with notes, members with
/// their sessions, the history of changes — moved from its SQLite file to PostgreSQL and back,
/// nothing lost (every answer the same before and after), the folder then naming where its
/// catalog is (`.folio/catalog`, no password in it), and a target that holds a catalog refused.
final class CatalogMigrationTests: XCTestCase {
    private var folder: URL!
    private let postgres = PostgresTestCatalog()

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-migrate-\(UUID().uuidString)")
        try TestEnvironment.copy(at: TestEnvironment.repositoryRoot.appendingPathComponent("Samples"), to: folder)
    }

    override func tearDownWithError() throws {
        unsetenv(CatalogLocation.passwordFileVariable)
        postgres.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Everything a user sees of the catalog, as text.
    private func answers(_ catalog: LibraryCatalog) throws -> [String] {
        var seen: [String] = []
        let all = try catalog.search(LibraryQuery(includeBookmarks: true))
        seen += all.map { "\($0.id) \($0.path) \($0.title) \($0.metadata.composers) \($0.bookmark?.start ?? 0)" }
        for text in ["dvořák", "чайк", "cancion", "no", "s"] {
            var query = LibraryQuery(text: text, includeBookmarks: true)
            query.limit = 7
            seen += try catalog.search(query).map { "\(text): \($0.id) \($0.title)" }
        }
        seen += try catalog.facets().map { "\($0.field) \($0.value) \($0.count)" }
        for summary in try catalog.setlists() {
            let setlist = try catalog.setlist(named: summary.name)
            seen += setlist.entries.map { "\(summary.name) \(summary.folder ?? "-"): \($0.title) \($0.path ?? "-") \($0.note ?? "-")" }
        }
        seen += try catalog.members().map { "\($0.id) \($0.name) \($0.role) \($0.instrument ?? "-")" }
        for entry in all where entry.bookmark == nil {
            seen += try catalog.changes(score: entry.path).map { "\(entry.path): \($0.change) \($0.author ?? "-") \($0.versionAfter)" }
        }
        return seen
    }

    func testACatalogMovesToPostgreSQLAndBackWithNothingLost() throws {
        let catalog = try LibraryCatalog(folder: folder.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        let paths = try catalog.paths()
        XCTAssertGreaterThanOrEqual(paths.count, 3)
        try catalog.createSetlist("Koncert – Дворжак", folder: "Sezóna")
        try catalog.addToSetlist("Koncert – Дворжак", .score(path: paths[0]))
        try catalog.addToSetlist("Koncert – Дворжак", .placeholder(title: "Přídavek – 歌"))
        _ = try catalog.noteSetlistEntry("Koncert – Дворжак", at: 1, note: "attacca")
        let added = try catalog.addMember(MemberSetting(name: "Zoë Nováková", role: .librarian, instrument: "Violin II"))
        let session = try catalog.redeemInvitation(added.invitation.token, password: "Smetana – Vltava 1874")
        _ = try catalog.edit(score: paths[1], expected: nil, change: "Rating 4", author: "Борис") { document in
            var change = ScoreChange()
            change.edit.rating = 4
            _ = try change.apply(to: document)
        }
        let before = try answers(catalog)
        XCTAssertTrue(before.contains { $0.contains("Rating 4 Борис") }, "the history is among what is compared")

        // To PostgreSQL: the address in .folio/catalog, the password only in the file named by the environment.
        let shared = try postgres.shared(prefix: "stěhování")
        let moved = try catalog.migrate(to: .postgresql(shared.address))
        XCTAssertEqual(moved.rows["score"], paths.count + (try catalog.unreadable().count))
        XCTAssertEqual(moved.rows["setlist_entry"], 2)
        XCTAssertEqual(moved.rows["member_session"], 1)
        XCTAssertEqual(moved.rows["undo_step"], 1)
        let marker = try String(contentsOf: folder.appendingPathComponent(LibraryCatalog.locationFile), encoding: .utf8)
        XCTAssertEqual(marker, shared.address.description + "\n")
        XCTAssertFalse(marker.contains(try XCTUnwrap(shared.address.password)), "no password in the folder")
        XCTAssertEqual(try sqliteRows("score", of: catalog), 0, "the SQLite file is emptied")
        let kept = try XCTUnwrap(moved.kept)
        XCTAssertEqual(try TestEnvironment.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM score").fetchone()[0])
            """, kept), String(moved.rows["score"] ?? -1), "the SQLite catalog as it was is kept")
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM score"), String(moved.rows["score"] ?? -1))

        // Opened again, as every command opens it: PostgreSQL's, with every answer as before.
        XCTAssertThrowsError(try LibraryCatalog(folder: folder.path, create: false), "no password, no catalog") { error in
            XCTAssertEqual((error as? LibraryError)?.code, .unavailable, "\(error)")
        }
        setenv(CatalogLocation.passwordFileVariable, try TestPostgres.shared().passwordFile, 1)
        let reopened = try LibraryCatalog(folder: folder.path, create: false)
        XCTAssertNotNil(reopened.shared)
        XCTAssertEqual(try answers(reopened), before)
        XCTAssertEqual(try reopened.member(session: session.token)?.name, "Zoë Nováková")
        var locator = CatalogLocator()
        let found = try XCTUnwrap(locator.catalog(for: folder.appendingPathComponent(paths[1]).path))
        XCTAssertEqual(found.1, paths[1])
        XCTAssertNotNil(found.0.shared, "the locator opens the PostgreSQL catalog too")
        // A scan now writes to PostgreSQL: a new file is found there.
        try TestEnvironment.copy(at: folder.appendingPathComponent(paths[0]), to: folder.appendingPathComponent("Nová – 新しい.pdf"))
        XCTAssertEqual(try LibraryScanner(catalog: reopened).scan().added, 1)
        XCTAssertEqual(try postgres.psql("SELECT count(*) FROM score"), String((moved.rows["score"] ?? 0) + 1))
        let after = try answers(reopened)

        // Into a database that holds a catalog: refused, nothing changed.
        let bytes = try Data(contentsOf: folder.appendingPathComponent(LibraryCatalog.locationFile))
        let again = try LibraryCatalog(folder: folder.path, databasePath: folder.appendingPathComponent("other.sqlite").path, shared: nil)
        _ = try LibraryScanner(catalog: again).scan()
        XCTAssertThrowsError(try again.migrate(to: .postgresql(shared.address))) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .invalidArgument, "\(error)")
            XCTAssertTrue("\(error)".contains("empty"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(LibraryCatalog.locationFile)), bytes)
        XCTAssertThrowsError(try reopened.migrate(to: .postgresql(shared.address))) { error in
            XCTAssertTrue("\(error)".contains("already"), "\(error)")
        }

        // Back to SQLite (the emptied file): the marker gone, every answer as in PostgreSQL.
        let back = try reopened.migrate(to: .sqlite(path: nil))
        XCTAssertEqual(back.rows["score"], (moved.rows["score"] ?? 0) + 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(LibraryCatalog.locationFile).path))
        let local = try LibraryCatalog(folder: folder.path, create: false)
        XCTAssertNil(local.shared)
        XCTAssertEqual(try answers(local), after)
        XCTAssertThrowsError(try local.migrate(to: .sqlite(path: nil))) { error in
            XCTAssertTrue("\(error)".contains("already"), "\(error)")
        }
        // New ids go on after the copied ones in both.
        try TestEnvironment.copy(at: folder.appendingPathComponent(paths[0]), to: folder.appendingPathComponent("Další.pdf"))
        _ = try LibraryScanner(catalog: local).scan()
        let ids = try local.search(LibraryQuery()).map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count)
    }
}
