@testable import FolioLibrary
import FolioPDF
import FolioScore
import Foundation
import XCTest

/// The one edit path (issue 52): a change is checked against its version under the file's
/// lock, saved, recorded in the catalog with who made it, and the catalog row updated at
/// once; undo outlives a reopening of the catalog (a server's restart) and refuses to undo
/// over another writer's change.
final class LibraryEditTests: XCTestCase {
    private var folder: URL!
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")
    private let score = "Dvořák – Rusalka.pdf"

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Opera"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf"),
                                         to: folder.appendingPathComponent("Opera/\(score)"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func rated(_ catalog: LibraryCatalog, _ rating: Int) throws -> [String] {
        var query = LibraryQuery()
        query.rating = try LibraryQuery.Comparison(parsing: "\(rating)", field: "rating", valid: ScoreMetadata.ratingRange)
        return try catalog.search(query).map(\.path)
    }

    private func setRating(_ rating: Int) -> (PDFDocument) throws -> Void {
        { document in
            var change = ScoreChange()
            change.edit.rating = rating
            _ = try change.apply(to: document)
        }
    }

    func testAnEditIsRecordedCataloguedAndUndoneAfterAReopening() throws {
        let relative = "Opera/\(score)"
        let path = folder.appendingPathComponent(relative).path
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        var catalog: LibraryCatalog? = try LibraryCatalog(folder: folder.path)
        _ = try LibraryScanner(catalog: try XCTUnwrap(catalog)).scan()
        let start = try XCTUnwrap(FileVersion.tag(of: path))

        // A stale version is refused under the lock, nothing written.
        XCTAssertThrowsError(try catalog?.edit(score: relative, expected: "\"1-2\"", change: "x", setRating(3))) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .conflict)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)

        let first = try XCTUnwrap(catalog).edit(score: relative, expected: start, change: "Hodnocení 3 – 評価", author: "Jana Nováková",
                                               setRating(3))
        XCTAssertEqual(first.version, FileVersion.tag(of: path))
        XCTAssertEqual(try rated(try XCTUnwrap(catalog), 3), [relative], "the catalog row is current without a scan")
        let second = try XCTUnwrap(catalog).edit(score: relative, expected: first.version, change: "Rating 5", author: "Петр", setRating(5))
        XCTAssertEqual(try rated(try XCTUnwrap(catalog), 5), [relative])
        // Nothing changed: nothing recorded.
        _ = try XCTUnwrap(catalog).edit(score: relative, expected: second.version, change: "nothing") { _ in }
        XCTAssertEqual(try catalog?.changes(score: relative).map(\.change), ["Rating 5", "Hodnocení 3 – 評価"])
        XCTAssertEqual(try catalog?.changes(score: relative).map(\.author), ["Петр", "Jana Nováková"])

        // The server restarts: the record is the catalog's.
        catalog = nil
        let reopened = try LibraryCatalog(folder: folder.path)
        XCTAssertEqual(try reopened.lastChange(score: relative)?.change, "Rating 5")
        XCTAssertThrowsError(try reopened.undo(score: relative, expected: first.version)) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .conflict, "an undo made against an old version")
        }
        let undone = try reopened.undo(score: relative, expected: second.version)
        XCTAssertEqual(undone.change, "Rating 5")
        XCTAssertEqual(try rated(reopened, 3), [relative])
        XCTAssertEqual(try reopened.lastChange(score: relative)?.change, "Hodnocení 3 – 評価", "the change before is undoable now")
        _ = try reopened.undo(score: relative, expected: nil)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "two undos give the file back byte for byte")
        XCTAssertEqual(try rated(reopened, 3), [])
        XCTAssertThrowsError(try reopened.undo(score: relative, expected: nil)) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .conflict, "nothing to undo")
        }
        // qpdf finds the file sound after the edits and undos.
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
        check.arguments = ["--check", path]
        check.standardOutput = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        XCTAssertEqual(check.terminationStatus, 0)
    }

    func testAnotherWritersChangeIsNeverUndoneOver() throws {
        let relative = "Opera/\(score)"
        let path = folder.appendingPathComponent(relative).path
        let catalog = try LibraryCatalog(folder: folder.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        _ = try catalog.edit(score: relative, expected: nil, change: "Rating 4", setRating(4))
        // Another program appends its own update.
        try PDFSaver.update(path: path) { document in try document.setInfo("Title", to: "Rusalka – Мěsíčku") }
        XCTAssertNil(try catalog.lastChange(score: relative))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try catalog.undo(score: relative, expected: nil)) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .conflict)
            XCTAssertTrue("\(error)".contains("Rating 4"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        // The record is bounded per score.
        for rating in 0..<(LibraryCatalog.undoDepth + 5) {
            _ = try catalog.edit(score: relative, expected: nil, change: "Rating \(rating % 6)", setRating(rating % 6))
        }
        XCTAssertEqual(try catalog.changes(score: relative).count, LibraryCatalog.undoDepth)
    }

    func testTheLocatorFindsTheLibraryAboveAFileAndOnlyCataloguedFiles() throws {
        let catalog = try LibraryCatalog(folder: folder.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        var locator = CatalogLocator()
        let found = try XCTUnwrap(locator.catalog(for: folder.appendingPathComponent("Opera/\(score)").path))
        XCTAssertEqual(found.1, "Opera/\(score)")
        XCTAssertEqual(found.0.folder, catalog.folder)
        let stray = folder.appendingPathComponent("Opera/Nový.pdf").path
        try FileManager.default.copyItem(atPath: folder.appendingPathComponent("Opera/\(score)").path, toPath: stray)
        XCTAssertNil(locator.catalog(for: stray), "not catalogued yet")
        XCTAssertNil(locator.catalog(for: FileManager.default.temporaryDirectory.appendingPathComponent("nowhere.pdf").path))
    }
}
