import FolioLibrary
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// The batches over a library at their own layer: `ScoreBatch.run(library:)` (what `folio lint
/// --library` and `meta adopt --library` run) and `LibraryCSVImport` (a library CSV). Both
/// change scores through the one edit path: recorded with their name and author, the catalog
/// current without a scan; a dry run writes nothing.
final class LibraryBatchTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")
    private var library: URL!

    override func setUpWithError() throws {
        library = FileManager.default.temporaryDirectory.appendingPathComponent("folio-batch-\(UUID().uuidString)")
            .appendingPathComponent("Ноты")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Χορωδία"), withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path,
                                         toPath: library.appendingPathComponent("Колыбельная.pdf").path)
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Traditional-Greensleeves_hymntune.pdf").path,
                                         toPath: library.appendingPathComponent("Χορωδία/Greensleeves.pdf").path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: library.deletingLastPathComponent())
    }

    private func rated(_ rating: Int, in catalog: LibraryCatalog) throws -> [String] {
        var query = LibraryQuery()
        query.rating = try LibraryQuery.Comparison(parsing: "\(rating)", field: "rating", valid: 0...5)
        return try catalog.search(query).map(\.path).sorted()
    }

    func testABatchOverTheLibraryTakesEveryScoreByItsLibraryPath() throws {
        let catalog = try LibraryCatalog(folder: library.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        // Added after the last scan: the batch brings the catalog up to date first.
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf").path,
                                         toPath: library.appendingPathComponent("Clair de lune.pdf").path)
        var batch = ScoreBatch(dryRun: false)
        batch.changeName = "folio meta adopt"
        batch.author = "Ἑλένη"
        var seen: [String] = [], reported: [String] = []
        let ok = try batch.run(library: catalog) { _, path in
            seen.append(path)
            var change = ScoreChange()
            change.edit.rating = 4
            return change
        } report: { outcome in
            XCTAssertNil(outcome.error, outcome.path)
            XCTAssertTrue(outcome.saved, outcome.path)
            reported.append(outcome.path)
        }
        let expected = ["Clair de lune.pdf", "Χορωδία/Greensleeves.pdf", "Колыбельная.pdf"]
        XCTAssertTrue(ok)
        XCTAssertEqual(seen.sorted(), expected)
        XCTAssertEqual(reported.sorted(), expected)
        XCTAssertEqual(try rated(4, in: catalog), expected, "every row current without a scan")
        for path in expected {
            let changes = try catalog.changes(score: path)
            XCTAssertEqual(changes.map(\.change), ["folio meta adopt"], path)
            XCTAssertEqual(changes.first?.author, "Ἑλένη", path)
        }
        // As exiftool reads forScore's rating from the Keywords.
        let keywords = String(decoding: try TestEnvironment.runTool("exiftool", ["-s3", "-Keywords",
                                                                               library.appendingPathComponent("Χορωδία/Greensleeves.pdf").path]).stdout,
                              as: UTF8.self)
        XCTAssertTrue(keywords.contains("rating:4"), keywords)
    }

    func testALibraryCSVChangesTheFilesItNamesAndADryRunNothing() throws {
        let catalog = try LibraryCatalog(folder: library.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        let pdf = library.appendingPathComponent("Колыбельная.pdf").path
        let before = try Data(contentsOf: URL(fileURLWithPath: pdf))
        let csv = """
            Filename,Title,Composers,Rating,Start,End
            Колыбельная.pdf,Wiegenlied – Колыбельная,Johannes Brahms,5,,
            Колыбельная.pdf,Куплет,,,1,1
            Нет такого.pdf,Ничто,,2,,

            """
        let dry = try LibraryCSVImport.run(text: csv, catalog: catalog, dryRun: true) { _ in }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pdf)), before, "a dry run writes nothing")
        XCTAssertEqual(dry.outcomes.map(\.path), ["Колыбельная.pdf"])
        XCTAssertTrue(dry.outcomes[0].rows.contains { $0.field == "rating" && $0.after == "5" }, "\(dry.outcomes[0].rows)")
        XCTAssertEqual(dry.problems.count, 1, "\(dry.problems)")
        XCTAssertTrue(dry.problems[0].contains("Нет такого.pdf"), dry.problems[0])

        let report = try LibraryCSVImport.run(text: csv, catalog: catalog, dryRun: false, author: "Маша") { _ in }
        XCTAssertTrue(report.hasScoreRows)
        XCTAssertEqual(report.outcomes.map(\.saved), [true])
        XCTAssertEqual(try rated(5, in: catalog), ["Колыбельная.pdf"], "the row is current without a scan")
        let changes = try catalog.changes(score: "Колыбельная.pdf")
        XCTAssertEqual(changes.map(\.change), ["Imported a library CSV"])
        // Its one bookmark is counted (what the library page offers a split by); a score without any is left out.
        let ids = try ["Колыбельная.pdf", "Χορωδία/Greensleeves.pdf"].map { path in
            try XCTUnwrap(try catalog.show(path).first { $0.bookmark == nil }).id
        }
        XCTAssertEqual(try catalog.bookmarkCounts(of: ids), [ids[0]: 1])
        XCTAssertEqual(try catalog.bookmarkCounts(of: []), [:])
        XCTAssertEqual(changes.first?.author, "Маша")
        let title = String(decoding: try TestEnvironment.runTool("exiftool", ["-s3", "-Title", pdf]).stdout, as: UTF8.self)
        XCTAssertEqual(title.trimmingCharacters(in: .whitespacesAndNewlines), "Wiegenlied – Колыбельная")
        _ = try catalog.undo(score: "Колыбельная.pdf", expected: nil)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pdf)), before)
    }
}
