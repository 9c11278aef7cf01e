import FolioTestSupport
import Foundation
import XCTest

/// `folio parts` as a user runs it: pieces grouped from file names in several scripts, as text
/// and JSON; the labels the library carries; a file labelled by hand joining a piece, cleared
/// again; refusals that say what is valid.
final class PartsCommandTests: CommandTestCase, @unchecked Sendable {
    private var library: String { path("Notenarchiv") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let samples = TestEnvironment.repositoryRoot.appendingPathComponent("Samples")
        try FileManager.default.createDirectory(atPath: library + "/Smetana", withIntermediateDirectories: true)
        let source = samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path
        for name in ["Smetana/Vltava.pdf", "Smetana/Vltava - Trompete in B.pdf", "Smetana/Vltava (Скрипка II).pdf",
                     "Smetana/Vltava - Blech.pdf", "sken 7.pdf"] {
            try TestEnvironment.copy(atPath: source, toPath: library + "/" + name)
        }
        try invoke(["library", "scan", library])   // only a scan makes a catalog
    }

    func testListSetClear() throws {
        let listed = try invoke(["parts", "list", "--library", library]).out
        XCTAssertEqual(listed, """
            Vltava
              \(try id("Smetana/Vltava - Blech.pdf"))\tSmetana/Vltava - Blech.pdf\tbrass section (Blech)
              \(try id("Smetana/Vltava - Trompete in B.pdf"))\tSmetana/Vltava - Trompete in B.pdf\tTrompete in B
              \(try id("Smetana/Vltava (Скрипка II).pdf"))\tSmetana/Vltava (Скрипка II).pdf\tСкрипка II
              \(try id("Smetana/Vltava.pdf"))\tSmetana/Vltava.pdf\tscore

            """)
        let json = try invoke(["parts", "list", "Vltava.pdf", "--json", "--library", library]).out
        let pieces = try TestEnvironment.jsonLines(json)
        let parts = try XCTUnwrap(pieces.first?["parts"] as? [[String: Any]])
        let labels = parts.compactMap { $0["label"] as? [String: Any] }
        XCTAssertEqual(labels.compactMap { $0["instrument"] as? String }, ["Trumpet", "Violin"])
        XCTAssertEqual(labels.compactMap { $0["number"] as? Int }, [2])
        XCTAssertEqual(labels.compactMap { $0["transposition"] as? String }, ["B"])

        let set = try invoke(["parts", "set", "sken 7.pdf", "Lesní roh in F", "--song", "vltava", "--library", library]).out
        XCTAssertTrue(set.hasPrefix("vltava\t"), set)
        XCTAssertTrue(set.hasSuffix("sken 7.pdf\tLesní roh in F\tset\n"), set)
        let instruments = try invoke(["parts", "list", "--instruments", "--library", library]).out
        XCTAssertEqual(instruments, "Скрипка II\tViolin\tstrings\nBlech\t\tbrass\nLesní roh in F\tHorn\tbrass\nTrompete in B\tTrumpet\tbrass\n")
        _ = try invoke(["parts", "set", "sken 7.pdf", "--clear", "--library", library])
        XCTAssertFalse(try invoke(["parts", "list", "Vltava.pdf", "--library", library]).out.contains("sken 7"))

        let long = try invoke(["parts", "set", "sken 7.pdf", String(repeating: "x", count: 101), "--library", library], status: nil)
        XCTAssertNotEqual(long.status, 0)
        XCTAssertTrue(long.err.contains("1 to 100 characters"), long.err)
        let both = try invoke(["parts", "set", "sken 7.pdf", "Tuba", "--clear", "--library", library], status: nil)
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.err.contains("--clear takes neither"), both.err)
        let missing = try invoke(["parts", "list", "Nowhere.pdf", "--library", library], status: nil)
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.err.contains("no catalogued score Nowhere.pdf"), missing.err)
    }

    private func id(_ path: String) throws -> Int {
        let json = try invoke(["parts", "list", path, "--json", "--library", library]).out
        let pieces = try TestEnvironment.jsonLines(json)
        let parts = try XCTUnwrap(pieces.first?["parts"] as? [[String: Any]])
        return try XCTUnwrap(parts.first { $0["path"] as? String == path }?["id"] as? Int)
    }
}
