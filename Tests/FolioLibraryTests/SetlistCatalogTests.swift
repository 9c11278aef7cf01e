import FolioLibrary
import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// Setlists in the catalog: positions stay dense through adds, moves and removes; a file
/// moved outside Folio stays in its setlists; a deleted one leaves a placeholder.
class SetlistCatalogTests: XCTestCase {
    var folder: URL!

    /// The catalog the tests run on (SetlistCatalogPostgresTests: one kept in PostgreSQL).
    func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path)
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-setlists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("a"), withIntermediateDirectories: true)
        let scores = try SharedCorpus.folder().appendingPathComponent("scores")
        for name in ["Brahms-Cancion_de_Cuna.pdf", "Chopin-Prelude_Op_28_No_15.pdf", "Clementi-Sonatina_O_36.pdf"] {
            try TestEnvironment.copy(at: scores.appendingPathComponent(name), to: folder.appendingPathComponent("a/" + name))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testPositionsMovesAndFiles() throws {
        let catalog = try makeCatalog()
        _ = try LibraryScanner(catalog: catalog).scan()
        try catalog.createSetlist("Gig")
        let titles = { try catalog.setlist(named: "Gig").entries.map(\.title) }
        try catalog.addToSetlist("Gig", .score(path: "a/Brahms-Cancion_de_Cuna.pdf"))
        try catalog.addToSetlist("Gig", .score(path: "Chopin-Prelude_Op_28_No_15.pdf"))   // a unique file name
        try catalog.addToSetlist("Gig", .placeholder(title: "Encore"), at: 1)
        try catalog.addToSetlist("Gig", .score(path: "a/Clementi-Sonatina_O_36.pdf"), at: 2)
        let start = try titles()
        XCTAssertEqual(start.count, 4)
        XCTAssertEqual(start.first, "Encore")
        try catalog.moveInSetlist("Gig", from: 1, to: 4)
        XCTAssertEqual(try titles(), Array(start.dropFirst()) + ["Encore"])
        try catalog.moveInSetlist("Gig", from: 3, to: 1)
        XCTAssertEqual(try titles(), [start[3], start[1], start[2], "Encore"])
        XCTAssertEqual(try catalog.removeFromSetlist("Gig", at: 2), start[1])
        XCTAssertEqual(try titles(), [start[3], start[2], "Encore"])
        XCTAssertThrowsError(try catalog.moveInSetlist("Gig", from: 0, to: 1))
        XCTAssertThrowsError(try catalog.addToSetlist("Gig", .score(path: "../etc/passwd")))
        XCTAssertThrowsError(try catalog.addToSetlist("Nope", .placeholder(title: "x")))

        // Moved outside Folio: the entry follows; deleted: a placeholder keeps the title.
        try FileManager.default.moveItem(at: folder.appendingPathComponent("a/Brahms-Cancion_de_Cuna.pdf"),
                                         to: folder.appendingPathComponent("Wiegenlied.pdf"))
        _ = try LibraryScanner(catalog: catalog).scan()
        var entries = try catalog.setlist(named: "Gig").entries
        XCTAssertEqual(entries[1].path, "Wiegenlied.pdf")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Wiegenlied.pdf"))
        _ = try LibraryScanner(catalog: catalog).scan()
        entries = try catalog.setlist(named: "Gig").entries
        XCTAssertEqual(entries[1].kind, .placeholder)
        XCTAssertEqual(entries[1].title, start[2])

        try catalog.renameSetlist("Gig", to: "Friday", folder: "Gigs")
        XCTAssertEqual(try catalog.setlists().map { "\($0.folder ?? "")/\($0.name):\($0.count)" }, ["Gigs/Friday:3"])
        try catalog.deleteSetlist("Friday")
        XCTAssertEqual(try catalog.setlists().count, 0)
    }
}
