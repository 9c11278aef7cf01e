import FolioLibrary
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// The one order of a drop of several files (`LibraryIntake.addAll`, as `folio add` and the
/// library page take them): a CSV index or a dictionary given before its PDF waits for it.
final class LibraryIntakeOrderTests: XCTestCase {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    /// A library folder named `name` and a folder of dropped files, removed when the test ends.
    private func folders(library name: String) throws -> (library: URL, dropped: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-drop-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent(name), dropped = root.appendingPathComponent("drop")
        for folder in [library, dropped] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        return (library, dropped)
    }

    func testAnIndexAndADictionaryBeforeTheirPDFFindIt() throws {
        let (library, dropped) = try folders(library: "Knihovna")
        let pdf = dropped.appendingPathComponent("Ukolébavka.pdf").path
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path, toPath: pdf)
        let index = dropped.appendingPathComponent("Ukolébavka.csv").path
        try "Title,Start,End\nVerš první,1,1\n子守歌,1,1\n".write(toFile: index, atomically: true, encoding: .utf8)
        let dictionary = dropped.appendingPathComponent("Ukolébavka.json").path
        try #"{"composers": "Johannes Brahms", "rating": 4}"#.write(toFile: dictionary, atomically: true, encoding: .utf8)
        let orphan = dropped.appendingPathComponent("Nikde.csv").path
        try "Title,Start,End\nNic,1,1\n".write(toFile: orphan, atomically: true, encoding: .utf8)

        let catalog = try LibraryCatalog(folder: library.path)
        var heard: [(String, Bool)] = []
        LibraryIntake.addAll(files: [index, dictionary, orphan, pdf], catalog: catalog) { file, outcome in
            heard.append(((file as NSString).lastPathComponent, (try? outcome.get()) != nil))
        }
        XCTAssertEqual(heard.map(\.0), ["Ukolébavka.pdf", "Ukolébavka.csv", "Ukolébavka.json", "Nikde.csv"], "each once, the waiting ones after")
        XCTAssertEqual(heard.map(\.1), [true, true, true, false], "only the index with no score of its name fails")
        // What the files became, read by pikepdf from the library's copy.
        let read = try TestEnvironment.python("""
            import sys, pikepdf
            pdf = pikepdf.open(sys.argv[1])
            xmp = pdf.Root.Metadata.read_bytes().decode()
            print(pdf.docinfo.get("/Author"), "rating:4" in str(pdf.docinfo.get("/Keywords")), "子守歌" in xmp and "Verš první" in xmp)
            """, library.appendingPathComponent("Ukolébavka.pdf").path)
        XCTAssertEqual(read, "Johannes Brahms True True", "the dictionary's details and the index's bookmarks reached the score")
    }

    /// An index or a dictionary for a score already in the library changes it through the
    /// one edit path: recorded with its author, undoable back to the bytes before.
    func testAnIndexAndADictionaryForAScoreInTheLibraryAreUndoableEdits() throws {
        let (library, dropped) = try folders(library: "Библиотека")
        let pdf = library.appendingPathComponent("Колыбельная.pdf").path
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path, toPath: pdf)
        let catalog = try LibraryCatalog(folder: library.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        let original = try Data(contentsOf: URL(fileURLWithPath: pdf))

        let index = dropped.appendingPathComponent("Колыбельная.csv").path
        try "Title,Start,End\nКуплет,1,1\n".write(toFile: index, atomically: true, encoding: .utf8)
        let dictionary = dropped.appendingPathComponent("Колыбельная.json").path
        try #"{"rating": 5}"#.write(toFile: dictionary, atomically: true, encoding: .utf8)
        var options = LibraryIntake.Options()
        options.author = "Наташа"
        _ = try LibraryIntake.add(file: index, catalog: catalog, options: options)
        let afterIndex = try Data(contentsOf: URL(fileURLWithPath: pdf))
        _ = try LibraryIntake.add(file: dictionary, catalog: catalog, options: options)

        let changes = try catalog.changes(score: "Колыбельная.pdf")
        XCTAssertEqual(changes.map(\.change), ["details from Колыбельная.json", "bookmarks from Колыбельная.csv"])
        XCTAssertEqual(changes.map(\.author), ["Наташа", "Наташа"])
        var rated = LibraryQuery()
        rated.rating = try LibraryQuery.Comparison(parsing: "5", field: "rating", valid: 0...5)
        XCTAssertEqual(try catalog.search(rated).map(\.path), ["Колыбельная.pdf"], "the row is current without a scan")
        _ = try catalog.undo(score: "Колыбельная.pdf", expected: nil)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pdf)), afterIndex)
        _ = try catalog.undo(score: "Колыбельная.pdf", expected: nil)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pdf)), original)
    }
}
