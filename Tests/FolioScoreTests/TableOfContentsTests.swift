import FolioPDF
import XCTest

@testable import FolioScore

final class TableOfContentsTests: XCTestCase {
    func testForScoreRule() {
        // An anthology: nested entries count, URL and remote entries do not, page order wins.
        let outline = [
            PDFOutlineItem(title: "Suite", target: .page(index: 0), children: [
                PDFOutlineItem(title: "Allemande", target: .page(index: 0)),
                PDFOutlineItem(title: "Courante", target: .page(index: 3)),
            ]),
            PDFOutlineItem(title: "Publisher", target: .uri("https://example.com")),
            PDFOutlineItem(title: "Part", target: .remote(file: "part.pdf", page: 0)),
            PDFOutlineItem(title: "Finale", target: .page(index: 8)),
            PDFOutlineItem(title: "Sarabande", target: .page(index: 5)),
            PDFOutlineItem(title: "Missing", target: .unresolved("named destination /x not found")),
            PDFOutlineItem(title: "Beyond", target: .page(index: 40)),
        ]
        let bookmarks = TableOfContents.bookmarks(from: outline, pageCount: 12)
        XCTAssertEqual(bookmarks, [
            PageRangeBookmark(title: "Suite", start: 1, end: 1),
            PageRangeBookmark(title: "Allemande", start: 1, end: 3),
            PageRangeBookmark(title: "Courante", start: 4, end: 5),
            PageRangeBookmark(title: "Sarabande", start: 6, end: 8),
            PageRangeBookmark(title: "Finale", start: 9, end: 12),
        ])
    }

    func testEmptyAndSinglePage() {
        XCTAssertEqual(TableOfContents.bookmarks(from: [], pageCount: 3), [])
        let one = [PDFOutlineItem(title: "Only", target: .page(index: 0))]
        XCTAssertEqual(TableOfContents.bookmarks(from: one, pageCount: 1), [PageRangeBookmark(title: "Only", start: 1, end: 1)])
    }
}
