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
            try TestEnvironment.copy(atPath: samples.appendingPathComponent(sample).path, toPath: library + "/" + name)
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
        XCTAssertEqual(removed.out, "would delete 1 page(s) (1), leaving \(pages - 1)\n", "said in the conditional")
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

    /// The catalog's content, row by row, as SQLite itself dumps it (Python's sqlite3).
    private func catalogDump() throws -> String {
        try TestEnvironment.python("""
            import sqlite3, sys
            print("\\n".join(sqlite3.connect(sys.argv[1]).iterdump()))
            """, library + "/.folio/library.sqlite")
    }

    /// Commands that only read, or only make a file that was not there (an export, a new
    /// document), or add to what is there: every other command deletes or rewrites, and must
    /// take `--dry-run`. The list comes from the command tree itself, so a new command is
    /// checked the day it is added.
    func testEveryCommandThatDeletesOrRewritesTakesDryRun() throws {
        let readOrAdd: Set<String> = [
            "info", "check", "meta get", "meta export", "toc show", "bookmarks list", "bookmarks export",
            "bookmarks from-toc", "annot list", "annot export", "library scan", "library list", "library search",
            "library show", "library facets", "library export-csv", "library export-mobilesheets", "library duplicates",
            "library bench-search", "library backup", "lint", "links list", "setlist list", "setlist show", "setlist create", "setlist add",
            "setlist export", "setlist pdf", "tracks list", "tracks link", "parts list", "export-4sc", "pages extract",
            "make", "serve", "help", "members add", "members list", "members invite",
        ]
        let tree = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try invoke(["--experimental-dump-help"]).out.utf8))
            as? [String: Any])
        var leaves: [(String, Set<String>)] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            if subcommands.isEmpty {
                let names = (command["arguments"] as? [[String: Any]] ?? []).flatMap { $0["names"] as? [[String: Any]] ?? [] }
                leaves.append((path.joined(separator: " "), Set(names.compactMap { $0["kind"] as? String == "long" ? $0["name"] as? String : nil })))
            }
            for sub in subcommands { walk(sub, path + [sub["commandName"] as? String ?? "?"]) }
        }
        walk(try XCTUnwrap(tree["command"] as? [String: Any]), [])
        XCTAssertGreaterThan(leaves.count, 80)
        let missing = leaves.filter { !readOrAdd.contains($0.0) && !$0.1.contains("dry-run") }.map(\.0)
        XCTAssertEqual(missing, [], "commands that delete or rewrite without --dry-run")
        XCTAssertEqual(Set(readOrAdd).subtracting(leaves.map(\.0)), [], "names in the list that are no command")
    }

    /// Each file command's dry run reports the change and leaves every byte as it was, the
    /// CSV index of `--store csv` included (it is not created).
    func testFileDryRunsReportAndWriteNothing() throws {
        try invoke(["library", "scan", library, "--quiet"], in: elsewhere, status: 1)
        let score = library + "/Clair de lune – 月の光.pdf"
        let relative = "../Notenarchiv – Нотный архив/Clair de lune – 月の光.pdf"
        let bookmark = try invoke(["bookmarks", "add", score, "--name", "Ça ira – 月", "--page", "2"], in: elsewhere)
        let id = bookmark.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let before = try sha256(score)
        let catalog = try catalogDump()

        for (arguments, said) in [
            (["bookmarks", "add", relative, "--name", "Trio – 三重奏", "--page", "3", "--store", "csv"], "dry run, nothing written"),
            (["bookmarks", "rename", score, "--id", id, "--name", "Refrain – Припев"], "dry run, nothing written"),
            (["bookmarks", "remove", relative, "--id", id], "dry run, nothing written"),
            (["bookmarks", "dedupe", score], "0 duplicate bookmarks would be removed"),
            (["set-info", relative, "--entry", "Title=Mondschein – 月光", "--remove", "Author"], "Title: "),
            (["rewrite", score, score, "--object-streams"], "would have "),
        ] {
            let run = try invoke(arguments + ["--dry-run"], in: elsewhere)
            XCTAssertTrue((run.out + run.err).contains(said), "\(arguments): \(run.out) \(run.err)")
            XCTAssertEqual(try sha256(score), before, "\(arguments) wrote")
        }
        let info = try invoke(["set-info", score, "--entry", "Title=Mondschein – 月光", "--dry-run"], in: elsewhere).out
        XCTAssertTrue(info.contains("→ Mondschein – 月光"), info)
        XCTAssertFalse(FileManager.default.fileExists(atPath: library + "/Clair de lune – 月の光.csv"), "the index was written")

        let dictionary = elsewhere.appendingPathComponent("forScore – 字典.json").path
        try #"{"title": "Лунный свет", "rating": 4}"#.write(toFile: dictionary, atomically: true, encoding: .utf8)
        let applied = try invoke(["meta", "apply", relative, "--from", dictionary, "--dry-run"], in: elsewhere).out
        XCTAssertTrue(applied.contains("→ Лунный свет"), applied)
        XCTAssertTrue(applied.contains("rating"), applied)
        XCTAssertTrue(try catalogDump() == catalog, "a dry run changed the catalog")

        let marks = elsewhere.appendingPathComponent("marks.json").path
        try invoke(["annot", "add", score, "--type", "freetext", "--page", "1", "--rect", "40,40,200,80", "--text", "dolce – 甘く"],
                   in: elsewhere)
        try invoke(["annot", "export", score], in: elsewhere).out.write(toFile: marks, atomically: true, encoding: .utf8)
        try invoke(["undo", score], in: elsewhere)
        let unmarked = try sha256(score)
        let imported = try invoke(["annot", "import", score, "--from", marks, "--dry-run"], in: elsewhere).out
        XCTAssertTrue(imported.contains("would add 1 annotation"), imported)
        XCTAssertEqual(try sha256(score), unmarked)
        XCTAssertEqual(unmarked, before, "undo took the mark back")
    }

    /// The catalog's dry runs (setlists, parts, undo) answer as the change would, with its
    /// refusals, and leave the catalog as it was, row for row.
    func testCatalogDryRunsAnswerAndChangeNothing() throws {
        try invoke(["library", "scan", library, "--quiet"], in: elsewhere, status: 1)
        let score = library + "/Clair de lune – 月の光.pdf"
        let gig = "Konzert – Концерт"
        try invoke(["setlist", "create", gig, "--library", library], in: elsewhere)
        try invoke(["setlist", "add", gig, "Clair de lune – 月の光.pdf", "--library", library], in: elsewhere)
        try invoke(["setlist", "add", gig, "Wiegenlied – Колыбельная.pdf", "--library", library], in: elsewhere)
        try invoke(["setlist", "add", gig, "--placeholder", "Zugabe – アンコール", "--library", library], in: elsewhere)
        try invoke(["meta", "set", score, "--rating", "4"], in: elsewhere)
        try invoke(["setlist", "create", "Probe", "--library", library], in: elsewhere)
        let before = try catalogDump()
        let file = try sha256(score)

        let library = ["--library", self.library, "--dry-run"]
        XCTAssertEqual(try invoke(["setlist", "move", gig, "3", "1"] + library, in: elsewhere).out,
                       "would move 3. Zugabe – アンコール to 1\n")
        XCTAssertEqual(try invoke(["setlist", "remove", gig, "2"] + library, in: elsewhere).out,
                       "would remove 2. Cancion de Cuna\n", "the entry by its title")
        XCTAssertTrue(try invoke(["setlist", "rename", gig, "Matinee – 午前", "--folder", "2026"] + library, in: elsewhere)
            .out.contains("would become setlist Matinee – 午前 in 2026"))
        let outOfRange = try invoke(["setlist", "move", gig, "3", "9"] + library, in: elsewhere, status: 64)
        XCTAssertTrue(outOfRange.err.contains("position 9 is out of range (valid: 1 to 3)"), outOfRange.err)
        let taken = try invoke(["setlist", "rename", gig, "Probe"] + library, in: elsewhere, status: nil)
        XCTAssertNotEqual(taken.status, 0)
        XCTAssertTrue(taken.err.contains("already exists"), taken.err)
        let part = try invoke(["parts", "set", "Clair de lune – 月の光.pdf", "Violine 2", "--song", "Suite – 組曲"] + library, in: elsewhere)
        XCTAssertTrue(part.out.hasPrefix("would read: Suite – 組曲\t"), part.out)
        XCTAssertTrue(part.out.contains("Violine 2"), part.out)
        let undo = try invoke(["undo", score, "--dry-run", "--json"], in: elsewhere)
        let planned = try XCTUnwrap(try TestEnvironment.jsonLines(undo.out).first)
        XCTAssertEqual(planned["change"] as? String, "folio meta set")
        XCTAssertEqual(planned["undone"] as? Bool, false)
        XCTAssertEqual(try invoke(["undo", score, "--list", "--dry-run"], in: elsewhere, status: 64).status, 64)

        XCTAssertTrue(try catalogDump() == before, "a dry run changed the catalog")
        XCTAssertEqual(try sha256(score), file)

        // --json on undo: the list one change a line, then the undo itself.
        let listed = try TestEnvironment.jsonLines(try invoke(["undo", score, "--list", "--json"], in: elsewhere).out)
        XCTAssertEqual(listed.map { $0["undoable"] as? Bool }, [true])
        let undone = try XCTUnwrap(try TestEnvironment.jsonLines(try invoke(["undo", score, "--json"], in: elsewhere).out).first)
        XCTAssertEqual(undone["undone"] as? Bool, true)
        XCTAssertNotEqual(try sha256(score), file)
        let nothing = try invoke(["undo", score, "--dry-run"], in: elsewhere, status: 1)
        XCTAssertTrue(nothing.err.contains("nothing to undo"), nothing.err)
    }
}
