import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// The one way marks are taken off, for `folio annot remove` and the server's Delete: an id
/// that names nothing is "not found" and removes nothing; --all takes the kinds asked for.
final class AnnotationRemovalTests: XCTestCase {
    /// Two pages: a square on the first, a text ("dolce – 柔らかく") and an ink stroke on the second.
    private func marked() throws -> (PDFDocument, square: String, text: String, ink: String) {
        var pdf = PDFNewDocument()
        for _ in 0..<2 { try pdf.addPage(width: 600, height: 800, content: [], resources: [:]) }
        let document = try PDFDocument(bytes: try pdf.bytes())
        var square = AnnotationRequest(kind: .square, page: 1)
        square.rects = [[10, 10, 100, 50]]
        var text = AnnotationRequest(kind: .freeText, page: 2)
        text.rects = [[10, 10, 200, 20]]
        text.text = "dolce – 柔らかく"
        var ink = AnnotationRequest(kind: .ink, page: 2)
        ink.strokes = [[10, 10, 50, 60, 90, 20]]
        return (document, try square.add(to: document), try text.add(to: document), try ink.add(to: document))
    }

    /// The subtypes on each page as PyMuPDF reads the saved bytes.
    private static func subtypesAsPyMuPDFReadsThem(_ document: PDFDocument) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("removal-\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(try PDFSaver.incrementalBytes(document)).write(to: URL(fileURLWithPath: file))
        let text = try TestEnvironment.python("""
            import sys, pymupdf
            print("|".join(",".join(sorted(a.type[1] for a in page.annots())) for page in pymupdf.open(sys.argv[1])))
            """, file)
        return text
    }

    func testAnIdThatNamesNothingRemovesNothing() throws {
        let (document, square, text, _) = try marked()
        XCTAssertEqual(try Self.subtypesAsPyMuPDFReadsThem(document), "Square|FreeText,Ink")
        for (removal, code) in [(AnnotationRemoval(ids: [square, "no-such-mark"]), ScoreErrorCode.notFound),
                                (AnnotationRemoval(ids: [text], page: 1), .notFound),   // it is on page 2
                                (AnnotationRemoval(ids: [square], page: 3), .outOfRange),
                                (AnnotationRemoval(ids: [square], page: 0), .outOfRange),
                                (AnnotationRemoval(ids: [square], page: Int.min), .outOfRange),
                                (AnnotationRemoval(ids: []), .invalidValue)] {
            XCTAssertThrowsError(try removal.apply(to: document), "\(removal)") { error in
                XCTAssertEqual((error as? ScoreError)?.code, code, "\(removal): \(error)")
            }
        }
        XCTAssertEqual(try Self.subtypesAsPyMuPDFReadsThem(document), "Square|FreeText,Ink", "nothing removed")
    }

    func testByIdAndByKind() throws {
        let (document, square, _, ink) = try marked()
        XCTAssertEqual(try AnnotationRemoval(ids: [square], page: 1).apply(to: document), [square])
        XCTAssertNoThrow(try AnnotationRemoval.all(types: ["ink"], page: Int.max).validate(), "a page past the last is known only with the score")
        XCTAssertThrowsError(try AnnotationRemoval.all(types: ["ink"], page: Int.max).apply(to: document))
        XCTAssertEqual(try AnnotationRemoval.all(types: ["ink"]).apply(to: document), [ink])
        XCTAssertEqual(try Self.subtypesAsPyMuPDFReadsThem(document), "|FreeText")
    }
}
