import FolioTestSupport
import Foundation
import XCTest

/// The one mapping from a failure's kind to `folio`'s exit code (README, "Exit codes"),
/// across commands of every layer: bad values and malformed input files exit 64 without
/// naming the file they left untouched, unreadable files and missing things exit 1 with the
/// file named; a failed command leaves every file byte-identical.
final class ExitCodeTests: CommandTestCase, @unchecked Sendable {
    private func score() throws -> String {
        let text = path("Smetana.txt")
        try "Vltava\nMá vlast — Bedřich Smetana\nМолдау · Μολδάβας\n".write(toFile: text, atomically: true, encoding: .utf8)
        try invoke(["make", text, "--font-file", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"])
        return path("Smetana.pdf")
    }

    func testEachKindOfFailureExitsAsTheREADMESays() throws {
        let pdf = try score()
        let original = try Data(contentsOf: URL(fileURLWithPath: pdf))

        // invalidValue → 64, the valid range named.
        let range = try invoke(["meta", "set", "--rating", "9", pdf], status: 64)
        XCTAssertTrue(range.err.contains("valid: 0 to 5"), range.err)
        let key = try invoke(["bookmarks", "add", pdf, "--name", "Vyšehrad", "--page", "1", "--key", "H moll"], status: 64)
        XCTAssertTrue(key.err.contains("H moll"), key.err)
        let page = try invoke(["annot", "add", pdf, "--type", "square", "--page", "7", "--rect", "10,10,50,50"], status: 64)
        XCTAssertTrue(page.err.contains("valid: 1 to 1"), page.err)

        // malformedInput → 64.
        let csv = path("index.csv")
        try "Název;Strana\nVltava;1\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let malformed = try invoke(["library", "import-csv", csv, "--library", root.path], status: 64)
        XCTAssertTrue(malformed.err.contains("Filename"), malformed.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pdf)), original, "refused edits touch nothing")

        // unreadable → 1, the file named (not a PDF at all: nothing to recover).
        let damaged = path("Poškozený.pdf")
        try Data("Toto není PDF — jen text, žádné objekty.\n".utf8).write(to: URL(fileURLWithPath: damaged))
        let before = try Data(contentsOf: URL(fileURLWithPath: damaged))
        let unreadable = try invoke(["meta", "set", "--title", "Šárka", damaged], status: 1)
        XCTAssertTrue(unreadable.err.contains("Poškozený.pdf:"), unreadable.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: damaged)), before)
        try invoke(["toc", "add", damaged, "--title", "Šárka", "--page", "1"], status: 1)
        let info = try invoke(["info", damaged], status: 1)
        XCTAssertTrue(info.out.contains("Poškozený.pdf") || info.err.contains("Poškozený.pdf"), info.out + info.err)

        // notFound → 1.
        try invoke(["library", "scan", root.path], status: 1)   // the damaged file is catalogued with its error
        let missing = try invoke(["library", "show", "9999", "--library", root.path], status: 1)
        XCTAssertTrue(missing.err.contains("9999"), missing.err)

        // locked → 1: a wrong password for an encrypted copy (encrypted by qpdf).
        let locked = path("Zamčený.pdf")
        XCTAssertEqual(try TestEnvironment.runTool("qpdf", ["--encrypt", "tajné", "tajné", "256", "--", pdf, locked]).status, 0)
        let wrong = try invoke(["meta", "set", "--title", "Tábor", "--password", "špatné", locked], status: 1)
        XCTAssertTrue(wrong.err.contains("Zamčený.pdf:"), wrong.err)
        try invoke(["meta", "set", "--title", "Tábor", "--password", "tajné", locked])
    }
}
