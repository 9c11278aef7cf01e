@testable import FolioScore
import Foundation
import XCTest

/// Links as musicians meet them: the source file an engraver's point-and-click link leaks,
/// and a place on a page as the command line writes it; bookmarks moved in a CSV index.
final class ScoreLinkTests: XCTestCase {
    func testThePathAPointAndClickLinkLeaks() {
        let cases: [(String, String?)] = [
            ("textedit:///home/anna/M%C5%A1e.ly:12:4:5", "/home/anna/Mše.ly"),
            ("textedit:///home/יעל/שיר.ly:3:1:2", "/home/יעל/שיר.ly"),
            ("TEXTEDIT:///Users/はなこ/曲.ly:7:2", "/Users/はなこ/曲.ly"),
            ("textedit:///C:/Noten/Übung.ly", "/C:/Noten/Übung.ly"),
            ("textedit:///srv/a:b.ly:9:1:1", "/srv/a:b.ly"),
            ("https://www.lilypond.org", nil),
        ]
        for (uri, path) in cases {
            XCTAssertEqual(ScoreLink.sourcePath(of: .uri(uri)), path, uri)
        }
        XCTAssertNil(ScoreLink.sourcePath(of: .page(3)))
        XCTAssertNil(ScoreLink.sourcePath(of: nil))
    }

    func testAPlaceOnAPage() throws {
        let (page, rect) = try ScoreLink.place("3:480, 700,60.5,40")
        XCTAssertEqual(page, 3)
        XCTAssertEqual(rect, [480, 700, 60.5, 40])
        for bad in ["3:480,700,60", "strana 3:1,2,3,4", "3:1,2,0,4", "3", "3:a,b,c,d", ""] {
            XCTAssertThrowsError(try ScoreLink.place(bad), bad) { error in
                XCTAssertEqual((error as? ScoreError)?.code, .invalidValue, "\(bad): \(error)")
            }
        }
    }

    /// A CSV index has no sort keys: a move is kept as the order of its rows.
    func testAMoveInACSVIndexIsTheOrderOfItsRows() throws {
        var csv = try CSVBookmarkProvider(text: nil, pageCount: 9)
        var manager = BookmarkManager(providers: [csv])
        let first = try BookmarkEdit.add(name: "Ária — Ария", pages: 1...2, to: &manager, pageCount: 9)
        _ = try BookmarkEdit.add(name: "Rondo — 輪舞", pages: 3...5, to: &manager, pageCount: 9)
        let third = try BookmarkEdit.add(name: "Coda — קודה", pages: 6...9, to: &manager, pageCount: 9)
        try BookmarkEdit.move(id: third, before: first, in: &manager)
        csv = try XCTUnwrap(manager.providers.first as? CSVBookmarkProvider)
        let reread = try CSVBookmarkProvider(text: csv.text(fileName: "Suita.pdf"), pageCount: 9)
        XCTAssertEqual(BookmarkOrder.custom.sorted(reread.bookmarks).map(\.name), ["Coda — קודה", "Ária — Ария", "Rondo — 輪舞"])
        XCTAssertEqual(BookmarkOrder.pageBased.sorted(reread.bookmarks).map(\.name), ["Ária — Ария", "Rondo — 輪舞", "Coda — קודה"])
        XCTAssertThrowsError(try BookmarkEdit.add(name: "X", pages: 8...10, to: &manager, pageCount: 9)) { error in
            XCTAssertTrue("\(error)".contains("valid: 1 to 9"), "\(error)")
        }
        XCTAssertThrowsError(try BookmarkEdit.rename(id: "none", to: "Y", in: &manager))
    }
}
