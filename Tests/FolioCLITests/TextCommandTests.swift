import FolioTestSupport
import Foundation
import XCTest

/// `folio make` on text and ChordPro files, read back by qpdf, pikepdf, PyMuPDF and Poppler
/// (Tests/Oracle/text_pdf.py): the text comes back, chords sit over their syllables, every
/// line fits the page, metadata lands in forScore's fields, and bad input writes nothing.
final class TextCommandTests: CommandTestCase, @unchecked Sendable {

    @discardableResult
    private func run(_ arguments: [String], status expected: Int32 = 0, environment: [String: String] = [:]) throws -> String {
        let result = try TestEnvironment.run(folio, arguments, environment: environment)
        let out = String(decoding: result.stdout, as: UTF8.self) + String(decoding: result.stderr, as: UTF8.self)
        XCTAssertEqual(result.status, expected, "folio \(arguments.joined(separator: " ")): \(out)")
        return out
    }

    private func inspect(_ file: String) throws -> [String: Any] {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/text_pdf.py").path
        let result = try TestEnvironment.runTool("python3", [script, file])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        let found = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
        XCTAssertEqual(found["check"] as? Int, 0, "\(file): \(found["checkOut"] ?? "")")
        XCTAssertTrue((found["checkOut"] as? String ?? "").contains("No syntax or stream encoding errors"), "\(found["checkOut"] ?? "")")
        return found
    }

    /// Every span lies inside the page less its margins.
    private func assertInsideMargins(_ found: [String: Any], margin: Double, file: StaticString = #filePath, line: UInt = #line) {
        let boxes = found["boxes"] as? [[Double]] ?? []
        for span in found["spans"] as? [[String: Any]] ?? [] {
            guard let page = span["page"] as? Int, let box = span["bbox"] as? [Double], boxes.indices.contains(page) else { continue }
            let width = boxes[page][2], height = boxes[page][3]
            XCTAssertGreaterThanOrEqual(box[0], margin - 0.5, "\(span["text"] ?? "")", file: file, line: line)
            XCTAssertLessThanOrEqual(box[2], width - margin + 0.5, "\(span["text"] ?? "")", file: file, line: line)
            XCTAssertGreaterThanOrEqual(box[1], margin - 2, "\(span["text"] ?? "")", file: file, line: line)
            XCTAssertLessThanOrEqual(box[3], height - margin + 4, "\(span["text"] ?? "")", file: file, line: line)
        }
    }

    /// A 40-line Czech lyric sheet in DejaVu Sans: only the glyphs used are embedded, so the
    /// file is small — under 60 KB and within 1.5× of what reportlab makes of the same text in
    /// the same font (it subsets too) — and every reader draws and extracts it.
    func testAFontFileIsEmbeddedAsASubsetOfTheGlyphsUsed() throws {
        let verses = ["Měsíčku na nebi hlubokém", "světlo tvé daleko vidí", "po světě bloudíš širokém",
                      "díváš se v příbytky lidí", "Ó, Měsíčku, než se skryješ, řekni mi, kde je můj milý", "ŽLUŤOUČKÝ KŮŇ ÚPĚL ĎÁBELSKÉ ÓDY"]
        let lines = (0..<40).map { verses[$0 % verses.count] + " \($0 + 1)." }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path("rusalka.txt"), atomically: true, encoding: .utf8)
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try run(["make", path("rusalka.txt"), "--font-file", font, "--size", "11"])
        let ours = try FileManager.default.attributesOfItem(atPath: path("rusalka.pdf"))[.size] as? Int ?? 0
        let script = """
            import sys
            from reportlab.pdfgen import canvas
            from reportlab.pdfbase import pdfmetrics
            from reportlab.pdfbase.ttfonts import TTFont
            pdfmetrics.registerFont(TTFont("DejaVuSans", sys.argv[1]))
            c = canvas.Canvas(sys.argv[3], pagesize=(595.276, 841.89))
            c.setFont("DejaVuSans", 11)
            y = 780
            for line in open(sys.argv[2], encoding="utf-8").read().splitlines():
                c.drawString(50, y, line)
                y -= 13
                if y < 50:
                    c.showPage(); c.setFont("DejaVuSans", 11); y = 780
            c.save()
            """
        let made = try TestEnvironment.runTool("python3", ["-c", script, font, path("rusalka.txt"), path("reportlab.pdf")])
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        let theirs = try FileManager.default.attributesOfItem(atPath: path("reportlab.pdf"))[.size] as? Int ?? 0
        XCTAssertGreaterThan(theirs, 0)
        XCTAssertLessThan(ours, 60_000, "\(ours) bytes")
        XCTAssertLessThanOrEqual(Double(ours), 1.5 * Double(theirs), "ours \(ours) bytes, reportlab's \(theirs)")

        let found = try inspect(path("rusalka.pdf"))
        let text = found["text"] as? String ?? ""
        for line in lines { XCTAssertTrue(text.contains(line), "Poppler lost '\(line)'") }
        // MuPDF and PDFium draw it without complaint, with ink on the page.
        let draw = try TestEnvironment.runTool("mutool", ["draw", "-q", "-o", path("page-%d.png"), "-r", "50", path("rusalka.pdf")])
        XCTAssertEqual(draw.status, 0)
        XCTAssertFalse(String(decoding: draw.stderr, as: UTF8.self).lowercased().contains("error"),
                       String(decoding: draw.stderr, as: UTF8.self))
        let pdfium = try TestEnvironment.runTool("python3", ["-c", """
            import sys, pypdfium2
            page = pypdfium2.PdfDocument(sys.argv[1])[0]
            image = page.render(scale=0.5).to_pil().convert("L")
            print(sum(1 for value in image.getdata() if value < 128))
            print(page.get_textpage().get_text_range())
            """, path("rusalka.pdf")])
        let pdfiumOut = String(decoding: pdfium.stdout, as: UTF8.self)
        XCTAssertGreaterThan(Int(pdfiumOut.split(separator: "\n").first ?? "") ?? 0, 1000, pdfiumOut)
        XCTAssertTrue(pdfiumOut.contains("ŽLUŤOUČKÝ KŮŇ ÚPĚL ĎÁBELSKÉ ÓDY"), pdfiumOut)
    }

    /// Pairs of (chord, the two characters under it) in a chord chart, read by columns.
    private func chordColumns(_ lines: [String]) -> [String] {
        var pairs: [String] = []
        for (index, line) in lines.enumerated() where index + 1 < lines.count {
            let tokens = line.split(separator: " ")
            guard !tokens.isEmpty, tokens.allSatisfy({ $0.first.map { "ABCDEFG".contains($0) } ?? false && $0.count <= 4 }) else { continue }
            let chars = Array(line), under = Array(lines[index + 1])
            var column = 0
            while column < chars.count {
                if chars[column] != " ", column == 0 || chars[column - 1] == " " {
                    let end = chars[column...].firstIndex(of: " ") ?? chars.count
                    let syllable = column < under.count ? String(under[column..<min(column + 2, under.count)]) : ""
                    pairs.append(String(chars[column..<end]) + "/" + syllable)
                    column = end
                } else {
                    column += 1
                }
            }
        }
        return pairs
    }

    func testChordChartKeepsChordsOverTheirSyllablesAcrossEncodingsAndWrapping() throws {
        let lines = [
            "Amazing Grace", "",
            "G              G7          C         G",
            "Amazing grace, how sweet the sound, that saved a wretch like me",
            "G                     D",
            "I once was lost, but now am found",
            // Longer than a line of Courier at 11 pt on A4: both lines wrap at the same column.
            "G          C              G             D                 Em            C              G          D7",
            "Through many dangers, toils and snares I have already come; 'tis grace hath brought me safe thus far and home",
            "Em      C  G",
            "Déjà vu, façade — “naïve” €5",
        ]
        let text = lines.joined(separator: "\n") + "\n"
        // The same text as UTF-8 with a BOM, UTF-16LE with one, and Windows-1252.
        let encodings: [(String, [UInt8])] = [
            ("utf8.txt", [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            ("utf16.txt", [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("cp1252.txt", Array(try XCTUnwrap(text.data(using: .windowsCP1252)))),
        ]
        let expected = chordColumns(lines)
        XCTAssertEqual(expected.count, 17)
        for (name, bytes) in encodings {
            FileManager.default.createFile(atPath: path(name), contents: Data(bytes))
            try run(["make", path(name)])
            let found = try inspect(path(name.replacingOccurrences(of: ".txt", with: ".pdf")))
            XCTAssertEqual(found["pages"] as? Int, 1)
            XCTAssertEqual(found["info"].flatMap { ($0 as? [String: String])?["/Title"] }, "Amazing Grace", name)
            XCTAssertTrue((found["fonts"] as? String ?? "").contains("Courier"), name)
            // The text by columns of Courier's 0.6 em, from where MuPDF finds each character.
            let layout = found["grid"] as? [String] ?? []
            XCTAssertEqual(chordColumns(layout), expected, name)
            XCTAssertTrue(layout.contains("Déjà vu, façade — “naïve” €5"), "\(name): \(layout)")
            // Poppler reads the lines that fit back as they were written (its layout mode spaces columns its own way).
            func words(_ text: String) -> String { text.split(whereSeparator: { $0 == " " }).joined(separator: " ") }
            let poppler = (found["layout"] as? String ?? "").split(separator: "\n").map { words(String($0)) }
            for line in lines where line.count < 70 && !line.isEmpty { XCTAssertTrue(poppler.contains(words(line)), "\(name): \(line)") }
            assertInsideMargins(found, margin: 50)
        }
    }

    func testChordProPlacesChordsAndFillsForScoreFields() throws {
        let song = """
            {title: Amazing Grace}
            {subtitle: Traditional}
            {artist: John Newton}
            {key: Am}
            {tempo: 72}
            {duration: 3:30}
            {tag: Hymn}
            # not printed
            {c: Slowly}
            A[G]mazing [G7]grace, how [C]sweet the [G]sound
            That [G]saved a [Em]wretch like [D]me
            {soc}
            I [G]once was [G7]lost, but [C]now am [G]found, was [Em]blind but [D]now I [G]see, and [C]ever [G]more [D]sing
            {eoc}
            {sot}
            e|---0---2---3---|
            {eot}
            {chorus}
            """
        try song.write(toFile: path("grace.cho"), atomically: true, encoding: .utf8)
        try run(["make", path("grace.cho"), "--paper", "letter", "--size", "14"])
        let found = try inspect(path("grace.pdf"))
        XCTAssertEqual(found["boxes"] as? [[Double]], [[0, 0, 612, 792]])
        // Each chord starts where the syllable after it in the source starts.
        var expected: [String] = []
        for line in song.split(separator: "\n") where !line.hasPrefix("{") && line.contains("[") {
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
                let chord = rest[rest.index(after: open)..<close]
                rest = rest[rest.index(after: close)...]
                expected.append("\(chord)/\(String(rest.prefix(3)))")
            }
        }
        let chords = (found["chords"] as? [[String: Any]] ?? []).filter { ($0["chord"] as? String).map { $0.count <= 3 } ?? false }
            .map { "\($0["chord"] as? String ?? "")/\($0["under"] as? String ?? "-")" }
        XCTAssertEqual(chords, expected)
        let text = found["text"] as? String ?? ""
        for piece in ["Amazing Grace", "Traditional", "John Newton", "Key: Am", "Slowly", "Chorus", "e|---0---2---3---|"] {
            XCTAssertTrue(text.contains(piece), piece)
        }
        XCTAssertFalse(text.contains("not printed"))
        assertInsideMargins(found, margin: 50)
        let meta = try JSONSerialization.jsonObject(with: Data(try run(["meta", "get", "--json", path("grace.pdf")]).utf8)) as? [String: Any]
        XCTAssertEqual(meta?["title"] as? String, "Amazing Grace")
        XCTAssertEqual(meta?["composers"] as? [String], ["John Newton"])
        XCTAssertEqual(meta?["tags"] as? [String], ["Hymn"])
        XCTAssertEqual(meta?["duration"] as? Int, 210)
        XCTAssertEqual(meta?["key"] as? String, "A minor")
        let exif = try TestEnvironment.runTool("exiftool", ["-s3", "-Title", "-Author", path("grace.pdf")])
        XCTAssertEqual(String(decoding: exif.stdout, as: UTF8.self).split(separator: "\n"), ["Amazing Grace", "John Newton"])
    }

    /// Text beyond WinAnsiEncoding needs no flag: Czech, Greek, Russian and Japanese lines are
    /// set in the installed fonts (DejaVu Sans, then Droid Sans Fallback for what it lacks),
    /// each embedded as a subset; a character no font has is refused with its line.
    func testAnyScriptIsSetInTheInstalledFonts() throws {
        let lines = ["Rusalka", "Měsíčku na nebi hlubokém", "Ελεγεία", "Песня о Луне", "新世界より ドヴォルザーク", "♩ = 60"]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path("world.txt"), atomically: true, encoding: .utf8)
        try run(["make", path("world.txt")])
        let found = try inspect(path("world.pdf"))
        let text = found["text"] as? String ?? ""
        for line in lines { XCTAssertTrue(text.contains(line), "Poppler lost '\(line)' in \(text)") }
        let fonts = (found["fonts"] as? String ?? "").split(separator: "\n").dropFirst(2)
        XCTAssertEqual(fonts.count, 2, found["fonts"] as? String ?? "")
        XCTAssertTrue(fonts.contains { $0.contains("DejaVuSans") } && fonts.contains { $0.contains("DroidSansFallback") },
                      found["fonts"] as? String ?? "")
        // Each one embedded, a subset ("ABCDEF+" names, pdffonts' "sub" column), with ToUnicode.
        for font in fonts {
            XCTAssertEqual(font.split(separator: " ").suffix(5).prefix(3).map(String.init), ["yes", "yes", "yes"], String(font))
            XCTAssertTrue(font.range(of: #"^[A-Z]{6}\+"#, options: .regularExpression) != nil, String(font))
        }
        let size = try FileManager.default.attributesOfItem(atPath: path("world.pdf"))[.size] as? Int ?? 0
        XCTAssertLessThan(size, 200_000, "a CJK line adds a subset of a 4 MB font, not the font")

        try "Ukolébavka\nnota \u{10FFFD} sem\n".write(toFile: path("private.txt"), atomically: true, encoding: .utf8)
        let error = try run(["make", path("private.txt")], status: 64)
        XCTAssertTrue(error.contains("line 2") && error.contains("U+10FFFD") && error.contains("fonts-dejavu-core"), error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("private.pdf")))
    }

    /// `--font times` with text beyond WinAnsi is set in DejaVu Serif (serif stays serif),
    /// `--font courier` in DejaVu Sans Mono; Japanese still comes from the CJK font.
    func testTheChosenFontsKindIsKeptForAnyScript() throws {
        try "Rusalka\nMěsíčku na nebi hlubokém\nドヴォルザーク\n".write(toFile: path("serif.txt"), atomically: true, encoding: .utf8)
        for (font, expected) in [("times", "DejaVuSerif"), ("courier", "DejaVuSansMono"), ("helvetica", "DejaVuSans")] {
            try run(["make", path("serif.txt"), "--font", font, "--output", path("\(font).pdf")])
            let found = try inspect(path("\(font).pdf"))
            let names = (found["fonts"] as? String ?? "").split(separator: "\n").dropFirst(2)
                .compactMap { $0.split(separator: " ").first.map { String($0.split(separator: "+").last ?? "") } }
            XCTAssertEqual(Set(names), [expected, "DroidSansFallback"], "\(font): \(names)")
            XCTAssertTrue((found["text"] as? String ?? "").contains("Měsíčku na nebi hlubokém"))
        }
    }

    /// A Hebrew and Arabic lyric sheet: each right-to-left line set from the right margin,
    /// drawn in visual order (its first letter rightmost), Arabic letters joined; MuPDF reads
    /// every line back as typed, and a Latin line stays at the left margin.
    func testHebrewAndArabicLinesRunFromTheRight() throws {
        let lines = ["הבה נגילה", "הבה נגילה ונשמחה", "يا ليل الصب متى غده", "Hava Nagila"]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path("rtl.txt"), atomically: true, encoding: .utf8)
        try run(["make", path("rtl.txt")])
        let read = try TestEnvironment.runTool("python3", ["-c", """
            import json, sys, pymupdf
            page = pymupdf.open(sys.argv[1])[0]
            lines = [l for b in page.get_text("rawdict")["blocks"] for l in b["lines"]]
            out = []
            for line in lines:
                chars = sorted((c["bbox"][0], c["bbox"][2], c["c"]) for s in line["spans"] for c in s["chars"])
                out.append({"x0": chars[0][0], "x1": chars[-1][1], "left": chars[0][2], "right": chars[-1][2]})
            print(json.dumps({"width": page.rect.width, "lines": out,
                              "text": [l.strip() for l in page.get_text().splitlines() if l.strip()]}))
            """, path("rtl.pdf")])
        XCTAssertEqual(read.status, 0, String(decoding: read.stderr, as: UTF8.self))
        let found = try JSONSerialization.jsonObject(with: read.stdout) as? [String: Any] ?? [:]
        XCTAssertEqual(found["text"] as? [String], lines)
        let placed = found["lines"] as? [[String: Any]] ?? []
        XCTAssertEqual(placed.count, lines.count)
        guard placed.count == lines.count else { return }
        let right = placed[0...2].compactMap { $0["x1"] as? Double }
        // The three right-to-left lines end at one right margin, whatever their lengths.
        XCTAssertLessThan((right.max() ?? 0) - (right.min() ?? 0), 1.5, "\(placed)")
        XCTAssertGreaterThan(right.min() ?? 0, (found["width"] as? Double ?? 0) * 0.8)
        XCTAssertEqual(placed[0]["right"] as? String, "ה", "the first letter is drawn rightmost")
        XCTAssertEqual(placed[0]["left"] as? String, "ה", "and the last leftmost")
        XCTAssertEqual(placed[1]["left"] as? String, "ה")
        XCTAssertEqual(placed[1]["right"] as? String, "ה")
        // The Latin line starts at the left margin, where the Hebrew ones do not.
        XCTAssertLessThan(placed[3]["x0"] as? Double ?? 999, (placed[0]["x0"] as? Double ?? 0) - 100)
        // Arabic is drawn joined: the glyphs shown (CIDs are DejaVu Sans's glyph numbers) are
        // the presentation forms DejaVu's cmap gives, not the letters' isolated glyphs.
        let glyphs = try TestEnvironment.runTool("python3", ["-c", """
            import json, sys, pikepdf
            from fontTools.ttLib import TTFont
            reverse = {}
            for code, name in TTFont("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").getBestCmap().items():
                reverse.setdefault(name, code)
            order = TTFont("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").getGlyphOrder()
            pdf = pikepdf.open(sys.argv[1])
            codes = []
            for operands, operator in pikepdf.parse_content_stream(pdf.pages[0]):
                if str(operator) == "Tj":
                    data = bytes(operands[0])
                    codes += [reverse.get(order[data[i] << 8 | data[i + 1]], 0) for i in range(0, len(data) - 1, 2)]
            print(json.dumps(codes))
            """, path("rtl.pdf")])
        XCTAssertEqual(glyphs.status, 0, String(decoding: glyphs.stderr, as: UTF8.self))
        let codes = try JSONSerialization.jsonObject(with: glyphs.stdout) as? [Int] ?? []
        XCTAssertGreaterThan(codes.filter { (0xFE70...0xFEFF).contains($0) }.count, 10, "\(codes)")
        XCTAssertTrue(codes.filter { (0x0621...0x064A).contains($0) }.isEmpty, "a letter drawn unjoined: \(codes)")
    }

    /// `--font-file` comes first (the installed fonts only for what it lacks); a file that is
    /// not a font, and an output that exists, are refused with nothing written.
    func testAFontFileIsUsedFirst() throws {
        let text = "Rusalka\nSong to the Moon\nMěsíčku na nebi hlubokém\n"
        try text.write(toFile: path("moon.txt"), atomically: true, encoding: .utf8)
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
        try run(["make", path("moon.txt"), "--font-file", font])
        let found = try inspect(path("moon.pdf"))
        // Embedded, and its ToUnicode map gives the text back to Poppler and MuPDF.
        let fonts = (found["fonts"] as? String ?? "").split(separator: "\n").dropFirst(2)
        XCTAssertEqual(fonts.count, 1, found["fonts"] as? String ?? "")
        XCTAssertTrue(fonts.first?.contains("DejaVuSerif") ?? false, "the font given, not the default: \(fonts)")
        // pdffonts' columns: name, type, encoding, then embedded, subset, ToUnicode, object, generation.
        let columns = fonts.first.map { $0.split(separator: " ").suffix(5).map(String.init) } ?? []
        XCTAssertTrue(fonts.first.map { $0.contains("CID TrueType") && $0.contains("Identity-H") } ?? false)
        XCTAssertEqual(columns.prefix(3), ["yes", "yes", "yes"], fonts.first.map(String.init) ?? "")
        XCTAssertTrue((found["layout"] as? String ?? "").contains("Měsíčku na nebi hlubokém"))
        XCTAssertTrue((found["text"] as? String ?? "").contains("Měsíčku na nebi hlubokém"))
        XCTAssertEqual(found["info"].flatMap { ($0 as? [String: String])?["/Title"] }, "Rusalka")

        // Not a font, and an output that exists: refused, nothing written or overwritten.
        try "x".write(toFile: path("bad.ttf"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try run(["make", path("moon.txt"), "--font-file", path("bad.ttf"), "-o", path("other.pdf")], status: 64)
            .contains("not a TrueType font"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path("moon.pdf")))
        XCTAssertTrue(try run(["make", path("moon.txt"), "--font-file", font], status: 64).contains("exists"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("moon.pdf"))), before)
        XCTAssertTrue(try run(["make", path("moon.txt"), "--size", "200", "-o", path("big.pdf")], status: 64).contains("4 to 72"))
        FileManager.default.createFile(atPath: path("binary.txt"), contents: Data([0x25, 0x00, 0x01]))
        XCTAssertTrue(try run(["make", path("binary.txt")], status: 64).contains("not a text file"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("other.pdf")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("big.pdf")))
    }

    func testTenThousandLinesFlowOntoPagesInsideTheMargins() throws {
        var lines: [String] = []
        for number in 1...10_000 {
            let words = String(repeating: "la ", count: number % 7 == 0 ? 40 : number % 5)
            lines.append("Line \(String(format: "%05d", number)) \(words)")
        }
        try lines.joined(separator: "\n").write(toFile: path("long.txt"), atomically: true, encoding: .utf8)
        try run(["make", path("long.txt")], environment: ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_PAPER": ""])
        let found = try inspect(path("long.pdf"))
        XCTAssertEqual((found["boxes"] as? [[Double]])?.first, [0, 0, 612, 792], "en_US prints on Letter")
        let text = found["text"] as? String ?? ""
        var position = text.startIndex
        for number in 1...10_000 {
            let marker = "Line \(String(format: "%05d", number))"
            guard let found = text.range(of: marker, range: position..<text.endIndex) else {
                return XCTFail("\(marker) is missing or out of order")
            }
            position = found.upperBound
        }
        assertInsideMargins(found, margin: 50)
        // Wrapped lines add pages: more than 10,000 lines' worth at 11 pt with 1.25 leading.
        let perPage = Int((792 - 100) / (11 * 1.25))
        XCTAssertGreaterThan(found["pages"] as? Int ?? 0, 10_000 / perPage)
    }
}
