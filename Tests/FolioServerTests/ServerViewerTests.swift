import FolioLibrary
import FolioPDF
import FolioScore
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// What the score viewer asks of the API (issue 32): bookmarks by hand (added, renamed,
/// moved, in either order), jump links, links listed with where they lead, and new marks in
/// the viewer's settings — each save read back by pikepdf or PyMuPDF, each refusal leaving
/// the file byte-identical.
final class ServerViewerTests: ServerTestCase, @unchecked Sendable {
    private struct Listed: Decodable { let annotations: [ScoreService.Annotation] }

    func testBookmarksByHandAreAddedRenamedAndMovedInTheXMP() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/contents", method: .get).headers[.eTag]
            var ids: [String] = []
            for body in [#"{"name":"Coda — Кода","start":3,"end":4}"#, #"{"name":"Začátek","start":1}"#] {
                let added = try await client.execute(uri: "/api/scores/\(id)/bookmarks?order=custom", method: .post, headers: headers,
                                                     body: ByteBuffer(string: body))
                XCTAssertEqual(added.status, .created, String(buffer: added.body))
                headers[.ifMatch] = added.headers[.eTag]
                ids = try ServerFixture.decode(ScoreService.Contents.self, added).bookmarks.map(\.id)
            }
            XCTAssertEqual(ids.count, 2)
            // Out of range, and an empty name: refused, the file untouched.
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for (body, message) in [(#"{"name":"X","start":3,"end":9}"#, "valid: 1 to 4"), (#"{"name":"  ","start":1}"#, "needs a name")] {
                let refused = try await client.execute(uri: "/api/scores/\(id)/bookmarks", method: .post, headers: headers,
                                                       body: ByteBuffer(string: body))
                XCTAssertEqual(refused.status, .badRequest, String(buffer: refused.body))
                XCTAssertTrue(String(buffer: refused.body).contains(message), String(buffer: refused.body))
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)

            let renamed = try await client.execute(uri: "/api/scores/\(id)/bookmarks/\(ids[0])?order=custom", method: .patch, headers: headers,
                                                   body: ByteBuffer(string: #"{"name":"Coda — Кода (da capo)"}"#))
            XCTAssertEqual(renamed.status, .ok, String(buffer: renamed.body))
            headers[.ifMatch] = renamed.headers[.eTag]
            let moved = try await client.execute(uri: "/api/scores/\(id)/bookmarks/\(ids[1])?order=custom", method: .patch, headers: headers,
                                                 body: ByteBuffer(string: #"{"before":"\#(ids[0])"}"#))
            XCTAssertEqual(moved.status, .ok, String(buffer: moved.body))
            XCTAssertEqual(try ServerFixture.decode(ScoreService.Contents.self, moved).bookmarks.map(\.name), ["Začátek", "Coda — Кода (da capo)"])
            let stale = try await client.execute(uri: "/api/scores/\(id)/bookmarks/\(ids[1])", method: .patch, headers: headers,
                                                 body: ByteBuffer(string: #"{"last":true}"#))
            XCTAssertEqual(stale.status, .conflict, "an edit based on an old version")
            headers[.ifMatch] = moved.headers[.eTag]
            let neither = try await client.execute(uri: "/api/scores/\(id)/bookmarks/\(ids[1])", method: .patch, headers: headers,
                                                   body: ByteBuffer(string: "{}"))
            XCTAssertEqual(neither.status, .badRequest)
            let byPage = try await client.execute(uri: "/api/scores/\(id)/contents?order=page", method: .get)
            XCTAssertEqual(try ServerFixture.decode(ScoreService.Contents.self, byPage).bookmarks.map(\.start), [1, 3])
            let badOrder = try await client.execute(uri: "/api/scores/\(id)/contents?order=sideways", method: .get)
            XCTAssertEqual(badOrder.status, .badRequest)
        }
        let stored = try ServerFixture.python("""
            import sys, json, pikepdf
            with pikepdf.open(sys.argv[1]) as pdf:
                listed = json.loads(str(pdf.open_metadata()["{http://pspdfkit.com/pdf/xmp/1.0/}Bookmarks"]))
            print(json.dumps([[b["name"], b["sortKey"], b["action"]["pageIndex"]] for b in listed], ensure_ascii=False))
            """, path)
        XCTAssertEqual(stored, #"[["Začátek", 0, 0], ["Coda — Кода (da capo)", 1, 2]]"#)
    }

    func testJumpLinksAndMarksInTheViewersSettings() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .get).headers[.eTag]
            let link = try await client.execute(uri: "/api/scores/\(id)/links", method: .post, headers: headers,
                                                body: ByteBuffer(string: #"{"page":4,"rect":[300,100,60,40],"to":2}"#))
            XCTAssertEqual(link.status, .created, String(buffer: link.body))
            headers[.ifMatch] = link.headers[.eTag]
            let listed = try ServerFixture.decode(Listed.self, try await client.execute(uri: "/api/scores/\(id)/annotations?page=4", method: .get))
            let jump = try XCTUnwrap(listed.annotations.first { $0.target != nil })
            XCTAssertEqual(jump.target, 2)
            XCTAssertEqual(jump.rect, [300, 100, 60, 40])
            XCTAssertTrue(listed.annotations.contains { $0.subtype == "Link" && $0.uri?.hasPrefix("http") == true }, "the footer's web links")

            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for body in [#"{"page":4,"rect":[300,100,60,40],"to":5}"#, #"{"page":4,"rect":[300,100,0,40],"to":1}"#] {
                let refused = try await client.execute(uri: "/api/scores/\(id)/links", method: .post, headers: headers, body: ByteBuffer(string: body))
                XCTAssertEqual(refused.status, .badRequest, String(buffer: refused.body))
            }
            let badFont = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers,
                                                   body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[40,60,160,30],"text":"x","font":"comic"}"#))
            XCTAssertEqual(badFont.status, .badRequest)
            XCTAssertTrue(String(buffer: badFont.body).contains("serif-italic"), String(buffer: badFont.body))
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)

            let square = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers,
                                                  body: ByteBuffer(string: ##"{"type":"square","page":1,"rect":[40,60,160,30],"color":"#1d4ed8","width":4,"opacity":0.6}"##))
            XCTAssertEqual(square.status, .created, String(buffer: square.body))
            headers[.ifMatch] = square.headers[.eTag]
            let text = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers,
                                                body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[40,120,200,30],"text":"dolce — 優しく","size":18,"font":"serif-italic"}"#))
            XCTAssertEqual(text.status, .created, String(buffer: text.body))
        }
        let read = try ServerFixture.python("""
            import sys, json, pikepdf, pymupdf
            document = pymupdf.open(sys.argv[1])
            last, first = document[3], document[0]
            jumps = [[l["page"] + 1, round(l["from"].x0), round(l["from"].y0)] for l in last.get_links() if l["kind"] == pymupdf.LINK_GOTO]
            square = next(a for a in first.annots() if a.type[1] == "Square")
            with pikepdf.open(sys.argv[1]) as pdf:
                text = next(a for a in pdf.pages[0].Annots if a.get("/Subtype") == "/FreeText")
                fonts = [str(text.AP.N.Resources.Font[k].BaseFont) for k in text.AP.N.Resources.Font.keys()]
            print(json.dumps([jumps, [round(c, 3) for c in square.colors["stroke"]], square.border["width"], round(square.opacity, 2),
                              " 18 Tf" in str(text.DA), any("DejaVuSerif-Italic" in f for f in fonts)]))
            """, path)
        // #1d4ed8 as PDF colour components, 4 pt, 60 %; 18 pt DejaVu Serif Italic.
        XCTAssertEqual(read, "[[[2, 300, 100]], [0.114, 0.306, 0.847], 4.0, 0.6, true, true]")
    }
}
