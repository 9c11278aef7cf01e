@testable import FolioPDF
import FolioTestSupport
import Foundation
import XCTest

/// Layers found by an application's own entry, not their name, and annotations carrying such
/// entries: read back by pikepdf and `qpdf --check`; names unique in a document.
final class KeyedLayerTests: XCTestCase {
    private var root: URL!
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-keyed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    /// Marks of two people who share a name, each in the layer their key finds: the second gets
    /// a layer of its own, numbered; a renamed owner's next mark joins their first layer; the
    /// entries are in the file as text; a name used on one page is refused on another.
    func testALayerIsFoundByItsKeyAndNamedUniquely() throws {
        let path = root.appendingPathComponent("Clair de lune.pdf").path
        try TestEnvironment.copy(atPath: Self.samples.appendingPathComponent("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf").path,
                                         toPath: path)
        func mark(page: Int, text: String, key: String, layer: String, name: String) throws {
            try PDFSaver.update(path: path) { document in
                var draft = PDFAnnotationDraft(kind: .freeText)
                draft.rect = PDFRect(x1: 40, y1: 40, x2: 240, y2: 64)
                draft.contents = text
                draft.name = name
                draft.entries = ["FolioMember": key]
                draft.optionalContent = try document.optionalContentGroup(marked: ["FolioMember": key], named: layer)
                try document.addAnnotation(draft, toPage: page - 1)
            }
        }
        try mark(page: 1, text: "Борис: pizz.", key: "k-old-boris", layer: "Boris — Viola", name: "m1")
        try mark(page: 2, text: "boris: arco", key: "k-new-boris", layer: "Boris — Viola", name: "m2")
        try mark(page: 3, text: "Борис: ritard.", key: "k-old-boris", layer: "Boris — Viola 2", name: "m3")
        let read = try TestEnvironment.python("""
            import pikepdf, subprocess, sys
            assert subprocess.run(["qpdf", "--check", sys.argv[1]], capture_output=True).returncode == 0
            pdf = pikepdf.open(sys.argv[1])
            groups = sorted(f"{g.Name}={g.FolioMember}" for g in pdf.Root.OCProperties.OCGs)
            marks = sorted(f"{a.Contents}@{a.OC.Name}#{a.FolioMember}" for p in pdf.pages for a in p.get("/Annots", []) if a.get("/Subtype") == "/FreeText")
            print(";".join(groups)); print(";".join(marks))
            """, path)
        XCTAssertEqual(read, """
            Boris — Viola (2)=k-new-boris;Boris — Viola=k-old-boris
            boris: arco@Boris — Viola (2)#k-new-boris;Борис: pizz.@Boris — Viola#k-old-boris;Борис: ritard.@Boris — Viola#k-old-boris
            """)
        let document = try PDFDocument(source: try ByteSource(path: path))
        XCTAssertEqual(document.optionalContentGroups.map(\.entries), [["FolioMember": "k-old-boris"], ["FolioMember": "k-new-boris"]])
        XCTAssertEqual(document.annotation(named: "m2")?.pageIndex, 1)
        XCTAssertNil(document.annotation(named: "m4"))
        // Without entries, the layer is found by its name as before.
        XCTAssertEqual(try document.optionalContentGroup(marked: [:], named: "Boris — Viola"), document.optionalContentGroups.first?.reference)
        // A name another page's mark has is refused, the file untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try mark(page: 4, text: "x", key: "k-new-boris", layer: "Boris — Viola", name: "m1")) { error in
            XCTAssertTrue("\(error)".contains("already on page 1"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }
}
