import FolioPDF
@testable import FolioScore
import Foundation
import XCTest

/// A file with no pages (a damaged page tree reads as one) gets errors, never a trap: ranges
/// such as `1...pageCount` are not built from its count.
final class EmptyDocumentTests: XCTestCase {
    /// A catalog whose page tree has no kids, with a cross-reference table of true offsets.
    private func empty() throws -> PDFDocument {
        let objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"]
        var text = "%PDF-1.7\n", offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let table = text.utf8.count
        text += "xref\n0 3\n0000000000 65535 f \n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        text += "trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        return try PDFDocument(bytes: Array(text.utf8))
    }

    func testHalfTurnsOfAFileWithoutPages() throws {
        let document = try empty()
        XCTAssertEqual(document.pageCount, 0)
        try StoredScore.setList(HalfTurns.property, to: ["1=0.4", "Ζ=0.5"], in: document)
        XCTAssertEqual(HalfTurns.splits(of: document), [:], "no page 1 to split")
        XCTAssertThrowsError(try HalfTurns.write([1: 0.4], to: document))
    }

    func testPageToolsOnAFileWithoutPages() throws {
        let document = try empty()
        XCTAssertThrowsError(try ScorePages.delete(document, pages: [1])) { XCTAssertTrue("\($0)".contains("out of range"), "\($0)") }
        XCTAssertThrowsError(try ScorePages.move(document, pages: [1], to: 1)) { XCTAssertTrue("\($0)".contains("out of range"), "\($0)") }
    }
}
