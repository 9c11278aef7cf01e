@testable import FolioLibrary
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// Members in the catalog: names in several scripts told apart without regard to case, roles
/// and their rights, invitations that work once, sessions that end, passwords kept only as
/// scrypt (checked against Python's hashlib.scrypt) and tokens only as SHA-256.
/// `MemberCatalogPostgresTests` runs every one of these again with the members in PostgreSQL.
class MemberCatalogTests: XCTestCase {
    var folder: URL!

    /// The catalog a test works on: SQLite's here, PostgreSQL's in the subclass.
    func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path)
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-members-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testMembersAreAddedChangedAndRemovedByName() throws {
        let catalog = try makeCatalog()
        XCTAssertFalse(try catalog.hasMembers())
        let librarian = try catalog.addMember(MemberSetting(name: "Zoë Král", role: .librarian)).member
        let anna = try catalog.addMember(MemberSetting(name: " Anna Nováková ", role: .player, instrument: "Violin II")).member
        XCTAssertEqual(anna.name, "Anna Nováková")
        XCTAssertEqual(anna.section, .strings, "from the instrument")
        XCTAssertEqual(anna.layerName, "Anna Nováková — Violin II")
        XCTAssertFalse(anna.hasPassword)
        // Unique without regard to case and Unicode form ("Á" composed or not).
        let decomposed = "ANNA NOVA\u{301}KOVA\u{301}"
        XCTAssertThrowsError(try catalog.addMember(MemberSetting(name: decomposed))) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .taken)
            XCTAssertTrue((error as? LibraryError)?.message.contains("Anna Nováková") == true, "\(error)")
        }
        XCTAssertEqual(try catalog.member(named: decomposed).id, anna.id)
        let li = try catalog.addMember(MemberSetting(name: "李雷", role: .conductor)).member
        XCTAssertEqual(try catalog.members().map(\.name), ["Anna Nováková", "Zoë Král", "李雷"])
        // Changed: a section of its own, back to the instrument's, a new name in another script.
        XCTAssertEqual(try catalog.setMember("anna nováková", MemberSetting(section: "Chor")).section, .voices)
        XCTAssertEqual(try catalog.setMember("Anna Nováková", MemberSetting(instrument: "Trumpet in Bb", section: "")).section, .brass)
        XCTAssertEqual(try catalog.setMember("Anna Nováková", MemberSetting(name: "Анна")).name, "Анна")
        XCTAssertThrowsError(try catalog.setMember("Анна", MemberSetting(name: "李雷"))) { XCTAssertEqual(($0 as? LibraryError)?.code, .taken) }
        // Out of form.
        for bad in [MemberSetting(name: "   "), MemberSetting(name: String(repeating: "ж", count: 101)), MemberSetting(name: "a\u{7}b"),
                    MemberSetting(name: "Otto", section: "kazoos"), MemberSetting(name: "Otto", instrument: String(repeating: "x", count: 101))] {
            XCTAssertThrowsError(try catalog.addMember(bad)) { XCTAssertEqual(($0 as? LibraryError)?.kind, .invalidValue, "\(bad)") }
        }
        // The only librarian stays one and goes last.
        XCTAssertThrowsError(try catalog.setMember(librarian.name, MemberSetting(role: .player))) { XCTAssertEqual(($0 as? LibraryError)?.code, .conflict) }
        XCTAssertThrowsError(try catalog.removeMember(librarian.name)) { XCTAssertEqual(($0 as? LibraryError)?.code, .conflict) }
        XCTAssertEqual(try catalog.setMember(li.name, MemberSetting(role: .librarian)).role, .librarian)
        XCTAssertEqual(try catalog.removeMember(librarian.name).id, librarian.id)
        XCTAssertThrowsError(try catalog.member(named: "Zoë Král")) { XCTAssertEqual(($0 as? LibraryError)?.code, .notFound) }
    }

    func testRightsFollowTheRoleAndARefusalNamesWhoMay() throws {
        let player = Member(id: 1, name: "Анна", role: .player, instrument: "Viola", section: .strings, hasPassword: true, createdAt: Date())
        XCTAssertThrowsError(try player.require(.library, to: "delete a score")) { error in
            XCTAssertEqual((error as? LibraryError)?.kind, .forbidden)
            XCTAssertEqual((error as? LibraryError)?.message, "only the librarian may delete a score; Анна is a player")
        }
        XCTAssertNoThrow(try player.require(.markOwn, to: "mark"))
        XCTAssertEqual(MemberRole.holding(.lead), [.librarian, .conductor, .sectionLeader])
        XCTAssertTrue(MemberRole.allCases.allSatisfy { $0.may(.markOwn) })
        XCTAssertEqual(MemberRole.allCases.filter { $0.may(.anyMark) }, [.librarian])
        XCTAssertEqual(MemberRole.allCases.filter { $0.may(.markForAll) }, [.librarian, .conductor])
        // JSON: ISO 8601 dates, and back.
        let data = try JSONEncoder().encode(player)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"createdAt\":\"20"), String(decoding: data, as: UTF8.self))
        XCTAssertEqual(try JSONDecoder().decode(Member.self, from: data).name, "Анна")
    }

    func testAnInvitationWorksOnceAndASessionEnds() throws {
        let catalog = try makeCatalog()
        _ = try catalog.addMember(MemberSetting(name: "Zoë", role: .librarian))
        let added = try catalog.addMember(MemberSetting(name: "Jiří Dvořák", role: .sectionLeader, instrument: "Horn in F 2"))
        let token = added.invitation.token
        XCTAssertTrue(SecretToken.isWellFormed(token))
        XCTAssertEqual(try catalog.invitedMember(token).name, "Jiří Dvořák")
        XCTAssertThrowsError(try catalog.redeemInvitation(token, password: "short")) { XCTAssertEqual(($0 as? LibraryError)?.kind, .invalidValue) }
        let session = try catalog.redeemInvitation(token, password: "lesní roh – 号角")
        XCTAssertEqual(try catalog.member(session: session.token)?.name, "Jiří Dvořák")
        XCTAssertTrue(try catalog.member(named: "jiří dvořák").hasPassword)
        // Twice: refused, the password unchanged.
        XCTAssertThrowsError(try catalog.redeemInvitation(token, password: "another password")) { error in
            XCTAssertEqual((error as? LibraryError)?.kind, .forbidden)
        }
        XCTAssertNil(try catalog.logIn(name: "Jiří Dvořák", password: "another password"))
        XCTAssertNotNil(try catalog.logIn(name: "JIŘÍ DVOŘÁK", password: "lesní roh – 号角"))
        XCTAssertNil(try catalog.logIn(name: "nobody", password: "lesní roh – 号角"))
        // Expired, unknown, malformed.
        let late = try catalog.inviteMember("Zoë", now: Date(timeIntervalSinceNow: -8 * 86_400)).invitation
        XCTAssertThrowsError(try catalog.redeemInvitation(late.token, password: "knihovnice 2026")) { XCTAssertEqual(($0 as? LibraryError)?.kind, .forbidden) }
        XCTAssertThrowsError(try catalog.invitedMember(SecretToken.make())) { XCTAssertEqual(($0 as? LibraryError)?.kind, .notFound) }
        for junk in ["", "../../etc", String(repeating: "A", count: 10_000), "'; DROP TABLE member; --"] {
            XCTAssertThrowsError(try catalog.invitedMember(junk))
            XCTAssertNil(try catalog.member(session: junk))
        }
        // A new invitation voids the unused one; logging out ends the session; a new password ends every session.
        let first = try catalog.inviteMember("Zoë").invitation, second = try catalog.inviteMember("Zoë").invitation
        XCTAssertThrowsError(try catalog.invitedMember(first.token))
        let zoe = try catalog.redeemInvitation(second.token, password: "knihovnice 2026")
        try catalog.endSession(zoe.token)
        XCTAssertNil(try catalog.member(session: zoe.token))
        let again = try XCTUnwrap(try catalog.logIn(name: "Zoë", password: "knihovnice 2026"))
        try catalog.setMemberPassword("Zoë", password: "nové heslo 2027")
        XCTAssertNil(try catalog.member(session: again.token))
        // Sessions expire.
        let old = try XCTUnwrap(try catalog.logIn(name: "Zoë", password: "nové heslo 2027", now: Date(timeIntervalSinceNow: -31 * 86_400)))
        XCTAssertNil(try catalog.member(session: old.token))
        // Removing a member ends their sessions.
        let jiri = try XCTUnwrap(try catalog.logIn(name: "Jiří Dvořák", password: "lesní roh – 号角"))
        try catalog.removeMember("Jiří Dvořák")
        XCTAssertNil(try catalog.member(session: jiri.token))
    }

    /// What the catalog keeps: no password, no token — checked by reading the SQLite file with
    /// Python, and the scrypt hash recomputed by Python's hashlib.
    func testTheCatalogKeepsNoSecretAndScryptIsStandard() throws {
        let catalog = try LibraryCatalog(folder: folder.path)
        let added = try catalog.addMember(MemberSetting(name: "Zoë", role: .librarian))
        let password = "Smetana – Vltava 1874"
        let session = try catalog.redeemInvitation(added.invitation.token, password: password)
        let script = """
            import base64, hashlib, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            dump = "\\n".join(db.iterdump())
            for secret in sys.argv[2:]:
                assert secret not in dump, secret
            (stored,) = db.execute("SELECT password FROM member").fetchone()
            kind, n, r, p, salt, key = stored.split("$")
            derived = hashlib.scrypt(sys.argv[2].encode(), salt=base64.b64decode(salt), n=2 ** int(n), r=int(r), p=int(p), maxmem=2 ** 26, dklen=len(base64.b64decode(key)))
            print(kind, n, r, p, derived == base64.b64decode(key))
            """
        let result = try TestEnvironment.runTool("python3", ["-c", script, catalog.databasePath, password, session.token, added.invitation.token])
        XCTAssertEqual(String(decoding: result.stdout, as: UTF8.self), "scrypt 15 8 1 True\n", String(decoding: result.stderr, as: UTF8.self))
    }

    /// A stored hash out of form or out of bounds (a damaged or tampered catalog) verifies
    /// nothing and asks for no unbounded memory; random texts never trap.
    func testAStoredHashOutOfBoundsVerifiesNothing() throws {
        let good = try PasswordHash.make("correct horse battery")
        XCTAssertTrue(PasswordHash.verify("correct horse battery", stored: good))
        XCTAssertFalse(PasswordHash.verify("correct horse batterY", stored: good))
        let parts = good.split(separator: "$").map(String.init)
        for (index, value) in [(1, "40"), (1, "-1"), (1, "9223372036854775807"), (2, "0"), (2, "100000"), (3, "64"), (4, "!!"), (5, "")] {
            var changed = parts
            changed[index] = value
            XCTAssertFalse(PasswordHash.verify("correct horse battery", stored: changed.joined(separator: "$")), "\(index)=\(value)")
        }
        var generator = SeededGenerator(#function)
        for _ in 0..<300 {
            let length = Int.random(in: 0...80, using: &generator)
            let text = String((0..<length).map { _ in "scrypt$0123456789+/=ABCabcжé".randomElement(using: &generator) ?? "$" })
            XCTAssertFalse(PasswordHash.verify("x", stored: text))
        }
        XCTAssertThrowsError(try PasswordHash.make(String(repeating: "ü", count: 600))) { XCTAssertEqual(($0 as? LibraryError)?.kind, .invalidValue) }
    }

    /// Random names from pieces of every kind (scripts that look alike, joiners, direction and
    /// invisible characters, combining marks): a name the rule takes is taken again as it was
    /// stored (the rule is stable), never holds what file names may not, and never mixes
    /// look-alike scripts in a word; none traps.
    func testRandomNamesKeepTheRule() throws {
        var generator = SeededGenerator(#function)
        let pieces = ["Anna", "\u{0410}", "нна", "Ω", "ς", "李", "雷", " ", "-", "\u{200D}", "\u{200C}", "\u{202E}", "\u{2060}",
                      "\u{00AD}", "\u{0301}", "محمد", "न", "\u{094D}", "👩", "🎤", "\t", "a", "é"]
        var taken = 0
        for _ in 0..<3_000 {
            let name = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            guard let checked = try? LibraryCatalog.checkedName(name) else { continue }
            taken += 1
            XCTAssertEqual(try LibraryCatalog.checkedName(checked), checked, name.debugDescription)
            XCTAssertNil(CatalogPath.refusal(ofFileName: checked), name.debugDescription)
            XCTAssertNil(CatalogPath.mixedScriptWord(checked), name.debugDescription)
            XCTAssertLessThanOrEqual(checked.utf8.count, LibraryCatalog.maxNameBytes)
        }
        XCTAssertGreaterThan(taken, 300, "the pieces make many good names too")
    }

    /// A catalog from before members had keys (v15) gets one per member on opening, each its
    /// own, kept in the file.
    func testMembersOfAnOlderCatalogGetKeysOfTheirOwn() throws {
        do {
            let catalog = try LibraryCatalog(folder: folder.path)
            _ = try catalog.addMember(MemberSetting(name: "Zoë Král", role: .librarian))
            _ = try catalog.addMember(MemberSetting(name: "Борис", instrument: "Viola"))
        }
        let file = folder.appendingPathComponent(".folio/library.sqlite").path
        // Back to v15, as Python's sqlite3 (SQLite 3.35+ drops columns) leaves it.
        _ = try TestEnvironment.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript("DROP INDEX member_key; ALTER TABLE member DROP COLUMN key; ALTER TABLE undo_step DROP COLUMN authorKey;"
                             "DELETE FROM grdb_migrations WHERE identifier = 'v16';")
            db.commit()
            """, file)
        let members = try LibraryCatalog(folder: folder.path).members()
        XCTAssertEqual(members.count, 2)
        XCTAssertTrue(members.allSatisfy { $0.key.count == 32 && $0.key.allSatisfy(\.isHexDigit) }, "\(members.map(\.key))")
        XCTAssertEqual(Set(members.map(\.key)).count, 2)
        let kept = try TestEnvironment.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(DISTINCT key) FROM member").fetchone()[0])
            """, file)
        XCTAssertEqual(kept, "2")
    }
}
