import FolioTestSupport
import Foundation
import XCTest

/// FreeText in the scripts musicians write on a real score: each drawn in the installed fonts,
/// embedded as subsets, read back unchanged by PyMuPDF, drawn inside its rectangle and nowhere
/// else by Poppler, MuPDF and PDFium, extracted by Poppler after flattening; qpdf has nothing
/// to say, and a character no font has is refused with the file untouched.
final class AnnotationScriptsTests: CommandTestCase, @unchecked Sendable {
    private let texts = [
        ("Czech", "Dvořák: ritardando, přidej"), ("Polish", "Szybciej — źdźbło, żółć"), ("Greek", "Ελληνικά: ritenuto"),
        ("Russian", "Медленно, с чувством"), ("Hebrew", "לאט ובשירה"), ("Arabic", "ببطء بلا تسرع"),
        ("Japanese", "ゆっくり、歌うように"), ("Chinese", "渐慢，如歌 ♩=60"),
    ]

    private func size(_ file: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
    }

    func testEveryScriptOnACorpusScore() throws {
        let score = path("Bach.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Bach-Partita_in_a_minor_BWV_1013.pdf"),
                                         toPath: score)
        let original = path("original.pdf")
        try TestEnvironment.copy(atPath: score, toPath: original)
        let qpdfBefore = try TestEnvironment.runTool("qpdf", ["--check", original])

        var top = 60
        for (script, text) in texts {
            let before = try size(score)
            try invoke(["annot", "add", score, "--page", "1", "--type", "freetext", "--rect", "40,\(top),230,22",
                        "--text", text, "--size", "12", "--fill", "#ffffcc"])
            let added = try size(score) - before
            let cjk = script == "Japanese" || script == "Chinese"
            XCTAssertLessThan(added, cjk ? 200_000 : 60_000, "\(script) added \(added) bytes")
            top += 40
        }
        let qpdf = try TestEnvironment.runTool("qpdf", ["--check", score])
        XCTAssertEqual(qpdf.status, qpdfBefore.status, String(decoding: qpdf.stdout + qpdf.stderr, as: UTF8.self))
        XCTAssertEqual(String(decoding: qpdf.stderr, as: UTF8.self), String(decoding: qpdfBefore.stderr, as: UTF8.self))

        // /Contents as typed, and /DA naming the font drawn in.
        let read = try TestEnvironment.runTool("python3", ["-c", """
            import json, sys, pymupdf
            page = pymupdf.open(sys.argv[1])[0]
            print(json.dumps([[a.info["content"], page.parent.xref_get_key(a.xref, "DA")[1],
                               page.parent.xref_get_key(a.xref, "Q")[1]]
                              for a in page.annots() if a.type[1] == "FreeText"]))
            """, score])
        XCTAssertEqual(read.status, 0, String(decoding: read.stderr, as: UTF8.self))
        let annotations = try JSONSerialization.jsonObject(with: read.stdout) as? [[String]] ?? []
        XCTAssertEqual(annotations.map { $0[0] }, texts.map(\.1))
        XCTAssertTrue(annotations.allSatisfy { $0[1].hasPrefix("/FolioU0 12 Tf") }, "\(annotations)")
        // Hebrew and Arabic boxes are right-aligned unless asked otherwise (/Q 2).
        XCTAssertEqual(annotations.map { $0[2] == "2" }, texts.map { ["Hebrew", "Arabic"].contains($0.0) })

        // Four renderers (Poppler, MuPDF, PDFium, pdf.js in Chromium): ink inside each rectangle, nothing outside.
        let oracle = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/annot_ink.py").path
        let ink = try TestEnvironment.runTool("python3", [oracle, original, score, "0"])
        XCTAssertEqual(ink.status, 0, String(decoding: ink.stderr, as: UTF8.self))
        let found = try JSONSerialization.jsonObject(with: ink.stdout) as? [String: Any] ?? [:]
        let renderers = found["renderers"] as? [String: [String: Any]] ?? [:]
        XCTAssertEqual(Set(renderers.keys), ["poppler", "mupdf", "pdfium", "pdfjs"])
        var darkness: [String: [Int]] = [:]
        for (name, seen) in renderers {
            XCTAssertEqual(seen["outside"] as? Int, 0, "\(name) drew outside the rectangles")
            let dark = seen["dark"] as? [Int] ?? []
            XCTAssertEqual(dark.count, texts.count)
            for (index, count) in dark.enumerated() { XCTAssertGreaterThan(count, 100, "\(name): no ink for \(texts[index].0)") }
            // Each renderer drew the annotation itself (its box and text), not only the music under it.
            for (index, count) in (seen["changed"] as? [Int] ?? []).enumerated() {
                XCTAssertGreaterThan(count, 200, "\(name) did not draw \(texts[index].0)")
            }
            XCTAssertEqual((seen["changed"] as? [Int])?.count, texts.count)
            darkness[name] = dark
        }
        // The renderers agree on how much ink each text has (font rasterizers differ a little).
        for index in texts.indices {
            let counts = darkness.values.map { Double($0[index]) }
            if let low = counts.min(), let high = counts.max() {
                XCTAssertLessThan(high / max(low, 1), 1.6, "\(texts[index].0): \(darkness.mapValues { $0[index] })")
            }
        }

        // Flattened, the text is part of the page: Poppler extracts every line.
        try invoke(["annot", "flatten", score, "--output", path("flat.pdf")])
        // (Poppler marks right-to-left lines with embedding characters, U+202A–U+202E.)
        let text = String(String.UnicodeScalarView(String(
            decoding: try TestEnvironment.runTool("pdftotext", ["-f", "1", "-l", "1", path("flat.pdf"), "-"]).stdout, as: UTF8.self
        ).unicodeScalars.filter { !(0x202A...0x202E).contains($0.value) }))
        for (script, line) in texts {
            XCTAssertTrue(text.contains(line), "\(script): '\(line)' not in \(text)")
        }

        // A character none of the fonts has: refused, named, nothing written.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: score))
        let refused = try invoke(["annot", "add", score, "--page", "1", "--type", "freetext", "--rect", "40,400,200,22",
                                  "--text", "Coda \u{10FFFD}"], status: 64)
        XCTAssertTrue(refused.err.contains("U+10FFFD") && refused.err.contains("fonts-droid-fallback"), refused.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: score)), bytes)
    }

    func testEditingTheTextChangesTheFontItNeeds() throws {
        let score = path("Chopin.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Chopin-Prelude_Op_28_No_15.pdf"), toPath: score)
        let id = try invoke(["annot", "add", score, "--page", "1", "--type", "freetext", "--rect", "40,60,200,22",
                             "--text", "dolce"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        func daAndText() throws -> [String] {
            let run = try TestEnvironment.runTool("python3", ["-c", """
                import json, sys, pymupdf
                document = pymupdf.open(sys.argv[1])
                page = document[0]
                annotation = [a for a in page.annots() if a.type[1] == "FreeText"][0]
                print(json.dumps([document.xref_get_key(annotation.xref, "DA")[1], annotation.info["content"]]))
                """, score])
            XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
            return try JSONSerialization.jsonObject(with: run.stdout) as? [String] ?? []
        }
        XCTAssertTrue(try daAndText()[0].hasPrefix("/Helv "), "WinAnsi text stays in Helvetica")
        try invoke(["annot", "edit", score, "--id", id, "--text", "Sostenuto — Шопен"])
        let unicode = try daAndText()
        XCTAssertTrue(unicode[0].hasPrefix("/FolioU0 "), "\(unicode)")
        XCTAssertEqual(unicode[1], "Sostenuto — Шопен")
        try invoke(["annot", "edit", score, "--id", id, "--rect", "60,100,240,30"])
        XCTAssertEqual(try daAndText()[1], "Sostenuto — Шопен", "moving redraws in the same fonts")
        try invoke(["annot", "edit", score, "--id", id, "--text", "a tempo"])
        XCTAssertTrue(try daAndText()[0].hasPrefix("/Helv "))
        let check = try TestEnvironment.runTool("qpdf", ["--check", score])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))
    }

    /// Many annotations in one update share one subset per font, grown to every glyph they
    /// show, and each still draws its own text.
    func testAnnotationsOfOneUpdateShareTheirFonts() throws {
        let score = path("Mozart.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Mozart-Fantasy_in_D_minor_KV_397.pdf"),
                                         toPath: score)
        let original = path("original.pdf")
        try TestEnvironment.copy(atPath: score, toPath: original)
        let lines = ["Dvořák", "Ёлка", "ゆっくり", "Smetana — Vltava", "渐慢", "Šárka ♩=60", "Ελεγεία", "うたう"]
        let items: [[String: Any]] = lines.enumerated().map { index, text in
            ["page": 1, "subtype": "FreeText", "rect": [40, 700 - 40 * index, 200, 724 - 40 * index], "contents": text,
             "fontSize": 12, "fill": "#ffffcc"]
        }
        let marks = path("marks.json")
        try JSONSerialization.data(withJSONObject: ["format": "folio-annotations", "version": 1, "annotations": items])
            .write(to: URL(fileURLWithPath: marks))
        try invoke(["annot", "import", score, "--from", marks])
        let fonts = String(decoding: try TestEnvironment.runTool("pdffonts", [score]).stdout, as: UTF8.self)
        let names = fonts.split(separator: "\n").dropFirst(2).compactMap { $0.split(separator: " ").first.map(String.init) }
        XCTAssertEqual(names.filter { $0.hasSuffix("+DejaVuSans") }.count, 1, fonts)
        XCTAssertEqual(names.filter { $0.hasSuffix("+DroidSansFallback") }.count, 1, fonts)
        let oracle = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/annot_ink.py").path
        let ink = try TestEnvironment.runTool("python3", [oracle, original, score, "0"])
        let found = try JSONSerialization.jsonObject(with: ink.stdout) as? [String: Any] ?? [:]
        for (name, seen) in found["renderers"] as? [String: [String: Any]] ?? [:] {
            XCTAssertEqual(seen["outside"] as? Int, 0, name)
            XCTAssertEqual((seen["dark"] as? [Int])?.count, lines.count, name)
            XCTAssertTrue((seen["dark"] as? [Int] ?? []).allSatisfy { $0 > 30 }, "\(name): \(seen)")
            XCTAssertTrue((seen["changed"] as? [Int] ?? []).allSatisfy { $0 > 30 }, "\(name) did not draw: \(seen)")
        }
        try invoke(["annot", "flatten", score, "--output", path("flat.pdf")])
        let text = String(decoding: try TestEnvironment.runTool("pdftotext", [path("flat.pdf"), "-"]).stdout, as: UTF8.self)
        for line in lines { XCTAssertTrue(text.contains(line), "'\(line)' not in \(text)") }
        let check = try TestEnvironment.runTool("qpdf", ["--check", score])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))
    }

    /// `--font-file`: a FreeText is drawn in the font given (Latin-1 text too, no Helvetica),
    /// the installed fonts drawing what it lacks; moving it with the font keeps it; a file
    /// that is no font is refused with the score untouched.
    func testAFontFileDrawsTheFreeText() throws {
        let score = path("Clementi.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Clementi-Sonatina_O_36.pdf"), toPath: score)
        let serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
        let latin = try invoke(["annot", "add", score, "--page", "1", "--type", "freetext", "--rect", "40,60,200,22",
                                "--text", "dolce", "--font-file", serif]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try invoke(["annot", "add", score, "--page", "1", "--type", "freetext", "--rect", "40,100,200,22",
                    "--text", "Δολτσε — ドルチェ", "--font-file", serif])
        try invoke(["annot", "edit", score, "--id", latin, "--rect", "60,140,200,22", "--font-file", serif])
        let fonts = try TestEnvironment.runTool("python3", ["-c", """
            import sys, pikepdf
            pdf = pikepdf.open(sys.argv[1])
            for a in pdf.pages[0].get("/Annots", []):
                if a.get("/Subtype") == "/FreeText":
                    names = sorted(str(f.get("/BaseFont")).split("+")[-1] for f in a.AP.N.Resources.Font.values())
                    print(str(a.Contents), "|", str(a.DA).split()[0], "|", ",".join(names))
            """, score])
        XCTAssertEqual(fonts.status, 0, String(decoding: fonts.stderr, as: UTF8.self))
        XCTAssertEqual(String(decoding: fonts.stdout, as: UTF8.self).split(separator: "\n").map(String.init),
                       ["dolce | /FolioU0 | DejaVuSerif", "Δολτσε — ドルチェ | /FolioU0 | DejaVuSerif,DroidSansFallback"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: score))
        let refused = try invoke(["annot", "add", score, "--page", "1", "--type", "freetext", "--rect", "40,200,200,22",
                                  "--text", "forte", "--font-file", score], status: 64)
        XCTAssertTrue(refused.err.contains("Clementi.pdf"), refused.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: score)), bytes)
        // The server's font setting is checked before it serves anything.
        let serve = try invoke(["serve", root.path, "--port", "1", "--font-file", path("missing.ttf")], status: 64)
        XCTAssertTrue(serve.err.contains("--font-file") && serve.err.contains("missing.ttf"), serve.err)
    }


    /// Text stamps and notes in other scripts: a stamp of words is drawn in Times Bold Italic
    /// when WinAnsi holds them, else in the installed serif fonts, embedded; its words stay
    /// in /Contents, an edit draws new ones, and flattened they are text Poppler extracts.
    /// A note's text (shown by the viewer's popup) is kept as typed.
    func testTextStampsAndNotesInAnyScript() throws {
        let score = path("Haydn.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Bach-Partita_in_a_minor_BWV_1013.pdf"),
                                         toPath: score)
        let stamps = ["poco rit.", "zpomalit, přidej", "Ελεύθερα", "ゆっくり", "לאט מאוד"]
        var ids: [String] = []
        for (index, text) in stamps.enumerated() {
            ids.append(try invoke(["annot", "add", score, "--page", "1", "--type", "stamp", "--rect", "40,\(60 + index * 50),140,30",
                                   "--text", text]).out.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try invoke(["annot", "edit", score, "--id", ids[0], "--text", "Tempo I — Темп", "--rect", "300,60,160,30"])
        let notes = ["Медленно", "ببطء شديد", "ドルチェで"]
        for (index, text) in notes.enumerated() {
            try invoke(["annot", "add", score, "--page", "1", "--type", "note", "--points", "\(400 + index * 30),400", "--text", text])
        }
        let read = try TestEnvironment.runTool("python3", ["-c", """
            import json, sys, pikepdf
            pdf = pikepdf.open(sys.argv[1])
            out = []
            for a in pdf.pages[0].get("/Annots", []):
                if a.get("/Subtype") in ("/Stamp", "/Text"):
                    fonts = a.AP.N.Resources.get("/Font", {}) if a.get("/AP") else {}
                    out.append([str(a.Subtype)[1:], str(a.Contents),
                                sorted(str(f.get("/BaseFont")).split("+")[-1] for f in fonts.values())])
            print(json.dumps(out))
            """, score])
        XCTAssertEqual(read.status, 0, String(decoding: read.stderr, as: UTF8.self))
        let found = try JSONSerialization.jsonObject(with: read.stdout) as? [[Any]] ?? []
        XCTAssertEqual(found.map { "\($0[0])" }, Array(repeating: "Stamp", count: 5) + Array(repeating: "Text", count: 3))
        let words = ["Tempo I — Темп"] + stamps.dropFirst() + notes
        XCTAssertEqual(found.map { $0[1] as? String ?? "" }, words)
        let fonts = found.map { $0[2] as? [String] ?? [] }
        // Czech beyond Latin-1 and Greek in one serif font (DejaVu Serif, its italic where
        // installed), Japanese from Droid Sans Fallback, all embedded as subsets.
        XCTAssertEqual(fonts[1].count, 1, "\(fonts)")
        XCTAssertTrue(fonts[1][0].hasPrefix("DejaVuSerif"), "\(fonts)")
        XCTAssertEqual(fonts[2], fonts[1])
        XCTAssertEqual(fonts[3], ["DroidSansFallback"])
        XCTAssertEqual(fonts[0].first, fonts[1].first, "the edited stamp: Latin and Cyrillic in the serif")
        XCTAssertTrue(fonts[4].allSatisfy { $0.hasPrefix("DejaVu") } && !fonts[4].isEmpty, "\(fonts)")
        let qpdf = try TestEnvironment.runTool("qpdf", ["--check", score])
        XCTAssertEqual(qpdf.status, 0, String(decoding: qpdf.stdout, as: UTF8.self))
        try invoke(["annot", "flatten", score, "--output", path("flat.pdf")])
        // Flattened, each stamp's words are page text in its box, as MuPDF and PDFium read
        // them (Poppler's layout mixes the enlarged words with the music's glyphs).
        let boxes = [[300, 60, 160, 30]] + (1..<stamps.count).map { [40, 60 + $0 * 50, 140, 30] }
        let extracted = try TestEnvironment.runTool("python3", ["-c", """
            import json, sys, pymupdf, pypdfium2
            boxes = json.loads(sys.argv[2])
            page = pymupdf.open(sys.argv[1])[0]
            pdfium = pypdfium2.PdfDocument(sys.argv[1])[0]
            text, height = pdfium.get_textpage(), pdfium.get_height()
            print(json.dumps([[page.get_textbox(pymupdf.Rect(x, y, x + w, y + h)).split("\\n")[-1].strip(),
                               text.get_text_bounded(left=x, bottom=height - y - h, right=x + w, top=height - y).splitlines()[-1].strip()]
                              for x, y, w, h in boxes]))
            """, path("flat.pdf"), String(decoding: try JSONSerialization.data(withJSONObject: boxes), as: UTF8.self)])
        XCTAssertEqual(extracted.status, 0, String(decoding: extracted.stderr, as: UTF8.self))
        let lines = try JSONSerialization.jsonObject(with: extracted.stdout) as? [[String]] ?? []
        XCTAssertEqual(lines.map { $0[0] }, ["Tempo I — Темп"] + stamps.dropFirst(), "MuPDF")
        // PDFium takes the stacked stamps for one left-to-right line and so gives the Hebrew
        // words right to left; each word still reads as typed.
        let sortedWords: (String) -> [Substring] = { $0.split(separator: " ").sorted() }
        XCTAssertEqual(lines.map { sortedWords($0[1]) }, (["Tempo I — Темп"] + stamps.dropFirst()).map(sortedWords), "PDFium")
        // Words no font has: refused, named, nothing written.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: score))
        let refused = try invoke(["annot", "edit", score, "--id", ids[1], "--text", "x \u{10FFFD}"], status: 64)
        XCTAssertTrue(refused.err.contains("U+10FFFD"), refused.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: score)), bytes)
    }

}
