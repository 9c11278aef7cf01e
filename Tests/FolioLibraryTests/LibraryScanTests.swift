@testable import FolioLibrary
import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A library of corpus copies in nested folders (accented names, a damaged and an
/// encrypted file): scanned, changed on disk, rescanned; searched and filtered, with the
/// expected answers computed straightforwardly here (diacritics folded by Python's
/// unicodedata).
final class LibraryScanTests: XCTestCase {
    private var folder: URL!

    /// Title, composers, genres, tags, rating, duration written into copies of the scores.
    static let catalogue: [(file: String, title: String, composers: [String], genres: [String], tags: [String],
                            rating: Int?, duration: Int?)] = [
        ("Romantik/Brahms/Wiegenlied.pdf", "Canción de cuna", ["Johannes Brahms"], ["Lied"], ["Wiegenlied"], 5, 120),
        ("Romantik/Dvořák/Humoreske.pdf", "Humoreske", ["Antonín Dvořák"], ["Klavier"], ["Encore"], 4, 200),
        ("Romantik/Dvořák/Rusalka.pdf", "Měsíčku na nebi hlubokém", ["Antonín Dvořák"], ["Oper", "Lied"], [], 3, 360),
        ("Barock/Bach – Partita.pdf", "Partita in a minor", ["Johann Sebastian Bach"], ["Flöte"], ["Solo"], nil, 900),
        ("Impressionismus/Clair de Lune.pdf", "Clair de lune", ["Claude Debussy"], ["Klavier"], ["Encore"], 5, 300),
        ("Fauré – Après un rêve.pdf", "Après un rêve", ["Gabriel Fauré"], ["Lied", "Klavier"], [], 4, 180),
    ]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-library-\(UUID().uuidString)")
        let scores = try FileManager.default.contentsOfDirectory(atPath: try SharedCorpus.folder().appendingPathComponent("scores").path)
            .filter { $0.hasSuffix(".pdf") }.sorted()
        XCTAssertGreaterThanOrEqual(scores.count, Self.catalogue.count)
        for (index, item) in Self.catalogue.enumerated() {
            let target = folder.appendingPathComponent(item.file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try TestEnvironment.copy(at: try SharedCorpus.folder().appendingPathComponent("scores/\(scores[index])"), to: target)
            var edit = ScoreEdit()
            edit.title = item.title
            edit.composers = item.composers
            edit.genres = item.genres
            edit.tags = item.tags
            edit.rating = item.rating
            edit.duration = item.duration
            try PDFSaver.update(path: target.path) { _ = try ScoreWriter.write(edit, to: $0) }
        }
        // Unreadable files are catalogued with their error, not skipped.
        try Data("%PDF-1.7\nthis is not a PDF at all\n".utf8).write(to: folder.appendingPathComponent("damaged.pdf"))
        try TestEnvironment.copy(
            at: try SharedCorpus.folder().appendingPathComponent("pypdf/encryption/r4-aes-user-password.pdf"),
            to: folder.appendingPathComponent("Barock/locked.pdf"))
        // Not catalogued: hidden files, other extensions, links out of the folder.
        try Data("x".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data("%PDF".utf8).write(to: folder.appendingPathComponent(".hidden.pdf"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("outside"),
                                                   withDestinationURL: try SharedCorpus.folder().appendingPathComponent("scores"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// "Sborník.pdf": a copy of the Dvořák titled `title`, with `bookmarks` all on its first page.
    private func book(titled title: String, bookmarks: [String]) throws -> URL {
        let book = folder.appendingPathComponent("Sborník.pdf")
        try TestEnvironment.copy(at: folder.appendingPathComponent(Self.catalogue[2].file), to: book)
        try PDFSaver.update(path: book.path) { document in
            var edit = ScoreEdit()
            edit.title = title
            _ = try ScoreWriter.write(edit, to: document)
            try document.setOutline(bookmarks.map { PDFOutlineItem(title: $0, target: .page(index: 0)) })
        }
        return book
    }

    private func scan() throws -> LibraryScanner.Summary {
        try LibraryScanner(catalog: try LibraryCatalog(folder: folder.path)).scan()
    }

    func testScanIsIncrementalAndMovedFilesKeepTheirIds() throws {
        let first = try scan()
        XCTAssertEqual(first.found, Self.catalogue.count + 2)
        XCTAssertEqual(first.opened, first.found)
        XCTAssertEqual(first.added, first.found)
        XCTAssertEqual(first.unreadable.count, 2, "\(first.unreadable)")
        XCTAssertTrue(first.unreadable.contains { $0.hasPrefix("damaged.pdf:") })
        XCTAssertTrue(first.unreadable.contains { $0.hasPrefix("Barock/locked.pdf:") && $0.contains("password") })
        let catalog = try LibraryCatalog(folder: folder.path, create: false)
        func ids() throws -> [String: Int64] {
            Dictionary(uniqueKeysWithValues: try catalog.search(LibraryQuery()).map { ($0.path, $0.id) })
        }
        let before = try ids()
        XCTAssertEqual(Set(before.keys), Set(Self.catalogue.map(\.file) + ["damaged.pdf", "Barock/locked.pdf"]))

        let again = try scan()
        XCTAssertEqual(again.opened, 0, "nothing changed: nothing opened")
        XCTAssertEqual(again.unreadable.sorted(), first.unreadable.sorted(), "still unreadable: said again on every scan")
        XCTAssertFalse(again.unreadable.contains { $0.contains("--password") }, "a library has no --password: \(again.unreadable)")

        // Change one, add one, delete one, move one to another folder, rename one.
        let fm = FileManager.default
        try PDFSaver.update(path: folder.appendingPathComponent(Self.catalogue[1].file).path) {
            try $0.setInfo("Title", to: "Humoresque in G♭")
        }
        try fm.copyItem(at: folder.appendingPathComponent(Self.catalogue[0].file),
                        to: folder.appendingPathComponent("Romantik/Brahms/Wiegenlied (Kopie).pdf"))
        try fm.removeItem(at: folder.appendingPathComponent("damaged.pdf"))
        try fm.createDirectory(at: folder.appendingPathComponent("Neu/Ordner"), withIntermediateDirectories: true)
        try fm.moveItem(at: folder.appendingPathComponent(Self.catalogue[3].file),
                        to: folder.appendingPathComponent("Neu/Ordner/Partita BWV 1013.pdf"))
        try fm.moveItem(at: folder.appendingPathComponent(Self.catalogue[4].file),
                        to: folder.appendingPathComponent("Impressionismus/Suite bergamasque – Clair de lune.pdf"))
        let second = try scan()
        XCTAssertEqual(second.opened, 4, "the changed, the new, the moved and the renamed file")
        XCTAssertEqual([second.updated, second.added, second.moved, second.removed], [1, 1, 2, 1])
        XCTAssertEqual(second.unreadable.map { $0.prefix { $0 != ":" } }, ["Barock/locked.pdf"], "the damaged file is gone")
        let after = try ids()
        XCTAssertEqual(after["Neu/Ordner/Partita BWV 1013.pdf"], before[Self.catalogue[3].file])
        XCTAssertEqual(after["Impressionismus/Suite bergamasque – Clair de lune.pdf"], before[Self.catalogue[4].file])
        XCTAssertEqual(after[Self.catalogue[1].file], before[Self.catalogue[1].file], "a changed file keeps its id")
        XCTAssertNil(after["damaged.pdf"])
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "humoresque")).map(\.title), ["Humoresque in G♭"])
        XCTAssertEqual(try scan().opened, 0)
    }

    func testFiltersAndSearchEqualAStraightforwardScan() throws {
        _ = try scan()
        let catalog = try LibraryCatalog(folder: folder.path, create: false)
        let fold = try Self.pythonFold(Self.catalogue.flatMap { [$0.title] + $0.composers + $0.genres + $0.tags }
                                       + ["dvorak", "DVOŘÁK", "Antonín Dvořák", "antonin", "lied", "klavier", "encore", "wiegenlied", "cancion", "mesicku", "apres", "reve"])
        func expected(_ keep: (Int) -> Bool) -> [String] {
            Self.catalogue.indices.filter(keep).map { Self.catalogue[$0].file }.sorted()
        }
        func paths(_ query: LibraryQuery) throws -> [String] {
            try catalog.search(query).map(\.path).sorted()
        }
        // A whole value finds those carrying it; any other finds those with a value in which each of its words begins a word.
        for composer in ["dvorak", "DVOŘÁK", "Antonín Dvořák", "antonin"] {
            var query = LibraryQuery()
            query.composers = [composer]
            let wanted = fold[composer] ?? ""
            let whole = Self.catalogue.contains { $0.composers.contains { fold[$0] == wanted } }
            func carries(_ value: String) -> Bool {
                let folded = fold[value] ?? ""
                if whole { return folded == wanted }
                let words = folded.split(separator: " ")
                return wanted.split(separator: " ").allSatisfy { word in words.contains { $0.hasPrefix(word) } }
            }
            XCTAssertEqual(try paths(query), expected { Self.catalogue[$0].composers.contains(where: carries) }, composer)
            XCTAssertFalse(try paths(query).isEmpty, composer)
        }
        for (genre, tag) in [("lied", nil), ("lied", "wiegenlied"), ("klavier", "encore")] as [(String, String?)] {
            var query = LibraryQuery()
            query.genres = [genre]
            query.tags = tag.map { [$0] } ?? []
            XCTAssertEqual(try paths(query), expected { index in
                let item = Self.catalogue[index]
                return item.genres.contains { fold[$0] == fold[genre] }
                    && (tag.map { tag in item.tags.contains { fold[$0] == fold[tag] ?? tag } } ?? true)
            }, "\(genre) \(tag ?? "")")
        }
        var rated = LibraryQuery()
        rated.rating = try .init(parsing: ">=4", field: "rating", valid: 0...5)
        rated.duration = try .init(parsing: "<5:00", field: "duration", valid: nil, duration: true)
        XCTAssertEqual(try paths(rated), expected { (Self.catalogue[$0].rating ?? -1) >= 4 && (Self.catalogue[$0].duration ?? 0) < 300 })
        for word in ["cancion", "mesicku", "apres reve", "dvorak"] {
            let words = word.split(separator: " ").map(String.init)
            XCTAssertEqual(try paths(LibraryQuery(text: word)), expected { index in
                let item = Self.catalogue[index]
                let haystack = ([item.title] + item.composers + item.genres + item.tags).compactMap { fold[$0] }
                    .joined(separator: " ").split { !$0.isLetter }
                return words.allSatisfy { word in haystack.contains { $0.hasPrefix(fold[word] ?? word) } }
            }, word)
        }
        XCTAssertThrowsError(try LibraryQuery.Comparison(parsing: "6", field: "rating", valid: 0...5)) { error in
            XCTAssertTrue("\(error)".contains("valid: 0 to 5"), "\(error)")
        }
        let facets = try catalog.facets().filter { $0.field == "composer" }
        XCTAssertEqual(facets.first { $0.value == "Antonín Dvořák" }?.count, 2)
    }

    /// Case and diacritics folded as Python's unicodedata does it: NFKD, combining marks
    /// dropped, casefold.
    static func pythonFold(_ values: [String]) throws -> [String: String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = """
            import json, sys, unicodedata
            values = json.load(sys.stdin)
            fold = lambda s: "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).casefold()
            json.dump({v: fold(v) for v in values}, sys.stdout)
            """
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(values))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode([String: String].self, from: data)
    }

    /// Names with quotes, backslashes, control characters and any script are stored as JSON
    /// lists (written out by hand for speed) and come back as they were, through the catalog
    /// and through Python's json module reading the stored column.
    func testListsOfNamesComeBackAsWritten() throws {
        let target = folder.appendingPathComponent("Romantik/Brahms/Wiegenlied.pdf")
        let composers = ["Antonín \"Tonda\" Dvořák", #"C:\Hudba\Back\slash"#, "Tab\tand\u{1}control", "Чайковский", "武満 徹", "עברית"]
        var edit = ScoreEdit()
        edit.composers = composers
        edit.tags = ["ἁρμονία", "موسيقى"]
        try PDFSaver.update(path: target.path) { _ = try ScoreWriter.write(edit, to: $0) }
        _ = try scan()
        let catalog = try LibraryCatalog(folder: folder.path)
        let entry = try XCTUnwrap(try catalog.show("Romantik/Brahms/Wiegenlied.pdf").first)
        XCTAssertEqual(entry.metadata.composers, composers)
        XCTAssertEqual(entry.metadata.tags, ["ἁρμονία", "موسيقى"])
        let script = """
            import json, sqlite3, sys
            row = sqlite3.connect(sys.argv[1]).execute("SELECT e.composers, e.tags FROM entry e JOIN score s ON s.id = e.scoreId "
                "WHERE s.path = 'Romantik/Brahms/Wiegenlied.pdf' AND e.bookmark IS NULL").fetchone()
            print(json.dumps([json.loads(row[0]), json.loads(row[1])]))
            """
        let run = try TestEnvironment.runTool("python3", ["-c", script, folder.appendingPathComponent(".folio/library.sqlite").path])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        let stored = run.stdout
        let decoded = try JSONDecoder().decode([[String]].self, from: stored)
        XCTAssertEqual(decoded, [composers, ["ἁρμονία", "موسيقى"]])
    }
    /// Annotation counts and empty fields are written without JSONEncoder; the text is the
    /// one JSONEncoder writes with sorted keys, and reads back as the same values.
    func testCountsAndEmptyFieldsAreTheJSONEncodersText() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let cases: [[String: Int]] = [
            [:], ["Ink": 3], ["Link": 12, "Ink": 1, "FreeText": 2, "Square": 0, "Highlight": 40_000],
            ["Ω": 1, "Zvýraznění": 2, "a\"b": 3, "Stempel/Ünterschrift": 4, "注釈": 5, "ink": 6, "Ink": 7],
        ]
        for counts in cases {
            let ours = LibraryCatalog.json(counts)
            XCTAssertEqual(ours, String(decoding: try encoder.encode(counts), as: UTF8.self))
            XCTAssertEqual(try JSONDecoder().decode([String: Int].self, from: Data(ours.utf8)), counts)
        }
        XCTAssertEqual(LibraryCatalog.json(ScoreMetadata()), String(decoding: try encoder.encode(ScoreMetadata()), as: UTF8.self))
        var own = ScoreMetadata()
        own.composers = ["Leoš Janáček"]
        XCTAssertEqual(LibraryCatalog.json(own), String(decoding: try encoder.encode(own), as: UTF8.self))
        XCTAssertNotEqual(LibraryCatalog.json(own), LibraryCatalog.json(ScoreMetadata()))
    }
    /// Scores' own entries sit above `scoreTextOffset` in the text index: a search for scores
    /// alone gives what the search with bookmarks gives less its bookmarks, in the same order
    /// (the ranking is over the same index), and a removed score takes its text rows along.
    func testScoreSearchesReadTheirOwnRangeAndRankAsWithBookmarks() throws {
        // Bookmarks from a table of contents in Czech, Greek and Japanese beside the scores' titles.
        let book = try book(titled: "Sborník písní", bookmarks: ["Měsíček", "Ἀπρès un rêve", "月の光 Clair"])
        _ = try scan()
        let catalog = try LibraryCatalog(folder: folder.path, create: false)
        var compared = 0
        for text in ["a", "e", "mesic", "clair", "reve", "apres", "月の光", "sbornik", "dvorak", "lied klavier", "zzz"] {
            var all = LibraryQuery(text: text, includeBookmarks: true)
            all.limit = 100
            let scores = try catalog.search(LibraryQuery(text: text))
            let withBookmarks = try catalog.search(all)
            XCTAssertEqual(scores, withBookmarks.filter { $0.bookmark == nil }, text)
            compared += scores.isEmpty ? 0 : 1
            XCTAssertTrue(scores.allSatisfy { $0.bookmark == nil }, text)
        }
        XCTAssertGreaterThan(compared, 5)
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "Ἀπρès", includeBookmarks: true)).compactMap(\.bookmark?.title),
                       ["Ἀπρès un rêve"])
        let layout = try catalog.read { db in
            try Row.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM entry_text WHERE rowid >= ?) AS high,
                       (SELECT count(*) FROM entry WHERE bookmark IS NULL) AS scores,
                       (SELECT count(*) FROM entry_text WHERE rowid < ?) AS low,
                       (SELECT count(*) FROM entry WHERE bookmark IS NOT NULL) AS bookmarks
                """, arguments: [LibraryCatalog.scoreTextOffset, LibraryCatalog.scoreTextOffset])
        }
        let row = try XCTUnwrap(layout)
        XCTAssertEqual(row["high"] as Int, row["scores"] as Int)
        XCTAssertEqual(row["low"] as Int, row["bookmarks"] as Int)
        XCTAssertGreaterThanOrEqual(row["bookmarks"] as Int, 3)
        try FileManager.default.removeItem(at: book)
        _ = try scan()
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "sbornik", includeBookmarks: true)), [])
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "Ἀπρès", includeBookmarks: true)), [])
    }

    /// `score(_:)`, the server's lookup on every request for a file or its marks, is the whole
    /// score `show` lists first — for every score of the library, a book with bookmarks in
    /// Czech, Greek and Japanese among them — and nil for an id the catalog has not, or no longer.
    func testAScoreByItsIdIsTheEntryShowListsFirst() throws {
        let book = try book(titled: "Sborník písní – 歌集", bookmarks: ["Měsíček", "Ἀπρès un rêve"])
        _ = try scan()
        let catalog = try LibraryCatalog(folder: folder.path, create: false)
        var all = LibraryQuery(includeBookmarks: true)
        all.limit = 1000
        let entries = try catalog.search(all)
        let scores = entries.filter { $0.bookmark == nil }
        let catalogued = try catalog.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM entry WHERE bookmark IS NULL") }
        XCTAssertEqual(Set(scores.map(\.id)).count, catalogued)
        XCTAssertGreaterThanOrEqual(scores.count, Self.catalogue.count + 1)
        XCTAssertEqual(entries.filter { $0.bookmark != nil }.count, 2)
        for score in scores {
            let shown = try catalog.show(score.path)
            XCTAssertEqual(try catalog.score(score.id), shown.first, score.path)
            XCTAssertNil(shown.first?.bookmark, score.path)
        }
        let bookID = try XCTUnwrap(scores.first { $0.path == "Sborník.pdf" }?.id)
        XCTAssertEqual(try catalog.score(bookID)?.title, "Sborník písní – 歌集")
        for missing in [Int64(0), -1, Int64.max, (scores.map(\.id).max() ?? 0) + 1] {
            XCTAssertNil(try catalog.score(missing), "\(missing)")
        }
        try FileManager.default.removeItem(at: book)
        _ = try scan()
        XCTAssertNil(try catalog.score(bookID))
    }

    /// A catalog made before v9 (every text row at its entry's id) is moved on opening:
    /// searches find its scores and bookmarks, and removing a score removes its text.
    func testACatalogFromBeforeTheScoreRangeIsMoved() throws {
        let database = folder.appendingPathComponent(".folio/library.sqlite")
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let queue = try DatabaseQueue(path: database.path)
            try CatalogSchema.migrator.migrate(queue, upTo: "v8")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO score (id, path, pathKey, size, modified, fingerprint, added) VALUES (1, 'Dvořák.pdf', 'Dvořák.pdf', 1, 1, 'x', 0);
                    INSERT INTO entry (id, scoreId, bookmark, title, composers) VALUES (1, 1, NULL, 'Slovanské tance', '["Antonín Dvořák"]');
                    INSERT INTO entry (id, scoreId, bookmark, title, composers) VALUES (2, 1, 0, 'Furiant', '["Antonín Dvořák"]');
                    INSERT INTO entry_text (rowid, title, people, words) VALUES (1, 'Slovanské tance', 'Antonín Dvořák', '');
                    INSERT INTO entry_text (rowid, title, people, words) VALUES (2, 'Furiant', 'Antonín Dvořák', '');
                    """)
            }
        }
        let catalog = try LibraryCatalog(folder: folder.path, create: false)
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "slovanske")).map(\.title), ["Slovanské tance"])
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "dvorak")).map(\.title), ["Slovanské tance"])
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "dvorak", includeBookmarks: true)).map(\.title).sorted(),
                       ["Furiant", "Slovanské tance"])
        XCTAssertEqual(try catalog.search(LibraryQuery(text: "furiant")), [])
        try catalog.storeWrite { try LibraryCatalog.remove(id: 1, in: $0) }
        XCTAssertEqual(try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_text") }, 0)
    }
}
