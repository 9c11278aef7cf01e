@testable import FolioLibrary
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// The corpus scanned into a catalog in SQLite and into one in PostgreSQL gives the same
/// catalog: the same scan summaries, scores, bookmarks, facets and unreadable files, and the
/// same answers in the same order to searches drawn from the corpus's own words (every script
/// it has), with and without bookmarks, paged, sorted and filtered; again after files are
/// changed, moved and removed.
final class CatalogParityPostgresTests: XCTestCase {
    private var root: URL!
    private let postgres = PostgresTestCatalog()

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        postgres.close()
        try? FileManager.default.removeItem(at: root)
    }

    func testTheCorpusGivesTheSameCatalogAndSearchesInBoth() throws {
        let corpus = try TestEnvironment.corpus
        var generator = SeededGenerator(#function)
        let folder = root.appendingPathComponent("Noty")
        // Every corpus PDF, in folders named in several scripts (folder names are searched too).
        let shelves = ["Dvořák", "Чайковский", "日本の歌", "Ελληνικά", "Real Book", ""]
        for (index, relative) in try TestEnvironment.corpusPDFs().enumerated() {
            let shelf = shelves[index % shelves.count]
            let name = "\(index) " + (relative as NSString).lastPathComponent
            let target = shelf.isEmpty ? folder.appendingPathComponent(name) : folder.appendingPathComponent(shelf).appendingPathComponent(name)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try TestEnvironment.copy(at: corpus.appendingPathComponent(relative), to: target)
        }
        let sqlite = try LibraryCatalog(folder: folder.path, databasePath: root.appendingPathComponent("sqlite.sqlite").path)
        let shared = try postgres.shared(prefix: "soubor")
        let pg = try LibraryCatalog(folder: folder.path, databasePath: root.appendingPathComponent("rest.sqlite").path, shared: shared)

        func scanBoth(_ label: String) throws {
            var started = ContinuousClock.now
            let first = try LibraryScanner(catalog: sqlite).scan()
            let sqliteTime = started.duration(to: .now)
            started = .now
            let second = try LibraryScanner(catalog: pg).scan()
            print("\(label): SQLite \(sqliteTime), PostgreSQL \(started.duration(to: .now)) for \(first.opened) files read")
            XCTAssertEqual(first, second, label)
        }
        try scanBoth("first scan")
        let (scores, bookmarks) = try sqlite.counts()
        XCTAssertGreaterThan(scores, 500)
        XCTAssertGreaterThan(bookmarks, 500)
        try compare(sqlite, pg, generator: &generator, label: "first scan")

        // Changed (read again), moved (the same id), removed.
        let files = try sqlite.search(LibraryQuery()).map(\.path).sorted()
        for path in files.prefix(3) { try FileManager.default.removeItem(at: folder.appendingPathComponent(path)) }
        for path in files.dropFirst(3).prefix(3) {
            let moved = folder.appendingPathComponent("Přesunuto/" + (path as NSString).lastPathComponent)
            try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: folder.appendingPathComponent(path), to: moved)
        }
        for path in files.dropFirst(6).prefix(3) {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
                                                  ofItemAtPath: folder.appendingPathComponent(path).path)
        }
        try scanBoth("second scan")
        try compare(sqlite, pg, generator: &generator, label: "second scan")
    }

    private func compare(_ sqlite: LibraryCatalog, _ pg: LibraryCatalog, generator: inout SeededGenerator, label: String) throws {
        XCTAssertTrue(try sqlite.counts() == pg.counts(), label)
        XCTAssertEqual(try sqlite.facets(), try pg.facets(), label)
        XCTAssertEqual(try sqlite.unreadable().map { "\($0.path): \($0.error)" }, try pg.unreadable().map { "\($0.path): \($0.error)" }, label)
        let all = try sqlite.search(LibraryQuery(includeBookmarks: true))
        XCTAssertEqual(all, try pg.search(LibraryQuery(includeBookmarks: true)), label)
        let ids = Array(Set(all.map(\.id))).sorted()
        XCTAssertEqual(try sqlite.bookmarkCounts(of: ids), try pg.bookmarkCounts(of: ids), label)
        for entry in all where entry.bookmark == nil {
            XCTAssertEqual(try sqlite.show(entry.path), try pg.show(entry.path), entry.path)
            XCTAssertEqual(try sqlite.score(entry.id), try pg.score(entry.id), entry.path)
        }

        // The corpus's own words (titles, people, folders), whole and as the prefixes people type.
        var words = Set<String>()
        for entry in all {
            let text = ([entry.title, entry.path] + entry.metadata.composers + entry.metadata.genres + entry.metadata.tags).joined(separator: " ")
            for word in text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) where word.count >= 2 { words.insert(String(word)) }
        }
        let sorted = words.sorted()
        var queries = ["dvorak", "чайк", "петр", "日本", "ελλην", "real book", "sonata", "op", "no 1", "the", "a", "strasse",
                       "händel", "haendel", "ü", "1", "20", "allegro moderato", "score", "x"]
        for _ in 0..<60 {
            guard let word = sorted.randomElement(using: &generator) else { break }
            let length = Int.random(in: 1...max(1, word.count), using: &generator)
            var text = String(word.prefix(length))
            if Bool.random(using: &generator), let other = sorted.randomElement(using: &generator) { text += " " + other.prefix(3) }
            queries.append(text)
        }
        let facets = try sqlite.facets()
        var checked = 0
        for text in queries {
            for bookmarks in [false, true] {
                for (limit, sort) in [(nil, nil), (10, nil), (1_000, nil), (25, .title), (nil, .composer), (5, .added)] as [(Int?, LibraryQuery.Sort?)] {
                    var query = LibraryQuery(text: text, includeBookmarks: bookmarks)
                    query.limit = limit
                    query.sort = sort
                    XCTAssertEqual(try sqlite.search(query), try pg.search(query), "\(label): \(text) \(bookmarks) \(String(describing: limit)) \(String(describing: sort))")
                    checked += 1
                }
            }
        }
        // List filters: values whole and by a word of them, alone and with text.
        for facet in facets.shuffled(using: &generator).prefix(25) {
            let firstWord = FacetMatch.words(LibraryQuery.fold(facet.value)).first.map(String.init) ?? facet.value
            for value in [facet.value, firstWord, String(firstWord.prefix(2))] {
                var query = LibraryQuery(includeBookmarks: true)
                switch facet.field {
                case "composer": query.composers = [value]
                case "genre": query.genres = [value]
                case "tag": query.tags = [value]
                case "label": query.labels = [value]
                default: continue
                }
                XCTAssertEqual(try sqlite.search(query), try pg.search(query), "\(label): \(facet.field) \(value)")
                query.text = String(firstWord.prefix(1))
                query.limit = 20
                XCTAssertEqual(try sqlite.search(query), try pg.search(query), "\(label): \(facet.field) \(value) with text")
                checked += 2
            }
        }
        var ranged = LibraryQuery(includeBookmarks: false)
        ranged.pages = try LibraryQuery.Comparison(parsing: ">=3", field: "pages", valid: nil)
        ranged.sort = .duration
        XCTAssertEqual(try sqlite.search(ranged), try pg.search(ranged), label)
        print("\(label): \(checked) searches the same in both")
        XCTAssertGreaterThan(checked, 900)
    }
}
