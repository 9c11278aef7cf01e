import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// The one page tool both shells run: its defaults (every page, a 10 pt margin, one blank
/// page) live here, and what it refuses names the valid values.
final class PageToolTests: XCTestCase {
    /// Three pages of 600 × 800 points, each drawing a box 100 pt in from every side.
    private func document() throws -> PDFDocument {
        var pdf = PDFNewDocument()
        for _ in 0..<3 {
            try pdf.addPage(width: 600, height: 800, content: Array("0 0 0 RG 100 100 400 600 re S".utf8), resources: [:])
        }
        return try PDFDocument(bytes: try pdf.bytes())
    }

    /// Each page's crop box and rotation as pypdfium2 reads the saved bytes.
    private static func boxesAsPDFiumReadsThem(_ document: PDFDocument) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(try PDFSaver.incrementalBytes(document)).write(to: URL(fileURLWithPath: file))
        let text = try TestEnvironment.python("""
            import sys, pypdfium2
            for page in pypdfium2.PdfDocument(sys.argv[1]):
                print(*[round(v) for v in page.get_cropbox()], page.get_rotation())
            """, file)
        return text.split(separator: "\n").map(String.init)
    }

    func testTheDefaultsLiveInTheTool() throws {
        let document = try document()
        let crop = try PageTool(action: "crop").apply(to: document)   // every page, the default margin
        XCTAssertEqual(crop.changed, 3)
        let margin = Int(PageTool.defaultMargin)
        let box = "\(100 - margin) \(100 - margin) \(500 + margin) \(700 + margin) 0"
        XCTAssertEqual(try Self.boxesAsPDFiumReadsThem(document), [box, box, box])
        XCTAssertEqual(try PageTool(action: "rotate", by: 90).apply(to: document).changed, 3, "every page when none is named")
        let blank = try PageTool(action: "insert-blank", at: 4, size: "a4").apply(to: document)
        XCTAssertEqual(blank.pages, 4)
        XCTAssertEqual(blank.changed, 1, "one blank page unless told")
        XCTAssertEqual(try Self.boxesAsPDFiumReadsThem(document).last, "0 0 595 842 0")
        XCTAssertEqual(PageTool(action: "rotate", pages: "2", by: 90).summary, "Rotated page(s) 2")
    }

    func testRefusalsNameTheValidValues() throws {
        let cases: [(PageTool, String)] = [
            (PageTool(action: "shuffle"), "rotate, delete, move, insert-blank, crop"),
            (PageTool(action: "rotate"), "by is missing"),
            (PageTool(action: "delete"), "pages is missing"),
            (PageTool(action: "move", pages: "1"), "to is missing"),
            (PageTool(action: "insert-blank", at: 1, count: PageTool.maxBlankPages + 1), "valid: 1 to 100"),
            (PageTool(action: "insert-blank", at: 1, count: Int.min), "valid: 1 to 100"),
            (PageTool(action: "insert-blank", at: 1, size: "1e308x5"), "WIDTHxHEIGHT"),
            (PageTool(action: "insert-blank", at: 1, size: "nanxnan"), "WIDTHxHEIGHT"),
            (PageTool(action: "crop", box: [1, 2, 3]), "x, y, width, height"),
            (PageTool(action: "crop", box: [0, 0, 10, 10], reset: true), "one of"),
        ]
        for (tool, message) in cases {
            XCTAssertThrowsError(try tool.validate(), "\(tool)") { error in
                XCTAssertEqual((error as? any Failure)?.kind, .invalidValue, "\(tool)")
                XCTAssertTrue("\(error)".contains(message), "\(tool): \(error)")
            }
        }
        let document = try document()
        for tool in [PageTool(action: "delete", pages: "4"), PageTool(action: "move", pages: "1", to: Int.max),
                     PageTool(action: "insert-blank", at: Int.min), PageTool(action: "crop", margin: 1e300)] {
            XCTAssertThrowsError(try tool.apply(to: document), "\(tool)") { error in
                XCTAssertEqual((error as? any Failure)?.kind, .invalidValue, "\(tool): \(error)")
            }
        }
        XCTAssertEqual(document.pageCount, 3)
    }

    /// Any page list, extremes included, is either pages of the score or a refusal naming
    /// the valid values: never a trap, never unbounded work.
    func testPageListsOfAnyShape() {
        var generator = SeededGenerator(#function)
        let pieces = ["1", "0", "-", ",", "3", "9223372036854775807", "-9223372036854775808", "18446744073709551616", " ", "٣", "1e3", ""]
        for round in 0..<5_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let count = [0, 1, 7, Int.max / 8, Int.max][round % 5]
            do {
                let pages = try ScoreSplit.pages(text, pageCount: count)
                XCTAssertTrue(pages.allSatisfy { (1...max(count, 1)).contains($0) }, text)
                XCTAssertLessThanOrEqual(pages.count, ScoreSplit.maxListedPages, text)
            } catch {
                XCTAssertNotNil(error as? ScoreError, "\(text): \(error)")
            }
        }
        XCTAssertThrowsError(try ScoreSplit.pages(Array(repeating: "1-7", count: 5).joined(separator: ","), pageCount: 7))
        XCTAssertThrowsError(try ScoreSplit.pages("1-9223372036854775807", pageCount: Int.max), "never Int.max pages in memory")
        XCTAssertThrowsError(try ScoreSplit.ranges(Array(repeating: "1", count: ScoreSplit.maxPieces + 1).joined(separator: ","), pageCount: 7))
    }
}
