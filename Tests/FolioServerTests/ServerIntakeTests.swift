import FolioLibrary
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// The server's Add scores takes what forScore takes (`LibraryIntake`): a setlist told by
/// content, a library CSV planned before it is applied, a CSV index for the score the user
/// picks; and the user's own stamps kept once and placed by the Stamp tool, read back by
/// pikepdf.
final class ServerIntakeTests: ServerTestCase, @unchecked Sendable {
    private struct Scores: Decodable { let scores: [ScoreService.Score] }
    private struct Intake: Decodable {
        let kind: String
        let applied: Bool
        let summary: String
        let lines: [String]
        let scores: [ScoreService.Score]
        let changed: [ScoreService.Score]
        let setlists: [String]
    }
    private struct Stamps: Decodable { let stamps: [StampLibrary.Stamp] }

    func testForScoreFilesAndCSVThroughUploads() async throws {
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let headers = try await ServerFixture.csrf(client)
            func upload(_ name: String, _ text: String, query: String = "") async throws -> TestResponse {
                let uri = "/api/uploads?name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)\(query)"
                return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: text))
            }
            let setlist = try await upload("setlist.txt", """
                <?xml version="1.0" encoding="UTF-8"?>
                <forScore kind="setlist" version="1.0" title="Vánoční koncert">
                <score path="Brahms-Cancion_de_Cuna.pdf" title="Canción de cuna"/><placeholder title="Тихая ночь"/>
                </forScore>
                """)
            XCTAssertEqual(setlist.status, .created, String(buffer: setlist.body))
            let made = try ServerFixture.decode(Intake.self, setlist)
            XCTAssertEqual(made.kind, "setlist")
            XCTAssertEqual(made.setlists, ["Vánoční koncert"])
            let shown = try await client.execute(uri: "/api/setlists/V%C3%A1no%C4%8Dn%C3%AD%20koncert", method: .get)
            XCTAssertEqual(shown.status, .ok, String(buffer: shown.body))
            XCTAssertTrue(String(buffer: shown.body).contains("Тихая ночь"))

            // A library CSV: planned (200, nothing written), then applied.
            let sheet = "Filename,Title,Composers\nBrahms-Cancion_de_Cuna.pdf,Wiegenlied,Johannes Brahms\n"
            let original = try Data(contentsOf: URL(fileURLWithPath: self.fixture.path("Brahms-Cancion_de_Cuna.pdf")))
            let plan = try await upload("metadata.csv", sheet)
            XCTAssertEqual(plan.status, .ok, String(buffer: plan.body))
            let planned = try ServerFixture.decode(Intake.self, plan)
            XCTAssertFalse(planned.applied)
            XCTAssertTrue(planned.lines.contains { $0.contains("→ Wiegenlied") }, "\(planned.lines)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: self.fixture.path("Brahms-Cancion_de_Cuna.pdf"))), original)
            let applied = try await upload("metadata.csv", sheet, query: "&apply=1")
            XCTAssertEqual(applied.status, .created, String(buffer: applied.body))
            XCTAssertEqual(try ServerFixture.decode(Intake.self, applied).changed.first?.title, "Wiegenlied")
            let title = try ServerFixture.python("import sys, pikepdf\npdf = pikepdf.open(sys.argv[1])\nprint(pdf.docinfo.Title)",
                                                 self.fixture.path("Brahms-Cancion_de_Cuna.pdf"))
            XCTAssertEqual(title, "Wiegenlied")

            // A CSV index named after no score: 404, then for the score picked.
            let index = "Title,Start,End\nΠρώτο μέρος,1,1\n"
            let orphan = try await upload("Rejstřík.csv", index)
            XCTAssertEqual(orphan.status, .notFound, String(buffer: orphan.body))
            let scores = try ServerFixture.decode(Scores.self, try await client.execute(uri: "/api/scores?q=wiegenlied", method: .get)).scores
            let id = try XCTUnwrap(scores.first).id
            let picked = try await upload("Rejstřík.csv", index, query: "&score=\(id)")
            XCTAssertEqual(picked.status, .created, String(buffer: picked.body))
            XCTAssertTrue(try ServerFixture.decode(Intake.self, picked).summary.contains("added 1 bookmark(s)"))
            let contents = try await client.execute(uri: "/api/scores/\(id)/contents", method: .get)
            XCTAssertTrue(String(buffer: contents.body).contains("Πρώτο μέρος"), String(buffer: contents.body))

            // An Open In dictionary named like a score; a 4SC under another name, by content.
            let details = try await upload("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.json", #"{"genres": "Impresionismus, Клавир"}"#)
            XCTAssertEqual(details.status, .created, String(buffer: details.body))
            XCTAssertEqual(try ServerFixture.decode(Intake.self, details).changed.first?.metadata.genres, ["Impresionismus", "Клавир"])
            let container = try ForScoreImport.exportContainer(pdf: self.fixture.path("Brahms-Cancion_de_Cuna.pdf"))
            let unpacked = try await client.execute(uri: "/api/uploads?name=parcel.bin", method: .post, headers: headers,
                                                    body: ByteBuffer(bytes: container))
            XCTAssertEqual(unpacked.status, .created, String(buffer: unpacked.body))
            let fromContainer = try ServerFixture.decode(Intake.self, unpacked)
            XCTAssertEqual(fromContainer.kind, "forScoreContainer")
            XCTAssertEqual(fromContainer.scores.first?.title, "Wiegenlied")
            XCTAssertEqual(fromContainer.scores.first?.path, "Brahms-Cancion_de_Cuna 2.pdf")
        }
    }

    private struct DropResults: Decodable {
        struct Result: Decodable {
            let index: Int
            let name: String
            let status: Int
            let intake: Intake?
            let error: String?
        }
        let results: [Result]
    }

    /// A drop of several files sent one by one, then taken in together in the server's order
    /// (`LibraryIntake.addAll`): the text that becomes a score first, so the setlist and the
    /// index sent before it find it; every limit answered, nothing left staged.
    func testADropIsTakenInTogetherScoresFirst() async throws {
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let headers = try await ServerFixture.csrf(client)
            let drop = "0123456789abcdef0123456789abcdef"
            func stage(_ name: String, _ text: String, drop: String = drop) async throws -> TestResponse {
                let uri = "/api/uploads?name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)&drop=\(drop)"
                return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: text))
            }
            let files = [
                ("Koncert.4ss", """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <forScore kind="setlist" version="1.0" title="Jarní koncert">
                    <score path="Píseň o lásce.pdf" title="Píseň o lásce"/>
                    </forScore>
                    """),
                ("Píseň o lásce.csv", "Title,Start,End\nSloka – 第一節,1,1\n"),
                ("Píseň o lásce.txt", "Píseň o lásce\n\nJá mám koně, vraný koně\n"),
            ]
            for (index, (name, text)) in files.enumerated() {
                let staged = try await stage(name, text)
                XCTAssertEqual(staged.status, .accepted, String(buffer: staged.body))
                XCTAssertEqual(String(buffer: staged.body), #"{"index":\#(index)}"#)
            }
            let taken = try await client.execute(uri: "/api/drops/\(drop)", method: .post, headers: headers)
            XCTAssertEqual(taken.status, .ok, String(buffer: taken.body))
            let results = try ServerFixture.decode(DropResults.self, taken).results
            XCTAssertEqual(results.map(\.index), [2, 0, 1], "the score first, then the others as sent")
            XCTAssertEqual(results.map(\.status), [201, 201, 201], "\(results.map { $0.error ?? "" })")
            XCTAssertEqual(results.map(\.name), ["Píseň o lásce.txt", "Koncert.4ss", "Píseň o lásce.csv"])
            XCTAssertEqual(results[0].intake?.scores.first?.path, "Píseň o lásce.pdf")
            XCTAssertTrue(results[1].intake?.summary.contains("0 placeholder(s)") ?? false, results[1].intake?.summary ?? "")
            XCTAssertTrue(results[2].intake?.summary.contains("added 1 bookmark(s) to Píseň o lásce.pdf") ?? false,
                          results[2].intake?.summary ?? "")
            let outline = try ServerFixture.python("""
                import sys, pikepdf
                pdf = pikepdf.open(sys.argv[1])
                print("第一節" in pdf.Root.Metadata.read_bytes().decode())
                """, self.fixture.path("Píseň o lásce.pdf"))
            XCTAssertEqual(outline, "True", "the index's bookmark is in the new score's XMP")
            let staged = try FileManager.default.contentsOfDirectory(atPath: self.fixture.path(".folio/drops"))
            XCTAssertEqual(staged, [], "nothing left staged")

            // Taken once only; an id that names no drop, or no id at all.
            let again = try await client.execute(uri: "/api/drops/\(drop)", method: .post, headers: headers)
            XCTAssertEqual(again.status, .notFound)
            for bad in ["short", "has%20space%20in%20it%20xxxxxxxx", String(repeating: "a", count: 65)] {
                let refused = try await stage("x.pdf", "%PDF-1.4", drop: bad)
                XCTAssertEqual(refused.status, .badRequest, bad)
                let none = try await client.execute(uri: "/api/drops/\(bad)", method: .post, headers: headers)
                XCTAssertTrue([.badRequest, .notFound].contains(none.status), bad)
            }
            let mixed = try await client.execute(uri: "/api/uploads?name=a.csv&drop=\(drop)&apply=1", method: .post, headers: headers,
                                                 body: ByteBuffer(string: "Title\n"))
            XCTAssertEqual(mixed.status, .badRequest)
        }
    }

    func testStampsAreKeptOnceAndPlacedAsImages() async throws {
        let png = fixture.folder.appendingPathComponent("stamp-source.png").path
        _ = try ServerFixture.python("""
            import sys
            from PIL import Image, ImageDraw
            image = Image.new('RGBA', (120, 60), (0, 0, 0, 0))
            ImageDraw.Draw(image).rectangle((10, 10, 110, 50), fill=(20, 90, 200, 255))
            image.save(sys.argv[1])
            """, png)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        try FileManager.default.removeItem(atPath: png)
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let name = "Dirigent%20%E2%80%94%20%D0%B4%D0%B8%D1%80%D0%B8%D0%B6%D1%91%D1%80"   // "Dirigent — дирижёр"
            let kept = try await client.execute(uri: "/api/stamps?name=\(name)", method: .post, headers: headers, body: ByteBuffer(data: bytes))
            XCTAssertEqual(kept.status, .created, String(buffer: kept.body))
            let refused = try await client.execute(uri: "/api/stamps?name=bad", method: .post, headers: headers, body: ByteBuffer(string: "not an image"))
            XCTAssertEqual(refused.status, .badRequest, String(buffer: refused.body))
            let traversal = try await client.execute(uri: "/api/stamps?name=..%2Fescape", method: .post, headers: headers, body: ByteBuffer(data: bytes))
            XCTAssertEqual(traversal.status, .badRequest)
            // A name that starts with a combining mark: after the "/" of its folder, one character
            // to Swift and two to the file system. Kept in .folio/stamps, then removed.
            let marked = try await client.execute(uri: "/api/stamps?name=%F0%9D%AA%84q", method: .post, headers: headers, body: ByteBuffer(data: bytes))
            XCTAssertEqual(marked.status, .created, String(buffer: marked.body))
            XCTAssertTrue(FileManager.default.fileExists(atPath: self.fixture.path(".folio/stamps/\u{1DA84}q.png")))
            let unmarked = try await client.execute(uri: "/api/stamps/%F0%9D%AA%84q", method: .delete, headers: headers)
            XCTAssertEqual(unmarked.status, .noContent)
            let sneaking = try await client.execute(uri: "/api/stamps?name=x%2F%CC%81..%2F..%2Fescape", method: .post, headers: headers, body: ByteBuffer(data: bytes))
            XCTAssertEqual(sneaking.status, .badRequest)
            // 40 characters, each with combining marks: 265 bytes, past what a file name holds.
            let zalgo = String(repeating: "Z\u{335}\u{31B}\u{34D}", count: 40).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let tooLong = try await client.execute(uri: "/api/stamps?name=\(zalgo)", method: .post, headers: headers, body: ByteBuffer(data: bytes))
            XCTAssertEqual(tooLong.status, .badRequest, String(buffer: tooLong.body))
            XCTAssertTrue(String(buffer: tooLong.body).contains("at most 200 bytes"))
            let list = try ServerFixture.decode(Stamps.self, try await client.execute(uri: "/api/stamps", method: .get)).stamps
            XCTAssertEqual(list, [StampLibrary.Stamp(name: "Dirigent — дирижёр", format: "png", width: 120, height: 60)])
            let image = try await client.execute(uri: "/api/stamps/\(name)", method: .get)
            XCTAssertEqual(image.headers[.contentType], "image/png")
            XCTAssertEqual(Data(buffer: image.body), bytes)

            let scores = try ServerFixture.decode(Scores.self, try await client.execute(uri: "/api/scores?q=cuna", method: .get)).scores
            let id = try XCTUnwrap(scores.first).id
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/annotations?page=1", method: .get).headers[.eTag]
            let placed = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers, body: ByteBuffer(string:
                #"{"type":"stamp","image":"Dirigent — дирижёр","page":1,"rect":[100,100,60,30]}"#))
            XCTAssertEqual(placed.status, .created, String(buffer: placed.body))
            let found = try ServerFixture.python("""
                import sys, pikepdf
                pdf = pikepdf.open(sys.argv[1])
                for annot in pdf.pages[0].get('/Annots', []):
                    if annot.get('/Subtype') == '/Stamp':
                        form = annot.AP.N
                        image = list(form.Resources.XObject.values())[0]
                        print(str(annot.Name), int(image.Width), int(image.Height), '/SMask' in image)
                """, fixture.path("Brahms-Cancion_de_Cuna.pdf"))
            XCTAssertEqual(found, "/FolioImage 120 60 True")
            let removed = try await client.execute(uri: "/api/stamps/\(name)", method: .delete, headers: headers)
            XCTAssertEqual(removed.status, .noContent)
            let gone = try await client.execute(uri: "/api/stamps/\(name)", method: .get)
            XCTAssertEqual(gone.status, .notFound)
        }
    }
}
