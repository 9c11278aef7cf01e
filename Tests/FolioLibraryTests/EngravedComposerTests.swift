import FolioLibrary
import FolioPDF
import FolioScore
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
            try TestEnvironment.copy(at: scores.appendingPathComponent(name), to: folder.appendingPathComponent(name))
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

/// Scores made by the engravers themselves (`Tests/Fixtures/Engravers`, remade by its
/// `make.sh` with Debian's musescore3 and lilypond): MuseScore writes the composer only on the
/// page, right-aligned under the title; the catalog finds it there, in any script, and a score
/// with only a lyricist gets no composer. The expected names are the MusicXML sources'
/// `<creator type="composer">`, read by Python's XML parser.
final class EngravedHeadingTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-heading-\(UUID().uuidString)")
        let fixtures = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Fixtures/Engravers")
        try TestEnvironment.copy(at: fixtures, to: folder)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testMuseScoreComposersAreReadFromThePageHeading() throws {
        let json = try TestEnvironment.python("""
            import glob, json, os, sys
            import xml.etree.ElementTree as tree
            found = {}
            for source in sorted(glob.glob(os.path.join(sys.argv[1], "musescore-*.musicxml"))):
                root = tree.parse(source).getroot()
                found[os.path.basename(source)[:-9] + ".pdf"] = [c.text for c in root.iter("creator") if c.get("type") == "composer"]
            print(json.dumps(found, ensure_ascii=False))
            """, folder.path)
        let sources = try JSONDecoder().decode([String: [String]].self, from: Data(json.utf8))
        XCTAssertEqual(sources.count, 4)
        let before = try Dictionary(uniqueKeysWithValues: sources.keys.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) })

        let catalog = try LibraryCatalog(folder: folder.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        let entries = try catalog.search(LibraryQuery())
        for (name, composers) in sources {
            let entry = try XCTUnwrap(entries.first { $0.path == name }, name)
            // The composer as the source names it, life dates cut off.
            let expected = composers.map { $0.replacingOccurrences(of: #"\s*\(\d{4}-\d{4}\)"#, with: "", options: .regularExpression) }
            XCTAssertEqual(entry.metadata.composers, expected, name)
            if let composer = expected.first, let word = composer.split(separator: " ").last.map(String.init) {
                XCTAssertTrue(try catalog.search(LibraryQuery(text: word)).contains { $0.path == name }, "\(name) not found by \(word)")
            }
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(name)), before[name], "\(name) was changed")
        }
        // LilyPond's own sample keeps its /Composer, /Arranger and /Poet (not the page).
        let lily = try XCTUnwrap(entries.first { $0.path == "lilypond-chopin.pdf" })
        XCTAssertEqual(lily.metadata.composers, ["Frédéric Chopin"], "an arranger and a poet are no composers")
        XCTAssertEqual(lily.credits, [ScoreCredit(name: "Frédéric Chopin", role: .composer, source: "/Composer"),
                                      ScoreCredit(name: "Дмитрий Шостакович", role: .arranger, source: "/Arranger"),
                                      ScoreCredit(name: "李白", role: .lyricist, source: "/Poet")])
        // Searched as people, but not counted among the composers.
        for name in ["李白", "шостакович"] {
            XCTAssertTrue(try catalog.search(LibraryQuery(text: name)).contains { $0.path == lily.path }, name)
        }
        XCTAssertFalse(try catalog.facets().contains { $0.field == "composer" && ($0.value == "李白" || $0.value == "Дмитрий Шостакович") })
        XCTAssertEqual(try catalog.show(lily.path).first?.credits, lily.credits)
    }

    func testAHeadingIsReadOnlyWhereItIsTheConvention() throws {
        func line(_ text: String, x: Double, y: Double, size: Double) -> PDFTextLine {
            PDFTextLine(text: text, x: x, y: y, width: Double(text.count) * size * 0.5, size: size)
        }
        let a4 = PDFRect(x1: 0, y1: 0, x2: 595, y2: 842)
        let title = line("Stücke – 小品", x: 200, y: 790, size: 24)
        XCTAssertEqual(EngravedHeading.composer(in: [title, line("Music by Ольга Петрова", x: 420, y: 760, size: 12)], box: a4),
                       "Ольга Петрова")
        XCTAssertEqual(EngravedHeading.composer(in: [title, line("arr. J. Smith", x: 480, y: 745, size: 11)], box: a4), "J. Smith")
        // The lyricist on the left, a tempo mark right of the middle but not at the right margin,
        // text below the heading, a line larger than the title: none is a composer.
        XCTAssertNil(EngravedHeading.composer(in: [title, line("Текст: Анна", x: 28, y: 760, size: 12)], box: a4))
        XCTAssertNil(EngravedHeading.composer(in: [title, line("Allegro", x: 310, y: 760, size: 12)], box: a4))
        XCTAssertNil(EngravedHeading.composer(in: [title, line("J. S. Bach", x: 480, y: 400, size: 12)], box: a4))
        XCTAssertNil(EngravedHeading.composer(in: [line("J. S. Bach", x: 480, y: 760, size: 30), title], box: a4))
        XCTAssertNil(EngravedHeading.composer(in: [], box: a4))
        XCTAssertNil(EngravedHeading.composer(in: [title, line("J. S. Bach", x: 480, y: 760, size: 12)], box: PDFRect(x1: 0, y1: 0, x2: 0, y2: 0)))
        // Only files of a notation program that writes no author.
        XCTAssertTrue(EngravedHeading.drawsComposerOnly(["Creator": "MuseScore Version: 3.2.3"]))
        XCTAssertTrue(EngravedHeading.drawsComposerOnly(["Creator": "Sibelius 7.5", "Author": " "]))
        XCTAssertFalse(EngravedHeading.drawsComposerOnly(["Creator": "MuseScore Version: 4.1", "Author": "Fauré"]))
        XCTAssertFalse(EngravedHeading.drawsComposerOnly(["Creator": "LilyPond 2.24.1"]))
        XCTAssertFalse(EngravedHeading.drawsComposerOnly([:]))
    }
}
