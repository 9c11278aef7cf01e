@testable import FolioPDF
import FolioTestSupport
import Foundation
import XCTest

/// Taking back one earlier revision and keeping the later ones: marks of two people on one
/// page, each in their own layer; one person's first mark taken back leaves the other's and
/// their own later mark (and the layer it uses) in place — read back by pikepdf, PyMuPDF and
/// qpdf. A later revision that changed the same mark is a conflict and changes nothing;
/// lengths that are not revisions are refused.
final class TakeBackTests: XCTestCase {
    private var root: URL!
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-takeback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func length(_ path: String) throws -> Int { try ByteSource(path: path).count }

    /// An edit adding a `kind` mark saying `text` (named `name`) to page 1, in the layer `layer`.
    private func marking(_ kind: PDFAnnotationKind, _ text: String, layer: String, name: String) -> (PDFDocument) throws -> Void {
        { document in
            var draft = PDFAnnotationDraft(kind: kind)
            draft.rect = PDFRect(x1: 40, y1: 40, x2: 240, y2: 64)
            draft.contents = text
            draft.name = name
            draft.optionalContent = try document.optionalContentGroup(named: layer)
            try document.addAnnotation(draft, toPage: 0)
        }
    }

    /// Adds a FreeText mark saying `text` to page 1 in the layer `layer`; returns the file's length after.
    @discardableResult
    private func mark(_ path: String, _ text: String, layer: String, name: String) throws -> Int {
        try PDFSaver.update(path: path, edit: marking(.freeText, text, layer: layer, name: name))
        return try length(path)
    }

    private func marks(_ path: String) throws -> String {
        try TestEnvironment.python("""
            import pikepdf, pymupdf, subprocess, sys
            assert subprocess.run(["qpdf", "--check", sys.argv[1]], capture_output=True).returncode == 0
            pdf = pikepdf.open(sys.argv[1])
            annots = sorted(f"{a.Contents}@{a.OC.Name}" for a in pdf.pages[0].get("/Annots", []) if a.get("/Subtype") == "/FreeText")
            layers = sorted(str(g.Name) for g in pdf.Root.OCProperties.OCGs)
            texts = sorted(a.info["content"] for a in pymupdf.open(sys.argv[1])[0].annots() if a.type[1] == "FreeText")
            print("|".join(annots), ",".join(layers), "|".join(texts))
            """, path)
    }

    func testOnePersonsEarlierMarkIsTakenBackAndEveryLaterRevisionKept() throws {
        let path = root.appendingPathComponent("Wiegenlied.pdf").path
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path, toPath: path)
        let start = try length(path)
        let afterAnna = try mark(path, "Anna – smyčcem", layer: "Anna — Violin II", name: "anna-1")
        try mark(path, "Борис – альт", layer: "Борис — Viola", name: "boris-1")
        try mark(path, "Anna – 弓", layer: "Anna — Violin II", name: "anna-2")
        XCTAssertEqual(try marks(path), "Anna – smyčcem@Anna — Violin II|Anna – 弓@Anna — Violin II|Борис – альт@Борис — Viola "
                       + "Anna — Violin II,Борис — Viola Anna – smyčcem|Anna – 弓|Борис – альт")

        let outcome = try PDFSaver.update(path: path) { try $0.takeBack(revisionFrom: start, to: afterAnna) }
        XCTAssertTrue(outcome.conflicts.isEmpty, "\(outcome)")
        XCTAssertFalse(outcome.kept.isEmpty, "Anna's layer, made by her first mark, is still used by her second")
        // Her first mark is gone; Boris's mark, her second and both layers stay.
        XCTAssertEqual(try marks(path), "Anna – 弓@Anna — Violin II|Борис – альт@Борис — Viola "
                       + "Anna — Violin II,Борис — Viola Anna – 弓|Борис – альт")

        // Taking it back once more changes nothing.
        let again = try PDFDocument(path: path)
        let twice = try again.takeBack(revisionFrom: start, to: afterAnna)
        XCTAssertEqual(twice.restored, [])
        XCTAssertFalse(again.hasChanges)
    }

    func testALaterChangeToTheSameMarkIsAConflictAndNothingChanges() throws {
        let path = root.appendingPathComponent("Greensleeves.pdf").path
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Traditional-Greensleeves_hymntune.pdf").path,
                                         toPath: path)
        let before = try mark(path, "Jana – dech", layer: "Jana — Flute", name: "jana-1")
        let after = try mark(path, "Jana – 息", layer: "Jana — Flute", name: "jana-2")
        try PDFSaver.update(path: path) { document in
            var change = PDFAnnotationChange()
            change.contents = "Jana – 息 (pp)"
            try document.editAnnotation(id: "jana-2", onPage: 0, change)
        }
        let document = try PDFDocument(path: path)
        let outcome = try document.takeBack(revisionFrom: before, to: after)
        XCTAssertFalse(outcome.conflicts.isEmpty, "the mark that revision made was changed after it")
        XCTAssertFalse(document.hasChanges)
        XCTAssertEqual(outcome.restored, [])
    }

    /// Corpus files Folio can mark: two marks in two layers, the first taken back. The
    /// second stays, the first is gone, as pikepdf reads it; qpdf finds no new fault.
    func testTakingBackAMarkWorksOnEveryKindOfFile() throws {
        let oracle = try Oracle.load()
        var manifest: [[String]] = [], failures: [String] = [], refused = 0
        // Every other file of the corpus (sorted by path, so each source and kind is among them).
        for (index, (relative, expected)) in oracle.sorted(by: { $0.key < $1.key }).enumerated()
        where expected.qpdf_pages != nil && index % 2 == 0 {
            let original = try TestEnvironment.corpusFile(relative)
            let path = root.appendingPathComponent("c\(index).pdf").path
            try TestEnvironment.copy(atPath: original, toPath: path)
            let start: Int, end: Int
            do {
                start = try length(path)
                try PDFSaver.update(path: path, password: expected.password, edit: marking(.square, "Ä – první", layer: "Anna", name: "folio-take-1"))
                end = try length(path)
                try PDFSaver.update(path: path, password: expected.password, edit: marking(.square, "Б – второй", layer: "Борис", name: "folio-take-2"))
            } catch {
                refused += 1   // a file Folio does not mark (no page, no permission, damaged)
                continue
            }
            do {
                let outcome = try PDFSaver.update(path: path, password: expected.password) { try $0.takeBack(revisionFrom: start, to: end) }
                if !outcome.conflicts.isEmpty || outcome.restored.isEmpty { failures.append("\(relative): \(outcome)") }
                manifest.append([original, path, expected.password ?? ""])
            } catch let error as PDFError where error.code == .damaged || error.code == .invalidArgument {
                // Cross-reference data rebuilt, or an original that does not end as a revision
                // does (no %%EOF in its last 1,024 bytes), which Undo cannot cut back to either.
                refused += 1
            } catch {
                failures.append("\(relative): \(error)")
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThan(manifest.count, 200, "refused \(refused)")
        let list = root.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: list)
        let wrong = try TestEnvironment.python("""
            import json, pikepdf, subprocess, sys
            def faults(path):
                out = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True).stdout
                return {l for l in out.splitlines() if "WARNING" in l or "ERROR" in l} if "No syntax or stream encoding errors" not in out else set()
            bad = []
            for original, path, password in json.load(open(sys.argv[1])):
                try:
                    pikepdf.open(original, password=password).pages[0]
                except Exception:
                    continue   # pikepdf cannot read the original's pages either
                with pikepdf.open(path, password=password) as pdf:
                    names = {str(a.get("/NM", "")) for a in pdf.pages[0].get("/Annots", []) if isinstance(a, pikepdf.Dictionary)}
                if "folio-take-2" not in names or "folio-take-1" in names:
                    bad.append(f"{original}: {sorted(names)[:5]}")
                elif len(faults(path)) > len(faults(original)):
                    bad.append(f"{original}: qpdf {sorted(faults(path) - faults(original))[:2]}")
            print("\\n".join(bad))
            """, list.path)
        XCTAssertEqual(wrong, "")
    }

    func testLengthsThatAreNotRevisionsAreRefused() throws {
        let path = root.appendingPathComponent("Clair.pdf").path
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf").path,
                                         toPath: path)
        let start = try length(path)
        let end = try mark(path, "Claude – ♩ = 66", layer: "Claude — Piano", name: "c-1")
        let document = try PDFDocument(path: path)
        for (from, to) in [(0, end), (start, end + 1), (end, start), (start, start), (-5, end), (Int.min, Int.max), (start + 7, end),
                           (start, end - 20)] {
            XCTAssertThrowsError(try document.takeBack(revisionFrom: from, to: to), "\(from)–\(to)") { error in
                XCTAssertEqual((error as? PDFError)?.code, .invalidArgument)
            }
        }
        try document.setInfo("Title", to: "Clair de lune")
        XCTAssertThrowsError(try document.takeBack(revisionFrom: start, to: end), "not after another edit")
    }
}
