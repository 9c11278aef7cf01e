@testable import FolioLibrary
import FolioPDF
import FolioScore
import Foundation
import XCTest

/// The answers kept for slow searches: each only at the catalog version it was computed at
/// (a write by any process makes it stale), by age and for room.
final class SearchCacheTests: XCTestCase {
    private func entry(_ title: String) -> LibraryEntry {
        LibraryEntry(id: 1, path: "\(title).pdf", title: title, metadata: ScoreMetadata(title: title), pages: 1, bookmark: nil)
    }

    func testAnswersAreKeptUntilTheCatalogChanges() {
        let cache = SearchCache(capacity: 2, lifetime: .seconds(60))
        cache.store([entry("a")], for: "a", version: 1)
        XCTAssertEqual(cache.entries(for: "a", version: 1)?.map(\.title), ["a"])
        XCTAssertNil(cache.entries(for: "b", version: 1))
        XCTAssertNil(cache.entries(for: "a", version: 2), "a newer catalog")
        XCTAssertNil(cache.entries(for: "a", version: 1), "dropped once a newer version was seen")
        // Computed at an older version, stored after a newer one was seen: never served at the newer one.
        cache.store([entry("stale")], for: "a", version: 1)
        XCTAssertNil(cache.entries(for: "a", version: 2))
        XCTAssertNil(cache.entries(for: "a", version: 1))
    }

    func testTheLeastRecentlyUsedAnswerMakesRoomAndOldOnesExpire() {
        let cache = SearchCache(capacity: 2, lifetime: .seconds(60))
        cache.store([entry("a")], for: "a", version: 0)
        cache.store([entry("b")], for: "b", version: 0)
        XCTAssertNotNil(cache.entries(for: "a", version: 0))   // b is now the least recently used
        cache.store([entry("c")], for: "c", version: 0)
        XCTAssertNil(cache.entries(for: "b", version: 0))
        XCTAssertNotNil(cache.entries(for: "a", version: 0))
        XCTAssertNotNil(cache.entries(for: "c", version: 0))
        let brief = SearchCache(capacity: 2, lifetime: .zero)
        brief.store([entry("a")], for: "a", version: 0)
        XCTAssertNil(brief.entries(for: "a", version: 0))
        XCTAssertFalse(SearchCache().worthKeeping(.microseconds(200)))
        XCTAssertTrue(SearchCache().worthKeeping(.milliseconds(50)))
    }

    /// Through the catalog: a kept answer is served again, and a rescan that changed a
    /// title drops it, so the search shows the new title at once.
    func testACatalogWriteShowsInTheNextSearch() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-search-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        let file = folder.appendingPathComponent("piece.pdf")
        try FileManager.default.copyItem(at: sample, to: file)
        var edit = ScoreEdit()
        edit.title = "Nocturne"
        try PDFSaver.update(path: file.path) { _ = try ScoreWriter.write(edit, to: $0) }
        let catalog = try LibraryCatalog(folder: folder.path)
        catalog.searches.keepEverything()
        let scanner = LibraryScanner(catalog: catalog)
        _ = try scanner.scan()
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "noct")).map(\.title), ["Nocturne"])
        let version = try catalog.storeRead(LibraryCatalog.catalogVersion(in:))
        XCTAssertNotNil(catalog.searches.entries(for: LibraryCatalog.searchKey(LibraryQuery(text: "noct")), version: version),
                        "the answer was kept")

        edit.title = "Nocturnal"
        try PDFSaver.update(path: file.path) { _ = try ScoreWriter.write(edit, to: $0) }
        _ = try scanner.scan()
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "noct")).map(\.title), ["Nocturnal"])
    }

    /// Another process's write (`folio library scan` beside a running server: here a second
    /// catalog on the same file) shows in the very next search of the first, not after the
    /// kept answer's lifetime.
    func testAWriteByAnotherProcessShowsInTheNextSearch() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-search-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try FileManager.default.copyItem(at: sample, to: folder.appendingPathComponent("Клер де люн.pdf"))
        let server = try LibraryCatalog(folder: folder.path)
        server.searches.keepEverything()
        _ = try LibraryScanner(catalog: server).scan()
        XCTAssertEqual(try server.search(LibraryQuery()).map(\.path), ["Клер де люн.pdf"])

        try FileManager.default.copyItem(at: sample, to: folder.appendingPathComponent("月の光.pdf"))
        let command = try LibraryCatalog(folder: folder.path, create: false)
        let summary = try LibraryScanner(catalog: command).scan()
        XCTAssertEqual(summary.added, 1)
        XCTAssertEqual(try server.search(LibraryQuery()).map(\.path).sorted(), ["Клер де люн.pdf", "月の光.pdf"])
    }
}
