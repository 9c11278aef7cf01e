import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// The one CSV bookmark import (`folio bookmarks import`, an index dropped into a library):
/// rows become page-range bookmarks, unreadable rows are reported and skipped, the score row
/// reaches the metadata only when asked, and a replace leaves only the new index.
final class BookmarkIndexImportTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("index-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func score(pages: Int) throws -> String {
        try TestPDF.pages(pages, named: "Детский альбом.pdf", in: folder, info: "<< /Title (Album) >>")
    }

    private let forScoreIndex = """
        Filename,Title,Start Page (Bookmark),End Page (Bookmark),Composers
        Детский альбом.pdf,Детский альбом,,,Чайковский
        Детский альбом.pdf,Утренняя молитва,1,2,
        Детский альбом.pdf,Зимнее утро,3,4,
        Детский альбом.pdf,Мама,x,5,
        Детский альбом.pdf,Ήχοι,5,6,

        """

    private func names(_ path: String) throws -> [String] {
        try BookmarkChain.read(ScoreFile(path), index: nil).chain.manager.bookmarks(in: .pageBased).compactMap(\.name)
    }

    func testRowsBecomeBookmarksAndTheScoreRowOnlyWhenAsked() throws {
        let path = try score(pages: 6)
        let index = BookmarkIndexImport(text: forScoreIndex, source: "album.csv", applyScoreRow: true)
        let report = try BookmarkChain.update(ScoreFile(path), index: nil) { manager, document in
            try index.apply(to: &manager, in: document)
        }
        XCTAssertEqual(report.added.compactMap(\.name), ["Утренняя молитва", "Зимнее утро", "Ήχοι"])
        XCTAssertEqual(report.added.map(\.pages), [1...2, 3...4, 5...6])
        XCTAssertEqual(report.problems.count, 1, "\(report.problems)")
        XCTAssertTrue(report.problems[0].hasPrefix("album.csv: "), report.problems[0])
        XCTAssertEqual(try names(path), ["Утренняя молитва", "Зимнее утро", "Ήχοι"])
        // The score row reached the Info dictionary, as pdfinfo reads it.
        let info = String(decoding: try TestEnvironment.runTool("pdfinfo", [path]).stdout, as: UTF8.self)
        XCTAssertTrue(info.contains("Детский альбом"), info)
        XCTAssertTrue(info.contains("Чайковский"), info)
        XCTAssertEqual(try TestEnvironment.runTool("qpdf", ["--check", path]).status, 0)

        // Without applyScoreRow the title stays.
        let other = try score(pages: 6)
        try BookmarkChain.update(ScoreFile(other), index: nil) { manager, document in
            _ = try BookmarkIndexImport(text: forScoreIndex, source: "album.csv").apply(to: &manager, in: document)
        }
        let untouched = String(decoding: try TestEnvironment.runTool("pdfinfo", [other]).stdout, as: UTF8.self)
        XCTAssertFalse(untouched.contains("Чайковский"), untouched)
    }

    func testReplaceLeavesOnlyTheNewIndex() throws {
        let path = try score(pages: 6)
        for _ in 0..<2 {
            try BookmarkChain.update(ScoreFile(path), index: nil) { manager, document in
                _ = try BookmarkIndexImport(text: forScoreIndex, source: "album.csv").apply(to: &manager, in: document)
            }
        }
        XCTAssertEqual(try names(path).count, 3, "importing the same index twice does not double it")
        try BookmarkChain.update(ScoreFile(path), index: nil) { manager, document in
            _ = try BookmarkIndexImport(text: "Title,Start,End\n早晨的祈祷,2,3\n", source: "zh.csv", replace: true)
                .apply(to: &manager, in: document)
        }
        XCTAssertEqual(try names(path), ["早晨的祈祷"])
    }

    func testAnIndexPastTheLastPageIsRefusedInStrictModeAndNothingIsWritten() throws {
        let path = try score(pages: 2)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var options = CSVIndex.Options()
        options.strict = true
        let index = BookmarkIndexImport(text: "Title,Start,End\nΑ,1,2\nΒ,3,9\n", source: "gr.csv", options: options)
        XCTAssertThrowsError(try BookmarkChain.update(ScoreFile(path), index: nil) { manager, document in
            try index.apply(to: &manager, in: document)
        }) { error in
            XCTAssertEqual((error as? any Failure)?.kind, .invalidValue)
            XCTAssertTrue("\(error)".contains("gr.csv"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testColumnChoices() throws {
        let mapping = try BookmarkIndexImport.mapping(["title=2", "START=Seite", "end=Bis=Ende"])
        XCTAssertEqual(mapping[.title], .position(2))
        XCTAssertEqual(mapping[.start], .name("Seite"))
        XCTAssertEqual(mapping[.end], .name("Bis=Ende"))
        for bad in ["tempo=1", "title", "title=", "=3", ""] {
            XCTAssertThrowsError(try BookmarkIndexImport.mapping([bad]), bad) { error in
                XCTAssertEqual((error as? any Failure)?.kind, .invalidValue)
            }
        }
    }
}
