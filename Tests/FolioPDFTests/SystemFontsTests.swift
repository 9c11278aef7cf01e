import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// The chain of installed fonts: read only as far as the text needs, each character (with
/// its combining marks) set in the first font that has it, pages that every reader draws.
final class SystemFontsTests: XCTestCase {
    func testTheChainGrowsOnlyAsTheTextNeeds() throws {
        let latin = SystemFonts.chain(for: "Dvořák, Ελεγεία, Ёлка", style: .regular)
        XCTAssertEqual(latin.map(\.postScriptName), ["DejaVuSans"])
        let cjk = SystemFonts.chain(for: "Dvořák 新世界より", style: .regular)
        XCTAssertEqual(cjk.map(\.postScriptName), ["DejaVuSans", "DroidSansFallback"])
        XCTAssertEqual(SystemFonts.chain(for: "Allegro", style: .monospaced).map(\.isFixedPitch), [true])
        XCTAssertEqual(PDFTypeface.chain(cjk).firstMissing(in: "a\u{10FFFD}b"), "\u{10FFFD}")
        XCTAssertTrue(SystemFonts.advice(for: "\u{10FFFD}", fonts: cjk).contains("U+10FFFD"))
    }

    func testSegmentsKeepMarksWithTheirBase() throws {
        let fonts = SystemFonts.chain(for: "x 新", style: .regular)
        let face = PDFTypeface.chain(fonts)
        // "é" written as e + combining acute stays one piece with its base.
        let pieces = face.segments("Dvoe\u{0301}ra\u{030C}k 新世界 Ля")
        // The space after 新世界 stays in Droid Sans Fallback, which has it.
        XCTAssertEqual(pieces.map(\.text), ["Dvoe\u{0301}ra\u{030C}k ", "新世界 ", "Ля"])
        XCTAssertEqual(pieces.map { if case .trueType(let font) = $0.face { font.postScriptName } else { "" } },
                       ["DejaVuSans", "DroidSansFallback", "DejaVuSans"])
        XCTAssertEqual(pieces.map(\.text).joined(), "Dvoe\u{0301}ra\u{030C}k 新世界 Ля")
        XCTAssertThrowsError(try face.encode("x"))
    }

    func testAPageInTwoFontsReadsBackEverywhere() throws {
        let text = "Smetana: Vltava — 新世界より — Ελεγεία"
        var pdf = PDFNewDocument()
        let face = PDFTypeface.chain(SystemFonts.chain(for: text, style: .regular))
        try pdf.addTextPage(width: 400, height: 100, runs: [PDFTextRun(text: text, face: face, size: 12, x: 20, y: 50)])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("folio-chain-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try pdf.bytes()).write(to: file)
        let check = try TestEnvironment.runTool("qpdf", ["--check", file.path])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))
        let poppler = try TestEnvironment.runTool("pdftotext", [file.path, "-"])
        XCTAssertEqual(String(decoding: poppler.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), text)
        let mupdf = try TestEnvironment.runTool("python3", ["-c", """
            import sys, pymupdf
            page = pymupdf.open(sys.argv[1])[0]
            spans = [s for b in page.get_text("dict")["blocks"] for l in b["lines"] for s in l["spans"]]
            print("|".join(s["text"] for s in spans))
            print(max(s["bbox"][2] for s in spans))
            """, file.path])
        let lines = String(decoding: mupdf.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        let spans = (lines.first ?? "").split(separator: "|").map(String.init)
        XCTAssertEqual(spans.joined(), text)
        // The pieces follow each other: the last ends where the widths of all of them say.
        let end = Double(lines.last ?? "") ?? 0
        XCTAssertEqual(end, 20 + face.width(of: text, size: 12), accuracy: 1.5)
    }
}
