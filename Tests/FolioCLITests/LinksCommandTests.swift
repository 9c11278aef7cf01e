import FolioTestSupport
import Foundation
import XCTest

/// `folio links` and `folio lint`'s point-and-click rule, and `folio bookmarks move`, as a
/// user runs them; what they write is read back by pikepdf, PyMuPDF and qpdf.
final class LinksCommandTests: CommandTestCase, @unchecked Sendable {
    /// Runs Python with `script` and arguments; its standard output as JSON.
    private func python(_ script: String, _ arguments: [String]) throws -> Any {
        let run = try TestEnvironment.runTool("python3", ["-c", script] + arguments)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        return try JSONSerialization.jsonObject(with: run.stdout, options: .fragmentsAllowed)
    }

    /// LilyPond's point-and-click links over the first two pages (to a file in a Russian
    /// user's folder); prints nothing.
    private let engrave = """
        import sys, pikepdf
        with pikepdf.open(sys.argv[1], allow_overwriting_input=True) as pdf:
            for page in list(pdf.pages)[:2]:
                annots = page.obj.get("/Annots") or pikepdf.Array()
                for i in range(60):
                    x, y = 60 + (i % 20) * 20, 300 + (i // 20) * 40
                    annots.append(pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link,
                        Rect=[x, y, x + 10, y + 12], Border=[0, 0, 0], A=pikepdf.Dictionary(S=pikepdf.Name.URI,
                        URI=pikepdf.String("textedit:///home/%D0%94%D0%BC%D0%B8%D1%82%D1%80%D0%B8%D0%B9/sonatina.ly:" + str(i + 1) + ":2:3")))))
                page.obj.Annots = annots
            pdf.save(sys.argv[1])
        print("null")
        """

    /// Per page: [point-and-click links, other links, [page, x, y, w, h] of each GoTo link (PyMuPDF)].
    private let links = """
        import sys, json, pikepdf, pymupdf
        result = []
        with pikepdf.open(sys.argv[1]) as pdf:
            for page in pdf.pages:
                uris = [str(a.A.get("/URI", "")) for a in page.obj.get("/Annots", []) if a.get("/Subtype") == "/Link" and "/A" in a]
                result.append([sum(u.startswith("textedit:") for u in uris), sum(1 for a in page.obj.get("/Annots", [])
                               if a.get("/Subtype") == "/Link") - sum(u.startswith("textedit:") for u in uris), []])
        document = pymupdf.open(sys.argv[1])
        for number in range(document.page_count):
            page = document[number]
            for link in page.get_links():
                if link["kind"] == pymupdf.LINK_GOTO:
                    r = link["from"]
                    result[number][2].append([link["page"] + 1, round(r.x0, 1), round(r.y0, 1), round(r.width, 1), round(r.height, 1)])
        print(json.dumps(result))
        """

    func testLintRemovesPointAndClickAndLinksAddJumps() throws {
        let file = path("Sonatina — Сонатина.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Clementi-Sonatina_O_36.pdf"), toPath: file)
        _ = try python(engrave, [file])
        let before = try XCTUnwrap(try python(links, [file]) as? [[Any]])
        XCTAssertEqual(before.map { $0[0] as? Int }, [60, 60, 0])
        let problems = try TestEnvironment.qpdfProblems(file)

        let lint = try invoke(["lint", file], status: 2)
        XCTAssertTrue(lint.out.contains("point-and-click: 120 point-and-click links"), lint.out)
        XCTAssertTrue(lint.out.contains("/home/Дмитрий/sonatina.ly"), lint.out)
        let engraved = try Data(contentsOf: URL(fileURLWithPath: file))
        try invoke(["lint", file, "--fix"])
        let fixed = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertTrue(fixed.starts(with: engraved), "one incremental update")
        let after = try XCTUnwrap(try python(links, [file]) as? [[Any]])
        XCTAssertEqual(after.map { $0[0] as? Int }, [0, 0, 0], "no point-and-click link left")
        XCTAssertEqual(after.map { $0[1] as? Int }, before.map { $0[1] as? Int }, "the score's own links stay")
        XCTAssertEqual(try TestEnvironment.qpdfProblems(file), problems)
        XCTAssertFalse(try invoke(["lint", file], status: nil).out.contains("point-and-click"))

        // A D.S. on page 3 back to page 1, every viewer following it.
        let id = try invoke(["links", "add", file, "--from", "3:400,700,60,40", "--to", "1"]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let jumps = try XCTUnwrap(try python(links, [file]) as? [[Any]])
        XCTAssertEqual(jumps[2][2] as? [[Double]], [[1, 400, 700, 60, 40]])
        XCTAssertEqual(try TestEnvironment.qpdfProblems(file), problems)
        let listed = try invoke(["links", "list", file, "--page", "3", "--json"]).out
        XCTAssertTrue(listed.contains(#""id":"\#(id)""#) && listed.contains(#""kind":"page","target":1"#), listed)

        let untouched = try Data(contentsOf: URL(fileURLWithPath: file))
        let refused = try invoke(["links", "add", file, "--from", "3:400,700,60,40", "--to", "9"], status: 64)
        XCTAssertTrue(refused.err.contains("valid: 1 to 3"), refused.err)
        let badPlace = try invoke(["links", "add", file, "--from", "3:400,700", "--to", "1"], status: 64)
        XCTAssertTrue(badPlace.err.contains("PAGE:x,y,width,height"), badPlace.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), untouched)
    }

    func testBookmarksMoveKeepsTheCustomOrderInTheXMP() throws {
        let file = path("Suite.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Mozart-Fantasy_in_D_minor_KV_397.pdf"), toPath: file)
        var ids: [String] = []
        for (name, page) in [("Andante — Ανδάντε", "1"), ("Adagio — アダージョ", "2"), ("Allegretto — Аллегретто", "5")] {
            ids.append(try invoke(["bookmarks", "add", file, "--name", name, "--page", page]).out
                .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try invoke(["bookmarks", "move", file, "--id", ids[2], "--before", ids[0]])
        try invoke(["bookmarks", "rename", file, "--id", ids[1], "--name", "Adagio — 遅く"])
        let order = """
            import sys, json, pikepdf
            with pikepdf.open(sys.argv[1]) as pdf:
                listed = json.loads(str(pdf.open_metadata()["{http://pspdfkit.com/pdf/xmp/1.0/}Bookmarks"]))
            print(json.dumps([[b["name"], b.get("sortKey"), b["action"]["pageIndex"]] for b in listed]))
            """
        let stored = try XCTUnwrap(try python(order, [file]) as? [[Any]])
        XCTAssertEqual(stored.map { $0[0] as? String }, ["Allegretto — Аллегретто", "Andante — Ανδάντε", "Adagio — 遅く"])
        XCTAssertEqual(stored.map { $0[1] as? Int }, [0, 1, 2])
        XCTAssertEqual(stored.map { $0[2] as? Int }, [4, 0, 1])
        let custom = try invoke(["bookmarks", "list", file, "--order", "custom", "--json"]).out
        let names = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(custom.utf8)) as? [String: Any])?["bookmarks"] as? [[String: Any]])
            .compactMap { $0["name"] as? String }
        XCTAssertEqual(names, ["Allegretto — Аллегретто", "Andante — Ανδάντε", "Adagio — 遅く"])
        let untouched = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertTrue(try invoke(["bookmarks", "move", file, "--id", ids[0], "--before", ids[0]], status: 64).err.contains("before itself"))
        XCTAssertTrue(try invoke(["bookmarks", "move", file, "--id", "nope"], status: 1).err.contains("no bookmark has the id nope"))
        XCTAssertTrue(try invoke(["bookmarks", "add", file, "--name", "Coda", "--page", "7"], status: 64).err.contains("valid: 1 to 6"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), untouched)
    }
}
