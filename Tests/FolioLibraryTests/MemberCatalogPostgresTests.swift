@testable import FolioLibrary
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// Every test of ``MemberCatalogTests`` again, with the members in PostgreSQL (the parity of
/// both stores: the same operations, the same answers), and what only several servers sharing
/// one PostgreSQL catalog can do: a session opened on one is known to the other, and a rule
/// checked in a write holds when two servers write at once.
final class MemberCatalogPostgresTests: MemberCatalogTests {
    private var server: TestPostgres!
    private var databases: [String] = []
    private var opened: [PostgresCatalog] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestPostgres.shared()
    }

    override func tearDownWithError() throws {
        for database in opened { database.close() }
        for name in databases { server.dropDatabase(name) }
        try super.tearDownWithError()
    }

    private var database: (name: String, address: PostgresAddress)?

    /// A server's connection to this test's database (made at the first call).
    private func shared() throws -> PostgresCatalog {
        if database == nil {
            let catalog = try server.newCatalog(prefix: "členové")
            databases.append(catalog.name)
            database = catalog
        }
        guard let database else { throw TestFailure("no database") }
        let catalog = try PostgresCatalog(address: database.address, maxConnections: 4)
        opened.append(catalog)
        return catalog
    }

    override func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path, shared: try shared())
    }

    /// What PostgreSQL keeps: no password, no token (read with pg_dump, the reference tool), and
    /// the scrypt hash recomputed by Python's hashlib.
    override func testTheCatalogKeepsNoSecretAndScryptIsStandard() throws {
        let catalog = try makeCatalog()
        let added = try catalog.addMember(MemberSetting(name: "Zoë", role: .librarian))
        let password = "Smetana – Vltava 1874"
        let session = try catalog.redeemInvitation(added.invitation.token, password: password)
        guard let database else { throw TestFailure("no database") }
        let dump = try server.dump(database: database.name)
        XCTAssertTrue(dump.contains("Zoë"), "the dump holds the member")
        for secret in [password, session.token, added.invitation.token] {
            XCTAssertFalse(dump.contains(secret), "the catalog keeps \(secret)")
        }
        let stored = try server.psql("SELECT password FROM member", database: database.name)
        let script = """
            import base64, hashlib, sys
            kind, n, r, p, salt, key = sys.argv[2].split("$")
            derived = hashlib.scrypt(sys.argv[1].encode(), salt=base64.b64decode(salt), n=2 ** int(n), r=int(r), p=int(p), maxmem=2 ** 26, dklen=len(base64.b64decode(key)))
            print(kind, n, r, p, derived == base64.b64decode(key))
            """
        XCTAssertEqual(try TestEnvironment.python(script, password, stored), "scrypt 15 8 1 True")
    }

    /// PostgreSQL catalogs start with keys (no older form to migrate from): each member's is
    /// their own, 32 hex digits, as SQLite's.
    override func testMembersOfAnOlderCatalogGetKeysOfTheirOwn() throws {
        let catalog = try makeCatalog()
        for name in ["Zoë Král", "Борис", "李雷", "Ευαγγελία"] { _ = try catalog.addMember(MemberSetting(name: name)) }
        let keys = try catalog.members().map(\.key)
        XCTAssertTrue(keys.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() }, "\(keys)")
        XCTAssertEqual(Set(keys).count, 4)
    }

    /// Two servers on one catalog: a session opened on one is known to the other and ends on both.
    func testASessionOpenedOnOneServerIsKnownToTheOther() throws {
        let first = try makeCatalog(), second = try makeCatalog()
        let added = try first.addMember(MemberSetting(name: "Jiří Dvořák", role: .librarian))
        XCTAssertEqual(try second.invitedMember(added.invitation.token).name, "Jiří Dvořák")
        let session = try second.redeemInvitation(added.invitation.token, password: "lesní roh – 号角")
        XCTAssertEqual(try first.member(session: session.token)?.name, "Jiří Dvořák")
        XCTAssertThrowsError(try first.redeemInvitation(added.invitation.token, password: "again and again")) {
            XCTAssertEqual(($0 as? LibraryError)?.kind, .forbidden)
        }
        try first.endSession(session.token)
        XCTAssertNil(try second.member(session: session.token))
        XCTAssertEqual(try first.members(), try second.members())
    }

    /// Two servers each demoting one of the two librarians at once, many times over: the rule
    /// "one librarian stays" holds every time (one demotion is refused with `.conflict`), because
    /// writes take the catalog's write lock as SQLite's take its one writer.
    func testARuleCheckedInAWriteHoldsWhenTwoServersWriteAtOnce() throws {
        let first = try makeCatalog(), second = try makeCatalog()
        var left: [String] = []
        for round in 0..<15 {
            // Exactly two librarians: this round's pair (the one left by the last round becomes a player).
            let names = ["Anna \(round)", "Борис \(round)"]
            for name in names { _ = try first.addMember(MemberSetting(name: name, role: .librarian)) }
            for name in left { _ = try second.setMember(name, MemberSetting(role: .player)) }
            let outcomes = NSLock()
            nonisolated(unsafe) var refused = 0, demoted = 0, other: [String] = []
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let catalog = index == 0 ? first : second
                do {
                    _ = try catalog.setMember(names[index], MemberSetting(role: .player))
                    outcomes.lock(); demoted += 1; outcomes.unlock()
                } catch let error as LibraryError where error.code == .conflict {
                    outcomes.lock(); refused += 1; outcomes.unlock()
                } catch {
                    outcomes.lock(); other.append("\(error)"); outcomes.unlock()
                }
            }
            XCTAssertEqual(other, [])
            XCTAssertEqual([demoted, refused], [1, 1], "round \(round)")
            let librarians = try second.members().filter { $0.role == .librarian }
            XCTAssertEqual(librarians.count, 1, "round \(round): \(librarians.map(\.name))")
            left = librarians.map(\.name)
        }
    }
}
