import FolioTestSupport
import Foundation
import XCTest

/// One rule for every command (README, "Exit codes"): partial application is not success;
/// usage errors exit 64 naming the option or argument; `--json` prints one object a line;
/// `--dry-run` writes nothing (sha256 before and after); unreadable files are flagged in
/// listings. Run from a folder that is not the library, with absolute and relative paths.
final class CommandConventionsTests: CommandTestCase, @unchecked Sendable {
    private var library = ""
    private var elsewhere: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        library = path("Notenarchiv – Нотный архив")
        elsewhere = root.appendingPathComponent("anderswo")
        for folder in [library, elsewhere.path] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        for (sample, name) in [("Brahms-Cancion_de_Cuna.pdf", "Wiegenlied – Колыбельная.pdf"),
                               ("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf", "Clair de lune – 月の光.pdf")] {
            try FileManager.default.copyItem(atPath: samples.appendingPathComponent(sample).path, toPath: library + "/" + name)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: library + "/" + name)
        }
        try Data("kein PDF – не PDF\n".utf8).write(to: URL(fileURLWithPath: library + "/Kaputt – Сломано.pdf"))
    }

    private func pageCount(_ path: String) throws -> Int {
        Int(try TestEnvironment.python("import pikepdf,sys; pdf = pikepdf.open(sys.argv[1]); print(len(pdf.pages))", path)) ?? -1
    }

    func testUnknownOptionsAndStrayArgumentsAreNamed() throws {
        let score = library + "/Wiegenlied – Колыбельная.pdf"
        let misspelt = try invoke(["meta", "set", score, "--ratng", "3"], in: elsewhere, status: 64)
        XCTAssertTrue(misspelt.err.contains("unknown option '--ratng'; did you mean '--rating'?"), misspelt.err)
        let alone = try invoke(["info", "--warnigns", score], in: elsewhere, status: 64)
        XCTAssertTrue(alone.err.contains("did you mean '--warnings'?"), alone.err)
        let stray = try invoke(["annot", "remove", score, "Ω-7"], in: elsewhere, status: 64)
        XCTAssertTrue(stray.err.contains("unexpected argument 'Ω-7'"), stray.err)
        let nothingNear = try invoke(["check", score, "--ξξξξξξξξ"], in: elsewhere, status: 64)
        XCTAssertTrue(nothingNear.err.contains("folio check --help lists its options"), nothingNear.err)
        // Help is no usage error, and an option's value is not taken for an option.
        XCTAssertTrue(try invoke(["help", "meta", "set"], in: elsewhere).out.contains("--rating"))
        try invoke(["meta", "set", score, "--title=--ratng", "--dry-run"], in: elsewhere)
        let missing = try invoke(["meta", "set", score, "--title", "--ratng"], in: elsewhere, status: 64)
        XCTAssertTrue(missing.err.contains("--title"), missing.err)
    }

    func testPartialApplicationIsNotSuccess() throws {
        try invoke(["library", "scan", library, "--quiet"], in: elsewhere, status: 1)   // the broken file
        let score = library + "/Clair de lune – 月の光.pdf"
        let before = try sha256(score)
        let index = elsewhere.appendingPathComponent("obsah.csv").path
        try "Title,Start Page\nClair de lune,1\nБ,40\nΓ,50\n".write(toFile: index, atomically: true, encoding: .utf8)
        let refused = try invoke(["toc", "set", score, "--from", "obsah.csv"], in: elsewhere, status: 64)
        XCTAssertTrue(refused.err.contains("start page 40 is out of range"), refused.err)
        XCTAssertTrue(refused.err.contains("nothing was changed (2 of 3 rows cannot be used)"), refused.err)
        XCTAssertEqual(try sha256(score), before)
        let planned = try invoke(["toc", "set", score, "--from", index, "--skip-invalid", "--dry-run"], in: elsewhere)
        XCTAssertTrue(planned.out.contains("Clair de lune  —  page 1"), planned.out)
        XCTAssertEqual(try sha256(score), before, "a dry run writes nothing")
        try invoke(["toc", "set", score, "--from", index, "--skip-invalid"], in: elsewhere)
        let outline = try TestEnvironment.python("""
            import pikepdf,sys
            pdf = pikepdf.open(sys.argv[1])
            with pdf.open_outline() as outline: print([item.title for item in outline.root])
            """, score)
        XCTAssertEqual(outline, "['Clair de lune']")

        // A library CSV whose every row is skipped: folio add exits 1, as import-csv does.
        let csv = elsewhere.appendingPathComponent("export.csv").path
        try "Filename,Title\nNení tady – Нет.pdf,Ничто\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let added = try invoke(["add", csv, "--library", library], in: elsewhere, status: 1)
        XCTAssertTrue(added.out.contains("1 row(s) skipped"), added.out)
        try invoke(["library", "import-csv", csv, "--library", library], in: elsewhere, status: 1)
    }

    func testDryRunsWriteNothing() throws {
        try invoke(["library", "scan", library, "--quiet"], in: elsewhere, status: 1)
        let score = library + "/Clair de lune – 月の光.pdf"
        let pages = try pageCount(score)
        XCTAssertGreaterThan(pages, 1)
        let before = try sha256(score)
        let removed = try invoke(["pages", "delete", score, "--pages", "1", "--dry-run"], in: elsewhere)
        XCTAssertTrue(removed.out.contains("deleted 1 page(s); \(pages - 1) left"), removed.out)
        XCTAssertTrue(removed.err.contains("dry run, nothing written"), removed.err)
        let mark = try invoke(["annot", "add", score, "--type", "square", "--page", "1", "--rect", "10,10,50,50",
                               "--dry-run", "--json"], in: elsewhere)
        let added = try XCTUnwrap(try TestEnvironment.jsonLines(mark.out).first)
        XCTAssertEqual(added["page"] as? Int, 1)
        try invoke(["annot", "remove", score, "--id", try XCTUnwrap(added["id"] as? String), "--dry-run"], in: elsewhere, status: 1)
        let meta = try invoke(["meta", "set", score, "--title", "Mondschein – Лунный свет", "--dry-run", "--json"], in: elsewhere)
        let change = try XCTUnwrap(try TestEnvironment.jsonLines(meta.out).first)
        XCTAssertEqual(change["after"] as? String, "Mondschein – Лунный свет")
        XCTAssertEqual(change["applied"] as? Bool, false)
        XCTAssertEqual(try sha256(score), before)
        XCTAssertEqual(try pageCount(score), pages)

        try invoke(["setlist", "create", "Konzert – Концерт", "--library", library], in: elsewhere)
        try invoke(["setlist", "add", "Konzert – Концерт", "Clair de lune – 月の光.pdf", "--library", library], in: elsewhere)
        let wouldDelete = try invoke(["setlist", "delete", "Konzert – Концерт", "--dry-run", "--library", library], in: elsewhere)
        XCTAssertTrue(wouldDelete.out.contains("would delete setlist Konzert – Концерт (1 entry"), wouldDelete.out)
        let lists = try TestEnvironment.jsonLines(try invoke(["setlist", "list", "--json", "--library", library], in: elsewhere).out)
        XCTAssertEqual(lists.map { $0["name"] as? String }, ["Konzert – Концерт"], "still there, one object a line")
        let shown = try invoke(["setlist", "show", "Konzert – Концерт", "--json", "--library", library], in: elsewhere).out
        XCTAssertEqual(shown.split(separator: "\n").count, 1, shown)
    }

    func testUnreadableFilesAreFlaggedInListings() throws {
        let scan = try invoke(["library", "scan", library, "--json"], in: elsewhere, status: 1)
        let summary = try XCTUnwrap(try TestEnvironment.jsonLines(scan.out).first)
        XCTAssertEqual(summary["found"] as? Int, 3)
        XCTAssertEqual((summary["unreadable"] as? [String])?.count, 1)
        XCTAssertTrue(((summary["unreadable"] as? [String])?.first ?? "").hasPrefix("Kaputt – Сломано.pdf: "))
        let listed = try TestEnvironment.jsonLines(try invoke(["library", "list", library, "--json"], in: elsewhere).out)
        let flagged = listed.filter { $0["unreadable"] is String }.map { $0["path"] as? String }
        XCTAssertEqual(flagged, ["Kaputt – Сломано.pdf"])
        let text = try invoke(["library", "list", library], in: elsewhere).out
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("Kaputt") })
        XCTAssertTrue(line.contains("[unreadable: "), String(line))
        XCTAssertFalse(text.split(separator: "\n").contains { $0.contains("Wiegenlied") && $0.contains("unreadable") })
    }
}
