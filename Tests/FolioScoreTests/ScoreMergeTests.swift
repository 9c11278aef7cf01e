import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// Merging at its own layer: pages in order, an outline entry and a page-range bookmark per
/// piece titled as asked (or from its file name), as pikepdf, qpdf and the bookmark chain read
/// the merged bytes.
final class ScoreMergeTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func score(_ name: String, pages: Int) throws -> PDFDocument {
        try PDFDocument(path: try TestPDF.pages(pages, named: name, in: folder))
    }

    func testPiecesInOrderWithTheirTitlesAndPages() throws {
        let merged = try ScoreMerge.merge([
            ScoreMerge.Piece(document: try score("Dvořák – Humoreska.pdf", pages: 2), name: "Dvořák – Humoreska.pdf"),
            ScoreMerge.Piece(document: try score("Σουίτα.pdf", pages: 5), name: "Σουίτα.pdf", pages: 1...3, title: "Συρτός"),
        ], title: "Koncert – Συναυλία")
        XCTAssertEqual(merged.pieces.map(\.title), ["Dvořák – Humoreska", "Συρτός"])
        XCTAssertEqual(merged.pieces.map { $0.start...$0.end }, [1...2, 3...5])
        let path = folder.appendingPathComponent("merged.pdf").path
        try Data(merged.bytes).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try TestEnvironment.runTool("qpdf", ["--check", path]).status, 0)
        let read = try TestEnvironment.python("""
            import sys, pikepdf
            with pikepdf.open(sys.argv[1]) as pdf:
                with pdf.open_outline() as outline:
                    titles = [(item.title, pikepdf.Page(item.destination[0]).index + 1) for item in outline.root]
                print(len(pdf.pages), titles, pdf.docinfo.get("/Title"))
            """, path)
        XCTAssertEqual(read, "5 [('Dvořák – Humoreska', 1), ('Συρτός', 3)] Koncert – Συναυλία")
        let (chain, _) = try BookmarkChain.read(ScoreFile(path), index: nil)
        XCTAssertEqual(chain.manager.bookmarks(in: .pageBased).map(\.pages), [1...2, 3...5])
    }

    func testNothingToMergeIsRefused() {
        XCTAssertThrowsError(try ScoreMerge.merge([])) { error in
            XCTAssertEqual((error as? any Failure)?.kind, .invalidValue, "\(error)")
        }
    }
}
