@testable import FolioLibrary
import FolioScore
import Foundation
import GRDB
import XCTest

/// Search as readers type: ё as е (й a letter of its own), ß, å, ä, ö, ü, ø and æ written out or
/// not, folder names, list filters by word, and bookmarks under their book, inheriting a
/// composer only from a book of one. Entries are stored as a scan stores them
/// (`LibraryCatalog.store`), so what is indexed is what a scan indexes.
class SearchSpellingTests: XCTestCase {
    var folder: URL!
    var catalog: LibraryCatalog!

    /// The catalog the tests run on (SearchSpellingPostgresTests: one kept in PostgreSQL).
    func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path)
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-spelling-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        catalog = try makeCatalog()
        store("Прокофьев/Петя и волк.pdf", title: "Пётр и волк", composers: ["Сергей Прокофьев"])
        store("Чайковский/Времена года.pdf", title: "Времена года", composers: ["Пётр Ильич Чайковский"],
              bookmarks: [("Январь", []), ("Февраль", [])])
        store("Grieg/Peer Gynt.pdf", title: "Peer Gynt – Åses død", composers: ["Edvard Grieg"])
        store("Wien/Donau.pdf", title: "Straße nach Wien", composers: ["Johann Strauss"])
        store("Wien/Fledermaus.pdf", title: "Die Fledermaus", composers: ["Johann Strauss II"])
        store("Barock/Messiah.pdf", title: "Messiah", composers: ["Georg Friedrich Händel"])
        store("Real Book/Autumn Leaves.pdf", title: "Autumn Leaves", composers: ["Joseph Kosma"], bookmarks: [("Intro", [])])
        store("Klavír/Nokturna.pdf", title: "Nokturna", composers: ["Frédéric Chopin"])
        store("Klavír/Carnaval.pdf", title: "Le carnaval des animaux", composers: ["Camille Saint-Saëns"])
        // An anthology of two composers, and a book of one, each with pieces of no composer of their own.
        store("Antologie/Duets.pdf", title: "Duets", composers: ["Antonín Dvořák", "Bedřich Smetana"],
              bookmarks: [("Largo", []), ("Polka", [])])
        store("Dvořák/Slovanské tance.pdf", title: "Slovanské tance", composers: ["Antonín Dvořák"],
              bookmarks: [("Tanec 1", []), ("Tanec 2", [])])
        store("Dvořák/Rusalka.pdf", title: "Rusalka", composers: ["Antonín Dvořák"])
    }

    override func tearDownWithError() throws {
        catalog = nil
        try? FileManager.default.removeItem(at: folder)
    }

    private func store(_ path: String, title: String, composers: [String], bookmarks: [(String, [String])] = []) {
        let marks = bookmarks.enumerated().map { index, mark in
            ScoreRecord.BookmarkEntry(title: mark.0, start: index + 1, end: index + 1, source: "toc",
                                      metadata: ScoreMetadata(composers: mark.1))
        }
        let record = ScoreRecord(stamp: FileStamp(path: path, size: 1, modified: 1), pageCount: 4, version: "1.7", encrypted: false,
                                 metadata: ScoreMetadata(title: title, composers: composers), bookmarks: marks,
                                 annotations: [:], warnings: [], error: nil)
        XCTAssertNoThrow(try catalog.storeWrite { try LibraryCatalog.store(record, id: nil, in: $0) })
    }

    /// The titles a text search finds (bookmarks as "Book › Piece"), best first.
    func found(_ text: String, bookmarks: Bool = false) throws -> [String] {
        try catalog.search(LibraryQuery(text: text, includeBookmarks: bookmarks)).map { entry in
            entry.bookmark.map { "\(ScoreMetadata.title(forFile: entry.path)) › \($0.title)" } ?? entry.title
        }
    }

    private func composed(_ composer: String) throws -> [String] {
        var query = LibraryQuery()
        query.composers = [composer]
        query.sort = .title
        return try catalog.search(query).map(\.title)
    }

    func testЁIsReadAsЕAndЙStaysALetter() throws {
        // The title's Пётр, and the composer's of the other.
        let petr: Set = ["Пётр и волк", "Времена года"]
        XCTAssertEqual(Set(try found("петр")), petr)
        XCTAssertEqual(Set(try found("пётр")), petr)
        XCTAssertEqual(Set(try found("ПЁТР".decomposedStringWithCanonicalMapping)), petr, "ё typed decomposed")
        XCTAssertEqual(try found("петр волк"), ["Пётр и волк"])
        XCTAssertEqual(try found("чайковск"), ["Времена года"])
        XCTAssertEqual(try found("чаиковск"), [], "й is not и")
        XCTAssertEqual(LibraryQuery.fold("Пётр Ильич Чайковский"), "петр ильич чайковский")
        XCTAssertEqual(try composed("пётр ильич чайковский"), ["Времена года"])
        XCTAssertEqual(try composed("Петр Ильич Чайковский"), ["Времена года"])
        XCTAssertEqual(try composed("Петр Ильич Чаиковскии"), [])
    }

    func testLettersPeopleWriteOutFindTheirWordsEitherWay() throws {
        for typed in ["åse", "ase", "aase", "Åses død", "aases doed"] {
            XCTAssertEqual(try found(typed), ["Peer Gynt – Åses død"], typed)
        }
        for typed in ["straße", "strasse", "STRASSE"] { XCTAssertEqual(try found(typed), ["Straße nach Wien"], typed) }
        for typed in ["händel", "handel", "haendel"] { XCTAssertEqual(try found(typed), ["Messiah"], typed) }
        XCTAssertEqual(SearchText.alternates("Peer Gynt – Åses død, Straße"), ["aases", "doed", "strasse"])
        XCTAssertEqual(SearchText.alternates("Autumn Leaves"), [])
    }

    func testAScoreIsFoundByItsFoldersName() throws {
        XCTAssertEqual(try found("real book"), ["Autumn Leaves"])
        XCTAssertEqual(Set(try found("klavír")), ["Le carnaval des animaux", "Nokturna"])
        XCTAssertEqual(Set(try found("klavir")), ["Le carnaval des animaux", "Nokturna"])
        // A bookmark is not found by its book's folder: the book is.
        XCTAssertEqual(try found("real book", bookmarks: true), ["Autumn Leaves"])
        XCTAssertEqual(try found("intro", bookmarks: true), ["Autumn Leaves › Intro"])
        XCTAssertEqual(SearchText.names(ofPath: "Real Book/Vol_1/Autumn_Leaves.pdf"), ["Real Book", "Vol_1", "Autumn Leaves"])
    }

    func testListFiltersTakeAWholeValueOrItsWords() throws {
        XCTAssertEqual(try composed("chopin"), ["Nokturna"])
        XCTAssertEqual(try composed("FRÉDÉRIC"), ["Nokturna"])
        XCTAssertEqual(try composed("saens"), ["Le carnaval des animaux"])
        XCTAssertEqual(try composed("Johann Strauss"), ["Straße nach Wien"], "a whole value finds those carrying it, as its facet counts")
        XCTAssertEqual(try composed("strauss"), ["Die Fledermaus", "Straße nach Wien"])
        XCTAssertEqual(try composed("strauss ii"), ["Die Fledermaus"])
        XCTAssertEqual(try composed("bach"), [])
        XCTAssertEqual(try composed(" – "), [], "no word finds nothing")
        XCTAssertTrue(FacetMatch.matches(folded: "johann sebastian bach", wanted: "bach j"))
        XCTAssertFalse(FacetMatch.matches(folded: "johann sebastian bach", wanted: "ach"))
    }

    func testBookmarksStandUnderTheirBookAndInheritOnlyABooksOneComposer() throws {
        let dvorak = try found("dvorak", bookmarks: true)
        // The anthology's pieces have no composer of their own and inherit none of its two.
        XCTAssertFalse(dvorak.contains { $0.hasPrefix("Duets ›") }, "\(dvorak)")
        XCTAssertTrue(dvorak.contains("Duets"), "\(dvorak)")
        // The one-composer book's pieces inherit Dvořák, and follow their book.
        let book = try XCTUnwrap(dvorak.firstIndex(of: "Slovanské tance"), "\(dvorak)")
        XCTAssertEqual(Array(dvorak[book...].prefix(3)), ["Slovanské tance", "Slovanské tance › Tanec 1", "Slovanské tance › Tanec 2"])
        XCTAssertEqual(Set(dvorak), ["Duets", "Slovanské tance", "Slovanské tance › Tanec 1", "Slovanské tance › Tanec 2", "Rusalka"])
        // Grouped the same with a page of results (ranked apart): the page is the head of the whole answer.
        var query = LibraryQuery(text: "dvorak", includeBookmarks: true)
        let everything = try catalog.search(query)
        for limit in 1...5 {
            query.limit = limit
            XCTAssertEqual(try catalog.search(query), Array(everything.prefix(limit)), "limit \(limit)")
        }
        // Pieces that match by their own title, under a book that does not match, stay together.
        XCTAssertEqual(try found("tanec", bookmarks: true), ["Slovanské tance › Tanec 1", "Slovanské tance › Tanec 2"])
        XCTAssertEqual(try found("polka", bookmarks: true), ["Duets › Polka"])
    }

    func testACatalogStoredBeforeTheseRulesIsIndexedAgain() throws {
        let before = try found("petr") + (try found("strasse")) + (try found("real book"))
        try catalog.write { db in
            try db.execute(sql: "DELETE FROM entry_text")
            try SearchText.rebuild(in: SQLiteStatements(db: db))
        }
        XCTAssertEqual(try found("petr") + (try found("strasse")) + (try found("real book")), before)
        XCTAssertEqual(try found("петр волк"), ["Пётр и волк"])
    }
}
