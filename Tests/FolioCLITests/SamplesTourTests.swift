import FolioTestSupport
import Foundation
import XCTest

/// The commands a musician uses most, end to end on the three scores bundled in `Samples/`,
/// so a user's fresh clone (no shared corpus beside it) exercises every layer through the
/// binary. What `folio` writes is read back by tools nobody here wrote — pikepdf, PyMuPDF,
/// pdfinfo, Python's XML parser — and `qpdf --check` finds nothing new in it.
final class SamplesTourTests: CommandTestCase, @unchecked Sendable {
    private var samples: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        samples = root.appendingPathComponent("Samples")
        try TestEnvironment.copy(at: TestEnvironment.repositoryRoot.appendingPathComponent("Samples"), to: samples)
    }

    private func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

    /// Runs a Python script with `arguments` and returns its standard output's lines.
    private func python(_ script: String, _ arguments: [String]) throws -> [String] {
        let result = try TestEnvironment.runTool("python3", ["-c", script] + arguments)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Asserts `qpdf --check` finds nothing in `path` it did not find in `original`.
    private func assertNothingNewForQPDF(_ path: String, original: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let new = try TestEnvironment.qpdfProblems(path).subtracting(try TestEnvironment.qpdfProblems(original))
        XCTAssertEqual(new, [], path, file: file, line: line)
    }

    func testMetadataAndTableOfContents() throws {
        let brahms = sample("Brahms-Cancion_de_Cuna.pdf")
        let original = path("original.pdf")
        try TestEnvironment.copy(atPath: brahms, toPath: original)
        try invoke(["meta", "set", brahms, "--title", "Wiegenlied — Колыбельная", "--composer", "Johannes Brahms",
                    "--genre", "Lied", "--key", "Eb", "--rating", "4", "--reference", "Op. 49 № 4"])
        try invoke(["toc", "add", brahms, "--title", "Strophe — Στροφή", "--page", "1"])

        let read = try python("""
            import sys, pikepdf
            pdf = pikepdf.open(sys.argv[1])
            info = pdf.docinfo
            print(str(info.Title)); print(str(info.Author)); print(str(info.Subject)); print(str(info.Keywords))
            with pdf.open_outline() as outline:
                print(outline.root[0].title)
            """, [brahms])
        XCTAssertEqual(Array(read.prefix(3)), ["Wiegenlied — Колыбельная", "Johannes Brahms", "Lied"])
        for part in ["rating:4", "keysf:-3", "keymi:0"] { XCTAssertTrue(read[3].contains(part), read[3]) }
        XCTAssertEqual(read[4], "Strophe — Στροφή")

        // What folio reads back is what it wrote, the reference (XMP only) included.
        let json = try invoke(["meta", "get", "--json", brahms]).out
        let meta = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(meta["reference"] as? String, "Op. 49 № 4")
        XCTAssertEqual(meta["key"] as? String, "E♭ major")
        try assertNothingNewForQPDF(brahms, original: original)
        let before = try Data(contentsOf: URL(fileURLWithPath: original))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: brahms)).prefix(before.count), before,
                       "saved as incremental updates")
    }

    func testAnnotationsAddedMovedAndRemoved() throws {
        let debussy = sample("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        let original = path("original.pdf")
        try TestEnvironment.copy(atPath: debussy, toPath: original)
        let id = try invoke(["annot", "add", debussy, "--type", "freetext", "--page", "1", "--rect", "72,100,200,30",
                             "--text", "Très doux — très lent"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(id.isEmpty)
        try invoke(["annot", "edit", debussy, "--id", id, "--rect", "100,150,180,40", "--color", "#0050c0"])
        let shown = try python("""
            import sys, pymupdf
            document = pymupdf.open(sys.argv[1])
            page = document[0]
            for a in page.annots():
                if a.info["id"] == sys.argv[2] or a.info["content"].startswith("Très"):
                    r = a.rect * page.rotation_matrix
                    print(round(min(r.x0, r.x1)), round(min(r.y0, r.y1)), round(abs(r.width)), round(abs(r.height)))
                    print(a.info["content"])
            """, [debussy, id])
        XCTAssertEqual(shown, ["100 150 180 40", "Très doux — très lent"])
        try assertNothingNewForQPDF(debussy, original: original)
        let countTexts = """
            import sys, pymupdf
            document = pymupdf.open(sys.argv[1])
            print(sum(1 for a in document[0].annots() if a.type[1] == "FreeText"))
            """
        XCTAssertEqual(try python(countTexts, [debussy]), ["1"])
        try invoke(["annot", "remove", debussy, "--id", id])
        XCTAssertEqual(try python(countTexts, [debussy]), ["0"])
    }

    func testLibrarySetlistMergeAndForScoreFiles() throws {
        try invoke(["library", "scan", samples.path])
        let found = try invoke(["library", "search", samples.path, "--text", "greensleeves", "--json"]).out
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(found.split(separator: "\n")[0].utf8)) as? [String: Any])
        XCTAssertEqual(entry["path"] as? String, "Traditional-Greensleeves_hymntune.pdf")

        let name = "Koncert — Концерт"
        try invoke(["setlist", "create", name, "--library", samples.path])
        try invoke(["setlist", "add", name, "Traditional-Greensleeves_hymntune.pdf", "--library", samples.path])
        try invoke(["setlist", "add", name, "Brahms-Cancion_de_Cuna.pdf", "--library", samples.path])
        let exported = path("koncert.4ss")
        try invoke(["setlist", "export", name, "--library", samples.path, "--output", exported])
        let setlist = try python("""
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            print(root.get("title")); print(*[s.get("path") for s in root.iter("score")], sep="|")
            """, [exported])
        XCTAssertEqual(setlist, [name, "Traditional-Greensleeves_hymntune.pdf|Brahms-Cancion_de_Cuna.pdf"])

        let merged = path("Večer.pdf")
        try invoke(["merge", sample("Brahms-Cancion_de_Cuna.pdf"), sample("Traditional-Greensleeves_hymntune.pdf"),
                    "--output", merged, "--title", "Večer"])
        let pages = try ["Brahms-Cancion_de_Cuna.pdf", "Traditional-Greensleeves_hymntune.pdf", merged].map { file in
            let info = try TestEnvironment.runTool("pdfinfo", [file.hasPrefix("/") ? file : sample(file)])
            let line = String(decoding: info.stdout, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Pages:") }
            return Int(line?.split(separator: " ").last ?? "") ?? -1
        }
        XCTAssertEqual(pages[2], pages[0] + pages[1])
        XCTAssertEqual(try TestEnvironment.qpdfProblems(merged), [])

        // A 4SC written and taken in again holds the same PDF, its fields written back as an update.
        let container = path("brahms.4sc")
        try invoke(["export-4sc", sample("Brahms-Cancion_de_Cuna.pdf"), "--output", container])
        let imported = root.appendingPathComponent("imported")
        try FileManager.default.createDirectory(at: imported, withIntermediateDirectories: true)
        try invoke(["import-4sc", container, imported.path])
        let back = imported.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path
        let sent = try Data(contentsOf: URL(fileURLWithPath: sample("Brahms-Cancion_de_Cuna.pdf")))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: back)).prefix(sent.count), sent)
        let titles = try python("""
            import sys, pikepdf
            for path in sys.argv[1:]:
                with pikepdf.open(path) as pdf: print(repr(str(pdf.docinfo.get("/Title", ""))))
            """, [sample("Brahms-Cancion_de_Cuna.pdf"), back])
        XCTAssertEqual(titles.count, 2)
        XCTAssertEqual(titles.first, titles.last)
        XCTAssertEqual(try TestEnvironment.qpdfProblems(back).subtracting(try TestEnvironment.qpdfProblems(sample("Brahms-Cancion_de_Cuna.pdf"))), [])
    }
}
