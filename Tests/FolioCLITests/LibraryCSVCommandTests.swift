import FolioTestSupport
import Foundation
import XCTest

/// `folio library export-csv` and `import-csv` end to end: a library brought into shape
/// (adopt, meta set, bookmarks with fields, a table of contents), exported, imported into
/// pristine copies; pikepdf and exiftool then read the same metadata and bookmarks from
/// both. Dry runs and repeated imports leave every file byte-identical; bad rows are
/// reported and never guessed.
final class LibraryCSVCommandTests: CommandTestCase, @unchecked Sendable {
    /// The same files in two folders: the shared scores (one nested, one also as a bare-named
    /// copy), and a corpus file with a table of contents.
    private func makeLibrary(_ name: String) throws -> URL {
        let folder = root.appendingPathComponent(name)
        let scores = try TestEnvironment.corpus.appendingPathComponent("scores")
        let names = try FileManager.default.contentsOfDirectory(atPath: scores.path).filter { $0.hasSuffix(".pdf") }.sorted()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Romantik/Lieder"),
                                                withIntermediateDirectories: true)
        for (index, file) in names.enumerated() {
            let target = index == 1 ? "Romantik/Lieder/Canción de cuna.pdf" : file
            try TestEnvironment.copy(at: scores.appendingPathComponent(file), to: folder.appendingPathComponent(target))
        }
        try TestEnvironment.copy(at: try TestEnvironment.corpus.appendingPathComponent("qpdf/badlin1.pdf"),
                                         to: folder.appendingPathComponent("Fake Book.pdf"))
        try invoke(["library", "scan", folder.path])   // only a scan makes a catalog
        return folder
    }

    private func exiftool(_ folder: URL) throws -> [String: [String: String]] {
        let result = try TestEnvironment.runTool("exiftool", ["-json", "-r", "-ext", "pdf", "-PDF:Title", "-PDF:Author",
                                                              "-PDF:Subject", "-PDF:Keywords", "-XMP-dc:Creator",
                                                              folder.path])
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        var byPath: [String: [String: String]] = [:]
        for object in objects {
            let source = try XCTUnwrap(object["SourceFile"] as? String)
            let relative = String(source.dropFirst(folder.path.count + 1))
            byPath[relative] = object.filter { $0.key != "SourceFile" }.mapValues { "\($0)" }
        }
        return byPath
    }

    func testExportImportRoundTripDryRunAndBadRows() throws {
        let shaped = try makeLibrary("A")
        let pristine = try makeLibrary("B")
        try invoke(["meta", "adopt", "--library", shaped.path])
        try invoke(["meta", "set", shaped.appendingPathComponent("Chopin-Prelude_Op_28_No_15.pdf").path, "--rating", "4",
                 "--key", "Db", "--genre", "Prélude", "--genre", "Romantik", "--tag", "=SUM(A1)", "--tag", "Klavier",
                 "--label", "Recital 2026", "--reference", "Op. 28 No. 15", "--duration", "5:30", "--difficulty", "2"])
        let mozart = shaped.appendingPathComponent("Mozart-Fantasy_in_D_minor_KV_397.pdf").path
        try invoke(["bookmarks", "add", mozart, "--name", "Andante, \"quasi\" recitativo", "--page", "1", "--end", "2",
                 "--composer", "W. A. Mozart", "--key", "D minor"])
        try invoke(["bookmarks", "add", mozart, "--name", "Allegretto", "--page", "3"])
        // A stored bookmark over a table-of-contents piece gives it fields; another is new.
        let book = shaped.appendingPathComponent("Fake Book.pdf").path
        try invoke(["bookmarks", "add", book, "--name", "Isosicle 1.1.1.1", "--page", "19", "--end", "19",
                 "--composer", "Antonín Dvořák"])
        try invoke(["bookmarks", "add", book, "--name", "Coda", "--page", "29", "--end", "30"])

        let csv = root.appendingPathComponent("library.csv").path
        try invoke(["library", "export-csv", shaped.path, "--output", csv])
        let exported = try String(contentsOfFile: csv, encoding: .utf8)
        XCTAssertTrue(exported.hasPrefix("Filename,Title,Start Page (Bookmark),End Page (Bookmark),Composers,Genres,Tags,"
            + "Labels,Reference,Rating,Difficulty,Minutes,Seconds,keysf,keymi\r\n"))
        XCTAssertTrue(exported.contains("Romantik/Lieder/Canción de cuna.pdf,"), exported)
        XCTAssertTrue(exported.contains("'=SUM(A1)"), "a formula is guarded")

        // A dry run writes nothing and says what it would do.
        let before = try FolderOracle.bytes(pristine)
        let dry = try invoke(["library", "import-csv", csv, "--library", pristine.path, "--dry-run", "--json"])
        XCTAssertEqual(try FolderOracle.bytes(pristine), before)
        let planned = dry.out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertTrue(planned.contains { $0["path"] as? String == "Chopin-Prelude_Op_28_No_15.pdf"
                && $0["field"] as? String == "rating" && $0["after"] as? String == "4" && $0["applied"] as? Bool == false },
            dry.out)

        try invoke(["library", "import-csv", csv, "--library", pristine.path])
        let (a, b) = (try FolderOracle.metadata(shaped), try FolderOracle.metadata(pristine))
        XCTAssertEqual(Set(a.keys), Set(b.keys))
        for path in a.keys.sorted() {
            let left = try XCTUnwrap(a[path]), right = try XCTUnwrap(b[path])
            XCTAssertEqual(NSDictionary(dictionary: left), NSDictionary(dictionary: right), path)
        }
        XCTAssertEqual(try exiftool(shaped), try exiftool(pristine))
        let chopin = try XCTUnwrap(b["Chopin-Prelude_Op_28_No_15.pdf"]?["info"] as? [String: String])
        XCTAssertEqual(chopin["Keywords"], "=SUM(A1), Klavier, rating:4, difficulty:2, duration:330, keysf:-5, keymi:0")
        let fakeBook = try XCTUnwrap(b["Fake Book.pdf"]?["xmp"] as? [String: Any])
        XCTAssertEqual((fakeBook["bookmarks"] as? [[String: String]])?.map { $0["name"] ?? "" },
                       ["Isosicle 1.1.1.1", "Coda"], "TOC pieces without fields are not copied into XMP")
        for path in try FolderOracle.bytes(pristine).keys {
            let check = try TestEnvironment.runTool("qpdf", ["--check", pristine.appendingPathComponent(path).path])
            let original = try TestEnvironment.runTool("qpdf", ["--check", shaped.appendingPathComponent(path).path])
            XCTAssertEqual(check.status, original.status, path)
        }

        // Exported again, the copy gives the same CSV; imported again, nothing changes.
        let again = root.appendingPathComponent("again.csv").path
        try invoke(["library", "export-csv", pristine.path, "--output", again])
        XCTAssertEqual(try String(contentsOfFile: again, encoding: .utf8), exported)
        let settled = try FolderOracle.bytes(pristine)
        let second = try invoke(["library", "import-csv", csv, "--library", pristine.path])
        XCTAssertEqual(second.out, "", "nothing left to change")
        XCTAssertEqual(try FolderOracle.bytes(pristine), settled)

        // Bad rows: reported with their line, never guessed; good rows applied; exit 1.
        for copy in ["Romantik/Band.pdf", "Romantik/Lieder/Band.pdf"] {
            try TestEnvironment.copy(at: pristine.appendingPathComponent("Fake Book.pdf"),
                                             to: pristine.appendingPathComponent(copy))
        }
        let bad = root.appendingPathComponent("bad.csv").path
        try ("Filename,Title,Start Page (Bookmark),End Page (Bookmark),Artists,Styles,Tags,Labels,Reference,Rating,"
            + "Difficulty,Minutes,Seconds,keysf,keymi\n"
            + "Nowhere.pdf,Lost,,,,,,,,,,,,,\n"
            + "Carcassi-Etude_3_Op_60_No_3.pdf,Etude 3,,,Matteo Carcassi,Gitarre,,,,9,,,,,\n"
            + "Canción de cuna.pdf,Wiegenlied,,,Johannes Brahms,Lied,,,,,,,,,\n"
            + "Band.pdf,Fake,,,,,,,,,,,,,\n"
            + "../B/Carcassi-Etude_3_Op_60_No_3.pdf,Escape,,,,,,,,,,,,,\n"
            + "Mozart-Fantasy_in_D_minor_KV_397.pdf,Allegro,99,100,,,,,,,,,,,\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let carcassi = try FolderOracle.bytes(pristine)["Carcassi-Etude_3_Op_60_No_3.pdf"]
        let reported = try invoke(["library", "import-csv", bad, "--library", pristine.path], status: 1)
        XCTAssertTrue(reported.err.contains("line 2: no file Nowhere.pdf"), reported.err)
        XCTAssertTrue(reported.err.contains("line 3: rating '9' is out of range (valid: 0 to 5)"), reported.err)
        XCTAssertTrue(reported.err.contains("line 5: Band.pdf names 2 catalogued files"), reported.err)
        XCTAssertTrue(reported.err.contains("line 6: '../B/Carcassi-Etude_3_Op_60_No_3.pdf' is not a path inside"), reported.err)
        XCTAssertTrue(reported.err.contains("line 7: pages 99–100 are out of range"), reported.err)
        XCTAssertEqual(try FolderOracle.bytes(pristine)["Carcassi-Etude_3_Op_60_No_3.pdf"], carcassi, "a refused row changes nothing")
        let lullaby = try XCTUnwrap(try FolderOracle.metadata(pristine)["Romantik/Lieder/Canción de cuna.pdf"])
        XCTAssertEqual((lullaby["info"] as? [String: String])?["Title"], "Wiegenlied", "a bare name found once is applied")
        XCTAssertEqual((lullaby["info"] as? [String: String])?["Subject"], "Lied", "a renamed category read by position")

        let headless = root.appendingPathComponent("headless.csv").path
        try "a,b,c\n1,2,3\n".write(toFile: headless, atomically: true, encoding: .utf8)
        let refused = try invoke(["library", "import-csv", headless, "--library", pristine.path], status: 64)
        XCTAssertTrue(refused.err.contains("needs a Filename and a Title column"), refused.err)
    }
}
