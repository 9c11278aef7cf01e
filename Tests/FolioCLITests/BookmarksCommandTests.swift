import FolioTestSupport
import Foundation
import XCTest

/// `folio bookmarks` as a user runs it; what it writes is read back by exiftool and by a
/// separate Python parser of Apple Preview's and Nutrient's schemas.
final class BookmarksCommandTests: XCTestCase {
    private func folio(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, timeout: 300)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    /// Reads the packet with pikepdf and parses both schemas with ElementTree and json.
    private let parser = """
        import json, sys, xml.etree.ElementTree as ET, pikepdf
        RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
        AP = "{http://ns.apple.com/Preview/1.0/}"
        PS = "{http://pspdfkit.com/pdf/xmp/1.0/}"
        with pikepdf.open(sys.argv[1]) as pdf:
            root = ET.fromstring(pdf.Root.Metadata.read_bytes())
        preview, nutrient = [], []
        for item in root.iter(AP + "Bookmarks"):
            for li in item.iter(RDF + "li"):
                fields = {k.split("}")[1]: v for k, v in li.attrib.items() if k.startswith(AP)}
                for child in li.iter():
                    if child.tag.startswith(AP):
                        fields[child.tag.split("}")[1]] = child.text
                preview.append([int(fields["PageIndex"]), fields["UUID"]])
        for item in root.iter(PS + "Bookmarks"):
            for entry in json.loads(item.text):
                nutrient.append([entry["action"]["pageIndex"], entry["uuid"], entry["name"]])
        print(json.dumps({"preview": sorted(preview), "nutrient": sorted(nutrient)}))
        """

    func testAddListRenameRemoveAndFromToc() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("book.pdf").path
        let source = try TestEnvironment.corpusFile("qpdf/outlines-with-loop.pdf")
        try TestEnvironment.copy(atPath: source, toPath: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))

        let fromToc = try folio(["bookmarks", "from-toc", "--save", "--json", path])
        XCTAssertEqual(fromToc.status, 0, fromToc.err)
        let pieces = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(fromToc.out.utf8)) as? [String: Any])["bookmarks"]
            as? [[String: Any]]
        XCTAssertEqual(pieces?.count, 8)
        XCTAssertEqual(try folio(["bookmarks", "from-toc", "--save", path]).status, 0, "saving again adds nothing")

        let added = try folio(["bookmarks", "add", path, "--name", "Étude «Nr. 3»", "--page", "3", "--end", "4",
                               "--composer", "Frédéric Chopin", "--key", "E major"])
        XCTAssertEqual(added.status, 0, added.err)
        let id = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try folio(["bookmarks", "rename", path, "--id", id, "--name", "Étude Op. 10 № 3"]).status, 0)

        let listed = try folio(["bookmarks", "list", "--json", path])
        let bookmarks = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])["bookmarks"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(bookmarks.count, 9)
        XCTAssertEqual(bookmarks.first?["name"] as? String, "Étude Op. 10 № 3", "page order: page 3 first")
        XCTAssertEqual(bookmarks.first?["end"] as? Int, 4)
        XCTAssertEqual(bookmarks.first?["key"] as? String, "E major")
        XCTAssertEqual(bookmarks.first?["composers"] as? [String], ["Frédéric Chopin"])

        // Both schemas, read by a parser nobody here wrote the writer for, hold the same UUIDs and pages.
        let parsed = try TestEnvironment.runTool("python3", ["-c", parser, path])
        XCTAssertEqual(parsed.status, 0, String(decoding: parsed.stderr, as: UTF8.self))
        let schemas = try XCTUnwrap(try JSONSerialization.jsonObject(with: parsed.stdout) as? [String: [[Any]]])
        let preview = (schemas["preview"] ?? []).map { "\($0[0]) \($0[1])" }
        let nutrient = (schemas["nutrient"] ?? []).map { "\($0[0]) \($0[1])" }
        XCTAssertEqual(preview, nutrient)
        XCTAssertEqual(Set(preview), Set(bookmarks.map { "\(($0["page"] as? Int ?? 0) - 1) \($0["id"] as? String ?? "")" }))
        XCTAssertTrue((schemas["nutrient"] ?? []).contains { ($0[2] as? String) == "Étude Op. 10 № 3" })

        // exiftool lists the same bookmarks from the XMP: Preview's structures and Nutrient's JSON.
        let exif = try TestEnvironment.runTool("exiftool", ["-j", "-G1", "-XMP:all", "-struct", path])
        let groups = try XCTUnwrap((try JSONSerialization.jsonObject(with: exif.stdout) as? [[String: Any]])?.first)
        let exifPreview = (groups["XMP-apple-preview:Bookmarks"] as? [[String: Any]] ?? [])
            .map { "\($0["PageIndex"] as? Int ?? -1) \($0["Uuid"] as? String ?? "")" }
        XCTAssertEqual(Set(exifPreview), Set(preview))
        let exifNutrient = try XCTUnwrap(groups["XMP-pspdf:Bookmarks"] as? String)
        let exifList = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(exifNutrient.utf8)) as? [[String: Any]])
        XCTAssertTrue(exifList.contains { $0["name"] as? String == "Étude Op. 10 № 3" && $0["uuid"] as? String == id })

        XCTAssertEqual(try folio(["bookmarks", "remove", path, "--id", id]).status, 0)
        let missing = try folio(["bookmarks", "remove", path, "--id", id])
        XCTAssertEqual(missing.status, 1, "not found, as the server's 404")
        XCTAssertTrue(missing.err.contains("no bookmark has the id"), missing.err)
        let outOfRange = try folio(["bookmarks", "add", path, "--name", "X", "--page", "999"])
        XCTAssertEqual(outOfRange.status, 64)
        XCTAssertTrue(outOfRange.err.contains("valid: 1 to"), outOfRange.err)

        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(after.prefix(original.count), original, "every save was incremental")
        let check = try TestEnvironment.runTool("qpdf", ["--check", path])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))
    }

    /// Copies of a bookmark (as iCloud sync makes them) removed, the first kept, one that
    /// differs in its pages kept; read back by the Python parser; a file without copies untouched.
    func testDedupeRemovesCopiesOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-dedupe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Dobrú noc.pdf").path, clean = directory.appendingPathComponent("clean.pdf").path
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Chopin-Prelude_Op_28_No_15.pdf"), toPath: path)
        try TestEnvironment.copy(atPath: path, toPath: clean)
        for (page, end) in [(1, 2), (1, 2), (1, 2), (2, 2)] {
            let added = try folio(["bookmarks", "add", path, "--name", "Добрый вечер", "--page", "\(page)", "--end", "\(end)"])
            XCTAssertEqual(added.status, 0, added.err)
        }
        XCTAssertEqual(try folio(["bookmarks", "add", clean, "--name", "Ζ", "--page", "1"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: clean))
        let deduped = try folio(["bookmarks", "dedupe", path, clean])
        XCTAssertEqual(deduped.status, 0, deduped.err)
        XCTAssertTrue(deduped.out.contains("Dobrú noc.pdf: 2 duplicate bookmarks removed"), deduped.out)
        XCTAssertTrue(deduped.out.contains("clean.pdf: 0 duplicate bookmarks removed"), deduped.out)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: clean)), before, "nothing to remove, nothing saved")
        let read = try TestEnvironment.runTool("python3", ["-c", parser, path])
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: read.stdout) as? [String: Any])
        let nutrient = try XCTUnwrap(parsed["nutrient"] as? [[Any]])
        XCTAssertEqual(nutrient.map { "\($0[0]) \($0[2])" }.sorted(), ["0 Добрый вечер", "1 Добрый вечер"])
        XCTAssertEqual(try folio(["bookmarks", "dedupe", "/nonexistent/x.pdf"]).status, 1)
    }

    func testCSVImportExportRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try TestEnvironment.corpusFile("qpdf/outlines-with-loop.pdf")
        let first = directory.appendingPathComponent("first.pdf").path
        let second = directory.appendingPathComponent("second.pdf").path
        try TestEnvironment.copy(atPath: source, toPath: first)
        try TestEnvironment.copy(atPath: source, toPath: second)
        // A real book's index: a title line, a header, book pages 2 behind PDF pages, CRLF, a bad row.
        let index = directory.appendingPathComponent("index.csv")
        try Data("\u{FEFF}The Real Book\r\nSong;Composer;Page\r\n\"Misty; ballad\";Erroll Garner;3\r\nBad;;x\r\nSo What;Miles Davis;7\r\n".utf8)
            .write(to: index)
        let before = try Data(contentsOf: URL(fileURLWithPath: first))
        let strict = try folio(["bookmarks", "import", first, "--from", index.path, "--header-rows", "2", "--page-offset", "2",
                                "--strict"])
        XCTAssertEqual(strict.status, 64)
        XCTAssertTrue(strict.err.contains("line 4"), strict.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: first)), before, "refused: untouched")

        let imported = try folio(["bookmarks", "import", first, "--from", index.path, "--header-rows", "2",
                                  "--page-offset", "2"])
        XCTAssertEqual(imported.status, 1, "a row skipped: partial work is not success (docs/saves.md); \(imported.err)")
        XCTAssertTrue(imported.err.contains("line 4: start page 'x' is not a whole number"), imported.err)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: first)), before, "the rows that could be read are saved")
        // The reference lives in Folio's XMP namespace, for the score and for each piece.
        XCTAssertEqual(try folio(["meta", "set", first, "--title", "The Real Book", "--composer", "Various",
                                  "--reference", "=RB-1 6th ed."]).status, 0)
        XCTAssertEqual(try folio(["bookmarks", "add", first, "--name", "Blue Bossa", "--page", "1", "--end", "2",
                                  "--reference", "p. 44"]).status, 0)
        let exported = try folio(["bookmarks", "export", first])
        XCTAssertEqual(exported.status, 0)
        XCTAssertTrue(exported.out.hasPrefix(CSVHeader.forScore), exported.out)
        XCTAssertTrue(exported.out.contains("first.pdf,\"Misty; ballad\",5,8,Erroll Garner"), exported.out)
        XCTAssertTrue(exported.out.contains("first.pdf,The Real Book,,,Various,,,,'=RB-1 6th ed.,"), exported.out)
        XCTAssertTrue(exported.out.contains("first.pdf,Blue Bossa,1,2,,,,,p. 44,"), exported.out)
        let csv = directory.appendingPathComponent("export.csv")
        try Data(exported.out.utf8).write(to: csv)
        // Twice: identifiers derived from the rows make the second import replace, not double.
        for _ in 0..<2 {
            let again = try folio(["bookmarks", "import", second, "--from", csv.path, "--score"])
            XCTAssertEqual(again.status, 0, again.err)
        }
        let meta = try folio(["meta", "get", "--json", second])
        let score = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(meta.out.utf8)) as? [String: Any])
        XCTAssertEqual(score["title"] as? String, "The Real Book")
        XCTAssertEqual(score["composers"] as? [String], ["Various"])
        XCTAssertEqual(score["reference"] as? String, "=RB-1 6th ed.", "guarded on export, unguarded on import")

        func pieces(_ path: String) throws -> [String] {
            let listed = try folio(["bookmarks", "list", "--json", path])
            let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])["bookmarks"]
                as? [[String: Any]] ?? []
            return list.map { "\($0["name"] as? String ?? "") \($0["start"] as? Int ?? 0)-\($0["end"] as? Int ?? 0) "
                + "\(($0["composers"] as? [String] ?? []).joined(separator: "+"))" + (($0["reference"] as? String).map { " ref \($0)" } ?? "") }
        }
        XCTAssertEqual(try pieces(first), ["Blue Bossa 1-2  ref p. 44", "Misty; ballad 5-8 Erroll Garner",
                                           "So What 9-30 Miles Davis"])
        XCTAssertEqual(try pieces(second), try pieces(first), "export then import gives the same bookmarks")
    }
}

extension BookmarksCommandTests {
    /// `--store csv`: page-range bookmarks kept in an index beside the PDF (forScore's
    /// layout, read back by Python's csv module), the rest in the PDF; a command that
    /// changes only the index leaves the PDF byte-identical, and the reverse.
    func testIndexBesideThePDFAsABookmarkStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pdf = directory.appendingPathComponent("book.pdf").path
        let index = directory.appendingPathComponent("book.csv").path
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("qpdf/outlines-with-loop.pdf"), toPath: pdf)
        func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
        func listed(_ arguments: [String]) throws -> [String: String] {
            let result = try folio(["bookmarks", "list", "--json"] + arguments + [pdf])
            XCTAssertEqual(result.status, 0, result.err)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            return Dictionary(uniqueKeysWithValues: (object["bookmarks"] as? [[String: Any]] ?? []).map {
                ($0["id"] as? String ?? "", "\($0["name"] as? String ?? "") \($0["start"] as? Int ?? 0)-\($0["end"] as? Int ?? 0)")
            })
        }
        func rows() throws -> [[String]] {
            let script = "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))"
            let result = try TestEnvironment.runTool("python3", ["-c", script, index])
            return try JSONDecoder().decode([[String]].self, from: result.stdout)
        }

        let original = try bytes(pdf)
        let added = try folio(["bookmarks", "add", pdf, "--store", "csv", "--name", "Misty", "--page", "3", "--end", "4",
                               "--composer", "Erroll Garner", "--reference", "RB1 p. 280"])
        XCTAssertEqual(added.status, 0, added.err)
        XCTAssertEqual(try bytes(pdf), original, "only the index changed")
        var table = try rows()
        XCTAssertEqual(table.first, CSVHeader.forScore.components(separatedBy: ","))
        XCTAssertEqual(table.dropFirst().map { $0.count }, [15, 15])
        XCTAssertEqual(table.last, ["book.pdf", "Misty", "3", "4", "Erroll Garner", "", "", "", "RB1 p. 280", "", "", "",
                                    "", "", ""])
        let id = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try listed(["--store", "csv"]), [id: "Misty 3-4"], "the printed id is the one read back")
        XCTAssertEqual(try listed(["--store", "csv"]), try listed(["--store", "csv"]), "ids are stable across reads")
        XCTAssertEqual(try listed([]), [:], "nothing in the PDF")

        // A bookmark the chain gives to the PDF, then edits that touch one store only.
        XCTAssertEqual(try folio(["bookmarks", "add", pdf, "--name", "Cover", "--page", "1"]).status, 0)
        let withCover = try bytes(pdf)
        let both = try listed(["--store", "csv"])
        XCTAssertEqual(Set(both.values), ["Misty 3-4", "Cover 1-1"])
        let indexBefore = try bytes(index)
        let coverID = try XCTUnwrap(both.first { $0.value == "Cover 1-1" }?.key)
        XCTAssertEqual(try folio(["bookmarks", "rename", pdf, "--store", "csv", "--id", coverID, "--name", "Front"]).status, 0)
        XCTAssertEqual(try bytes(index), indexBefore, "a bookmark of the PDF is renamed in the PDF")
        XCTAssertNotEqual(try bytes(pdf), withCover)
        let afterRename = try bytes(pdf)
        XCTAssertEqual(try folio(["bookmarks", "rename", pdf, "--store", "csv", "--id", id, "--name", "Misty (ballad)"]).status, 0)
        XCTAssertEqual(try bytes(pdf), afterRename, "a bookmark of the index is renamed in the index")
        table = try rows()
        XCTAssertEqual(table.last?.prefix(4), ["book.pdf", "Misty (ballad)", "3", "4"])
        let renamedID = try XCTUnwrap(try listed(["--store", "csv"]).first { $0.value == "Misty (ballad) 3-4" }?.key)
        XCTAssertEqual(try folio(["bookmarks", "remove", pdf, "--store", "csv", "--id", renamedID]).status, 0)
        XCTAssertEqual(try rows().count, 2, "header and score row left")
        XCTAssertEqual(try bytes(pdf), afterRename)

        // from-toc into the index; a TSV index named with --index; --index alone is a usage error.
        XCTAssertEqual(try folio(["bookmarks", "from-toc", "--save", "--store", "csv", pdf]).status, 0)
        let fromToc = try folio(["bookmarks", "from-toc", "--json", pdf])
        let tocCount = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(fromToc.out.utf8)) as? [String: Any])?["bookmarks"]
            as? [Any]).count
        XCTAssertGreaterThan(tocCount, 0)
        XCTAssertEqual(try rows().count, 2 + tocCount)
        let tsv = directory.appendingPathComponent("pieces.tsv").path
        XCTAssertEqual(try folio(["bookmarks", "add", pdf, "--store", "csv", "--index", tsv, "--name", "A, B", "--page", "2"]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: tsv, encoding: .utf8).contains("book.pdf\t\"A, B\"\t2\t2\t"))
        let refused = try folio(["bookmarks", "list", "--index", tsv, pdf])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.err.contains("--index needs --store csv"), refused.err)
    }
}

/// forScore's header line, as the seed gives it.
private enum CSVHeader {
    static let forScore = "Filename,Title,Start Page (Bookmark),End Page (Bookmark),Composers,Genres,Tags,Labels,"
        + "Reference,Rating,Difficulty,Minutes,Seconds,keysf,keymi"
}
