import FolioTestSupport
import Foundation
import XCTest

/// `folio library backup DEST`: a copy that is a library of its own (listed, searched, served as
/// the source is), byte-identical files, exit codes as docs/saves.md says; and the man pages made
/// from the built binary keep every script (generate-manual alone drops all but ASCII).
final class LibraryBackupCommandTests: CommandTestCase, @unchecked Sendable {
    private func library() throws -> String {
        let folder = try twoScoreLibrary(named: "Sbírka – 楽譜")
        try invoke(["setlist", "create", "Koncert – 演奏会", "--library", folder])
        return folder
    }

    func testABackupIsALibraryOfItsOwn() throws {
        let source = try library()
        let destination = path("záloha – バックアップ")
        let run = try invoke(["library", "backup", destination, "--library", source])
        XCTAssertTrue(run.out.hasPrefix("copied 2 file(s) and the catalog"), run.out)
        XCTAssertTrue(run.out.contains(destination), run.out)
        for name in ["Чайковский/Колыбельная.pdf", "Chopin – Dešťová.pdf"] {
            XCTAssertEqual(try sha256(destination + "/" + name), try sha256(source + "/" + name), name)
        }
        let listed = { (folder: String) in try self.invoke(["library", "list", "--library", folder, "--json"]).out }
        XCTAssertEqual(try listed(destination), try listed(source))
        XCTAssertEqual(try invoke(["setlist", "list", "--library", destination]).out, try invoke(["setlist", "list", "--library", source]).out)
        XCTAssertTrue(try invoke(["library", "search", "колыбельная", "--library", destination]).out.contains("Колыбельная"))
    }

    func testRefusalsKeepTheirExitCodes() throws {
        let source = try library()
        let taken = path("taken")
        try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: true)
        let before = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        XCTAssertTrue(try invoke(["library", "backup", taken, "--library", source], status: 64).err.contains("already exists"))
        XCTAssertTrue(try invoke(["library", "backup", source + "/inside", "--library", source], status: 64).err.contains("inside the library"))
        XCTAssertTrue(try invoke(["library", "backup", path("missing/child"), "--library", source], status: 1).err.contains("is not a folder"))
        try invoke(["library", "backup"], status: 64)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted(), before, "nothing left behind")
    }

    func testManPagesFromTheBinaryKeepEveryScript() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else { throw XCTSkip("man-db is not installed") }
        let pages = path("man – ページ")
        let made = try TestEnvironment.runTool("bash", [repository.appendingPathComponent("Scripts/man-pages").path, folio.path, pages])
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        let count = try FileManager.default.contentsOfDirectory(atPath: pages).filter { $0.hasSuffix(".1") }.count
        XCTAssertGreaterThan(count, 90)
        XCTAssertTrue(String(decoding: made.stdout, as: UTF8.self).contains("man pages: \(count) in"))
        let shown = try TestEnvironment.run(URL(fileURLWithPath: "/usr/bin/man"), ["-l", pages + "/folio.library.search.1"],
                                            environment: ["LANG": "C.UTF-8", "MANPAGER": "cat", "MANWIDTH": "200"])
        let text = String(decoding: shown.stdout, as: UTF8.self)
        XCTAssertTrue(text.contains("\"dvorak\" finds \"Dvořák\""), text)
        XCTAssertTrue(try String(contentsOfFile: pages + "/folio.library.search.1", encoding: .utf8).allSatisfy(\.isASCII), "escapes, not raw bytes")
    }
}
