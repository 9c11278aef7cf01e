import FolioTestSupport
import Foundation
import XCTest

/// A score is named the same way to every command (`library show`, `undo`, setlists, parts,
/// tracks): a file by any path from inside or outside the library, a path in the library, a file
/// name only one score has, or its id; a name several files have is refused listing them all.
/// Run from a subfolder, the library's folder and a folder outside it, with Czech, Russian and
/// Japanese names.
final class ScoreNamingTests: CommandTestCase, @unchecked Sendable {
    private var library: URL { root.appendingPathComponent("Noty – 楽譜") }
    private var piano: URL { library.appendingPathComponent("Klavír – Romantici") }
    private var elsewhere: URL { root.appendingPathComponent("jinde") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let samples = TestEnvironment.repositoryRoot.appendingPathComponent("Samples")
        let lullaby = samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path
        let hymn = samples.appendingPathComponent("Traditional-Greensleeves_hymntune.pdf").path
        for folder in ["Klavír – Romantici", "Real Book", "Чайковский", "練習曲", "Sbor"] {
            try FileManager.default.createDirectory(at: library.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: lullaby, toPath: piano.appendingPathComponent("Schumann - Widmung.pdf").path)
        try TestEnvironment.copy(atPath: hymn, toPath: library.appendingPathComponent("Real Book/Exercises.pdf").path)
        try TestEnvironment.copy(atPath: hymn, toPath: library.appendingPathComponent("Чайковский/Времена года.pdf").path)
        try TestEnvironment.copy(atPath: lullaby, toPath: library.appendingPathComponent("練習曲/練習曲.pdf").path)
        try TestEnvironment.copy(atPath: lullaby, toPath: library.appendingPathComponent("Sbor/Ukolébavka.pdf").path)
        try TestEnvironment.copy(atPath: hymn, toPath: piano.appendingPathComponent("Ukolébavka.pdf").path)
        try TestEnvironment.copy(atPath: hymn, toPath: elsewhere.appendingPathComponent("Cizí.pdf").path)
        try invoke(["library", "scan", library.path])
    }

    /// The path `library show NAME` run in `directory` finds (its first line's "path").
    private func shown(_ name: String, in directory: URL, _ extra: [String] = []) throws -> String {
        let result = try invoke(["library", "show", name, "--json"] + extra, in: directory)
        let first = try XCTUnwrap(result.out.split(separator: "\n").first, result.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        return try XCTUnwrap(object["path"] as? String)
    }

    func testEveryWayOfNamingAScoreFindsIt() throws {
        // From a subfolder: a file there, and one beside it by "..".
        XCTAssertEqual(try shown("Schumann - Widmung.pdf", in: piano), "Klavír – Romantici/Schumann - Widmung.pdf")
        XCTAssertEqual(try shown("../Real Book/Exercises.pdf", in: piano), "Real Book/Exercises.pdf")
        // From outside the library: an absolute path finds its library.
        let seasons = library.appendingPathComponent("Чайковский/Времена года.pdf").path
        XCTAssertEqual(try shown(seasons, in: elsewhere), "Чайковский/Времена года.pdf")
        // From the library's folder: a bare name only one file has, in either Unicode form; a path in the library.
        XCTAssertEqual(try shown("練習曲.pdf", in: library), "練習曲/練習曲.pdf")
        XCTAssertEqual(try shown("Времена года.pdf".decomposedStringWithCanonicalMapping, in: library), "Чайковский/Времена года.pdf")
        XCTAssertEqual(try shown("Real Book/Exercises.pdf", in: piano), "Real Book/Exercises.pdf", "a library path from a subfolder")
        // From anywhere with --library; and by the id the listing prints.
        XCTAssertEqual(try shown("Exercises.pdf", in: elsewhere, ["--library", library.path]), "Real Book/Exercises.pdf")
        let listed = try invoke(["library", "show", "練習曲.pdf"], in: library).out
        let id = try XCTUnwrap(listed.split(separator: "\t").first.map(String.init))
        XCTAssertEqual(try shown(id, in: piano), "練習曲/練習曲.pdf")
    }

    func testANameSeveralFilesHaveListsThemAndAMissingOneIsNotFound() throws {
        let ambiguous = try invoke(["library", "show", "Ukolébavka.pdf"], in: library, status: 64)
        XCTAssertTrue(ambiguous.err.contains("Ukolébavka.pdf names 2 catalogued files"), ambiguous.err)
        XCTAssertTrue(ambiguous.err.contains("Klavír – Romantici/Ukolébavka.pdf"), ambiguous.err)
        XCTAssertTrue(ambiguous.err.contains("Sbor/Ukolébavka.pdf"), ambiguous.err)
        XCTAssertEqual(ambiguous.out, "", "nothing guessed")
        // In the folder of one of them, the file there is meant.
        XCTAssertEqual(try shown("Ukolébavka.pdf", in: piano), "Klavír – Romantici/Ukolébavka.pdf")
        let missing = try invoke(["library", "show", "Nikde.pdf"], in: library, status: 1)
        XCTAssertTrue(missing.err.contains("no catalogued score Nikde.pdf"), missing.err)
        // A file outside the library is refused by name, not mistaken for a library path.
        let outside = try invoke(["library", "show", "Cizí.pdf", "--library", library.path], in: elsewhere, status: 64)
        XCTAssertTrue(outside.err.contains("Cizí.pdf lies outside the library"), outside.err)
        // A bare name from outside with no library named: there is no library here.
        let nowhere = try invoke(["library", "show", "練習曲.pdf"], in: elsewhere, status: 1)
        XCTAssertTrue(nowhere.err.contains("no library in"), nowhere.err)
    }

    func testUndoFindsTheScoreByItsNameFromAnywhereInTheLibrary() throws {
        let widmung = piano.appendingPathComponent("Schumann - Widmung.pdf").path
        let before = try sha256(widmung)
        try invoke(["meta", "set", widmung, "--rating", "4"], in: elsewhere)
        XCTAssertNotEqual(try sha256(widmung), before)
        let listed = try invoke(["undo", "Schumann - Widmung.pdf", "--list"], in: library)
        XCTAssertTrue(listed.out.contains("folio meta set"), listed.out)
        let undone = try invoke(["undo", "Schumann - Widmung.pdf"], in: library.appendingPathComponent("Чайковский"))
        XCTAssertTrue(undone.out.hasPrefix("Klavír – Romantici/Schumann - Widmung.pdf: undid folio meta set"), undone.out)
        XCTAssertEqual(try sha256(widmung), before, "byte-identical after the undo")
        // A name several files have, and a file with no library, say so.
        let ambiguous = try invoke(["undo", "Ukolébavka.pdf"], in: library, status: 64)
        XCTAssertTrue(ambiguous.err.contains("names 2 catalogued files"), ambiguous.err)
        let stray = try invoke(["undo", "Cizí.pdf"], in: elsewhere, status: 1)
        XCTAssertTrue(stray.err.contains("no library in"), stray.err)
    }

    /// `library show` names who the file credits beyond forScore's fields, by role: the composer
    /// LilyPond wrote (with the command that writes it where forScore reads), the arranger and the
    /// poet, who are never composers.
    func testShowNamesTheFilesCreditsByRole() throws {
        let lily = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Fixtures/Engravers/lilypond-chopin.pdf").path
        let target = library.appendingPathComponent("Чайковский/Nocturne – 夜想曲.pdf").path
        try TestEnvironment.copy(atPath: lily, toPath: target)
        try invoke(["library", "scan", library.path, "--quiet"])
        let shown = try invoke(["library", "show", "Nocturne – 夜想曲.pdf"], in: library).out
        let lines = shown.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasSuffix(" — Frédéric Chopin") == true, shown)
        XCTAssertTrue(lines.contains("  composer: Frédéric Chopin (the file's /Composer, not forScore's fields: folio meta adopt \"\(target)\" writes it)"), shown)
        XCTAssertTrue(lines.contains("  arranger: Дмитрий Шостакович (the file's /Arranger; not counted as a composer)"), shown)
        XCTAssertTrue(lines.contains("  lyricist: 李白 (the file's /Poet; forScore has no field for a lyricist)"), shown)
        let json = try invoke(["library", "show", target, "--json"], in: elsewhere).out
        let object = try XCTUnwrap(try TestEnvironment.jsonLines(json).first)
        let credits = try XCTUnwrap(object["credits"] as? [[String: String]])
        XCTAssertEqual(credits.map { $0["role"] ?? "" }, ["composer", "arranger", "lyricist"])
        XCTAssertEqual(object["composers"] as? [String], ["Frédéric Chopin"])
    }
}
