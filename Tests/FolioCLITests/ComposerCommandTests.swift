import FolioTestSupport
import Foundation
import XCTest

/// An anthology's composers are people in the catalog (facets, filters) and its pieces carry
/// the one their bookmark names, never the book's list; a score is found by its file's name.
/// The pieces' Author fields are read back by pikepdf.
final class ComposerCommandTests: CommandTestCase, @unchecked Sendable {
    func testAnthologyComposersAreCountedAndHandedToPieces() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        let library = path("Klavír – Фортепиано")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let book = library + "/Anthologie_pour_piano.pdf"
        try TestEnvironment.copy(atPath: samples.appendingPathComponent("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf").path,
                                         toPath: book)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: book)
        try invoke(["meta", "set", book, "--composer", "Erik Satie; Ludwig van Beethoven; Пётр Чайковский"])
        try invoke(["bookmarks", "add", book, "--name", "Gymnopédie No. 1 — Satie", "--page", "1"])
        try invoke(["bookmarks", "add", book, "--name", "Осенняя песня (Чайковский)", "--page", "2"])
        try invoke(["bookmarks", "add", book, "--name", "Intermezzo", "--page", "3", "--end", "4"])
        try invoke(["library", "scan", library, "--quiet"])

        let facets = try TestEnvironment.jsonLines(try invoke(["library", "facets", library, "--json"]).out)
            .filter { $0["field"] as? String == "composer" }
        XCTAssertEqual(Set(facets.compactMap { $0["value"] as? String }),
                       ["Erik Satie", "Ludwig van Beethoven", "Пётр Чайковский"])
        XCTAssertEqual(facets.compactMap { $0["count"] as? Int }, [1, 1, 1])
        let byComposer = try TestEnvironment.jsonLines(try invoke(["library", "list", library, "--composer", "петр чайковский", "--json"]).out)
        XCTAssertEqual(byComposer.compactMap { $0["path"] as? String }, ["Anthologie_pour_piano.pdf"])
        // Found by its file's name, which its title does not hold.
        let byName = try invoke(["library", "search", "anthologie", "--library", library]).out
        XCTAssertTrue(byName.contains("Anthologie_pour_piano.pdf"), byName)

        let pieces = path("kusy")
        try invoke(["split", book, "--by", "bookmarks", "--output-dir", pieces])
        let authors = try TestEnvironment.python("""
            import pikepdf, sys, os
            for name in sorted(os.listdir(sys.argv[1])):
                pdf = pikepdf.open(os.path.join(sys.argv[1], name))
                print(name, "|", str(pdf.docinfo.get("/Author", "")))
            """, pieces)
        XCTAssertEqual(authors.split(separator: "\n").map(String.init), [
            "01 Gymnopédie No. 1 — Satie.pdf | Erik Satie",
            "02 Осенняя песня (Чайковский).pdf | Пётр Чайковский",
            "03 Intermezzo.pdf |",   // none: the book's list is not the piece's
        ])
    }
}
