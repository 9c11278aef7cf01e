import FolioTestSupport
import Foundation
import XCTest

/// `folio` edits a catalogued score through the library's edit path: the catalog shows the
/// change without a scan, and `folio undo` lists and takes back what was saved.
final class UndoCommandTests: CommandTestCase, @unchecked Sendable {
    func testMetaSetKeepsTheCatalogCurrentAndUndoTakesItBack() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        try FileManager.default.createDirectory(atPath: path("Sbor"), withIntermediateDirectories: true)
        let score = path("Sbor/Janáček – Otčenáš.pdf")
        try TestEnvironment.copy(atPath: samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path, toPath: score)
        let original = try Data(contentsOf: URL(fileURLWithPath: score))
        try invoke(["library", "scan", root.path])
        try invoke(["meta", "set", score, "--rating", "3", "--title", "Otčenáš – Отче наш"])
        let listed = try invoke(["library", "list", root.path, "--rating", "3"])
        XCTAssertTrue(listed.out.contains("Otčenáš – Отче наш"), "found without a scan: \(listed.out)")
        try invoke(["meta", "set", score, "--rating", "5"])
        let changes = try invoke(["undo", "--list", score])
        XCTAssertEqual(changes.out.split(separator: "\n").count, 2, changes.out)
        XCTAssertTrue(changes.out.split(separator: "\n").first?.contains("folio meta set (undoable)") == true, changes.out)
        let undone = try invoke(["undo", score])
        XCTAssertTrue(undone.out.contains("undid folio meta set"), undone.out)
        XCTAssertTrue(try invoke(["library", "list", root.path, "--rating", "3"]).out.contains("Otčenáš"))
        try invoke(["undo", score])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: score)), original, "back to the original bytes")
        // A single-file edit (a mark, a page turned) goes the same way, named after its command.
        try invoke(["annot", "add", score, "--type", "square", "--page", "1", "--rect", "20,20,80,40"])
        try invoke(["pages", "rotate", score, "--pages", "1", "--by", "90"])
        try invoke(["bookmarks", "add", score, "--name", "Amen – Аминь", "--page", "1"])
        let listedMarks = try invoke(["library", "search", root.path, "--text", "Аминь", "--json"])
        XCTAssertTrue(listedMarks.out.contains("Amen – Аминь"), "the bookmark is searchable without a scan: \(listedMarks.out)")
        let three = try invoke(["undo", "--list", score])
        XCTAssertTrue(three.out.contains("folio bookmarks add (undoable)") && three.out.contains("folio pages rotate")
                      && three.out.contains("folio annot add"), three.out)
        for _ in 0..<3 { try invoke(["undo", score]) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: score)), original)
        // The PDF's own table of contents and Info entries, and a batch over the library, too.
        let toc = path("toc.csv")
        try "Title,Start\nAmen – Аминь,1\n".write(toFile: toc, atomically: true, encoding: .utf8)
        try invoke(["toc", "set", score, "--from", toc])
        try invoke(["set-info", score, "--entry", "Subject=Chorál – Хорал"])
        try invoke(["meta", "from-names", "--library", root.path, "--pattern", "{*}/{composer} – {title}", "--overwrite"])
        let more = try invoke(["undo", "--list", score])
        XCTAssertTrue(more.out.contains("folio toc set") && more.out.contains("folio set-info")
                      && more.out.contains("folio meta from-names"), more.out)
        let subject = String(decoding: try TestEnvironment.runTool("exiftool", ["-s3", "-Subject", score]).stdout, as: UTF8.self)
        XCTAssertTrue(subject.contains("Chorál – Хорал"), subject)
        while try invoke(["undo", "--list", score]).out.contains("(undoable)") { try invoke(["undo", score]) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: score)), original)
        let nothing = try invoke(["undo", score], status: 1)
        XCTAssertTrue(nothing.err.contains("nothing to undo"), nothing.err)
        // An earlier change taken back by its number; the changes after it stay.
        try invoke(["annot", "add", score, "--type", "square", "--page", "1", "--rect", "20,20,80,40", "--text", "první – первый"])
        try invoke(["pages", "rotate", score, "--pages", "1", "--by", "90"])
        let recorded = try TestEnvironment.jsonLines(try invoke(["undo", "--list", "--json", score]).out)
        let added = try XCTUnwrap(recorded.dropFirst().first?["id"] as? Int, "\(recorded)")
        XCTAssertEqual(recorded.dropFirst().first?["change"] as? String, "folio annot add")
        XCTAssertEqual(try invoke(["undo", score, "--change", "\(added)", "--list"], status: 64).status, 64)
        let taken = try invoke(["undo", score, "--change", "\(added)"])
        XCTAssertTrue(taken.out.contains("took back folio annot add"), taken.out)
        let state = try TestEnvironment.python("""
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            print(len([a for a in pdf.pages[0].get("/Annots", []) if a.get("/Subtype") == "/Square"]), int(pdf.pages[0].get("/Rotate", 0)))
            """, score)
        XCTAssertEqual(state, "0 90", "the square gone, the turn kept")
        let again = try invoke(["undo", score, "--change", "\(added)"], status: 1)
        XCTAssertTrue(again.err.contains("taken back already"), again.err)
        XCTAssertEqual(try invoke(["undo", score, "--change", "123456789"], status: 1).status, 1)
        // A file in no library is edited in place, and has nothing to undo.
        let loose = FileManager.default.temporaryDirectory.appendingPathComponent("folio-loose-\(UUID().uuidString).pdf").path
        defer { try? FileManager.default.removeItem(atPath: loose) }
        try TestEnvironment.copy(atPath: score, toPath: loose)
        try invoke(["meta", "set", loose, "--rating", "2"])
        let none = try invoke(["undo", loose], status: 1)
        XCTAssertTrue(none.err.contains("no library in"), none.err)
    }
}
