import FolioTestSupport
import Foundation
import XCTest

/// What the command line says to people and scripts: dry runs in the conditional naming each
/// thing that would go, refusals naming the way out, a file an option names that is missing
/// exiting 1 as any missing file does, and every error in one style ("folio COMMAND: what"),
/// never ArgumentParser's "Error: … Usage: …". Names and texts in Czech, Russian and Japanese.
final class CommandMessagesTests: CommandTestCase, @unchecked Sendable {
    private var score: String { path("Ukolébavka – Колыбельная.pdf") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let sample = TestEnvironment.repositoryRoot.appendingPathComponent("Samples/Brahms-Cancion_de_Cuna.pdf").path
        try TestEnvironment.copy(atPath: sample, toPath: score)
    }

    func testTocDeleteNamesWhatWouldGoAndWhatWent() throws {
        try invoke(["toc", "add", score, "--title", "Sloka – Куплет", "--page", "1"])
        try invoke(["toc", "add", score, "--title", "Refrén – 繰り返し", "--page", "1", "--under", "1"])
        try invoke(["toc", "add", score, "--title", "Coda – Кода", "--page", "1"])
        let before = try sha256(score)
        let planned = try invoke(["toc", "delete", score, "1", "1.1", "--dry-run"])
        XCTAssertEqual(planned.out, "would delete 1 Sloka – Куплет (with the 1 entry inside it)\n", "the child goes with its parent, named once")
        XCTAssertEqual(try sha256(score), before)
        let done = try invoke(["toc", "delete", score, "2"])
        XCTAssertEqual(done.out, "deleted 2 Coda – Кода\n")
        let listed = try invoke(["toc", score]).out
        XCTAssertTrue(listed.contains("Sloka – Куплет") && !listed.contains("Coda – Кода"), listed)
    }

    func testAnnotRemoveDryRunNamesEachMark() throws {
        let added = try invoke(["annot", "add", score, "--type", "freetext", "--page", "1", "--rect", "40,40,220,80",
                                "--text", "dolce – 甘く – нежно", "--json"])
        let mark = try XCTUnwrap(try TestEnvironment.jsonLines(added.out).first)
        let id = try XCTUnwrap(mark["id"] as? String)
        let before = try sha256(score)
        let planned = try invoke(["annot", "remove", score, "--id", id, "--dry-run"])
        XCTAssertEqual(planned.out, "would remove \(id) (page 1, FreeText: dolce – 甘く – нежно)\n")
        XCTAssertEqual(try sha256(score), before, "a dry run wrote")
        XCTAssertEqual(try invoke(["annot", "remove", score, "--id", id]).out, "\(id)\n", "a real run prints the ids, as scripts read them")
    }

    func testSetlistImportOntoANameInUseNamesTheWaysOnBeforeAnyPlan() throws {
        let library = path("Knihovna")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: score, toPath: library + "/Ukolébavka.pdf")
        try invoke(["library", "scan", library, "--quiet"])
        try invoke(["setlist", "create", "Večer – 夜", "--library", library])
        let file = path("vecer.4ss")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <forScore kind="setlist" version="1.0" title="Večer – 夜"><score path="Ukolébavka.pdf" title="Ukolébavka"/></forScore>
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try invoke(["setlist", "import", file, "--library", library], status: nil)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertEqual(refused.out, "", "no plan is printed for an import that cannot be stored")
        XCTAssertTrue(refused.err.contains("a setlist named Večer – 夜 already exists: --replace replaces it, --as NAME"), refused.err)
        let renamed = try invoke(["setlist", "import", file, "--as", "Večer 2 – 夜", "--library", library])
        XCTAssertTrue(renamed.out.contains("imported setlist Večer 2 – 夜"), renamed.out)
    }

    func testAMissingPasswordFileIsAMissingFileNotAUsageError() throws {
        let library = path("Knihovna")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try invoke(["library", "scan", library, "--quiet"])
        let missing = try invoke(["members", "add", "Dvořák", "--role", "librarian", "--password-file", path("nikde – нигде"),
                                  "--library", library], status: 1)
        XCTAssertEqual(missing.err, "folio members add: --password-file \(path("nikde – нигде")): no such file\n")
        let folder = try invoke(["members", "add", "Dvořák", "--role", "librarian", "--password-file", root.path,
                                 "--library", library], status: 64)
        XCTAssertTrue(folder.err.contains("is a folder"), folder.err)
        XCTAssertFalse(try invoke(["members", "list", "--library", library]).out.contains("Dvořák"), "nobody was added")
        let serve = try invoke(["serve", library, "--password-file", path("nikde")], status: 1)
        XCTAssertTrue(serve.err.hasPrefix("folio serve: --password-file"), serve.err)
    }

    func testEveryErrorComesInOneStyle() throws {
        // A check a command makes after parsing, one ArgumentParser makes while parsing, and a missing argument.
        for (arguments, start) in [
            (["members", "set", "李雷", "--library", root.path], "folio members set: give --rename"),
            (["library", "list", "--json", "--csv"], "folio library list: --json and --csv cannot be combined"),
            (["toc", "delete", score, "0.x"], "folio toc delete: "),
            (["annot", "remove"], "folio annot remove: "),
        ] {
            let result = try invoke(arguments, status: 64)
            XCTAssertTrue(result.err.hasPrefix(start), "\(arguments): \(result.err)")
            XCTAssertFalse(result.err.contains("Error:") || result.err.contains("Usage:"), "\(arguments): \(result.err)")
        }
    }
}
