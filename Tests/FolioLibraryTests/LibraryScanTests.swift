import FolioLibrary
import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
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
            try FileManager.default.copyItem(at: try SharedCorpus.folder().appendingPathComponent("scores/\(scores[index])"), to: target)
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
        try FileManager.default.copyItem(
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

        XCTAssertEqual(try scan().opened, 0, "nothing changed: nothing opened")

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
                                       + ["dvorak", "DVOŘÁK", "lied", "klavier", "encore", "wiegenlied", "cancion", "mesicku", "apres", "reve"])
        func expected(_ keep: (Int) -> Bool) -> [String] {
            Self.catalogue.indices.filter(keep).map { Self.catalogue[$0].file }.sorted()
        }
        func paths(_ query: LibraryQuery) throws -> [String] {
            try catalog.search(query).map(\.path).sorted()
        }
        for composer in ["dvorak", "DVOŘÁK"] {
            var query = LibraryQuery()
            query.composers = [composer]
            XCTAssertEqual(try paths(query), expected { Self.catalogue[$0].composers.contains { fold[$0] == fold[composer] } })
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
}
