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
        try invoke(["library", "scan", root.path])
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

    /// Every integer option at -2^63 and 2^63-1 is refused with exit 64 (or taken, where the
    /// value is in range), never a trap: `toc add --page=-9223372036854775808` once stopped
    /// `folio` with an overflow. The file stays byte-identical whenever the command refused.
    func testIntegerOptionsAtTheirExtremesNeverTrap() throws {
        let pdf = try score()
        for value in ["-9223372036854775808", "9223372036854775807"] {
            for arguments in [["toc", "add", pdf, "--title", "Vyšehrad", "--page=\(value)"],
                              ["links", "list", pdf, "--page=\(value)"],
                              ["links", "add", pdf, "--from=\(value),10,10,40,20", "--to=1"],
                              ["links", "add", pdf, "--from=1,10,10,40,20", "--to=\(value)"],
                              ["bookmarks", "add", pdf, "--name", "Šárka", "--page=\(value)"],
                              ["bookmarks", "add", pdf, "--name", "Šárka", "--page=1", "--end=\(value)"],
                              ["pages", "rotate", pdf, "--pages", "1", "--by=\(value)"],
                              ["pages", "move", pdf, "--pages", "1", "--to=\(value)"],
                              ["pages", "insert-blank", pdf, "--at=\(value)"],
                              ["meta", "set", pdf, "--rating=\(value)"], ["meta", "set", pdf, "--tempo=\(value)"],
                              ["annot", "list", pdf, "--page=\(value)"],
                              ["annot", "add", pdf, "--page=\(value)", "--type", "square", "--rect", "10,10,50,50"],
                              ["pages", "delete", pdf, "--pages=\(value)"]] {
                let before = try Data(contentsOf: URL(fileURLWithPath: pdf))
                let result = try invoke(arguments, status: nil)
                XCTAssertTrue([0, 1, 64].contains(result.status), "\(arguments): exit \(result.status) \(result.err)")
                if result.status != 0 {
                    XCTAssertTrue((result.err + result.out).contains("valid"), "\(arguments) says why: \(result.err)\(result.out)")
                    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pdf)), before, "\(arguments)")
                }
            }
        }
    }

    /// An unknown command word gets the nearest commands offered, as git does; exit 64.
    func testAnUnknownCommandGetsASuggestion() throws {
        for (arguments, expected) in [(["libary", "list"], "'libary' is not a folio command; did you mean 'library'?"),
                                      (["library", "lsit"], "'lsit' is not a folio library command; did you mean 'list'?"),
                                      (["setlist", "shw", "Večer"], "did you mean 'show'?"),
                                      (["hudba"], "folio --help lists them"),
                                      // Help asked of a misspelt group: the word is named, not the help shown.
                                      (["libary", "--help"], "did you mean 'library'?"),
                                      (["library", "сканировать", "--json"], "folio library --help lists them"),
                                      ([String(repeating: "Ж", count: 50_000)], "folio --help lists them")] {
            let refused = try invoke(arguments, status: 64)
            XCTAssertTrue(refused.err.contains(expected), "\(arguments): \(refused.err)")
            XCTAssertEqual(refused.out, "")
        }
        // A known command is not second-guessed.
        XCTAssertFalse(try invoke(["library", "list", "--help"]).err.contains("is not a"))
    }
}
