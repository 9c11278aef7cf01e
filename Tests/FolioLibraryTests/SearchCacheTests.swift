@testable import FolioLibrary
import FolioPDF
import FolioScore
import Foundation
import XCTest

/// The answers kept for slow searches: dropped by every write, by age and for room, and
/// never kept when the catalog changed while they were computed.
final class SearchCacheTests: XCTestCase {
    private func entry(_ title: String) -> LibraryEntry {
        LibraryEntry(id: 1, path: "\(title).pdf", title: title, metadata: ScoreMetadata(title: title), pages: 1, bookmark: nil)
    }

    func testAnswersAreKeptUntilTheCatalogChanges() {
        let cache = SearchCache(capacity: 2, lifetime: .seconds(60))
        cache.store([entry("a")], for: "a", generation: cache.generation)
        XCTAssertEqual(cache.entries(for: "a")?.map(\.title), ["a"])
        XCTAssertNil(cache.entries(for: "b"))
        cache.invalidate()
        XCTAssertNil(cache.entries(for: "a"))
        // Computed before a write, stored after it: not kept.
        let before = cache.generation
        cache.invalidate()
        cache.store([entry("stale")], for: "a", generation: before)
        XCTAssertNil(cache.entries(for: "a"))
    }

    func testTheLeastRecentlyUsedAnswerMakesRoomAndOldOnesExpire() {
        let cache = SearchCache(capacity: 2, lifetime: .seconds(60))
        cache.store([entry("a")], for: "a", generation: cache.generation)
        cache.store([entry("b")], for: "b", generation: cache.generation)
        XCTAssertNotNil(cache.entries(for: "a"))   // b is now the least recently used
        cache.store([entry("c")], for: "c", generation: cache.generation)
        XCTAssertNil(cache.entries(for: "b"))
        XCTAssertNotNil(cache.entries(for: "a"))
        XCTAssertNotNil(cache.entries(for: "c"))
        let brief = SearchCache(capacity: 2, lifetime: .zero)
        brief.store([entry("a")], for: "a", generation: brief.generation)
        XCTAssertNil(brief.entries(for: "a"))
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
        XCTAssertNotNil(catalog.searches.entries(for: LibraryCatalog.searchKey(LibraryQuery(text: "noct"))), "the answer was kept")

        edit.title = "Nocturnal"
        try PDFSaver.update(path: file.path) { _ = try ScoreWriter.write(edit, to: $0) }
        _ = try scanner.scan()
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "noct")).map(\.title), ["Nocturnal"])
    }
}
