@testable import FolioLibrary
import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// The one edit path (issue 52): a change is checked against its version under the file's
/// lock, saved, recorded in the catalog with who made it, and the catalog row updated at
/// once; undo outlives a reopening of the catalog (a server's restart) and refuses to undo
/// over another writer's change.
class LibraryEditTests: XCTestCase {
    var folder: URL!

    /// The catalog the tests run on (LibraryEditPostgresTests: one kept in PostgreSQL).
    func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path)
    }
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")
    private let score = "Dvořák – Rusalka.pdf"

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Opera"), withIntermediateDirectories: true)
        try TestEnvironment.copy(at: Self.samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf"),
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
        var catalog: LibraryCatalog? = try makeCatalog()
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
        let reopened = try makeCatalog()
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
        let catalog = try makeCatalog()
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

    private func addMark(_ text: String) -> (PDFDocument) throws -> Void {
        { document in
            var draft = PDFAnnotationDraft(kind: .square)
            draft.rect = PDFRect(x1: 60, y1: 60, x2: 140, y2: 90)
            draft.contents = text
            try document.addAnnotation(draft, toPage: 0)
        }
    }

    private func marks(_ path: String) throws -> [String] {
        try PDFDocument(path: path).annotations(onPage: 0).compactMap(\.contents).sorted()
    }

    /// Issue 56: the librarian takes back one member's earlier change; the changes after it stay.
    func testAnEarlierChangeIsTakenBackKeepingTheLaterOnesAndOnlyByWhoMay() throws {
        let relative = "Opera/\(score)"
        let path = folder.appendingPathComponent(relative).path
        let catalog = try makeCatalog()
        _ = try LibraryScanner(catalog: catalog).scan()
        let boris = try catalog.addMember(MemberSetting(name: "Борис", role: .player, instrument: "Viola")).member
        let anna = try catalog.addMember(MemberSetting(name: "Anna Nováková", role: .player, instrument: "Violin II")).member
        _ = try catalog.edit(score: relative, expected: nil, change: "Added a rectangle", author: "Anna Nováková", addMark("A – smyčec"))
        _ = try catalog.edit(score: relative, expected: nil, change: "Rating 4", author: "Jana", setRating(4))
        _ = try catalog.edit(score: relative, expected: nil, change: "Added a rectangle", author: "Борис", addMark("B – альт"))
        let annas = try XCTUnwrap(try catalog.changes(score: relative).last)
        XCTAssertEqual(annas.author, "Anna Nováková")

        // Another player may not; the file is untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try MemberContext.$current.withValue(boris) { try catalog.takeBack(score: relative, change: annas.id, expected: nil) }) {
            XCTAssertEqual(($0 as? LibraryError)?.code, .forbidden)
        }
        XCTAssertThrowsError(try catalog.takeBack(score: relative, change: annas.id, expected: "\"1-2\"")) {
            XCTAssertEqual(($0 as? LibraryError)?.code, .conflict, "a stale version")
        }
        XCTAssertThrowsError(try catalog.takeBack(score: relative, change: 987_654_321, expected: nil)) {
            XCTAssertEqual(($0 as? LibraryError)?.code, .notFound)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)

        // Anna herself may: her mark goes, Boris's mark and Jana's rating stay.
        let taken = try MemberContext.$current.withValue(anna) { try catalog.takeBack(score: relative, change: annas.id, expected: nil) }
        XCTAssertEqual(taken.change, "Added a rectangle")
        XCTAssertEqual(taken.version, FileVersion.tag(of: path))
        XCTAssertEqual(try marks(path), ["B – альт"])
        XCTAssertEqual(try rated(catalog, 4), [relative])
        XCTAssertEqual(try catalog.changes(score: relative).first?.change, "Took back “Added a rectangle” (Anna Nováková)")
        XCTAssertEqual(try catalog.changes(score: relative).first?.author, "Anna Nováková")
        // Twice: refused, nothing written.
        let once = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try catalog.takeBack(score: relative, change: annas.id, expected: nil)) {
            XCTAssertEqual(($0 as? LibraryError)?.code, .conflict)
            XCTAssertTrue("\($0)".contains("already"), "\($0)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), once)
        // Jana's rating, two changes back, goes too; Boris's mark stays.
        let janas = try XCTUnwrap(try catalog.changes(score: relative).first { $0.author == "Jana" })
        _ = try catalog.takeBack(score: relative, change: janas.id, expected: nil)
        XCTAssertEqual(try rated(catalog, 4), [])
        XCTAssertEqual(try marks(path), ["B – альт"])
        // The taking back is a change like any other: Undo gives the rating back.
        XCTAssertEqual(try catalog.undo(score: relative, expected: nil).change, "Took back “Rating 4” (Jana)")
        XCTAssertEqual(try rated(catalog, 4), [relative])
        let check = try TestEnvironment.runTool("qpdf", ["--check", path])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))
    }

    func testAChangeALaterOneBuiltOnIsNotTakenBack() throws {
        let relative = "Opera/\(score)"
        let path = folder.appendingPathComponent(relative).path
        let catalog = try makeCatalog()
        _ = try LibraryScanner(catalog: catalog).scan()
        _ = try catalog.edit(score: relative, expected: nil, change: "Rating 3", author: "Jana", setRating(3))
        _ = try catalog.edit(score: relative, expected: nil, change: "Rating 5", author: "Петр", setRating(5))
        let first = try XCTUnwrap(try catalog.changes(score: relative).last)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try catalog.takeBack(score: relative, change: first.id, expected: nil)) { error in
            XCTAssertEqual((error as? LibraryError)?.code, .conflict)
            XCTAssertTrue("\(error)".contains("later change"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(try rated(catalog, 5), [relative])
    }

    func testTheLocatorFindsTheLibraryAboveAFileAndOnlyCataloguedFiles() throws {
        let catalog = try makeCatalog()
        _ = try LibraryScanner(catalog: catalog).scan()
        var locator = CatalogLocator()
        let found = try XCTUnwrap(locator.catalog(for: folder.appendingPathComponent("Opera/\(score)").path))
        XCTAssertEqual(found.1, "Opera/\(score)")
        XCTAssertEqual(found.0.folder, catalog.folder)
        let stray = folder.appendingPathComponent("Opera/Nový.pdf").path
        try TestEnvironment.copy(atPath: folder.appendingPathComponent("Opera/\(score)").path, toPath: stray)
        XCTAssertNil(locator.catalog(for: stray), "not catalogued yet")
        XCTAssertNil(locator.catalog(for: FileManager.default.temporaryDirectory.appendingPathComponent("nowhere.pdf").path))
    }
}
