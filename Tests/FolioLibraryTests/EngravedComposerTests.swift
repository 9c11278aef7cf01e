import FolioLibrary
import FolioTestSupport
import Foundation
import XCTest

/// The engraved scores of the shared corpus (Mutopia's LilyPond files, whose composer is in the
/// Info dictionary's `/Composer`, never in Author): catalogued with that composer, shown,
/// searched and counted in the facets, while the files stay byte for byte as they were and the
/// CSV export (the file's own fields) names no composer the file does not carry in forScore's
/// fields. Each file's `/Composer` and `/Author` are read by pikepdf at test time.
final class EngravedComposerTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-engraved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let scores = try SharedCorpus.folder().appendingPathComponent("scores")
        for name in try FileManager.default.contentsOfDirectory(atPath: scores.path) where name.hasSuffix(".pdf") {
            try FileManager.default.copyItem(at: scores.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Each file's Info `/Composer` and `/Author`, as pikepdf reads them ("" when absent).
    private func infoByFile() throws -> [String: (composer: String, author: String)] {
        let script = """
            import json, os, sys, pikepdf
            found = {}
            for name in sorted(os.listdir(sys.argv[1])):
                if name.endswith(".pdf"):
                    with pikepdf.open(os.path.join(sys.argv[1], name)) as pdf:
                        info = pdf.docinfo
                        found[name] = [str(info.get("/Composer", "")), str(info.get("/Author", ""))]
            print(json.dumps(found))
            """
        let json = try TestEnvironment.python(script, folder.path)
        let decoded = try JSONDecoder().decode([String: [String]].self, from: Data(json.utf8))
        return decoded.mapValues { ($0[0], $0[1]) }
    }

    func testLilyPondComposersAreCataloguedAndTheFilesUntouched() throws {
        let info = try infoByFile()
        let engraved = info.filter { !$0.value.composer.isEmpty && $0.value.author.isEmpty }
        XCTAssertGreaterThanOrEqual(engraved.count, 10, "the corpus's LilyPond scores: \(info)")
        let before = try Dictionary(uniqueKeysWithValues: info.keys.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) })

        let catalog = try LibraryCatalog(folder: folder.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        let entries = try catalog.search(LibraryQuery())
        for (name, fields) in engraved {
            let entry = try XCTUnwrap(entries.first { $0.path == name }, name)
            let first = try XCTUnwrap(entry.metadata.composers.first, "\(name): no composer from /Composer \(fields.composer)")
            // The name as written, without life dates or a catalogue number after it.
            let written = fields.composer.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(written.hasPrefix(first), "\(name): \(first) is not the start of \(fields.composer)")
            XCTAssertFalse(first.contains("("), "\(name): life dates kept in \(first)")
            // Found by search (the composer's last word), and counted as a composer.
            let word = try XCTUnwrap(first.split(separator: " ").last.map(String.init))
            XCTAssertTrue(try catalog.search(LibraryQuery(text: word)).contains { $0.path == name }, "\(name) not found by \(word)")
            XCTAssertTrue(try catalog.facets().contains { $0.field == "composer" && $0.value == first }, "\(first) is no facet")
        }
        for (name, bytes) in before {
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(name)), bytes, "\(name) was changed")
        }
        // The file's own fields are what a CSV export writes back: no composer forScore would not
        // read (Python's csv module reads the export).
        var csv = ""
        _ = try catalog.exportCSV { csv += $0 }
        let exported = folder.appendingPathComponent("export.csv")
        try csv.write(to: exported, atomically: true, encoding: .utf8)
        let composers = try TestEnvironment.python("""
            import csv, json, sys
            rows = csv.DictReader(open(sys.argv[1], encoding="utf-8"))
            print(json.dumps({row["Filename"]: row["Composers"] for row in rows if not row["Start Page (Bookmark)"]}))
            """, exported.path)
        let byFile = try JSONDecoder().decode([String: String].self, from: Data(composers.utf8))
        for name in engraved.keys {
            XCTAssertEqual(byFile[name], "", "\(name): the CSV export names a composer the file keeps only in /Composer")
        }
    }
}
