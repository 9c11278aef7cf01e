import FolioTestSupport
import Foundation
import XCTest

/// `folio members` as a librarian runs it: the first member a librarian, members in several
/// scripts added with an invitation or a password, listed as text and JSON, changed and
/// removed; refusals with their exit codes and the file of the catalog untouched by them.
final class MembersCommandTests: CommandTestCase, @unchecked Sendable {
    private var library: String { path("Sbor – 合唱団") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: TestEnvironment.repositoryRoot.appendingPathComponent("Samples/Brahms-Cancion_de_Cuna.pdf").path,
                                         toPath: library + "/Brahms.pdf")
        try invoke(["library", "scan", library])
    }

    func testAddListSetInviteRemove() throws {
        let first = try invoke(["members", "add", "Anna Nováková", "--library", library], status: 64)
        XCTAssertTrue(first.err.contains("the first member must be a librarian"), first.err)
        let added0 = try invoke(["members", "add", "Zoë Král", "--role", "librarian", "--library", library])
        let zoe = added0.out
        XCTAssertTrue(zoe.hasPrefix("added Zoë Král\tlibrarian\t-\t-\tinvited\n"), zoe)
        XCTAssertTrue(added0.err.contains("start `folio serve` again"), "the first member: a running server is told to restart: \(added0.err)")
        let token = try XCTUnwrap(zoe.components(separatedBy: "/invite/").last?.split(separator: " ").first.map(String.init))
        XCTAssertEqual(token.count, 43)

        let annaAdded = try invoke(["members", "add", "Anna Nováková", "--instrument", "Violin II", "--json", "--library", library])
        XCTAssertFalse(annaAdded.err.contains("folio serve"), "said once, for the first member")
        let anna = annaAdded.out
        let added = try XCTUnwrap(try TestEnvironment.jsonLines(anna).first)
        let member = try XCTUnwrap(added["member"] as? [String: Any])
        XCTAssertEqual(member["role"] as? String, "player")
        XCTAssertEqual(member["section"] as? String, "strings")
        XCTAssertNotNil(ISO8601DateFormatter().date(from: member["createdAt"] as? String ?? ""))
        XCTAssertEqual(((added["invitation"] as? [String: Any])?["token"] as? String)?.count, 43)

        try "合唱の指揮者 2026\nsecond line ignored\n".write(toFile: path("password"), atomically: true, encoding: .utf8)
        let li = try invoke(["members", "add", "李雷", "--role", "conductor", "--password-file", path("password"), "--library", library]).out
        XCTAssertEqual(li, "added 李雷\tconductor\t-\t-\tpassword set\n")
        XCTAssertEqual(try invoke(["members", "list", "--library", library]).out, """
            Anna Nováková\tplayer\tViolin II\tstrings\tinvited
            Zoë Král\tlibrarian\t-\t-\tinvited
            李雷\tconductor\t-\t-\tpassword set

            """)

        // Refusals: the catalog's file is byte-identical after each.
        let before = try catalogDump()
        XCTAssertTrue(try invoke(["members", "add", "ANNA NOVÁKOVÁ", "--library", library], status: 1).err.contains("already called Anna Nováková"))
        XCTAssertTrue(try invoke(["members", "add", "Otto", "--role", "drummer", "--library", library], status: 64).err.contains("drummer"))
        XCTAssertTrue(try invoke(["members", "set", "Zoë Král", "--role", "player", "--library", library], status: 1).err.contains("only librarian"))
        XCTAssertTrue(try invoke(["members", "remove", "Zoë Král", "--library", library], status: 1).err.contains("only librarian"))
        XCTAssertTrue(try invoke(["members", "set", "nobody", "--role", "player", "--library", library], status: 1).err.contains("no member called nobody"))
        try "   \n".write(toFile: path("blank"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try invoke(["members", "set", "李雷", "--password-file", path("blank"), "--library", library], status: 64).err
            .contains("only white space"))
        XCTAssertEqual(try invoke(["members", "set", "李雷", "--library", library], status: 64).status, 64)
        XCTAssertEqual(try invoke(["members", "set", "李雷", "--role", "player", "--dry-run", "--library", library]).out,
                       "would read: 李雷\tplayer\t-\t-\tpassword set\n")
        XCTAssertEqual(try invoke(["members", "remove", "李雷", "--dry-run", "--library", library]).out, "would remove 李雷\n")
        XCTAssertEqual(try catalogDump(), before)

        let changed = try invoke(["members", "set", "anna nováková", "--role", "section-leader", "--section", "Chor", "--json",
                                  "--library", library]).out
        let json = try XCTUnwrap(try TestEnvironment.jsonLines(changed).first)
        XCTAssertEqual(json["role"] as? String, "section-leader")
        XCTAssertEqual(json["section"] as? String, "voices")
        let again = try invoke(["members", "invite", "Zoë Král", "--library", library]).out
        XCTAssertTrue(again.contains("/invite/") && !again.contains(token), again)
        XCTAssertEqual(try invoke(["members", "remove", "Anna Nováková", "--library", library]).out, "removed Anna Nováková\n")
        XCTAssertFalse(try invoke(["members", "list", "--library", library]).out.contains("Anna"))
    }

    /// The catalog's content, row by row, as SQLite itself dumps it (Python's sqlite3).
    private func catalogDump() throws -> String {
        try TestEnvironment.python("""
            import sqlite3, sys
            print("\\n".join(sqlite3.connect(sys.argv[1]).iterdump()))
            """, library + "/.folio/library.sqlite")
    }
}
