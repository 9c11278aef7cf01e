import FolioTestSupport
import Foundation
import XCTest

/// `folio import-4sb`, `import-4sc` and `export-4sc` on files a Python script builds in
/// the documented layout (plistlib, gzip), read back with pikepdf, PyMuPDF and pdftoppm;
/// and damaged files refused with the target folder untouched.
final class ForScoreFilesCommandTests: CommandTestCase, @unchecked Sendable {
    private let oracle = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/forscore_files.py").path
    private var sources: [String] {
        get throws {
            try ["Brahms-Cancion_de_Cuna.pdf", "Chopin-Prelude_Op_28_No_15.pdf", "Clementi-Sonatina_O_36.pdf"].map {
                try TestEnvironment.corpus.appendingPathComponent("scores/\($0)").path
            }
        }
    }

    private func python(_ arguments: [String]) throws -> String {
        let result = try TestEnvironment.runTool("python3", ["-W", "ignore", oracle] + arguments)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return String(decoding: result.stdout, as: UTF8.self)
    }

    private func checkImported(_ folder: String, expectations: String) throws {
        let file = root.appendingPathComponent("expect-\(UUID().uuidString).json")
        try Data(expectations.utf8).write(to: file)
        let report = try python(["check", folder, file.path])
        XCTAssertEqual(report.trimmingCharacters(in: .whitespacesAndNewlines), "{\"problems\": []}")
    }

    func testArchiveImportWritesEverythingIntoThePDFs() throws {
        let archive = root.appendingPathComponent("Archive.4sb").path
        let expectations = try python(["make-4sb", archive, "archive"] + sources)
        let target = root.appendingPathComponent("out").path
        let dry = try invoke(["import-4sb", archive, target, "--dry-run"]).out
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "a dry run writes nothing")
        XCTAssertTrue(dry.contains("1 bookmarks, 1 text boxes, 1 drawing layers"), dry)
        let out = try invoke(["import-4sb", archive, target]).out
        XCTAssertFalse(out.contains("not written: tempo"), out)
        let plain = try invoke(["meta", "get", target + "/Plain.pdf", "--json"]).out
        XCTAssertTrue(plain.contains("\"tempo\":96"), "bpm is kept as the tempo: \(plain)")
        try checkImported(target, expectations: expectations)
        XCTAssertTrue(FileManager.default.fileExists(atPath: target + "/notes.csv"))
        let shown = try invoke(["setlist", "show", "Friday", "--json", "--library", target]).out
        let entries = (try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])?["entries"] as? [[String: Any]]
        XCTAssertEqual(entries?.map { $0["kind"] as? String }, ["score", "bookmark", "placeholder"])
        XCTAssertEqual(entries?.first?["path"] as? String, "Dvořák – Humoreska.pdf")
        // Importing again keeps the first files and writes free names.
        try invoke(["import-4sb", archive, target])
        XCTAssertTrue(FileManager.default.fileExists(atPath: target + "/Dvořák – Humoreska 2.pdf"))
    }

    /// Drawings on forScore's canvas over pages of several sizes, cropped, turned and zoomed:
    /// each mark where forScore showed it (Poppler, MuPDF, PDFium within 2 pt), the canvas
    /// outside the page never shown, a named layer that hides its marks when toggled off,
    /// keys by code, 100 copies of a bookmark imported once.
    func testDrawingsLandWhereForScoreShowedThemAndLayersToggle() throws {
        let archive = path("Canvas.4sb"), source = path("canvas-source.pdf"), target = path("canvas")
        let expectations = try python(["make-canvas", archive, source])
        let out = try invoke(["import-4sb", archive, target]).out
        for part in ["2 bookmarks, 99 duplicate bookmarks dropped", "1 text boxes, 8 drawing layers, 1 named layers, 1 pages turned, 1 pages cropped",
                     "approximate: page 6: cropped in forScore by zoom 1.25", "1 audio tracks kept",
                     "not written: the track ../escape.mp3 leads out of the score's folder"] {
            XCTAssertTrue(out.contains(part), "\(part) in \(out)")
        }
        let imported = target + "/Janáček – Po zarostlém chodníčku.pdf"
        let file = root.appendingPathComponent("expect-canvas.json")
        try Data(expectations.utf8).write(to: file)
        let report = try python(["check-canvas", imported, file.path])
        XCTAssertEqual(report.trimmingCharacters(in: .whitespacesAndNewlines), "{\"problems\": []}")
        let meta = try invoke(["meta", "get", imported, "--json"]).out
        XCTAssertTrue(meta.contains("\"key\":\"F♯ minor\""), "key 411 is F♯ minor: \(meta)")
        XCTAssertTrue(meta.contains("\"tempo\":72") && meta.contains("\"timeSignature\":\"3/4\""), meta)
        let bookmarks = try invoke(["bookmarks", "list", imported, "--json"]).out
        XCTAssertEqual(bookmarks.components(separatedBy: "Dobrú noc").count - 1, 1, bookmarks)
    }

    /// Layers of the wrong shape, past the pixel limit or past the last page are skipped with
    /// why; metadata that refers to itself is refused and nothing is written.
    func testHostileCanvasLayersAreSkippedWithReasons() throws {
        let archive = path("hostile.4sb"), cyclic = path("cyclic.4sb"), target = path("hostile")
        _ = try python(["make-canvas-hostile", archive, path("hostile-source.pdf"), cyclic])
        let out = try invoke(["import-4sb", archive, target]).out
        for part in ["drawing of page 1: a picture of 1000 × 1000 pixels is not forScore's canvas (valid: 2160 × 2824 or the same shape)",
                     "drawing of page 2: not a PNG forScore draws: PNG of 20000 × 26148 pixels is out of range (valid: up to 24399360 pixels)",
                     "drawing of page 99: past the last page (3)", "0 drawing layers"] {
            XCTAssertTrue(out.contains(part), "\(part) in \(out)")
        }
        let pdfinfo = try TestEnvironment.runTool("pdfinfo", [target + "/Ζορμπάς.pdf"])
        XCTAssertEqual(pdfinfo.status, 0, "the PDF itself was imported")
        let refused = try invoke(["import-4sb", cyclic, path("cyclic")], status: 64)
        XCTAssertTrue(refused.err.contains("nests deeper than 64 levels"), refused.err)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: path("cyclic"))) ?? []
        XCTAssertEqual(left, [], "nothing written for a refused archive")
    }

    func testBackupMarksThePDFsAlreadyThere() throws {
        let backup = root.appendingPathComponent("Backup.4sb").path
        let expectations = try python(["make-4sb", backup, "backup"] + sources)
        let target = root.appendingPathComponent("lib").path
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let names = ["Dvořák – Humoreska.pdf", "Satie – Gymnopédie.pdf", "Plain.pdf"]
        for (source, name) in zip(try sources, names) {
            // NFC on disk, NFD in the backup.
            try TestEnvironment.copy(atPath: source, toPath: target + "/" + name.precomposedStringWithCanonicalMapping)
        }
        let original = try XCTUnwrap(FileManager.default.contents(atPath: target + "/Plain.pdf"))
        try invoke(["import-4sb", backup, target])
        try checkImported(target, expectations: expectations)
        let updated = try XCTUnwrap(FileManager.default.contents(atPath: target + "/Plain.pdf"))
        XCTAssertEqual(updated.prefix(original.count), original, "an incremental update keeps the original bytes")
    }

    func testContainerImportAndRoundTrip() throws {
        let container = root.appendingPathComponent("piece.4sc").path
        let expectations = try python(["make-4sc", container, sources[1]])
        let target = root.appendingPathComponent("in").path
        try invoke(["import-4sc", container, target])
        try checkImported(target, expectations: expectations)
        // export-4sc → import-4sc: the metadata comes back.
        let imported = target + "/Dvořák – Humoreska.pdf"
        let exported = root.appendingPathComponent("again.4sc").path
        try invoke(["export-4sc", imported, "-o", exported])
        let packed = try TestEnvironment.runTool("python3", ["-c", """
            import gzip, plistlib, sys
            data = plistlib.loads(gzip.decompress(open(sys.argv[1], "rb").read()))
            print(data.get("Dvořák – Humoreska.pdf|bpm"))
            """, exported])
        XCTAssertEqual(String(decoding: packed.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "96",
                       "the tempo travels as forScore's bpm")
        let second = root.appendingPathComponent("second").path
        try invoke(["import-4sc", exported, second])
        let read = { (path: String) throws -> String in
            let result = try TestEnvironment.runTool("python3", ["-W", "ignore", "-c", """
                import pikepdf, sys
                p = pikepdf.open(sys.argv[1]); m = p.open_metadata()
                print(str(p.docinfo.get('/Title')), str(p.docinfo.get('/Author')), m.get('dc:title'))
                """, path])
            return String(decoding: result.stdout, as: UTF8.self)
        }
        XCTAssertEqual(try read(second + "/Dvořák – Humoreska.pdf"), try read(imported))
        XCTAssertTrue(try read(imported).contains("Humoreska Nr. 7"))
    }

    func testDamagedFilesChangeNothing() throws {
        let archive = root.appendingPathComponent("good.4sb").path
        _ = try python(["make-4sb", archive, "archive"] + sources)
        let good = try XCTUnwrap(FileManager.default.contents(atPath: archive))
        let target = root.appendingPathComponent("keep").path
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target + "/mine.txt"))
        let bomb = try Self.gzip(Data(count: 300 << 20))
        var lying = Array(good)
        // Record 1's data length, made larger than what follows.
        let headerStart = 12 + 32 + Int(String(decoding: lying[12..<28], as: UTF8.self).trimmingCharacters(in: .whitespaces))!
            + Int(String(decoding: lying[28..<44], as: UTF8.self).trimmingCharacters(in: .whitespaces))!
        lying.replaceSubrange((headerStart + 16)..<(headerStart + 32), with: Array(String(format: "%16d", 999_999_999).utf8))
        let cases: [(String, Data)] = [
            ("magic", Data("<--4SBV09-->".utf8) + good.dropFirst(12)),
            ("truncated", good.prefix(good.count - 100)),
            ("lying", Data(lying)),
            ("bomb", Data("<--4SBV02-->".utf8) + Data(String(format: "%16d%16d", 4, bomb.count).utf8) + Data("name".utf8) + bomb),
            ("plist", Data("<--4SBV02-->".utf8) + Data(String(format: "%16d%16d", 4, try Self.gzip(Data("not a plist".utf8)).count).utf8)
                + Data("name".utf8) + (try Self.gzip(Data("not a plist".utf8)))),
            ("header", Data("<--4SBV03-->    12x".utf8)),
        ]
        for (name, bytes) in cases {
            let file = root.appendingPathComponent("\(name).4sb")
            try bytes.write(to: file)
            let result = try invoke(["import-4sb", file.path, target], status: nil)
            XCTAssertEqual(result.status, 64, "\(name): \(result.err)")
            XCTAssertTrue(result.err.hasPrefix("folio import-4sb: "), "\(name): \(result.err)")
            let left = try FileManager.default.contentsOfDirectory(atPath: target).filter { !$0.hasPrefix(".folio") || $0.hasPrefix(".folio-import") }
            XCTAssertEqual(left, ["mine.txt"], "\(name): nothing half-written")
        }
        let junk = root.appendingPathComponent("junk.4sc")
        try (try Self.gzip(Data("junk".utf8))).write(to: junk)
        XCTAssertEqual(try invoke(["import-4sc", junk.path, target], status: nil).status, 64)
    }

    private static func gzip(_ data: Data) throws -> Data {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString)")
        try data.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let result = try TestEnvironment.runTool("gzip", ["-c", "-1", input.path])
        return result.stdout
    }
}
