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
        let source = TestEnvironment.corpusFile("qpdf/outlines-with-loop.pdf")
        try FileManager.default.copyItem(atPath: source, toPath: path)
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
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.err.contains("no bookmark with id"), missing.err)
        let outOfRange = try folio(["bookmarks", "add", path, "--name", "X", "--page", "999"])
        XCTAssertEqual(outOfRange.status, 64)
        XCTAssertTrue(outOfRange.err.contains("valid: 1 to"), outOfRange.err)

        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(after.prefix(original.count), original, "every save was incremental")
        let check = try TestEnvironment.runTool("qpdf", ["--check", path])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))
    }

    func testCSVImportExportRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = TestEnvironment.corpusFile("qpdf/outlines-with-loop.pdf")
        let first = directory.appendingPathComponent("first.pdf").path
        let second = directory.appendingPathComponent("second.pdf").path
        try FileManager.default.copyItem(atPath: source, toPath: first)
        try FileManager.default.copyItem(atPath: source, toPath: second)
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
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertTrue(imported.err.contains("line 4: start page 'x' is not a whole number"), imported.err)
        let exported = try folio(["bookmarks", "export", first])
        XCTAssertEqual(exported.status, 0)
        XCTAssertTrue(exported.out.hasPrefix(CSVHeader.forScore), exported.out)
        XCTAssertTrue(exported.out.contains("first.pdf,\"Misty; ballad\",5,8,Erroll Garner"), exported.out)
        let csv = directory.appendingPathComponent("export.csv")
        try Data(exported.out.utf8).write(to: csv)
        XCTAssertEqual(try folio(["bookmarks", "import", second, "--from", csv.path]).status, 0)

        func pieces(_ path: String) throws -> [String] {
            let listed = try folio(["bookmarks", "list", "--json", path])
            let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])["bookmarks"]
                as? [[String: Any]] ?? []
            return list.map { "\($0["name"] as? String ?? "") \($0["start"] as? Int ?? 0)-\($0["end"] as? Int ?? 0) "
                + "\(($0["composers"] as? [String] ?? []).joined(separator: "+"))" }
        }
        XCTAssertEqual(try pieces(first), ["Misty; ballad 5-8 Erroll Garner", "So What 9-30 Miles Davis"])
        XCTAssertEqual(try pieces(second), try pieces(first), "export then import gives the same bookmarks")
    }
}

/// forScore's header line, as the seed gives it.
private enum CSVHeader {
    static let forScore = "Filename,Title,Start Page (Bookmark),End Page (Bookmark),Composers,Genres,Tags,Labels,"
        + "Reference,Rating,Difficulty,Minutes,Seconds,keysf,keymi"
}
