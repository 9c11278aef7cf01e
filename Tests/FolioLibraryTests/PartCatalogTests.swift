import FolioLibrary
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// Parts in the catalog: files grouped into pieces by their names in several scripts; a player
/// is shown their part, else their instrument's, section's or the full score; labels set by
/// hand survive a rescan and a rename, and bad ones are refused with the valid range.
class PartCatalogTests: XCTestCase {
    var folder: URL!

    /// The catalog the tests run on (PartCatalogPostgresTests: one kept in PostgreSQL).
    func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path)
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Smetana"), withIntermediateDirectories: true)
        let samples = TestEnvironment.repositoryRoot.appendingPathComponent("Samples")
        let names = ["Brahms-Cancion_de_Cuna.pdf", "Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf", "Traditional-Greensleeves_hymntune.pdf"]
        let files = ["Smetana/Vltava.pdf", "Smetana/Vltava - Trompete in B.pdf", "Smetana/Vltava (Housle II).pdf",
                     "Smetana/Vltava - Strings.pdf", "Smetana/Vltava [Partitur].pdf", "Smetana/vltava - Horn 1.pdf",
                     "Лебединое озеро - Труба.pdf", "scan 0012.pdf"]
        for (index, file) in files.enumerated() {
            try TestEnvironment.copy(at: samples.appendingPathComponent(names[index % names.count]),
                                             to: folder.appendingPathComponent(file))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func catalog() throws -> LibraryCatalog {
        let catalog = try makeCatalog()
        try LibraryScanner(catalog: catalog).scan()
        return catalog
    }

    func testPiecesAndWhoSeesWhat() throws {
        let catalog = try catalog()
        let pieces = try catalog.pieces()
        XCTAssertEqual(pieces.map(\.song), ["Vltava", "Лебединое озеро"])
        let vltava = try catalog.parts(of: "Vltava.pdf")
        XCTAssertEqual(vltava.parts.count, 6)
        let full = try XCTUnwrap(vltava.parts.first { $0.path == "Smetana/Vltava.pdf" })

        func shown(_ player: String?) throws -> (String, PartFit) {
            let choice = try catalog.part(forScore: full.id, player: player.flatMap { PartLabel(userLabel: $0) })
            return (choice.part.path, choice.fit)
        }
        XCTAssertTrue(try shown("Trumpet in Bb") == ("Smetana/Vltava - Trompete in B.pdf", .instrument))
        XCTAssertTrue(try shown("Trompete in B") == ("Smetana/Vltava - Trompete in B.pdf", .part))
        XCTAssertTrue(try shown("Скрипка II") == ("Smetana/Vltava (Housle II).pdf", .part))
        XCTAssertTrue(try shown("Violin I") == ("Smetana/Vltava - Strings.pdf", .section), "another desk is not theirs")
        XCTAssertTrue(try shown("Horn") == ("Smetana/vltava - Horn 1.pdf", .instrument))
        XCTAssertTrue(try shown("Tuba") == ("Smetana/Vltava.pdf", .full), "the full score the leader opened")
        XCTAssertTrue(try shown(nil) == ("Smetana/Vltava.pdf", .full), "no instrument: the full score the leader opened")

        // Opened from a part, a player without one is shown the full score (the one labelled so
        // first), not the trumpet's part; so is a player without an instrument (a conductor).
        let trumpet = try XCTUnwrap(vltava.parts.first { $0.label?.instrument == "Trumpet" })
        XCTAssertEqual(try catalog.part(forScore: trumpet.id, player: PartLabel("Tuba")).part.path, "Smetana/Vltava [Partitur].pdf")
        XCTAssertEqual(try catalog.part(forScore: trumpet.id, player: nil).part.path, "Smetana/Vltava [Partitur].pdf")
        XCTAssertEqual(try catalog.instruments().map(\.written), ["Housle II", "Strings", "Horn 1", "Trompete in B", "Труба"])
    }

    func testLabelsSetByHand() throws {
        let catalog = try catalog()
        var scan = try catalog.setPart(PartSetting(score: "scan 0012.pdf", label: "Tuba", song: "vltava"))
        XCTAssertEqual(scan.label?.instrument, "Tuba")
        XCTAssertTrue(scan.set)
        let full = try XCTUnwrap(try catalog.parts(of: "Smetana/Vltava.pdf").parts.first { $0.path == "Smetana/Vltava.pdf" })
        XCTAssertEqual(try catalog.part(forScore: full.id, player: PartLabel("Tuba")).part.path, "scan 0012.pdf")

        // Kept across a rescan and a rename (the catalog follows the file).
        try FileManager.default.moveItem(at: folder.appendingPathComponent("scan 0012.pdf"),
                                         to: folder.appendingPathComponent("Tuba – Vltava.pdf"))
        try LibraryScanner(catalog: catalog).scan()
        scan = try catalog.parts(of: "Tuba – Vltava.pdf").parts.first { $0.path == "Tuba – Vltava.pdf" } ?? scan
        XCTAssertEqual(scan.path, "Tuba – Vltava.pdf")
        XCTAssertEqual(scan.label?.instrument, "Tuba")
        XCTAssertEqual(scan.song, "vltava")

        // Cleared: the name tells again ("Tuba – Vltava" names no part: its own piece).
        scan = try catalog.setPart(PartSetting(score: "Tuba – Vltava.pdf"))
        XCTAssertNil(scan.label)
        XCTAssertEqual(scan.song, "Tuba – Vltava")

        for bad in [PartSetting(score: "Tuba – Vltava.pdf", label: String(repeating: "a", count: 101)),
                    PartSetting(score: "Tuba – Vltava.pdf", label: "Tu\nba"),
                    PartSetting(score: "Tuba – Vltava.pdf", song: "  ")] {
            XCTAssertThrowsError(try catalog.setPart(bad)) { error in
                XCTAssertEqual((error as? LibraryError)?.kind, .invalidValue)
                XCTAssertTrue("\(error)".contains("1 to"), "\(error)")
            }
        }
        XCTAssertThrowsError(try catalog.setPart(PartSetting(score: "Nowhere.pdf", label: "Tuba"))) { error in
            XCTAssertEqual((error as? LibraryError)?.kind, .notFound)
        }
    }
}
