import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// `PDFSaver.revert`: the undo of incremental saves — the file goes back to an earlier
/// revision byte for byte, and only to a revision's end; a refusal changes nothing.
final class RevertTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("score.pdf").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-revert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile(TestEnvironment.annotatedScore), toPath: path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testRevertGoesBackOneRevisionAtATime() throws {
        let original = try bytes()
        try PDFSaver.update(path: path) { try $0.setInfo("Title", to: "First") }
        let first = try bytes()
        try PDFSaver.update(path: path) { try $0.setInfo("Title", to: "Second") }
        try PDFSaver.revert(path: path, toLength: first.count)
        XCTAssertEqual(try bytes(), first)
        let title = try TestEnvironment.runTool("pdfinfo", [path])
        XCTAssertTrue(String(decoding: title.stdout, as: UTF8.self).contains("First"))
        try PDFSaver.revert(path: path, toLength: original.count)
        XCTAssertEqual(try bytes(), original)
        let check = try TestEnvironment.runTool("qpdf", ["--check", path])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout + check.stderr, as: UTF8.self))
    }

    /// A save and a revert report the file's size and modification time as they left it
    /// (taken under the lock), the same `stat` gives afterwards — what the server's
    /// version tags are made of.
    func testSavesAndRevertsReportTheFileTheyLeft() throws {
        let original = try bytes()
        let (title, report) = try PDFSaver.updateReporting(path: path) { document -> String in
            try document.setInfo("Title", to: "Rusalka — Měsíčku na nebi")
            return "set"
        }
        XCTAssertEqual(title, "set")
        let written = try XCTUnwrap(report.written)
        XCTAssertEqual(written, FileStatus(path: path))
        XCTAssertEqual(written.size, try bytes().count)
        XCTAssertGreaterThan(written.size, original.count)
        let reverted = try XCTUnwrap(try PDFSaver.revert(path: path, toLength: original.count))
        XCTAssertEqual(reverted, FileStatus(path: path))
        XCTAssertEqual(reverted.size, original.count)
    }

    func testRevertIsRefusedAwayFromARevisionsEndOrWhenTheCheckSaysSo() throws {
        try PDFSaver.update(path: path) { try $0.setInfo("Title", to: "Edited") }
        let edited = try bytes()
        XCTAssertThrowsError(try PDFSaver.revert(path: path, toLength: 700)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .invalidArgument)
            XCTAssertTrue("\(error)".contains("do not end a revision"), "\(error)")
        }
        XCTAssertThrowsError(try PDFSaver.revert(path: path, toLength: edited.count + 10))
        struct Changed: Error {}
        XCTAssertThrowsError(try PDFSaver.revert(path: path, toLength: edited.count - 1) { throw Changed() }) { error in
            XCTAssertTrue(error is Changed)
        }
        XCTAssertEqual(try bytes(), edited, "refusals leave the file as it was")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["score.pdf"], "no leftovers")
    }
}
