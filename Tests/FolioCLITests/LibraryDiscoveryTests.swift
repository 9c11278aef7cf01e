import FolioTestSupport
import Foundation
import XCTest

/// The library is found as git finds its repository — the nearest folder at or above the file
/// named (or the current folder) holding `.folio/`; --library and FOLIO_LIBRARY override — and
/// nothing is written where nobody asked: only `folio library scan` makes a catalog. Run from
/// folders that are not the library, with absolute and relative paths.
final class LibraryDiscoveryTests: CommandTestCase, @unchecked Sendable {
    private var library: String { path("Knihovna – Библиотека") }
    private var elsewhere: URL { root.appendingPathComponent("jinde") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let samples = TestEnvironment.repositoryRoot.appendingPathComponent("Samples")
        try FileManager.default.createDirectory(atPath: library + "/Sbor", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: samples.appendingPathComponent("Traditional-Greensleeves_hymntune.pdf").path,
                                         toPath: library + "/Sbor/Greensleeves.pdf")
        try TestEnvironment.copy(atPath: samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path,
                                         toPath: library + "/Ukolébavka.pdf")
    }

    /// folio run in `directory`, with `environment`.
    @discardableResult
    private func folio(_ arguments: [String], in directory: URL, environment: [String: String] = [:],
                       status expected: Int32 = 0) throws -> (out: String, err: String) {
        let result = try invoke(arguments, in: directory, environment: environment, status: expected)
        return (result.out, result.err)
    }

    /// Every `.folio` under the test's folder.
    private func catalogs() throws -> [String] {
        let walker = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let name = walker?.nextObject() as? String {
            if (name as NSString).lastPathComponent == ".folio" { found.append(name) }
        }
        return found.sorted()
    }

    func testNothingIsWrittenWhereNobodyAsked() throws {
        // The test's folder must have no library above it (a stray /tmp/.folio would be found).
        var above = root.deletingLastPathComponent()
        while above.path != "/" {
            XCTAssertFalse(FileManager.default.fileExists(atPath: above.appendingPathComponent(".folio/library.sqlite").path),
                           "a library above the test's folder, in \(above.path), would be found; remove its .folio")
            above.deleteLastPathComponent()
        }
        // No library anywhere above: every command that needs one says so, names how to make one, writes nothing.
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <forScore kind="setlist" version="1.0" title="Nic"><score path="Ukolébavka.pdf" title="Ukolébavka"/></forScore>
            """.write(to: elsewhere.appendingPathComponent("nic.4ss"), atomically: true, encoding: .utf8)
        for arguments in [["setlist", "list"], ["setlist", "create", "Svatba"], ["library", "list"], ["library", "search", "--text", "x"],
                          ["parts", "list"], ["tracks", "list"], ["setlist", "import", "nic.4ss", "--dry-run"],
                          ["library", "list", library]] {
            let refused = try folio(arguments, in: elsewhere, status: 1)
            XCTAssertTrue(refused.err.contains("folio library scan"), "\(arguments): \(refused.err)")
        }
        XCTAssertEqual(try catalogs(), [], "no catalog made")
        // Only a scan makes one; a scan in a folder of the library scans the library above.
        try folio(["library", "scan", library], in: elsewhere)
        XCTAssertEqual(try catalogs(), ["Knihovna – Библиотека/.folio"])
        try folio(["library", "scan"], in: URL(fileURLWithPath: library + "/Sbor"))
        XCTAssertEqual(try catalogs(), ["Knihovna – Библиотека/.folio"])
        // With no library named or above, a scan makes the current folder one.
        try folio(["library", "scan"], in: elsewhere)
        XCTAssertEqual(try catalogs(), ["Knihovna – Библиотека/.folio", "jinde/.folio"])
    }

    func testTheLibraryIsFoundFromTheFileOrTheFolderAboveWithAnyPath() throws {
        try folio(["library", "scan", library], in: elsewhere)
        let inside = URL(fileURLWithPath: library + "/Sbor")
        // From a subfolder: the library above, and a path relative to the current folder.
        try folio(["setlist", "create", "Svatba – Свадьба"], in: inside)
        try folio(["setlist", "add", "Svatba – Свадьба", "Greensleeves.pdf"], in: inside)
        // From elsewhere: found from the file named, absolute or relative.
        try folio(["setlist", "add", "Svatba – Свадьба", library + "/Ukolébavka.pdf"], in: elsewhere)
        try folio(["setlist", "add", "Svatba – Свадьба", "../Knihovna – Библиотека/Sbor/Greensleeves.pdf"], in: elsewhere)
        // --library with an absolute path to the score.
        try folio(["setlist", "add", "Svatba – Свадьба", library + "/Ukolébavka.pdf", "--library", library], in: root)
        let shown = try folio(["setlist", "show", "Svatba – Свадьба", "--json"], in: inside).out
        let paths = shown.components(separatedBy: "\"path\"").count - 1
        XCTAssertEqual(paths, 4, shown)
        XCTAssertTrue(shown.contains("Sbor/Greensleeves.pdf") && shown.contains("Ukolébavka.pdf"), shown)
        // FOLIO_LIBRARY names it from anywhere.
        let listed = try folio(["setlist", "list"], in: elsewhere, environment: ["FOLIO_LIBRARY": library]).out
        XCTAssertTrue(listed.contains("Svatba – Свадьба"), listed)
        let parts = try folio(["parts", "list", library + "/Ukolébavka.pdf", "--json"], in: elsewhere).out
        XCTAssertTrue(parts.contains("Ukolébavka.pdf"), parts)
        XCTAssertEqual(try catalogs(), ["Knihovna – Библиотека/.folio"], "no catalog made where the commands ran")
    }

    /// Search as people type it: the words as arguments; nothing found said on standard error
    /// with exit 1, as grep does; the folder-first form still taken.
    func testSearchTakesTheWordsAndSaysWhenNothingIsFound() throws {
        try folio(["library", "scan", library], in: elsewhere)
        let inside = URL(fileURLWithPath: library + "/Sbor")
        let found = try folio(["library", "search", "greensle", "--json"], in: inside).out
        XCTAssertTrue(found.contains("\"path\":\"Sbor/Greensleeves.pdf\""), found)
        let nothing = try folio(["library", "search", "Κανένα", "τραγούδι"], in: inside, status: 1)
        XCTAssertEqual(nothing.out, "")
        XCTAssertTrue(nothing.err.contains("nothing found for \"Κανένα τραγούδι\""), nothing.err)
        let folderFirst = try folio(["library", "search", library, "--text", "greensleeves", "--json"], in: elsewhere).out
        XCTAssertTrue(folderFirst.contains("Sbor/Greensleeves.pdf"), folderFirst)
        let both = try folio(["library", "search", "x", "--text", "y"], in: inside, status: 64)
        XCTAssertTrue(both.err.contains("not both"), both.err)
    }

    /// A word that names a subfolder (musicians file by composer) is searched for, not taken
    /// as the library: only a folder holding `.folio/` is one.
    func testASubfolderNamedLikeAComposerIsAWordToFind() throws {
        let composer = library + "/Чайковский"
        try FileManager.default.createDirectory(atPath: composer, withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: library + "/Ukolébavka.pdf", toPath: composer + "/Колыбельная.pdf")
        try folio(["library", "scan", library], in: elsewhere)
        try folio(["meta", "set", composer + "/Колыбельная.pdf", "--composer", "Пётр Ильич Чайковский"], in: elsewhere)
        let libraryFolder = URL(fileURLWithPath: library)
        for word in ["Чайковский", "чайковский"] {
            let found = try folio(["library", "search", word, "--json"], in: libraryFolder).out
            XCTAssertTrue(found.contains("Чайковский/Колыбельная.pdf"), "\(word): \(found)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: composer + "/.folio"), "no catalog made in the subfolder")
        }
        let help = try folio(["help", "library", "search"], in: elsewhere).out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(help.contains("a folder that holds a catalog (.folio/)"), help)
    }
}
