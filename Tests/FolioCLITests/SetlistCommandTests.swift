import FolioTestSupport
import Foundation
import XCTest

/// `folio setlist` end to end: keeping setlists, 4SS import with every matching rule and
/// hostile input, export → import, from-text, and the merged setlist PDF read back by
/// pdfinfo and PyMuPDF.
final class SetlistCommandTests: XCTestCase {
    private var root: URL!
    private var folio: URL!
    private var library: String { root.appendingPathComponent("lib").path }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-setlist-\(UUID().uuidString)")
        folio = try TestEnvironment.folioBinary()
        let scores = try TestEnvironment.corpus.appendingPathComponent("scores")
        try FileManager.default.createDirectory(atPath: library + "/Jazz", withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: scores.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path,
                                         toPath: library + "/Brahms-Cancion_de_Cuna.pdf")
        // A name with diacritics, stored in NFD as macOS and forScore's backups do.
        try TestEnvironment.copy(atPath: scores.appendingPathComponent("Bach-Partita_in_a_minor_BWV_1013.pdf").path,
                                         toPath: library + "/Jazz/" + "Réal Böok.pdf".decomposedStringWithCanonicalMapping)
        try run(["bookmarks", "add", library + "/Jazz/" + "Réal Böok.pdf".decomposedStringWithCanonicalMapping,
                 "--name", "Blue Bossa", "--page", "2", "--end", "3"])
        try run(["bookmarks", "add", library + "/Jazz/" + "Réal Böok.pdf".decomposedStringWithCanonicalMapping,
                 "--name", "Autumn Leaves", "--page", "4", "--end", "5"])
        try run(["library", "scan", library])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    @discardableResult
    private func run(_ arguments: [String], status expected: Int32? = 0, input: String? = nil) throws
        -> (status: Int32, out: String, err: String)
    {
        var result: (status: Int32, stdout: Data, stderr: Data)
        if let input {
            let file = root.appendingPathComponent("stdin-\(UUID().uuidString).txt")
            try Data(input.utf8).write(to: file)
            result = try TestEnvironment.run(URL(fileURLWithPath: "/bin/sh"),
                                             ["-c", "exec \"$0\" \"$@\" < '\(file.path)'", folio.path] + arguments)
        } else {
            result = try TestEnvironment.run(folio, arguments)
        }
        let out = (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
        if let expected { XCTAssertEqual(out.0, expected, "folio \(arguments.joined(separator: " ")): \(out.2)\(out.1)") }
        return out
    }

    private func show(_ name: String) throws -> [[String: Any]] {
        let out = try run(["setlist", "show", name, "--json", "--library", library]).out
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        XCTAssertEqual(object?["title"] as? String, name)
        return object?["entries"] as? [[String: Any]] ?? []
    }

    private func snapshot() throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: library) ?? [] where !path.hasPrefix(".folio") {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: library + "/" + path, isDirectory: &isDirectory)
            if !isDirectory.boolValue { result[path] = FileManager.default.contents(atPath: library + "/" + path) }
        }
        return result
    }

    func testKeepingASetlist() throws {
        try run(["setlist", "create", "Friday", "--folder", "Gigs/2026", "--library", library])
        try run(["setlist", "create", "Friday", "--library", library], status: 1)   // the name is taken: a conflict, not a usage error
        try run(["setlist", "add", "Friday", "Jazz/Réal Böok.pdf", "--bookmark", "blue bossa", "--library", library])
        try run(["setlist", "add", "Friday", "Brahms-Cancion_de_Cuna.pdf", "--library", library])
        try run(["setlist", "add", "Friday", "--placeholder", "Encore", "--at", "1", "--library", library])
        try run(["setlist", "add", "Friday", "Jazz/Réal Böok.pdf", "--bookmark", "Nope", "--library", library], status: 1)
        try run(["setlist", "move", "Friday", "1", "3", "--library", library])
        try run(["setlist", "move", "Friday", "1", "9", "--library", library], status: 64)
        var entries = try show("Friday")
        XCTAssertEqual(entries.map { $0["kind"] as? String }, ["bookmark", "score", "placeholder"])
        guard entries.count == 3 else { return }
        XCTAssertEqual(entries[0]["title"] as? String, "Blue Bossa")
        XCTAssertEqual(entries[0]["start"] as? Int, 2)
        XCTAssertEqual(entries[0]["end"] as? Int, 3)
        XCTAssertEqual(entries[1]["path"] as? String, "Brahms-Cancion_de_Cuna.pdf")
        XCTAssertTrue(entries[1]["start"] is NSNull, "a score's start is null")
        XCTAssertTrue(entries[2]["path"] is NSNull, "a placeholder's path is null")
        try run(["setlist", "rename", "Friday", "Saturday", "--library", library])
        try run(["setlist", "remove", "Saturday", "3", "--library", library])
        entries = try show("Saturday")
        XCTAssertEqual(entries.count, 2)
        let list = try run(["setlist", "list", "--library", library]).out
        XCTAssertTrue(list.contains("Gigs/2026/Saturday (2 entries)"), list)

        // The merged PDF: the bookmark's pages then the whole score, an outline entry each.
        let gig = root.appendingPathComponent("gig.pdf").path
        try run(["setlist", "pdf", "Saturday", "-o", gig, "--library", library])
        let brahmsPages = try pages(library + "/Brahms-Cancion_de_Cuna.pdf")
        let info = String(decoding: try TestEnvironment.runTool("pdfinfo", [gig]).stdout, as: UTF8.self)
        XCTAssertTrue(info.contains(try XCTUnwrap(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }).description))
        XCTAssertEqual(try pages(gig), 2 + brahmsPages)
        let toc = try python("import pymupdf,sys; print([t[1:] for t in pymupdf.open(sys.argv[1]).get_toc()])", gig)
        XCTAssertEqual(toc.trimmingCharacters(in: .whitespacesAndNewlines), "[['Blue Bossa', 1], ['Cancion de Cuna', 3]]")
        let check = try TestEnvironment.runTool("qpdf", ["--check", gig])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))

        // A deleted score leaves a placeholder with its title.
        try FileManager.default.removeItem(atPath: library + "/Brahms-Cancion_de_Cuna.pdf")
        try run(["library", "scan", library])
        entries = try show("Saturday")
        guard entries.count == 2 else { return XCTFail("\(entries)") }
        XCTAssertEqual(entries[1]["kind"] as? String, "placeholder")
        XCTAssertEqual(entries[1]["title"] as? String, "Cancion de Cuna")
    }

    /// A note per entry: kept through moves, shown by `show` (text and JSON), cleared, and
    /// refused (exit 64, catalog unchanged) when too long, on two lines or for no entry.
    func testANotePerEntry() throws {
        try run(["setlist", "create", "Концерт — 金曜日", "--library", library])
        try run(["setlist", "add", "Концерт — 金曜日", "Brahms-Cancion_de_Cuna.pdf", "--library", library])
        try run(["setlist", "add", "Концерт — 金曜日", "--placeholder", "Přídavek", "--library", library])
        let said = try run(["setlist", "note", "Концерт — 金曜日", "1", "  attacca · ohne Pause → 2.  ", "--library", library]).out
        XCTAssertEqual(said, "noted 1. Cancion de Cuna: attacca · ohne Pause → 2.\n")
        try run(["setlist", "note", "Концерт — 金曜日", "2", "カポ 2", "--library", library])
        try run(["setlist", "move", "Концерт — 金曜日", "2", "1", "--library", library])
        var entries = try show("Концерт — 金曜日")
        XCTAssertEqual(entries.map { $0["note"] as? String }, ["カポ 2", "attacca · ohne Pause → 2."])
        let text = try run(["setlist", "show", "Концерт — 金曜日", "--library", library]).out
        XCTAssertTrue(text.contains("1. Přídavek (placeholder) [カポ 2]"), text)

        let dump = "import sqlite3,sys; print('\\n'.join(sqlite3.connect(sys.argv[1]).iterdump()))"
        let catalog = library + "/.folio/library.sqlite"
        let before = try python(dump, catalog)
        XCTAssertTrue(try run(["setlist", "note", "Концерт — 金曜日", "1", String(repeating: "ё", count: 501), "--library", library],
                              status: 64).err.contains("up to 500"))
        XCTAssertTrue(try run(["setlist", "note", "Концерт — 金曜日", "1", "two\nlines", "--library", library], status: 64).err.contains("one line"))
        XCTAssertTrue(try run(["setlist", "note", "Концерт — 金曜日", "3", "x", "--library", library], status: 64).err.contains("1 to 2"))
        try run(["setlist", "note", "Концерт — 金曜日", "1", "--library", library], status: 64)
        XCTAssertEqual(try run(["setlist", "note", "Концерт — 金曜日", "1", "--clear", "--dry-run", "--library", library]).out,
                       "would note 1. Přídavek: no note\n")
        XCTAssertEqual(try python(dump, catalog), before)

        try run(["setlist", "note", "Концерт — 金曜日", "1", "--clear", "--library", library])
        entries = try show("Концерт — 金曜日")
        XCTAssertTrue(entries[0]["note"] is NSNull, "a cleared note is null")
        XCTAssertEqual(entries[1]["note"] as? String, "attacca · ohne Pause → 2.")
    }

    /// `export --embed` carries every entry's PDF, a bookmarked book's piece included (as its
    /// own PDF: a 4SS has no data for a bookmark), and names what it cannot carry (notes) on
    /// standard error; the file imported into another library plays the same pages.
    func testExportEmbedCarriesEveryEntryAndNamesWhatItDrops() throws {
        let name = "Концерт — 金曜日"
        try run(["setlist", "create", name, "--library", library])
        try run(["setlist", "add", name, "Jazz/Réal Böok.pdf", "--bookmark", "Autumn Leaves", "--library", library])
        try run(["setlist", "add", name, "Brahms-Cancion_de_Cuna.pdf", "--library", library])
        try run(["setlist", "add", name, "--placeholder", "Přídavek", "--library", library])
        try run(["setlist", "note", name, "2", "attacca — カポ 2", "--library", library])
        let before = try snapshot()

        let plain = try run(["setlist", "export", name, "--library", library])
        XCTAssertTrue(plain.out.contains("<bookmark title=\"Autumn Leaves\" path=\"Jazz/Réal Böok.pdf\""), plain.out)
        XCTAssertEqual(plain.err, "folio setlist export: warning: 2. Cancion de Cuna: its note \"attacca — カポ 2\" is not carried (a 4SS has no notes)\n")

        let file = root.appendingPathComponent("Концерт.4ss").path
        let embedded = try run(["setlist", "export", name, "--embed", "-o", file, "--library", library])
        XCTAssertTrue(embedded.err.contains("1. Autumn Leaves: a bookmark of Jazz/Réal Böok.pdf, carried as its own PDF of pages 4–5 "
            + "(Jazz/Réal Böok – Autumn Leaves.pdf)"), embedded.err)
        XCTAssertTrue(embedded.err.contains("its note \"attacca — カポ 2\" is not carried"), embedded.err)
        XCTAssertEqual(try snapshot(), before, "an export changes nothing in the library")
        // Every entry but the placeholder carries data, read back by Python's own XML parser.
        let elements = try python("""
            import sys, xml.etree.ElementTree as E
            for e in E.parse(sys.argv[1]).getroot(): print(e.tag, e.get('path'), e.get('title'), len(e.get('data') or ''))
            """, file).split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        XCTAssertEqual(elements, ["score", "score", "placeholder"])

        // Into a library that has none of these files: the piece arrives as its two pages.
        let other = root.appendingPathComponent("другая").path
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try run(["library", "scan", other])
        let imported = try run(["setlist", "import", file, "--library", other]).out
        XCTAssertTrue(imported.contains("1. score \"Autumn Leaves\" Jazz/Réal Böok – Autumn Leaves.pdf: embedded PDF written to "
            + "Réal Böok – Autumn Leaves.pdf (2 pages)"), imported)
        XCTAssertFalse(imported.contains("placeholder \"Autumn Leaves\""), imported)
        let piece = other + "/Réal Böok – Autumn Leaves.pdf"
        XCTAssertEqual(try pages(piece), 2)
        let info = String(decoding: try TestEnvironment.runTool("pdfinfo", [piece]).stdout, as: UTF8.self)
        XCTAssertTrue(info.contains("Title:           Autumn Leaves"), "the piece's title, not the book's: \(info)")
        XCTAssertEqual(try TestEnvironment.runTool("qpdf", ["--check", piece]).status, 0)
        let shown = try run(["setlist", "show", name, "--json", "--library", other]).out
        let entries = (try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        XCTAssertEqual(entries.map { $0["kind"] as? String }, ["score", "score", "placeholder"], shown)
        XCTAssertEqual(entries.first?["path"] as? String, "Réal Böok – Autumn Leaves.pdf", shown)
    }

    private func pages(_ path: String) throws -> Int {
        Int(try python("import pikepdf,sys; print(len(pikepdf.open(sys.argv[1]).pages))", path)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    private func python(_ code: String, _ arguments: String...) throws -> String {
        let result = try TestEnvironment.runTool("python3", ["-W", "ignore", "-c", code] + arguments)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return String(decoding: result.stdout, as: UTF8.self)
    }

    func testOpenSetlistImportMatchesAsForScoreDoes() throws {
        let pdf = try Data(contentsOf: try TestEnvironment.corpus.appendingPathComponent("scores/Chopin-Prelude_Op_28_No_15.pdf"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: library + "/Prelude.pdf.txt"))
        let xml = """
            <?xml version="1.0" encoding="UTF-8" ?>
            <forScore kind="setlist" version="1.0" title="Imported">
            <score title="Exact" path="Brahms-Cancion_de_Cuna.pdf" />
            <score title="Case" path="brahms-cancion_de_cuna.PDF" />
            <score path="real book.pdf" />
            <score title="NFC" path="\("Réal Böok.pdf".precomposedStringWithCanonicalMapping)" />
            <score title="Lost" path="missing.pdf" />
            <score path="nothing.pdf" />
            <bookmark title="AUTUMN LEAVES" path="Real Book.pdf" />
            <bookmark title="Blue Bossa" path="Réal Böok.pdf" />
            <bookmark title="Nope" path="Réal Böok.pdf" />
            <placeholder title="A New Placeholder" />
            <score title="Embedded" path="../../etc/Brahms-Cancion_de_Cuna" data="\(pdf.base64EncodedString())" />
            <score title="Twice" path="/abs/Prelude.pdf.txt" data="\(pdf.base64EncodedString())" />
            <score title="Exact" path="Brahms-Cancion_de_Cuna.pdf" />
            </forScore>
            """
        let file = root.appendingPathComponent("in.4ss")
        try Data(xml.utf8).write(to: file)
        let before = try snapshot()
        let dry = try run(["setlist", "import", file.path, "--dry-run", "--library", library]).out
        XCTAssertEqual(try snapshot(), before, "a dry run writes nothing")
        XCTAssertTrue(dry.contains("3. score real book.pdf: score Jazz/Réal Böok.pdf (diacritics)"), dry)
        let out = try run(["setlist", "import", file.path, "--library", library]).out
        XCTAssertTrue(out.contains("1. score \"Exact\" Brahms-Cancion_de_Cuna.pdf: score Brahms-Cancion_de_Cuna.pdf (exact)"), out)
        XCTAssertTrue(out.contains("score Brahms-Cancion_de_Cuna.pdf (case)"), out)
        XCTAssertTrue(out.contains("4. score \"NFC\""), out)
        XCTAssertTrue(out.contains("score Jazz/Réal Böok.pdf (exact)"), "NFC and NFD names are the same name: \(out)")
        XCTAssertTrue(out.contains("placeholder \"Lost\""), out)
        XCTAssertTrue(out.contains("6. score nothing.pdf: omitted"), out)
        XCTAssertTrue(out.contains("bookmark \"Autumn Leaves\" in Jazz/Réal Böok.pdf, pages 4–5 (diacritics)"), out)
        XCTAssertTrue(out.contains("bookmark \"Blue Bossa\" in Jazz/Réal Böok.pdf, pages 2–3 (exact)"), out)
        XCTAssertTrue(out.contains("placeholder \"Nope\""), out)
        // Data lands in the library, under a free name, never outside it.
        XCTAssertTrue(out.contains("embedded PDF written to Brahms-Cancion_de_Cuna 2.pdf"), out)
        XCTAssertTrue(out.contains("embedded PDF written to Prelude.pdf.txt.pdf"), out)
        XCTAssertEqual(FileManager.default.contents(atPath: library + "/Brahms-Cancion_de_Cuna 2.pdf"), pdf)
        XCTAssertEqual(FileManager.default.contents(atPath: library + "/Brahms-Cancion_de_Cuna.pdf"), before["Brahms-Cancion_de_Cuna.pdf"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("etc").path))
        let entries = try show("Imported")
        XCTAssertEqual(entries.map { $0["kind"] as? String }, ["score", "score", "score", "score", "placeholder", "bookmark",
                                                               "bookmark", "placeholder", "placeholder", "score", "score", "score"])
        XCTAssertEqual(entries.last?["path"] as? String, "Brahms-Cancion_de_Cuna.pdf", "a repeated entry stays")

        // Export → import gives the same setlist.
        let exported = root.appendingPathComponent("out.4ss")
        try run(["setlist", "export", "Imported", "-o", exported.path, "--library", library])
        try run(["setlist", "import", exported.path, "--as", "Again", "--library", library])
        XCTAssertEqual(try show("Again").map { NSDictionary(dictionary: $0) }, entries.map { NSDictionary(dictionary: $0) })
        try run(["setlist", "import", exported.path, "--library", library], status: 1)   // taken
    }

    func testHostileOpenSetlistsAreRefused() throws {
        let cases: [(String, String)] = [
            ("entity", """
                <?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>
                <forScore kind="setlist" version="1.0" title="&e;"><placeholder title="&e;"/></forScore>
                """),
            ("laughs", """
                <?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
                <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
                <forScore kind="setlist" version="1.0" title="x"><placeholder title="&d;"/></forScore>
                """),
            ("huge", "<forScore kind=\"setlist\" version=\"1.0\" title=\"\(String(repeating: "A", count: 10 << 20))\"></forScore>"),
            ("kind", "<forScore kind=\"library\" version=\"1.0\" title=\"x\"></forScore>"),
            ("version", "<forScore kind=\"setlist\" version=\"2.0\" title=\"x\"></forScore>"),
            ("title", "<forScore kind=\"setlist\" version=\"1.0\"></forScore>"),
            ("child", "<forScore kind=\"setlist\" version=\"1.0\" title=\"x\"><song path=\"a.pdf\"/></forScore>"),
            ("bookmark", "<forScore kind=\"setlist\" version=\"1.0\" title=\"x\"><bookmark path=\"a.pdf\"/></forScore>"),
            ("junk", "<forScore kind=\"setlist\" version=\"1.0\" title=\"x\"><score path=\"a.pdf\" data=\"\(Data(repeating: 7, count: 3000).base64EncodedString())\"/></forScore>"),
            ("broken", "<forScore kind=\"setlist\" version=\"1.0\" title=\"x\"><score path=\"a.pdf\">"),
        ]
        let before = try snapshot()
        for (name, xml) in cases {
            let file = root.appendingPathComponent("\(name).4ss")
            try Data(xml.utf8).write(to: file)
            let result = try run(["setlist", "import", file.path, "--library", library], status: nil)
            XCTAssertEqual(result.status, 64, "\(name): \(result.err)")
            XCTAssertTrue(result.err.hasPrefix("folio setlist import: "), "\(name): \(result.err)")
            XCTAssertLessThan(result.err.count, 600, "\(name): the message is short")
        }
        XCTAssertTrue(try run(["setlist", "list", "--library", library]).out.contains("no setlists"))
        XCTAssertEqual(try snapshot(), before, "nothing written")
    }

    func testFromTextMatchesAsAMusicianExpects() throws {
        let list = """
            1. Cancion de Cuna (Gm)
            2) autum leaves [Bb]
            #3 Blue Bosa
            - Partita in A minor
            5. Some Tune Nobody Has
            """
        let out = try run(["setlist", "from-text", "Paste", "--library", library], input: list).out
        let entries = try show("Paste")
        XCTAssertEqual(entries.count, 5, out)
        guard entries.count == 5 else { return }
        // Numbering and the bracketed key go; the score title matches exactly.
        XCTAssertEqual(entries[0]["path"] as? String, "Brahms-Cancion_de_Cuna.pdf")
        // A typo and lower case still find the bookmark, with its pages.
        XCTAssertEqual(entries[1]["kind"] as? String, "bookmark")
        XCTAssertEqual(entries[1]["title"] as? String, "Autumn Leaves")
        XCTAssertEqual(entries[2]["title"] as? String, "Blue Bossa", "one letter missing")
        // Case differs from the catalogued title "Partita in a minor".
        XCTAssertEqual(entries[3]["kind"] as? String, "score")
        XCTAssertEqual(entries[3]["path"] as? String, "Jazz/Réal Böok.pdf")
        XCTAssertEqual(entries[4]["kind"] as? String, "placeholder", out)
        XCTAssertTrue(out.contains("[key Gm]"), out)
        XCTAssertTrue(out.contains("confidence"), out)
    }
    func testMobileSheetsExportReadsBackInPythonsCSVAndXMLReaders() throws {
        let book = library + "/Jazz/" + "Réal Böok.pdf".decomposedStringWithCanonicalMapping
        try run(["meta", "set", book, "--title", "Real Book; Vol. 1", "--composer", "Various", "--key", "Eb",
                 "--tag", "standards", "--label", "Jazz", "--rating", "4", "--duration", "4:12", "--reference", "RB-1"])
        try run(["meta", "set", library + "/Brahms-Cancion_de_Cuna.pdf", "--title", "Canción \"de\" cuna",
                 "--composer", "Johannes Brahms", "--composer", "Arr. A|B", "--genre", "Lullaby", "--key", "f#m"])
        try run(["setlist", "create", "Friday <&>", "--library", library])
        try run(["setlist", "add", "Friday <&>", "Jazz/Réal Böok.pdf", "--bookmark", "Blue Bossa", "--library", library])
        try run(["setlist", "add", "Friday <&>", "Brahms-Cancion_de_Cuna.pdf", "--library", library])
        try run(["setlist", "add", "Friday <&>", "--placeholder", "Encore", "--library", library])
        let elsewhere = root.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        for (folder, prefix) in [(library, ""), (elsewhere, "../lib/")] {
            let arguments = ["library", "export-mobilesheets", library] + (folder == library ? [] : ["--output-dir", folder])
            let out = try run(arguments).out
            XCTAssertTrue(out.contains("left out of Friday <&>: placeholder Encore"), out)
            let script = """
                import csv, json, os, sys, unicodedata, xml.etree.ElementTree as ET
                folder = sys.argv[1]
                nfc = lambda t: unicodedata.normalize("NFC", t)
                with open(os.path.join(folder, "mobilesheets.csv"), newline="", encoding="utf-8") as f:
                    rows = [dict({k: nfc(v) for k, v in row.items()}, exists=os.path.isfile(os.path.join(folder, row["files"])))
                            for row in csv.DictReader(f, delimiter=";")]
                tree = ET.parse(os.path.join(folder, "mobilesheets.mss")).getroot()
                sets = [{"name": s.findtext("Name"), "songs": [[nfc(x.findtext(t)) for t in ("Title", "FileName", "FileType")]
                         for x in s.findall("Song")]} for s in tree.findall("Setlist")]
                print(json.dumps({"root": tree.tag, "rows": rows, "sets": sets}))
                """
            let result = try TestEnvironment.runTool("python3", ["-c", script, folder])
            XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
            let read = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
            let rows = read["rows"] as? [[String: Any]] ?? []
            func row(_ title: String) -> [String: Any] { rows.first { $0["title"] as? String == title } ?? [:] }
            let brahms = row("Canción \"de\" cuna")
            XCTAssertEqual(brahms["files"] as? String, prefix + "Brahms-Cancion_de_Cuna.pdf")
            XCTAssertEqual(brahms["exists"] as? Bool, true, "MobileSheets finds the file from the CSV's folder")
            XCTAssertEqual(brahms["composers"] as? String, "Johannes Brahms|Arr. A/B", "| splits values in MobileSheets")
            XCTAssertEqual(brahms["genres"] as? String, "Lullaby")
            XCTAssertEqual(brahms["keys"] as? String, "F#m")
            XCTAssertEqual(brahms["pages"] as? String, "")
            let bookRow = row("Real Book; Vol. 1")
            XCTAssertEqual(bookRow["files"] as? String, prefix + "Jazz/Réal Böok.pdf")
            XCTAssertEqual(bookRow["exists"] as? Bool, true)
            XCTAssertEqual(bookRow["keys"] as? String, "Eb")
            XCTAssertEqual(bookRow["duration"] as? String, "252")
            XCTAssertEqual(bookRow["keywords"] as? String, "standards")
            XCTAssertEqual(bookRow["collections"] as? String, "Jazz")
            XCTAssertEqual(bookRow["notes"] as? String, "RB-1")
            XCTAssertEqual(bookRow["rating"] as? String, "4")
            // A bookmark is a song over its pages, its empty fields taken from the score.
            let bossa = row("Blue Bossa")
            XCTAssertEqual(bossa["pages"] as? String, "2-3")
            XCTAssertEqual(bossa["files"] as? String, prefix + "Jazz/Réal Böok.pdf")
            XCTAssertEqual(bossa["composers"] as? String, "Various")
            XCTAssertEqual(bossa["keys"] as? String, "Eb")
            XCTAssertEqual(row("Autumn Leaves")["pages"] as? String, "4-5")
            XCTAssertEqual(rows.count, 4, "two scores and two bookmarks")
            XCTAssertEqual(read["root"] as? String, "Setlists")
            let sets = read["sets"] as? [[String: Any]] ?? []
            XCTAssertEqual(sets.first?["name"] as? String, "Friday <&>")
            XCTAssertEqual(sets.first?["songs"] as? [[String]], [
                ["Blue Bossa", "Réal Böok.pdf", "1"],
                ["Canción \"de\" cuna", "Brahms-Cancion_de_Cuna.pdf", "1"],
            ], "titles as the CSV's songs have them; the placeholder has no file")
        }
    }
}
