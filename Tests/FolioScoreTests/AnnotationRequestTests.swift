import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// The one annotation request both shells add marks by: its checks name the valid range,
/// its defaults are one set, its coordinates follow the displayed page.
final class AnnotationRequestTests: XCTestCase {
    /// A one-page document, 600 × 800 points, turned a quarter (as a scanned landscape page is).
    private func document(rotate: Int = 0) throws -> PDFDocument {
        var pdf = PDFNewDocument()
        try pdf.addPage(width: 600, height: 800, content: [], resources: [:])
        let document = try PDFDocument(bytes: try pdf.bytes())
        if rotate != 0 { try document.rotatePages([0], by: rotate) }
        return document
    }

    /// The page's first annotation as PyMuPDF reads it from the saved bytes: its rectangle on
    /// the displayed page (x y width height, rounded) and its contents, if any.
    private static func firstMarkAsPyMuPDFShowsIt(_ document: PDFDocument) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mark-\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(try PDFSaver.incrementalBytes(document)).write(to: URL(fileURLWithPath: file))
        let text = try TestEnvironment.python("""
            import sys, pymupdf
            page = pymupdf.open(sys.argv[1])[0]
            a = next(page.annots())
            r = a.rect * page.rotation_matrix
            shown = [round(min(r.x0, r.x1)), round(min(r.y0, r.y1)), round(abs(r.width)), round(abs(r.height))]
            print(*shown, *([a.info["content"]] if a.info["content"] else []))
            """, file)
        return text
    }

    func testValuesOutOfRangeAreRefusedNamingTheRange() {
        var request = AnnotationRequest(kind: .square, page: 1)
        request.rects = [[10, 10, 100, 50]]
        XCTAssertNoThrow(try request.validate())
        let cases: [(String, (inout AnnotationRequest) -> Void, String)] = [
            ("page", { $0.page = 0 }, "valid: 1 or more"),
            ("opacity", { $0.opacity = 1.5 }, "valid: 0 to 1"),
            ("width", { $0.width = 101 }, "valid: 0 to 100"),
            ("size", { $0.size = 0.5 }, "valid: 1 to 400"),
            ("text", { $0.text = String(repeating: "ř", count: AnnotationRequest.maxText + 1) }, "valid: up to 10000"),
            ("colour", { $0.color = "crimson" }, "#RRGGBB"),
            ("empty rectangle", { $0.rects = [[10, 10, 0, 50]] }, "above 0"),
            ("two rectangles", { $0.rects = [[1, 1, 2, 2], [3, 3, 4, 4]] }, "only text markups"),
            ("symbol", { $0.symbol = .fermata }, "goes with a stamp"),
        ]
        for (name, change, expected) in cases {
            var bad = request
            change(&bad)
            XCTAssertThrowsError(try bad.validate(), name) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(name): \(error)")
            }
        }
        XCTAssertThrowsError(try AnnotationRequest(kind: .freeText, page: 1).validate()) { XCTAssertTrue("\($0)".contains("needs text")) }
        XCTAssertThrowsError(try AnnotationRequest(kind: .stamp, page: 1).validate()) { XCTAssertTrue("\($0)".contains("fermata")) }
        XCTAssertThrowsError(try AnnotationRequest(kind: .ink, page: 1).validate()) { XCTAssertTrue("\($0)".contains("stroke")) }
    }

    func testOneSetOfDefaults() throws {
        let geometry = PDFPageGeometry(page: try XCTUnwrap(try document().pages().first))
        var pen = AnnotationRequest(kind: .ink, page: 1)
        pen.strokes = [[10, 10, 50, 60]]
        let ink = try pen.draft(on: geometry)
        XCTAssertEqual(ink.color?.hex, "#d62828")
        XCTAssertEqual(ink.width, 2)
        XCTAssertEqual(ink.opacity, 1)
        var marker = AnnotationRequest(kind: .highlight, page: 1)
        marker.rects = [[10, 10, 100, 12]]
        XCTAssertEqual(try marker.draft(on: geometry).color?.hex, "#ffe94d")
        var text = AnnotationRequest(kind: .freeText, page: 1)
        text.rects = [[10, 10, 100, 20]]
        text.text = "Für Elise: dolce"
        let free = try text.draft(on: geometry)
        XCTAssertEqual(free.fontSize, 12)
        XCTAssertEqual(free.alignment, .left)
        XCTAssertNil(free.width)
        text.color = "#123456"
        XCTAssertEqual(try text.draft(on: geometry).color?.hex, "#123456", "what is asked for wins")
    }

    /// Display coordinates from the page's top-left, y down, on an unturned and a turned page;
    /// read back by PyMuPDF, which reports rectangles the same way.
    func testRectanglesFollowTheDisplayedPage() throws {
        for rotate in [0, 90] {
            let document = try document(rotate: rotate)
            var request = AnnotationRequest(kind: .square, page: 1)
            request.rects = [[40, 60, 160, 30]]
            let id = try request.add(to: document)
            XCTAssertFalse(id.isEmpty)
            XCTAssertEqual(try Self.firstMarkAsPyMuPDFShowsIt(document), "40 60 160 30", "rotate \(rotate)")
        }
    }

    /// The one edit both shells change marks by: a new place in display coordinates on a
    /// turned page, new text and colour, read back by PyMuPDF; refusals name what is valid.
    func testAnEditMovesAndRestylesInDisplayCoordinates() throws {
        for rotate in [0, 90] {
            let document = try document(rotate: rotate)
            var request = AnnotationRequest(kind: .freeText, page: 1)
            request.rects = [[40, 60, 160, 30]]
            request.text = "Allegro"
            let id = try request.add(to: document)
            var edit = AnnotationEdit(id: id)
            edit.rect = [100, 200, 180, 40]
            edit.text = "Più mosso"
            edit.color = "#0050c0"
            try edit.apply(to: document)
            let shown = try XCTUnwrap(try AnnotationListing.list(document, page: 1).first { $0.annotation.id == id })
            XCTAssertEqual(shown.display.map { $0.rounded() }, [100, 200, 180, 40], "rotate \(rotate)")
            XCTAssertEqual(shown.annotation.contents, "Più mosso")
            XCTAssertEqual(try Self.firstMarkAsPyMuPDFShowsIt(document), "100 200 180 40 Più mosso", "rotate \(rotate)")
        }
        let document = try document()
        var mark = AnnotationRequest(kind: .freeText, page: 1)
        mark.rects = [[40, 60, 160, 30]]
        mark.text = "Adagio"
        let existing = try mark.add(to: document)
        for (change, expected) in [({ (edit: inout AnnotationEdit) in }, "nothing to change"),
                                   ({ $0.opacity = 2 }, "valid: 0 to 1"), ({ $0.rect = [1, 1, 0, 5] }, "above 0"),
                                   ({ $0.color = "červená" }, "#RRGGBB"), ({ $0.page = 0 }, "valid: 1 or more")] {
            var edit = AnnotationEdit(id: existing)
            edit.text = expected == "nothing to change" ? nil : "t"
            change(&edit)
            XCTAssertThrowsError(try edit.apply(to: document)) { XCTAssertTrue("\($0)".contains(expected), "\($0)") }
        }
        // An id no mark has is "not found" before what is asked of it is weighed.
        for text in ["Dvořák", nil] {
            var missing = AnnotationEdit(id: "no-such-id")
            missing.text = text
            XCTAssertThrowsError(try missing.apply(to: document)) { error in
                XCTAssertTrue("\(error)".contains("no annotation has the id"), "\(error)")
                XCTAssertEqual((error as? any Failure)?.kind, .notFound)
            }
        }
    }
}
