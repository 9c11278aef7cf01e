import FolioTestSupport
import Foundation
import XCTest

/// Permissions are respected: a file (or folder) the user may not write is refused with a
/// clear error and exit 1, by every save method, and stays byte-identical (sha256 before and
/// after). Run as an ordinary user — `nobody` when the tests run as root, since root may write
/// anything.
final class PermissionTests: CommandTestCase, @unchecked Sendable {
    private var asRoot: Bool { geteuid() == 0 }

    /// Runs folio as an ordinary user.
    private func invokeAsUser(_ arguments: [String]) throws -> (status: Int32, err: String) {
        let result = asRoot
            ? try TestEnvironment.run(URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "nobody", "--", folio.path] + arguments)
            : try TestEnvironment.run(folio, arguments)
        return (result.status, String(decoding: result.stderr, as: UTF8.self))
    }

    /// Gives `path` to the ordinary user (when running as root) with `mode`.
    private func own(_ path: String, mode: Int) throws {
        if asRoot {
            let run = try TestEnvironment.runTool("chown", ["nobody", path])
            XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        }
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    func testAReadOnlyFileOrFolderIsRefusedByEverySaveMethod() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        let folder = path("Noty – Ноты")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try own(root.path, mode: 0o755)
        try own(folder, mode: 0o755)
        let score = folder + "/Ukolébavka – Колыбельная.pdf"
        try TestEnvironment.copy(atPath: samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path, toPath: score)
        try own(score, mode: 0o444)
        let before = try sha256(score)
        for method in ["auto", "clone", "journal", "copy"] {
            let refused = try invokeAsUser(["meta", "set", score, "--rating", "3", "--save-method", method])
            XCTAssertEqual(refused.status, 1, "\(method): \(refused.err)")
            XCTAssertTrue(refused.err.contains("is read-only for you (mode 444)"), "\(method): \(refused.err)")
            XCTAssertEqual(try sha256(score), before, method)
        }
        let annotated = try invokeAsUser(["annot", "add", score, "--type", "square", "--page", "1", "--rect", "20,20,80,40"])
        XCTAssertEqual(annotated.status, 1, annotated.err)
        XCTAssertEqual(try sha256(score), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["Ukolébavka – Колыбельная.pdf"], "nothing left beside it")

        // A writable file in a folder the user may not write: refused too (every save writes beside it).
        try own(score, mode: 0o644)
        try own(folder, mode: 0o555)
        let inReadOnlyFolder = try invokeAsUser(["meta", "set", score, "--rating", "3", "--save-method", "journal"])
        XCTAssertEqual(inReadOnlyFolder.status, 1, inReadOnlyFolder.err)
        XCTAssertTrue(inReadOnlyFolder.err.contains("the folder"), inReadOnlyFolder.err)
        XCTAssertEqual(try sha256(score), before)

        // Allowed again, the same edit is saved.
        try own(folder, mode: 0o755)
        let saved = try invokeAsUser(["meta", "set", score, "--rating", "3"])
        XCTAssertEqual(saved.status, 0, saved.err)
        XCTAssertNotEqual(try sha256(score), before)
        let keywords = String(decoding: try TestEnvironment.runTool("exiftool", ["-s3", "-Keywords", score]).stdout, as: UTF8.self)
        XCTAssertTrue(keywords.contains("rating:3"), keywords)
    }

    /// As root (NAS boxes, containers), `chmod 444` still means "keep this": every command
    /// that saves refuses the file, untouched, naming `chmod u+w`; `--force` writes it and
    /// leaves its mode as it was. (Root only: for others the system refuses, tested above.)
    func testRootKeepsAFileWithoutItsOwnersWriteBitUnlessForced() throws {
        guard asRoot else { throw XCTSkip("the system refuses others; what Folio adds is for root") }
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        let folder = path("Архив – アーカイブ")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let score = folder + "/Ukolébavka – 子守歌.pdf"
        try TestEnvironment.copy(atPath: samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path, toPath: score)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: score)
        let before = try sha256(score)
        for arguments in [["meta", "set", score, "--rating", "3"],
                          ["annot", "add", score, "--type", "square", "--page", "1", "--rect", "20,20,80,40"],
                          ["bookmarks", "add", score, "--name", "Píseň – Песня", "--page", "1"],
                          ["pages", "rotate", score, "--pages", "1", "--by", "90"],
                          ["toc", "add", score, "--title", "Strophe — Στροφή", "--page", "1"]] {
            let refused = try invokeAsRoot(arguments)
            XCTAssertEqual(refused.status, 1, "\(arguments[0]) \(arguments[1]): \(refused.err)")
            XCTAssertTrue(refused.err.contains("(mode 444)") && refused.err.contains("chmod u+w"), refused.err)
            XCTAssertEqual(try sha256(score), before, "\(arguments[0]) \(arguments[1]) left it untouched")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["Ukolébavka – 子守歌.pdf"], "nothing left beside it")
        let forced = try invokeAsRoot(["meta", "set", score, "--rating", "3", "--force"])
        XCTAssertEqual(forced.status, 0, forced.err)
        XCTAssertNotEqual(try sha256(score), before)
        let keywords = String(decoding: try TestEnvironment.runTool("exiftool", ["-s3", "-Keywords", score]).stdout, as: UTF8.self)
        XCTAssertTrue(keywords.contains("rating:3"), keywords)
        let mode = try FileManager.default.attributesOfItem(atPath: score)[.posixPermissions] as? Int
        XCTAssertEqual(mode.map { $0 & 0o777 }, 0o444, "still read-only after the forced save")
    }

    private func invokeAsRoot(_ arguments: [String]) throws -> (status: Int32, err: String) {
        let result = try TestEnvironment.run(folio, arguments)
        return (result.status, String(decoding: result.stderr, as: UTF8.self))
    }
}
