import FolioPDF
@testable import FolioScore
import XCTest

/// The parts of split that need no file: range lists, name templates, outline slices.
final class ScoreSplitTests: XCTestCase {
    func testRangesAreCheckedAgainstThePageCount() throws {
        XCTAssertEqual(try ScoreSplit.ranges("1-4, 5-9,10", pageCount: 10), [1...4, 5...9, 10...10])
        for bad in ["0-2", "3-2", "1-11", "a", "1-2-3", "", "1,,2"] {
            XCTAssertThrowsError(try ScoreSplit.ranges(bad, pageCount: 10), bad) { error in
                XCTAssertTrue("\(error)".contains("1 to 10"), "\(error)")
            }
        }
    }

    func testNameTemplates() throws {
        var metadata = ScoreMetadata(title: "Blue/Bossa", composers: ["Kenny Dorham"])
        metadata.rating = 3
        let piece = ScoreSplit.Piece(title: "Blue/Bossa", pages: 44...45, metadata: metadata)
        XCTAssertEqual(try ScoreSplit.name(for: piece, number: 7, file: "Real Book", template: "{n:03} {title} – {composer} ({start}-{end}) {file}.pdf"),
                       "007 Blue-Bossa – Kenny Dorham (44-45) Real Book.pdf", "a slash never makes a folder")
        XCTAssertEqual(try ScoreSplit.name(for: piece, number: 12, file: "x", template: "{n:1}{n}"), "1212")
        XCTAssertThrowsError(try ScoreSplit.name(for: piece, number: 1, file: "x", template: "{tite}.pdf"))
        XCTAssertThrowsError(try ScoreSplit.name(for: piece, number: 1, file: "x", template: "{n.pdf"))
    }

    func testOutlineSlicesKeepWhatLeadsInside() {
        let outline = [
            PDFOutlineItem(title: "Book", children: [
                PDFOutlineItem(title: "A", target: .page(index: 0)),
                PDFOutlineItem(title: "B", target: .page(index: 4), children: [PDFOutlineItem(title: "B1", target: .page(index: 5))]),
            ]),
            PDFOutlineItem(title: "Outside", target: .page(index: 9), children: [PDFOutlineItem(title: "In", target: .page(index: 6))]),
            PDFOutlineItem(title: "Site", target: .uri("https://example.org")),
        ]
        let slice = PDFOutlineItem.slice(outline, pages: 4...7, shift: -4)
        XCTAssertEqual(slice.map(\.title), ["Book", "In", "Site"], "a header keeps what leads inside; an outside entry gives way to its children")
        XCTAssertEqual(slice[0].children.map(\.title), ["B"])
        XCTAssertEqual(slice[0].children[0].target, .page(index: 0))
        XCTAssertEqual(slice[0].children[0].children[0].target, .page(index: 1))
        XCTAssertEqual(slice[1].target, .page(index: 2))
    }
}
