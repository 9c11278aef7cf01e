import XCTest

@testable import FolioScore

final class CSVIndexTests: XCTestCase {
    private func read(_ text: String, _ options: CSVIndex.Options = .init(), pages: Int = 100) throws -> CSVIndex.Contents {
        try CSVIndex.read(text, options: options, pageCount: pages)
    }

    private func ranges(_ contents: CSVIndex.Contents) -> [String] {
        contents.bookmarks.map { "\($0.name ?? "") \($0.pages.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "-")" }
    }

    func testTitleAndStartOnlyWithoutHeader() throws {
        let contents = try read("Autumn Leaves,12\nBlue Bossa,14\nAll the Things You Are,9\n", pages: 20)
        XCTAssertEqual(ranges(contents), ["All the Things You Are 9-11", "Autumn Leaves 12-13", "Blue Bossa 14-20"])
        XCTAssertEqual(contents.problems, [])
    }

    func testHeaderByNameWithExtraColumnsSemicolonsCRLFAndBOM() throws {
        let text = "\u{FEFF}Nr;Song;Composer;Page;End;Notes\r\n1;\"Misty; ballad\";Erroll Garner;3;4;x\r\n2;Take Five;Paul Desmond;5;;\r\n"
        let contents = try read(text, pages: 10)
        XCTAssertEqual(ranges(contents), ["Misty; ballad 3-4", "Take Five 5-10"])
        XCTAssertEqual(contents.bookmarks.first?.metadata.composers, ["Erroll Garner"])
    }

    func testTabsQuotedCommasAndNewlines() throws {
        let text = "Title\tStart\n\"Bach, J. S.: Air\"\t2\n\"Two\nLines\"\t4\n"
        XCTAssertEqual(ranges(try read(text, pages: 5)), ["Bach, J. S.: Air 2-3", "Two\nLines 4-5"])
    }

    func testHeaderRowsPageOffsetAndPositions() throws {
        let text = "The Real Book, Volume I\nsong,page\nAlice in Wonderland,10\nAll Blues,12\n"
        var options = CSVIndex.Options(headerRows: 2, pageOffset: 4)
        options.mapping = [.title: .position(1), .start: .position(2)]
        XCTAssertEqual(ranges(try read(text, options, pages: 30)), ["Alice in Wonderland 14-15", "All Blues 16-30"])
        options.mapping = [.title: .name("nope")]
        XCTAssertThrowsError(try read(text, options)) { XCTAssertTrue("\($0)".contains("no column named 'nope'"), "\($0)") }
    }

    func testBadRowsAreReportedWithLinesOrRefused() throws {
        let text = "Title,Start,End\nGood,1,2\n,3,\nWord,x,\nLate,200,\nBackwards,9,5\nAlso good,4,\n"
        let contents = try read(text, pages: 50)
        XCTAssertEqual(ranges(contents), ["Good 1-2", "Also good 4-50"])
        XCTAssertEqual(contents.problems.map(\.line), [3, 4, 5, 6])
        XCTAssertTrue(contents.problems[2].message.contains("valid: 1 to 50"), contents.problems[2].message)
        XCTAssertThrowsError(try read(text, CSVIndex.Options(strict: true), pages: 50)) { error in
            XCTAssertTrue("\(error)".contains("line 3"), "\(error)")
        }
    }

    func testExportImportRoundTripInForScoresLayout() throws {
        var first = Bookmark(name: "=HYPERLINK(\"x\") Sonata, Op. 1", action: .page(index: 0), pages: 1...3)
        first.metadata = ScoreMetadata(composers: ["Muzio Clementi", "Anon."], genres: ["Classical"], tags: ["Exam"],
                                       rating: 4, difficulty: 2, duration: 272)
        first.metadata.key = try MusicalKey(parsing: "Bb")
        let second = Bookmark(name: "-Rondo-", action: .page(index: 3), pages: 4...9)
        let score = ScoreMetadata(title: "Sonatinas", composers: ["Muzio Clementi"])
        for tabs in [false, true] {
            let text = CSVIndex.export(fileName: "clementi.pdf", score: score, bookmarks: [second, first], tabs: tabs)
            let lines = text.components(separatedBy: "\r\n")
            XCTAssertEqual(lines[0], CSVIndex.forScoreHeader.joined(separator: tabs ? "\t" : ","))
            XCTAssertTrue(lines[2].contains("'=HYPERLINK"), "formulas are guarded: \(lines[2])")
            XCTAssertTrue(lines[3].contains("'-Rondo-"))
            let back = try read(text, pages: 9)
            XCTAssertEqual(back.problems, [])
            XCTAssertEqual(back.score?.title, "Sonatinas")
            XCTAssertEqual(back.bookmarks.map(\.name), [first.name, second.name])
            XCTAssertEqual(back.bookmarks.map(\.pages), [first.pages, second.pages])
            XCTAssertEqual(back.bookmarks.first?.metadata, first.metadata)
        }
    }

    func testDelimiterDetection() {
        XCTAssertEqual(CSVIndex.delimiter(of: "a;b;c\n1,2;3"), .semicolon)
        XCTAssertEqual(CSVIndex.delimiter(of: "\"a,b\";c\n"), .semicolon)
        XCTAssertEqual(CSVIndex.delimiter(of: "a\tb, c\n"), .tab)
        XCTAssertEqual(CSVIndex.delimiter(of: "title only\n"), .comma)
    }
}
