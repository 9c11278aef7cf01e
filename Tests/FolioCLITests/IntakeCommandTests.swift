import FolioTestSupport
import Foundation
import XCTest

/// `folio add`: every kind a musician drops, told by content, made into what forScore makes
/// of it — office documents that LibreOffice itself wrote (Poppler's pdftotext reads their
/// text back), forScore's setlists, archives and containers, CSV and Open In dictionaries
/// (read back by pikepdf and the catalog); hostile files refused with the library
/// byte-identical; image stamps drawn by Poppler, MuPDF and PDFium (Tests/Oracle/intake.py).
final class IntakeCommandTests: CommandTestCase, @unchecked Sendable {
    private let oracle = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/intake.py").path
    private let lyrics = ["Ave Maria — Аве Мария", "Κύριε ελέησον, 主よ憐れみたまえ", "Žluťoučký kůň úpěl ďábelské ódy", "שלום עליכם"]

    private func python(_ arguments: [String]) throws -> String {
        let result = try TestEnvironment.runTool("python3", ["-W", "ignore", oracle] + arguments)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return String(decoding: result.stdout, as: UTF8.self)
    }

    private func library(_ name: String = "lib") throws -> String {
        let folder = path(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try invoke(["library", "scan", folder])   // only a scan makes a catalog
        return folder
    }

    private func pdftotext(_ file: String) throws -> String {
        let result = try TestEnvironment.runTool("pdftotext", ["-enc", "UTF-8", file, "-"])
        XCTAssertEqual(result.status, 0)
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// Everything in the folder, hidden files included (the catalog, setlists, stamps).
    private func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = folder + "/" + relative
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                  !relative.hasSuffix("-shm"), !relative.hasSuffix("-wal") else { continue }
            files[relative] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return files
    }

    /// RTF, DOC, DOCX and ODT written by LibreOffice from a text in five scripts become
    /// scores whose text Poppler reads back; an RTF named .pdf is converted all the same.
    func testOfficeDocumentsBecomeScoresWithTheirText() throws {
        let made = try library("made")
        try (lyrics.joined(separator: "\n") + "\n").write(toFile: made + "/lyrics.txt", atomically: true, encoding: .utf8)
        _ = try python(["office", made, made + "/lyrics.txt"])
        try TestEnvironment.copy(atPath: made + "/doc.rtf", toPath: made + "/Disguised.pdf")
        let lib = try library()
        let files = ["doc.rtf", "doc.doc", "doc.docx", "doc.odt", "Disguised.pdf"].map { made + "/" + $0 }
        let out = try invoke(["add"] + files + ["--library", lib, "--json"]).out
        let results = out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(results.map { $0["kind"] as? String }, ["rtf", "doc", "docx", "odt", "rtf"], out)
        for result in results {
            let score = try XCTUnwrap((result["scores"] as? [String])?.first, "\(result)")
            let text = try pdftotext(lib + "/" + score)
            for line in lyrics.prefix(3) {
                XCTAssertTrue(text.contains(line), "\(score): \(line) not in \(text)")
            }
            XCTAssertEqual(try TestEnvironment.qpdfProblems(lib + "/" + score), [], score)
        }
        let listed = try invoke(["library", "list", lib, "--json"]).out
        XCTAssertEqual(listed.split(separator: "\n").count, 5, listed)
        // folio make converts a document too.
        try invoke(["make", made + "/doc.odt", "-o", path("made.pdf"), "--title", "Ave Maria — Аве Мария"])
        XCTAssertTrue(try pdftotext(path("made.pdf")).contains(lyrics[1]))
        let info = try TestEnvironment.runTool("pdfinfo", [path("made.pdf")])
        XCTAssertTrue(String(decoding: info.stdout, as: UTF8.self).contains("Ave Maria — Аве Мария"))
    }

    /// forScore's kinds through `folio add`, each told by content: a 4SS named .txt is a
    /// setlist, a CSV index and an Open In dictionary find the score named like them, a 4SC
    /// and a 4SB are imported, a library CSV writes its fields (pikepdf reads them back).
    func testForScoreKindsBecomeSetlistsMetadataAndBookmarks() throws {
        let lib = try library()
        let source = try TestEnvironment.corpus.appendingPathComponent("scores/Brahms-Cancion_de_Cuna.pdf").path
        try TestEnvironment.copy(atPath: source, toPath: path("Ukolébavka.pdf"))
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <forScore kind="setlist" version="1.0" title="Koncert v Praze">
            <score path="Ukolébavka.pdf" title="Ukolébavka"/>
            <score path="Missing.pdf" title="Чего нет"/>
            </forScore>
            """.write(toFile: path("setlist.txt"), atomically: true, encoding: .utf8)
        try "Title,Start,End\nVerš první,1,1\nDruhý verš,1,1\n".write(toFile: path("Ukolébavka.csv"), atomically: true, encoding: .utf8)
        try #"{"composers": "Johannes Brahms", "genres": "Lied", "rating": 4}"#.write(toFile: path("Ukolébavka.json"), atomically: true, encoding: .utf8)
        // The dictionary and index come first on the command line: scores are taken first.
        let out = try invoke(["add", path("Ukolébavka.json"), path("Ukolébavka.csv"), path("setlist.txt"), path("Ukolébavka.pdf"),
                              "--library", lib]).out
        XCTAssertTrue(out.contains("setlist.txt: forScore setlist (4SS) → setlist \"Koncert v Praze\" (2 entries, 1 placeholder(s))"), out)
        XCTAssertTrue(out.contains("Ukolébavka.csv: CSV index → added 2 bookmark(s) to Ukolébavka.pdf"), out)
        let meta = try FolderOracle.metadata(URL(fileURLWithPath: lib))
        let score = try XCTUnwrap(meta["Ukolébavka.pdf"], "\(meta.keys)")
        XCTAssertEqual((score["info"] as? [String: Any])?["Subject"] as? String, "Lied", "\(score)")
        XCTAssertEqual((score["info"] as? [String: Any])?["Keywords"] as? String, "rating:4", "\(score)")
        let bookmarks = try invoke(["bookmarks", "list", lib + "/Ukolébavka.pdf"]).out
        XCTAssertTrue(bookmarks.contains("Verš první") && bookmarks.contains("Druhý verš"), bookmarks)
        let shown = try invoke(["setlist", "show", "Koncert v Praze", "--json", "--library", lib]).out
        let entries = (try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])?["entries"] as? [[String: Any]]
        XCTAssertEqual(entries?.map { $0["kind"] as? String }, ["score", "placeholder"], shown)

        // A library CSV: a dry run first, then written.
        try "Filename,Title,Composers\nUkolébavka.pdf,Wiegenlied,Johannes Brahms; Georg Scherer\n"
            .write(toFile: path("library.csv"), atomically: true, encoding: .utf8)
        let before = try snapshot(lib)
        let dry = try invoke(["add", path("library.csv"), "--library", lib, "--dry-run"]).out
        XCTAssertTrue(dry.contains("would change 1 score(s)") && dry.contains("title: Ukolébavka → Wiegenlied") || dry.contains("→ Wiegenlied"), dry)
        XCTAssertEqual(try snapshot(lib).filter { !$0.key.hasPrefix(".") }, before.filter { !$0.key.hasPrefix(".") }, "a dry run writes nothing")
        try invoke(["add", path("library.csv"), "--library", lib])
        XCTAssertEqual((try FolderOracle.metadata(URL(fileURLWithPath: lib))["Ukolébavka.pdf"]?["info"] as? [String: Any])?["Title"] as? String,
                       "Wiegenlied")

        // A 4SC named .bin and a 4SB named .dat, by content.
        try invoke(["export-4sc", lib + "/Ukolébavka.pdf", "-o", path("container.bin")])
        let other = try library("other")
        let container = try invoke(["add", path("container.bin"), "--library", other]).out
        XCTAssertTrue(container.contains("forScore container (4SC) → score"), container)
        XCTAssertEqual((try FolderOracle.metadata(URL(fileURLWithPath: other)).values.first?["info"] as? [String: Any])?["Title"] as? String,
                       "Wiegenlied")
        let forScore = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/forscore_files.py").path
        let made = try TestEnvironment.runTool("python3", ["-W", "ignore", forScore, "make-4sb", path("archive.dat"), "archive", source])
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        let archive = try invoke(["add", path("archive.dat"), "--library", try library("third")]).out
        XCTAssertTrue(archive.contains("forScore backup (4SB) (archive) → imported"), archive)
    }

    /// Zip bombs (lying and honest), entities, paths out of the package or the folder, an
    /// image past the pixel limit and a missing LibreOffice: clear errors, the library as it was.
    func testHostileFilesAreRefusedAndTheLibraryIsUnchanged() throws {
        let hostile = try library("hostile")
        _ = try python(["hostile", hostile])
        let lib = try library()
        try TestEnvironment.copy(atPath: try TestEnvironment.corpus.appendingPathComponent("scores/Brahms-Cancion_de_Cuna.pdf").path,
                                         toPath: lib + "/Brahms.pdf")
        try invoke(["library", "scan", lib])
        let before = try snapshot(lib)
        let expected = [
            "ratio.docx": "a zip bomb?", "lying.docx": "it declares 1000 bytes", "entities.docx": "declares a DTD or entities",
            "traversal.docx": "leads out of the package", "dotdot.4sb": "leads out of the folder", "absolute.4sb": "is an absolute path",
            "combining.docx": "leads out of the package", "combining.4sb": "leads out of the folder",
        ]
        for (file, message) in expected.sorted(by: { $0.key < $1.key }) {
            let result = try invoke(["add", hostile + "/" + file, "--library", lib], status: 64)
            XCTAssertTrue(result.err.contains(message), "\(file): \(result.err)")
        }
        let huge = try TestEnvironment.runTool("python3", ["-c", "from PIL import Image; Image.new('L', (5000, 4000)).save('\(path("huge.png"))')"])
        XCTAssertEqual(huge.status, 0)
        let refused = try invoke(["annot", "add", lib + "/Brahms.pdf", "--page", "1", "--type", "stamp", "--image", path("huge.png"),
                                  "--rect", "10,10,50,50"], status: 64)
        XCTAssertTrue(refused.err.contains("valid: up to 16000000 pixels"), refused.err)
        // Without LibreOffice: the way to install it, exit 69.
        try "{\\rtf1\\ansi Ave}".write(toFile: path("song.rtf"), atomically: true, encoding: .utf8)
        let missing = try TestEnvironment.run(folio, ["add", path("song.rtf"), "--library", lib], environment: ["FOLIO_SOFFICE": "/nonexistent/soffice"])
        XCTAssertEqual(missing.status, 69)
        XCTAssertTrue(String(decoding: missing.stderr, as: UTF8.self).contains("apt-get install libreoffice-writer-nogui"))
        let after = try snapshot(lib)
        XCTAssertEqual(Set(after.keys), Set(before.keys), "no file was added or removed")
        for (file, bytes) in before where !file.hasPrefix(".folio/") {
            XCTAssertEqual(after[file], bytes, "\(file) changed")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/escaped.pdf"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("escaped.pdf").path))
    }

    /// A PNG with transparency as a stamp: Poppler, MuPDF and PDFium draw its colour inside the
    /// rectangle and the page where it is transparent; qpdf finds nothing wrong.
    func testAnImageStampShowsItsPixelsAndThePageThroughItsTransparency() throws {
        let source = try TestEnvironment.corpus.appendingPathComponent("scores/Brahms-Cancion_de_Cuna.pdf").path
        try TestEnvironment.copy(atPath: source, toPath: path("stamped.pdf"))
        let made = try TestEnvironment.runTool("python3", ["-c", """
            from PIL import Image, ImageDraw
            image = Image.new('RGBA', (200, 100), (0, 0, 0, 0))
            ImageDraw.Draw(image).ellipse((10, 10, 190, 90), fill=(220, 20, 60, 255))
            image.save('\(path("Dirigent.png"))')
            """])
        XCTAssertEqual(made.status, 0)
        try invoke(["annot", "add", path("stamped.pdf"), "--page", "1", "--type", "stamp", "--image", path("Dirigent.png"),
                    "--rect", "100,300,200,100", "--text", "Dirigent — дирижёр"])
        XCTAssertEqual(try TestEnvironment.qpdfProblems(path("stamped.pdf")), [])
        let report = try python(["pixels", path("stamped.pdf"), source, "100", "300", "200", "100"])
        let colours = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: [String: [Int]]])
        XCTAssertEqual(Set(colours.keys), ["poppler", "mupdf", "pdfium"])
        for (renderer, found) in colours {
            let centre = try XCTUnwrap(found["centre"])
            XCTAssertTrue(abs(centre[0] - 220) <= 8 && abs(centre[1] - 20) <= 8 && abs(centre[2] - 60) <= 8, "\(renderer): \(centre)")
            XCTAssertEqual(found["corner"], found["page"], "\(renderer): the transparent corner shows the page")
        }
        let listed = try invoke(["annot", "list", path("stamped.pdf"), "--json"]).out
        XCTAssertTrue(listed.contains("FolioImage") && listed.contains("Dirigent — дирижёр"), listed)
    }
}
