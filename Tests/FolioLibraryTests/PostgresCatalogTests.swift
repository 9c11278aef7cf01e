@testable import FolioLibrary
import FolioTestSupport
import Foundation
import FolioScore
import GRDB
import XCTest

/// The catalog's PostgreSQL database against a real server (Debian's, started by the tests):
/// its schema is SQLite's, servers that start together migrate it once, and what fails is told
/// in the library's words. What is checked is read back with `psql`, the reference client.
final class PostgresCatalogTests: XCTestCase {
    private var server: TestPostgres!
    private var databases: [String] = []
    private var directory: URL!

    override func setUpWithError() throws {
        server = try TestPostgres.shared()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-pg-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for name in databases { server.dropDatabase(name) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new database of this test's (dropped when it ends) and its address.
    private func newAddress(prefix: String = "t") throws -> (name: String, address: PostgresAddress) {
        let catalog = try server.newCatalog(prefix: prefix)
        databases.append(catalog.name)
        return catalog
    }

    /// A column as both databases can tell it: name (PostgreSQL folds unquoted names to lower
    /// case), kind of value and whether NULL is allowed.
    private struct Column: Hashable, CustomStringConvertible {
        let table: String, name: String, kind: String, notNull: Bool
        var description: String { "\(table).\(name) \(kind)\(notNull ? " NOT NULL" : "")" }
    }

    /// SQLite's kinds (declared types) and PostgreSQL's, by the values they hold.
    private static func kind(_ declared: String) -> String {
        switch declared.lowercased() {
        case "integer", "bigint": "integer"
        case "real", "double precision": "real"
        case "text": "text"
        default: declared.lowercased()
        }
    }

    func testTheSchemaHoldsWhatTheSQLiteCatalogHolds() throws {
        let (name, address) = try newAddress()
        let database = try PostgresCatalog(address: address)
        defer { database.close() }
        // SQLite's tables, less the text index (FTS5 there, `PostgresSearchText`'s own tables and `facet.words` here) and the bookkeeping.
        _ = try LibraryCatalog(folder: directory.path)
        let queue = try DatabaseQueue(path: LibraryCatalog.defaultDatabasePath(folder: directory.path))
        let sqlite: Set<Column> = try queue.read { db in
            var columns = Set<Column>()
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                    AND name NOT LIKE 'entry_text%' AND name != 'grdb_migrations'
                """)
            for table in tables {
                for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))") {
                    // A primary key is never NULL in either, whatever SQLite's table says.
                    let notNull = (row["notnull"] as Int) == 1 || (row["pk"] as Int) > 0
                    columns.insert(Column(table: table, name: (row["name"] as String).lowercased(), kind: Self.kind(row["type"]), notNull: notNull))
                }
            }
            return columns
        }
        XCTAssertGreaterThan(sqlite.count, 80)
        let listed = try server.psql("""
            SELECT table_name || '|' || column_name || '|' || data_type || '|' || is_nullable FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name != 'folio_schema' AND table_name NOT LIKE 'guess_%'
                AND table_name NOT LIKE 'entry_text%' AND NOT (table_name = 'facet' AND column_name = 'words') ORDER BY 1
            """, database: name)
        let postgres = Set(listed.split(separator: "\n").map { line -> Column in
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return Column(table: parts[0], name: parts[1], kind: Self.kind(parts[2]), notNull: parts[3] == "NO")
        })
        XCTAssertEqual(sqlite.subtracting(postgres).sorted(by: { $0.description < $1.description }), [], "in SQLite only")
        XCTAssertEqual(postgres.subtracting(sqlite).sorted(by: { $0.description < $1.description }), [], "in PostgreSQL only")
        XCTAssertEqual(try server.psql("SELECT max(version) FROM folio_schema", database: name), String(PostgresSchema.latest))
        XCTAssertEqual(try server.psql("SELECT changes FROM catalog_state", database: name), "0")
    }

    /// Six servers opening one new catalog at once: one migrates, the others wait and find it done.
    func testServersStartedTogetherMigrateOnce() throws {
        let (name, address) = try newAddress(prefix: "ноты")
        XCTAssertTrue(name.hasPrefix("ноты_"))
        let failures = NSLock()
        nonisolated(unsafe) var errors: [String] = []
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let database = try PostgresCatalog(address: address, maxConnections: 2)
                database.close()
            } catch {
                failures.lock()
                errors.append("\(error)")
                failures.unlock()
            }
        }
        XCTAssertEqual(errors, [])
        XCTAssertEqual(try server.psql("SELECT count(*) FROM folio_schema", database: name), String(PostgresSchema.latest))
        XCTAssertEqual(try server.psql("SELECT count(*) FROM catalog_state", database: name), "1")
        // Opened again: nothing to do, nothing doubled.
        try PostgresCatalog(address: address).close()
        XCTAssertEqual(try server.psql("SELECT count(*) FROM folio_schema", database: name), String(PostgresSchema.latest))
    }

    func testATransactionIsWholeOrNotAtAll() throws {
        let (name, address) = try newAddress()
        let database = try PostgresCatalog(address: address)
        defer { database.close() }
        struct Stop: Error {}
        let names = ["Dvořák", "Чайковский", "坂本龍一", "Ευαγγελία", "محمد عبد الوهاب"]
        XCTAssertThrowsError(try database.transaction { connection in
            for (index, person) in names.enumerated() {
                try connection.run("""
                    INSERT INTO member (name, nameKey, role, createdAt) VALUES (\(person), \(LibraryCatalog.nameKey(person)), 'player', \(Double(index)))
                    """)
            }
            throw Stop()
        })
        XCTAssertEqual(try server.psql("SELECT count(*) FROM member", database: name), "0")
        try database.transaction { connection in
            for (index, person) in names.enumerated() {
                try connection.run("""
                    INSERT INTO member (name, nameKey, role, createdAt) VALUES (\(person), \(LibraryCatalog.nameKey(person)), 'player', \(Double(index)))
                    """)
            }
        }
        XCTAssertEqual(try server.psql("SELECT string_agg(name, ',' ORDER BY createdAt) FROM member", database: name), names.joined(separator: ","))
        // A name taken is `.taken`, as in SQLite's catalog; the connection serves on after the rollback.
        XCTAssertThrowsError(try database.transaction { connection in
            try connection.run("INSERT INTO member (name, nameKey, role, createdAt) VALUES ('dvořák', \(LibraryCatalog.nameKey("DVOŘÁK")), 'player', 9)")
        }) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .taken, "\(error)")
        }
        let count: Int? = try database.read { try $0.scalar("SELECT count(*) FROM member") }
        XCTAssertEqual(count, names.count)
    }

    func testAServerThatCannotBeReachedIsUnavailableAndANewerSchemaRefused() throws {
        let (name, address) = try newAddress()
        var wrong = address
        wrong.password = "not the password"
        XCTAssertThrowsError(try PostgresCatalog(address: wrong)) { error in
            let failure = error as? LibraryError
            XCTAssertEqual(failure?.code, .unavailable, "\(error)")
            XCTAssertNotNil(failure?.retryAfter)
            XCTAssertFalse(failure?.message.contains("not the password") ?? true)
        }
        var closed = address
        closed.port = server.port == 65535 ? 65534 : server.port + 1
        XCTAssertThrowsError(try PostgresCatalog(address: closed)) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .unavailable, "\(error)")
        }
        // A catalog a newer folio migrated is left alone.
        try PostgresCatalog(address: address).close()
        try server.psql("INSERT INTO folio_schema (version, name) VALUES (\(PostgresSchema.latest + 1), 'from the future')", database: name)
        XCTAssertThrowsError(try PostgresCatalog(address: address)) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .database)
            XCTAssertTrue("\(error)".contains("update folio"), "\(error)")
        }
        XCTAssertEqual(try server.psql("SELECT count(*) FROM folio_schema", database: name), String(PostgresSchema.latest + 1))
    }

    /// The catalog's server going away and coming back: while it is away every call is
    /// `.unavailable` with a time to try again, at once (nothing hangs); once it is back the next
    /// call works, on new connections, with nothing restarted; a restart while idle goes unnoticed.
    func testACatalogWhoseServerGoesAwayRecoversByItself() throws {
        let (name, address) = try newAddress()
        let database = try PostgresCatalog(address: address, maxConnections: 3)
        defer { database.close() }
        let catalog = try LibraryCatalog(folder: directory.path, shared: database)
        _ = try catalog.addMember(MemberSetting(name: "Antonín Dvořák", role: .librarian))
        // Three connections kept open.
        DispatchQueue.concurrentPerform(iterations: 3) { _ in _ = try? catalog.members() }
        XCTAssertNoThrow(try catalog.checkHealth())
        try server.stop()
        var stopped = true
        defer { if stopped { try? server.start() } }
        XCTAssertThrowsError(try catalog.checkHealth()) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .unavailable, "\(error)")
            XCTAssertNotNil((error as? LibraryError)?.retryAfter)
        }
        for _ in 0..<3 {
            let asked = Date()
            XCTAssertThrowsError(try catalog.members()) { error in
                XCTAssertEqual((error as? LibraryError)?.code, .unavailable, "\(error)")
                XCTAssertNotNil((error as? LibraryError)?.retryAfter)
            }
            XCTAssertLessThan(Date().timeIntervalSince(asked), Double(PostgresCatalog.timeout.nanoseconds) / 1e9)
        }
        try server.start()
        stopped = false
        XCTAssertNoThrow(try catalog.checkHealth(), "healthy again by itself")
        XCTAssertEqual(try catalog.members().map(\.name), ["Antonín Dvořák"])
        _ = try catalog.addMember(MemberSetting(name: "Пётр Чайковский"))
        // Restarted between two calls: the kept connections are dead, and replaced unseen.
        DispatchQueue.concurrentPerform(iterations: 3) { _ in _ = try? catalog.members() }
        try server.stop()
        try server.start()
        XCTAssertEqual(try catalog.members().map(\.name), ["Antonín Dvořák", "Пётр Чайковский"])
        XCTAssertEqual(try server.psql("SELECT string_agg(name, ',' ORDER BY id) FROM member", database: name), "Antonín Dvořák,Пётр Чайковский")
    }
}
