import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// Hebrew and Arabic as they are drawn: lines in the visual order python-bidi (the Rust
/// `unicode-bidi` crate's UAX #9) computes, Arabic letters in the presentation forms
/// arabic-reshaper chooses, and pages whose text Poppler, MuPDF and PDFium extract as typed.
/// Also: where Chinese and Japanese lines break.
final class TextLayoutTests: XCTestCase {
    /// Mixed lines of the kind musicians write: titles, tempo marks, catalogue numbers.
    private let lines = [
        "שלום עולם", "Allegro (אלגרו) מהיר", "بسرعة: سلام 123", "Op. 25 — שופן, אטיוד 12",
        "Dvořák: Symphony No. 9 «מהעולם החדש»", "מחיר: 25% הנחה", "٣ أغنيات، رقم 4", "Tempo 120–132 לפי המנצח",
        "(מחיאות כפיים) [הפסקה]", "שלום  ", "Ελεγεία — אלגיה, Элегия", "ترنيمة رقم 3.5 - الفصل الثاني", "12:30",
        "Ave Maria — אווה מריה — آفي ماريا", "שיר השירים אשר לשלמה, 1–2",
    ]

    /// Brackets are mirrored at right-to-left levels by Folio (rule L4) and left as they are
    /// by python-bidi, so both are compared with every bracket made the same.
    private func unbracketed(_ text: String) -> String {
        String(text.map { "()[]{}<>«»".contains($0) ? "|" : $0 })
    }

    func testLinesAreInTheVisualOrderOfUAX9() throws {
        let run = try TestEnvironment.runTool("python3", ["-c", """
            import json, sys
            from bidi import get_display
            print(json.dumps([get_display(line) for line in json.loads(sys.argv[1])]))
            """, String(decoding: try JSONSerialization.data(withJSONObject: lines), as: UTF8.self)])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        let expected = try JSONSerialization.jsonObject(with: run.stdout) as? [String] ?? []
        XCTAssertEqual(expected.count, lines.count)
        for (line, visual) in zip(lines, expected) {
            let ours = BidiText.visualOrder(line, direction: BidiText.direction(of: line) ?? .leftToRight)
            XCTAssertEqual(unbracketed(ours), unbracketed(visual), "\(line)")
        }
        // What python-bidi leaves out: a bracket in a right-to-left run is drawn mirrored, so
        // it still opens towards its text.
        XCTAssertEqual(BidiText.visualOrder("(שלום)", direction: .rightToLeft), "(םולש)")
        XCTAssertEqual(BidiText.visualOrder("Allegro (אלגרו)", direction: .leftToRight), "Allegro (ורגלא)")
        // Combining marks stay after their letters (python-bidi puts them before): a font's
        // marks are drawn back over the glyph before them, so shin keeps its qamats and dot.
        XCTAssertEqual(BidiText.visualOrder("\u{05E9}\u{05B8}\u{05C1}\u{05DC}\u{05D5}\u{05B9}\u{05DD}", direction: .rightToLeft),
                       "\u{05DD}\u{05D5}\u{05B9}\u{05DC}\u{05E9}\u{05B8}\u{05C1}")
        XCTAssertEqual(BidiText.direction(of: "123 — مرحبا"), .rightToLeft)
        XCTAssertNil(BidiText.direction(of: "1–2 (3)"))
        XCTAssertFalse(BidiText.needsReordering("Dvořák 12 Ελεγεία 新世界"))
    }

    func testArabicLettersJoinAsArabicReshaperJoinsThem() throws {
        let font = try XCTUnwrap(SystemFonts.read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
                                 "DejaVu Sans (fonts-dejavu-core) is needed")
        let texts = ["بسرعة: سلام 123", "مقطوعة موسيقية للبيانو", "بلا تسرع، ببطء", "الحركة الثانية", "لا", "مع الشعور",
                     "فيروز", "ترنيمة رقم ٣", "پیانو و چنگ", "گل", "ـبـ", "مُوسِيقَى"]
        let run = try TestEnvironment.runTool("python3", ["-c", """
            import json, sys
            from arabic_reshaper import ArabicReshaper
            reshaper = ArabicReshaper(configuration={"delete_harakat": False, "support_ligatures": True,
                                                     "ARABIC LIGATURE ALLAH": False})
            print(json.dumps([reshaper.reshape(text) for text in json.loads(sys.argv[1])]))
            """, String(decoding: try JSONSerialization.data(withJSONObject: texts), as: UTF8.self)])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        let expected = try JSONSerialization.jsonObject(with: run.stdout) as? [String] ?? []
        XCTAssertEqual(expected.count, texts.count)
        for (text, shaped) in zip(texts, expected) {
            let ours = ArabicShaping.shape(text) { font.glyph(for: $0) != nil }
            XCTAssertEqual(ours.unicodeScalars.map { String(format: "%04X", $0.value) },
                           shaped.unicodeScalars.map { String(format: "%04X", $0.value) }, text)
            // The forms stand for the letters typed (lam-alef in drawing order, see logicalText).
            let back = ours.unicodeScalars.map { scalar in
                ArabicShaping.logicalText(of: scalar).map { $0.count == 2 && $0.unicodeScalars.count == 2 ? String($0.reversed()) : $0 }
                    ?? String(scalar)
            }.joined()
            XCTAssertEqual(back, text)
        }
        // A form the font lacks leaves the letter as typed.
        XCTAssertEqual(ArabicShaping.shape("سلام") { _ in false }, "سلام")
        XCTAssertFalse(ArabicShaping.needsShaping("Dvořák שלום"))
    }

    /// A page of Hebrew and Arabic lines: Poppler, MuPDF and PDFium extract each as typed,
    /// and draw its first letter at the right end of a right-to-left line.
    func testAPageOfHebrewAndArabicReadsBackAsTyped() throws {
        let texts = ["שלום עולם, לאט", "بلا تسرع، ببطء", "مقطوعة موسيقية", "הללויה"]
        var pdf = PDFNewDocument()
        let face = PDFTypeface.chain(SystemFonts.chain(for: texts.joined(), style: .regular))
        try pdf.addTextPage(width: 400, height: 200, runs: texts.enumerated().map { index, text in
            PDFTextRun(text: text, face: face, size: 14, x: 20, y: 170 - Double(index) * 30)
        })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("folio-rtl-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try pdf.bytes()).write(to: file)
        XCTAssertEqual(try TestEnvironment.runTool("qpdf", ["--check", file.path]).status, 0)
        let read = try TestEnvironment.runTool("python3", ["-c", """
            import json, subprocess, sys, pymupdf, pypdfium2
            strip = lambda s: [l.strip().translate({c: None for c in range(0x202A, 0x202F)}) for l in s.splitlines() if l.strip()]
            poppler = subprocess.run(["pdftotext", sys.argv[1], "-"], capture_output=True, text=True, check=True).stdout
            page = pymupdf.open(sys.argv[1])[0]
            # MuPDF's characters of the first line, left to right on the page.
            first = sorted((c["origin"][0], c["c"]) for b in page.get_text("rawdict")["blocks"] for l in b["lines"]
                           for s in l["spans"] for c in s["chars"] if c["origin"][1] < 40)
            pdfium = pypdfium2.PdfDocument(sys.argv[1])[0].get_textpage().get_text_range()
            print(json.dumps({"poppler": strip(poppler), "mupdf": strip(page.get_text()), "pdfium": strip(pdfium),
                              "leftmost": first[0][1], "rightmost": first[-1][1]}))
            """, file.path])
        XCTAssertEqual(read.status, 0, String(decoding: read.stderr, as: UTF8.self))
        let found = try JSONSerialization.jsonObject(with: read.stdout) as? [String: Any] ?? [:]
        for reader in ["mupdf", "pdfium"] {
            XCTAssertEqual(found[reader] as? [String], texts, reader)
        }
        // Poppler reads the letters and words in order but puts a comma at the other side of its space.
        let words: (String) -> String = { $0.filter { !$0.isPunctuation } }
        XCTAssertEqual((found["poppler"] as? [String])?.map(words), texts.map(words), "poppler")
        // "שלום עולם, לאט" is drawn from the right: its first letter rightmost, its last leftmost.
        XCTAssertEqual(found["rightmost"] as? String, "ש")
        XCTAssertEqual(found["leftmost"] as? String, "ט")
    }

    func testChineseAndJapaneseBreakBetweenCharactersButNotBeforeAStop() throws {
        let fonts = SystemFonts.chain(for: "ゆっくり、そして静かに。「とても」", style: .regular)
        let face = PDFTypeface.chain(fonts)
        let text = "ゆっくり、そして静かに。「とても」美しく演奏する。"
        let size = 12.0
        let lines = face.wrap(text, size: size, maxWidth: 5 * size)
        XCTAssertEqual(lines.joined(), text, "nothing is lost or added: no spaces between CJK lines")
        XCTAssertGreaterThan(lines.count, 4)
        for line in lines {
            XCTAssertLessThanOrEqual(face.width(of: line, size: size), 5 * size + 0.001, line)
            if let first = line.first { XCTAssertFalse("、。」っ".contains(first), "a line starts with \(first): \(lines)") }
            if let last = line.last { XCTAssertNotEqual(last, "「", "a line ends with an opening bracket: \(lines)") }
        }
        // Latin words still break only at spaces, and a Latin word next to Chinese may break from it.
        XCTAssertEqual(face.wrap("Dvořák 新世界交響曲", size: size, maxWidth: face.width(of: "Dvořák 新世界", size: size)),
                       ["Dvořák 新世界", "交響曲"])
        XCTAssertFalse(LineBreaking.canBreak("a", "b"))
        XCTAssertTrue(LineBreaking.canBreak("界", "D"))
    }
}
