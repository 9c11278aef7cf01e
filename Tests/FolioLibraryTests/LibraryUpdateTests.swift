import FolioLibrary
import FolioPDF
import FolioScore
import Foundation
import XCTest

/// `LibraryScanner.update(path:)`: one file brought up to date without listing the folder,
/// ending where a full scan would.
final class LibraryUpdateTests: XCTestCase {
    private var folder: URL!
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-update-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Piano"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: samples.appendingPathComponent("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf"),
                                         to: folder.appendingPathComponent("Piano/Clair.pdf"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func retitle(_ relative: String, _ title: String) throws {
        var edit = ScoreEdit()
        edit.title = title
        try PDFSaver.update(path: folder.appendingPathComponent(relative).path) { _ = try ScoreWriter.write(edit, to: $0) }
    }

    func testOneFileIsUpdatedAddedAndRemovedAsAScanWould() throws {
        let catalog = try LibraryCatalog(folder: folder.path)
        let scanner = LibraryScanner(catalog: catalog)
        _ = try scanner.scan()
        let id = try XCTUnwrap(try catalog.show("Piano/Clair.pdf").first?.id)

        XCTAssertEqual(try scanner.update(path: "Piano/Clair.pdf").opened, 0, "unchanged: not opened")
        try retitle("Piano/Clair.pdf", "Clair de lune, revised")
        let changed = try scanner.update(path: "Piano/Clair.pdf")
        XCTAssertEqual(changed.updated, 1)
        XCTAssertEqual(try catalog.show("Piano/Clair.pdf").first?.title, "Clair de lune, revised")
        XCTAssertEqual(try catalog.show("Piano/Clair.pdf").first?.id, id, "the id is kept")

        try FileManager.default.copyItem(at: samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf"),
                                         to: folder.appendingPathComponent("Wiegenlied.pdf"))
        XCTAssertEqual(try scanner.update(path: "Wiegenlied.pdf").added, 1)
        XCTAssertEqual(try catalog.search(LibraryQuery()).count, 2)

        try FileManager.default.removeItem(at: folder.appendingPathComponent("Piano/Clair.pdf"))
        XCTAssertEqual(try scanner.update(path: "Piano/Clair.pdf").removed, 1)
        XCTAssertEqual(try catalog.search(LibraryQuery()).map(\.path), ["Wiegenlied.pdf"])
        // A full scan afterwards finds nothing left to do.
        let after = try scanner.scan()
        XCTAssertEqual([after.opened, after.added, after.removed, after.moved], [0, 0, 0, 0])
    }

    func testPathsAScanWouldNotCatalogueAreRefused() throws {
        let catalog = try LibraryCatalog(folder: folder.path)
        let scanner = LibraryScanner(catalog: catalog)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.pdf"),
                                                   withDestinationURL: samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf"))
        for path in ["", "/etc/passwd.pdf", "../outside.pdf", "Piano/../../x.pdf", ".folio/x.pdf", "Piano/.hidden.pdf",
                     "notes.txt", "Piano//Clair.pdf", "../\u{301}outside.pdf", "/\u{301}etc/x.pdf", "Piano/.\u{301}hidden.pdf"] {
            XCTAssertThrowsError(try scanner.update(path: path), path) { error in
                XCTAssertEqual((error as? LibraryError)?.code, .invalidArgument, path)
            }
        }
        for name in ["../\u{301}outside.pdf", "/\u{301}etc/x.pdf"] {
            XCTAssertThrowsError(try catalog.resolve(fileName: name), name) { error in
                XCTAssertEqual((error as? LibraryError)?.code, .invalidArgument, name)
            }
        }
        XCTAssertEqual(try scanner.update(path: "link.pdf").opened, 0, "a link is not followed")
        XCTAssertTrue(try catalog.search(LibraryQuery()).isEmpty)
    }
}
