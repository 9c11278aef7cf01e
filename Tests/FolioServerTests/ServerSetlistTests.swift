import FolioLibrary
import FolioPDF
import FolioScore
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// Setlists through the API: built with versions (a stale change gets 409), downloaded as
/// forScore's 4SS (read back with Python's XML parser) and as one PDF (read with pikepdf).
final class ServerSetlistTests: ServerTestCase, @unchecked Sendable {

    private struct Scores: Decodable { let scores: [ScoreService.Score] }

    func testASetlistIsBuiltReorderedAndDownloaded() async throws {
        var timed = ScoreEdit()
        timed.duration = 307
        try PDFSaver.update(path: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")) { _ = try ScoreWriter.write(timed, to: $0) }
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let scores = try ServerFixture.decode(Scores.self, try await client.execute(uri: "/api/scores?sort=title", method: .get)).scores
            let cuna = try XCTUnwrap(scores.first { $0.title == "Canción de cuna" })
            let clair = try XCTUnwrap(scores.first { $0.path.hasPrefix("Debussy") })
            let name = "Friday / Gig – Café"
            let api = "/api/setlists/" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")

            let created = try await client.execute(uri: "/api/setlists", method: .post, headers: headers,
                                                   body: ByteBuffer(string: #"{"name": "Friday / Gig – Café"}"#))
            XCTAssertEqual(created.status, .created, String(buffer: created.body))
            let again = try await client.execute(uri: "/api/setlists", method: .post, headers: headers,
                                                 body: ByteBuffer(string: #"{"name": "Friday / Gig – Café"}"#))
            XCTAssertEqual(again.status, .conflict)
            let empty = try await client.execute(uri: "/api/setlists", method: .post, headers: headers, body: ByteBuffer(string: #"{"name": " "}"#))
            XCTAssertEqual(empty.status, .badRequest)

            var version = try XCTUnwrap(created.headers[.eTag])
            func post(_ path: String, _ body: String) async throws -> TestResponse {
                headers[.ifMatch] = version
                let response = try await client.execute(uri: api + path, method: .post, headers: headers, body: ByteBuffer(string: body))
                if let tag = response.headers[.eTag] { version = tag }
                return response
            }
            for body in [#"{"kind": "score", "score": \#(clair.id)}"#, #"{"kind": "placeholder", "title": "Encore"}"#,
                         #"{"kind": "score", "score": \#(cuna.id), "position": 1}"#] {
                let added = try await post("/entries", body)
                XCTAssertEqual(added.status, .ok, String(buffer: added.body))
            }
            let stale = version
            let moved = try await post("/move", #"{"from": 3, "to": 2}"#)
            XCTAssertEqual(moved.status, .ok)
            let shown = try ServerFixture.decode(SetlistService.Shown.self, moved)
            XCTAssertEqual(shown.entries.map(\.title), ["Canción de cuna", "Encore", clair.title])
            XCTAssertEqual(shown.entries.map(\.score), [cuna.id, nil, clair.id])
            // Each piece with its composers and duration, the set with its playing time.
            XCTAssertEqual(shown.entries.map(\.composers), [cuna.composers, nil, ["Claude Debussy"]])
            XCTAssertEqual(shown.entries.map(\.durationText), [nil, nil, "5:07"])
            XCTAssertEqual([shown.duration, shown.untimed], [307, 2])
            XCTAssertEqual(shown.durationText, "5:07")

            // Refused: a stale version, no version, bad values; the setlist stays as it was.
            headers[.ifMatch] = stale
            let conflict = try await client.execute(uri: api + "/move", method: .post, headers: headers,
                                                    body: ByteBuffer(string: #"{"from": 1, "to": 3}"#))
            XCTAssertEqual(conflict.status, .conflict)
            headers[.ifMatch] = nil
            let unversioned = try await client.execute(uri: api + "/entries/1", method: .delete, headers: headers)
            XCTAssertEqual(unversioned.status, .preconditionRequired)
            for (path, body, message) in [("/move", #"{"from": 1, "to": 9}"#, "valid: 1 to 3"),
                                          ("/entries", #"{"kind": "song", "title": "x"}"#, "not one of"),
                                          ("/entries", #"{"kind": "score", "score": 99999}"#, "no score")] {
                let refused = try await post(path, body)
                XCTAssertTrue([.badRequest, .notFound].contains(refused.status), "\(path) \(body): \(refused.status)")
                XCTAssertTrue(String(buffer: refused.body).contains(message), String(buffer: refused.body))
            }
            let current = try ServerFixture.decode(SetlistService.Shown.self, try await client.execute(uri: api, method: .get))
            XCTAssertEqual(current.entries.map(\.title), ["Canción de cuna", "Encore", clair.title])

            // A note per entry: kept with the entry's version, refused when stale, too long or two lines.
            func note(_ position: Int, _ body: String) async throws -> TestResponse {
                headers[.ifMatch] = version
                let response = try await client.execute(uri: api + "/entries/\(position)/note", method: .put, headers: headers,
                                                        body: ByteBuffer(string: body))
                if let tag = response.headers[.eTag] { version = tag }
                return response
            }
            let beforeNote = version
            let noted = try await note(2, #"{"note": " attacca — 続けて "}"#)
            XCTAssertEqual(noted.status, .ok, String(buffer: noted.body))
            XCTAssertEqual(try ServerFixture.decode(SetlistService.Shown.self, noted).entries.map(\.note), [nil, "attacca — 続けて", nil])
            headers[.ifMatch] = beforeNote
            let staleNote = try await client.execute(uri: api + "/entries/2/note", method: .put, headers: headers,
                                                     body: ByteBuffer(string: #"{"note": "x"}"#))
            XCTAssertEqual(staleNote.status, .conflict)
            for (position, body) in [(2, #"{"note": "\#(String(repeating: "я", count: 501))"}"#), (2, #"{"note": "a\nb"}"#),
                                     (9, #"{"note": "x"}"#), (2, #"{"note": 5}"#)] {
                let refused = try await note(position, body)
                XCTAssertEqual(refused.status, .badRequest, "\(position) \(body): \(String(buffer: refused.body))")
            }
            let kept = try ServerFixture.decode(SetlistService.Shown.self, try await client.execute(uri: api, method: .get))
            XCTAssertEqual(kept.entries.map(\.note), [nil, "attacca — 続けて", nil])
            // The 4SS has no notes: the setlist says what its download leaves out, and the file has no trace of it.
            XCTAssertEqual(kept.notCarried, ["2. Encore: its note \"attacca — 続けて\" is not carried (a 4SS has no notes)"])
            let withNote = String(buffer: try await client.execute(uri: api + "/4ss", method: .get).body)
            XCTAssertFalse(withNote.contains("attacca"), withNote)
            XCTAssertTrue(withNote.contains("<placeholder title=\"Encore\""), withNote)
            let cleared = try await note(2, #"{"note": null}"#)
            XCTAssertEqual(try ServerFixture.decode(SetlistService.Shown.self, cleared).entries.map(\.note), [nil, nil, nil])
            XCTAssertEqual(try ServerFixture.decode(SetlistService.Shown.self, cleared).notCarried, [])

            // forScore's 4SS and the merged PDF, read by parsers nobody here wrote.
            let work = self.fixture.folder.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let open = try await client.execute(uri: api + "/4ss", method: .get)
            XCTAssertEqual(open.status, .ok)
            XCTAssertTrue(open.headers[.contentDisposition]?.contains("filename*=UTF-8''Friday%20%2F%20Gig%20%E2%80%93%20Caf%C3%A9.4ss") == true)
            let openPath = work.appendingPathComponent("gig.4ss").path
            try Data(buffer: open.body).write(to: URL(fileURLWithPath: openPath))
            let items = try ServerFixture.python("""
                import sys, xml.etree.ElementTree as ET
                root = ET.parse(sys.argv[1]).getroot()
                print(root.get('title')); print('|'.join(f"{e.tag}:{e.get('title')}:{e.get('path') or ''}" for e in root))
                """, openPath).components(separatedBy: "\n")
            XCTAssertEqual(items[0], name)
            XCTAssertEqual(items[1], "score:Canción de cuna:\(cuna.path)|placeholder:Encore:|score:\(clair.title):\(clair.path)")
            let merged = try await client.execute(uri: api + "/pdf?download=1", method: .get)
            XCTAssertEqual(merged.headers[.contentType], "application/pdf")
            XCTAssertTrue(merged.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
            let pdfPath = work.appendingPathComponent("gig.pdf").path
            try Data(buffer: merged.body).write(to: URL(fileURLWithPath: pdfPath))
            let outline = try ServerFixture.python("""
                import sys, pikepdf
                pdf = pikepdf.open(sys.argv[1])
                with pdf.open_outline() as outline:
                    print(len(pdf.pages)); print('|'.join(item.title for item in outline.root))
                """, pdfPath).components(separatedBy: "\n")
            XCTAssertEqual(outline[0], "5", "1 page of the Brahms and 4 of the Debussy")
            XCTAssertEqual(outline[1], "Canción de cuna|\(clair.title)")

            // Pages: the builder and performance mode escape the name.
            let page = String(buffer: try await client.execute(uri: "/setlists", method: .get).body)
            XCTAssertTrue(page.contains("Friday / Gig – Café"))
            headers[.ifMatch] = version
            let deleted = try await client.execute(uri: api, method: .delete, headers: headers)
            XCTAssertEqual(deleted.status, .noContent)
            let gone = try await client.execute(uri: api, method: .get)
            XCTAssertEqual(gone.status, .notFound)
        }
    }
}
