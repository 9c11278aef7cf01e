import FolioLibrary
import FolioPDF
import FolioScore
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// Editing through the API: metadata, bookmarks from the TOC, and undo — each save read
/// back with pikepdf, each refusal leaving the file byte-identical.
class ServerEditTests: ServerTestCase, @unchecked Sendable {

    private struct Scores: Decodable { let scores: [ScoreService.Score] }

    /// Half-page-turn splits kept in the file (as a forScore import writes them) reach the
    /// contents panel, for the viewer's half turns; pikepdf finds them in the XMP.
    func testHalfTurnSplitsReachTheContents() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try ScoreFile(path).update { document in try HalfTurns.write([2: 0.4, 3: 0.65], to: document) }
        XCTAssertThrowsError(try ScoreFile(path).update { document in try HalfTurns.write([2: 1.5], to: document) }) {
            XCTAssertTrue("\($0)".contains("valid: between 0 and 1"), "\($0)")
        }
        let xmp = try ServerFixture.python("import sys, pikepdf\npdf = pikepdf.open(sys.argv[1])\nprint(pdf.Root.Metadata.read_bytes().decode())", path)
        XCTAssertTrue(xmp.contains("2=0.4") && xmp.contains("3=0.65"), xmp)
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let id = try await ServerFixture.scoreID(client, query: "clair")
            let contents = try await client.execute(uri: "/api/scores/\(id)/contents", method: .get)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: contents.body)) as? [String: Any])
            XCTAssertEqual(object["halfTurns"] as? [String: Double], ["2": 0.4, "3": 0.65])
        }
    }

    /// Every save through the server brings the catalog up to date itself: an annotation
    /// added is counted at once (read with Python's sqlite3 from the catalog's database).
    func testEverySaveRefreshesTheCatalog() async throws {
        let name = "Brahms-Cancion_de_Cuna.pdf"
        let database = fixture.folder.appendingPathComponent(".folio/library.sqlite").path
        try await checkEverySaveRefreshesTheCatalog {
            try ServerFixture.python("""
                import sqlite3, sys
                print(sqlite3.connect(sys.argv[1]).execute("SELECT annotationCount FROM score WHERE path = ?", ("\(name)",)).fetchone()[0])
                """, database)
        }
    }

    /// An annotation added through the API is counted at once in the catalog, as `count` reads it.
    func checkEverySaveRefreshesTheCatalog(_ count: @escaping @Sendable () throws -> String) async throws {
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "cuna")
            let before = try Int(count()) ?? -1
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .get).headers[.eTag]
            let added = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers,
                                                 body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[40,60,160,30],"text":"Für Elise"}"#))
            XCTAssertEqual(added.status, .created, String(buffer: added.body))
            XCTAssertEqual(try Int(count()), before + 1)
        }
    }

    /// The reference (forScore's catalogue number field) travels the whole way: saved through
    /// the API, read back by exiftool from the PDF, and shown in the score and the search.
    func testTheReferenceReachesTheAPI() async throws {
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "cuna")
            let uri = "/api/scores/\(id)/metadata"
            headers[.ifMatch] = try await client.execute(uri: uri, method: .get).headers[.eTag]
            let saved = try await client.execute(uri: uri, method: .put, headers: headers,
                                                 body: ByteBuffer(string: #"{"title":"Wiegenlied","reference":"Op. 49 № 4 – Ⅳ","tempo":72,"timeSignature":"6 / 8"}"#))
            XCTAssertEqual(saved.status, .ok, String(buffer: saved.body))
            let shown = try await client.execute(uri: "/api/scores/\(id)", method: .get)
            let score = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: shown.body)) as? [String: Any])
            XCTAssertEqual(score["reference"] as? String, "Op. 49 № 4 – Ⅳ")
            XCTAssertEqual(score["tempo"] as? Int, 72)
            XCTAssertEqual(score["timeSignature"] as? String, "6/8", "kept as written the usual way")
            let found = try await client.execute(uri: "/api/scores?q=wiegenlied", method: .get)
            XCTAssertTrue(String(buffer: found.body).contains(#""reference":"Op. 49 № 4 – Ⅳ""#), String(buffer: found.body))
        }
        let xmp = try ServerFixture.python("import sys, pikepdf\npdf = pikepdf.open(sys.argv[1])\nprint(pdf.Root.Metadata.read_bytes().decode())", path)
        XCTAssertTrue(xmp.contains("Op. 49 № 4 – Ⅳ"), "the reference is in the PDF's XMP, as pikepdf reads it")
        let fields = try ServerFixture.python("""
            import sys, pikepdf, xml.etree.ElementTree as ET
            N = "{http://ns.folio.dev/score/1.0/}"
            pdf = pikepdf.open(sys.argv[1])
            root = ET.fromstring(pdf.Root.Metadata.read_bytes())
            found = {}
            for element in root.iter():
                for name, value in element.attrib.items():
                    if name.startswith(N): found[name[len(N):]] = value
                if element.tag.startswith(N) and element.text and element.text.strip(): found[element.tag[len(N):]] = element.text.strip()
            print(found.get("tempo"), found.get("timeSignature"))
            """, path)
        XCTAssertEqual(fields.trimmingCharacters(in: .whitespacesAndNewlines), "72 6/8", "tempo and time signature in Folio's XMP")
    }

    func testMetadataIsSavedIntoThePDFWithTheCurrentVersionOnly() async throws {
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "cuna")
            let uri = "/api/scores/\(id)/metadata"
            let current = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(try ServerFixture.decode(ScoreMetadata.self, current).title, "Canción de cuna")
            let version = try XCTUnwrap(current.headers[.eTag])
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let body = #"{"title":"Wiegenlied Op. 49 № 4","composers":["Johannes Brahms"],"genres":["Lied"],"tags":["lullaby"],"#
                + #""labels":["encore"],"rating":4,"difficulty":2,"key":"Eb major","duration":125,"reference":"Simrock 1868 № 4"}"#

            // Refused, the file untouched: no version, a stale one, values forScore cannot hold.
            let unversioned = try await client.execute(uri: uri, method: .put, headers: headers, body: ByteBuffer(string: body))
            XCTAssertEqual(unversioned.status, .preconditionRequired)
            headers[.ifMatch] = "\"1-1\""
            let stale = try await client.execute(uri: uri, method: .put, headers: headers, body: ByteBuffer(string: body))
            XCTAssertEqual(stale.status, .conflict)
            headers[.ifMatch] = version
            for (bad, message) in [(#"{"title":"x","rating":9}"#, "valid: 0 to 5"), (#"{"title":"x","key":"H minor"}"#, "unknown key"),
                                   (#"{"title":"x","composers":["Brahms, Johannes"]}"#, "comma"), (#"{"title":7}"#, "not metadata"),
                                   (#"{"title":"x","tempo":0}"#, "valid: 1 to 999"), (#"{"title":"x","timeSignature":"7/5"}"#, "is not one (valid: such as 3")] {
                let refused = try await client.execute(uri: uri, method: .put, headers: headers, body: ByteBuffer(string: bad))
                XCTAssertEqual(refused.status, .badRequest, bad)
                XCTAssertTrue(String(buffer: refused.body).contains(message), String(buffer: refused.body))
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)

            let saved = try await client.execute(uri: uri, method: .put, headers: headers, body: ByteBuffer(string: body))
            XCTAssertEqual(saved.status, .ok, String(buffer: saved.body))
            XCTAssertNotEqual(saved.headers[.eTag], version)
            let metadata = try ServerFixture.decode(ScoreMetadata.self, saved)
            XCTAssertEqual(metadata.key?.name, "E♭ major")
            XCTAssertEqual(metadata.rating, 4)
            XCTAssertEqual(metadata.reference, "Simrock 1868 № 4")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(original.count), original,
                           "saved as an incremental update")

            // What another reader finds in the file: Info and XMP as forScore writes them.
            let read = try ServerFixture.python("""
                import sys, pikepdf
                pdf = pikepdf.open(sys.argv[1])
                meta = pdf.open_metadata()
                print(str(pdf.docinfo.Title)); print(str(pdf.docinfo.Author)); print(str(pdf.docinfo.Subject))
                print(str(pdf.docinfo.Keywords)); print(meta.get('dc:title'))
                """, path).components(separatedBy: "\n")
            XCTAssertEqual(read[0], "Wiegenlied Op. 49 № 4")
            XCTAssertEqual(read[1], "Johannes Brahms")
            XCTAssertEqual(read[2], "Lied")
            for part in ["lullaby", "rating:4", "difficulty:2", "duration:125", "keysf:-3", "keymi:0"] {
                XCTAssertTrue(read[3].contains(part), "Keywords \(read[3]) lack \(part)")
            }
            XCTAssertEqual(read[4], "Wiegenlied Op. 49 № 4")

            // The catalog follows at once; clearing a field removes it.
            let renamed = try await ServerFixture.scoreID(client, query: "wiegenlied")
            XCTAssertEqual(renamed, id)
            // Every field reaches the library listing, the reference too (openapi.yaml's Score).
            let listed = try await client.execute(uri: "/api/scores?q=wiegenlied", method: .get)
            let scores = try ServerFixture.decode(Scores.self, listed).scores
            XCTAssertEqual(scores.first?.metadata.reference, "Simrock 1868 № 4")
            XCTAssertEqual(scores.first?.metadata.labels, ["encore"])
            XCTAssertEqual(scores.first?.metadata.duration, 125)
            headers[.ifMatch] = saved.headers[.eTag]
            let cleared = try await client.execute(uri: uri, method: .put, headers: headers,
                                                   body: ByteBuffer(string: #"{"title":"Wiegenlied","composers":["Johannes Brahms"]}"#))
            XCTAssertEqual(cleared.status, .ok)
            let after = try ServerFixture.decode(ScoreMetadata.self, cleared)
            XCTAssertNil(after.rating)
            XCTAssertNil(after.key)
            XCTAssertEqual(after.tags, [])
            let keywords = try ServerFixture.python("import sys, pikepdf; pdf = pikepdf.open(sys.argv[1]); print(pdf.docinfo.get('/Keywords', ''))", path)
            XCTAssertFalse(keywords.contains("rating"), keywords)
        }
    }

    func testBookmarksFromTheTOCAndUndoBackToTheOriginalBytes() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try PDFSaver.update(path: path) { document in
            try document.setOutline([PDFOutlineItem(title: "Clair de lune", target: .page(index: 0)),
                                     PDFOutlineItem(title: "Un poco mosso", target: .page(index: 2)),
                                     PDFOutlineItem(title: "Debussy online", target: .uri("https://example.org"))])
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            let listed = try await client.execute(uri: "/api/scores/\(id)/contents", method: .get)
            let contents = try ServerFixture.decode(ScoreService.Contents.self, listed)
            XCTAssertEqual(contents.toc.map(\.title), ["Clair de lune", "Un poco mosso", "Debussy online"])
            XCTAssertEqual(contents.toc.map(\.page), [1, 3, nil])
            XCTAssertEqual(contents.bookmarks, [])
            XCTAssertEqual(contents.fromTOC, 2)

            headers[.ifMatch] = listed.headers[.eTag]
            let made = try await client.execute(uri: "/api/scores/\(id)/bookmarks/from-toc", method: .post, headers: headers)
            XCTAssertEqual(made.status, .ok, String(buffer: made.body))
            let marks = try ServerFixture.decode(ScoreService.Contents.self, made).bookmarks
            XCTAssertEqual(marks.map(\.name), ["Clair de lune", "Un poco mosso"])
            XCTAssertEqual(marks.map(\.start), [1, 3])
            XCTAssertEqual(marks.map(\.end), [2, 4])
            // Apple Preview's bookmarks live in the XMP: another reader finds them there.
            let xmp = try ServerFixture.python("""
                import sys, pikepdf
                pdf = pikepdf.open(sys.argv[1])
                print(pdf.Root.Metadata.read_bytes().decode('utf-8'))
                """, path)
            XCTAssertTrue(xmp.contains("Clair de lune") && xmp.contains("Un poco mosso"))
            headers[.ifMatch] = made.headers[.eTag]
            let again = try await client.execute(uri: "/api/scores/\(id)/bookmarks/from-toc", method: .post, headers: headers)
            XCTAssertEqual(again.status, .unprocessableContent, "every entry is a bookmark already")

            let removed = try await client.execute(uri: "/api/scores/\(id)/bookmarks/\(marks[1].id)", method: .delete, headers: headers)
            XCTAssertEqual(removed.status, .ok)
            XCTAssertEqual(try ServerFixture.decode(ScoreService.Contents.self, removed).bookmarks.map(\.name), ["Clair de lune"])

            // Undo takes back one change at a time, the last first, down to the original bytes.
            var version = try XCTUnwrap(removed.headers[.eTag])
            for expected in ["Deleted a bookmark", "Made bookmarks from the TOC"] {
                let state = try await client.execute(uri: "/api/scores/\(id)/undo", method: .get)
                XCTAssertTrue(String(buffer: state.body).contains(expected), String(buffer: state.body))
                headers[.ifMatch] = "\"1-1\""
                let staleUndo = try await client.execute(uri: "/api/scores/\(id)/undo", method: .post, headers: headers)
                XCTAssertEqual(staleUndo.status, .conflict)
                headers[.ifMatch] = version
                let undone = try await client.execute(uri: "/api/scores/\(id)/undo", method: .post, headers: headers)
                XCTAssertEqual(undone.status, .ok, String(buffer: undone.body))
                XCTAssertTrue(String(buffer: undone.body).contains(expected))
                version = try XCTUnwrap(undone.headers[.eTag])
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
            headers[.ifMatch] = version
            let nothing = try await client.execute(uri: "/api/scores/\(id)/undo", method: .post, headers: headers)
            XCTAssertEqual(nothing.status, .conflict)
            let state = try await client.execute(uri: "/api/scores/\(id)/undo", method: .get)
            XCTAssertEqual(String(buffer: state.body), #"{"change":null}"#)
        }
    }

    /// The record of changes is the catalog's: after a restart the server still knows the last
    /// change, with who made it, and takes it back to the original bytes.
    func testUndoOutlivesARestart() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .get).headers[.eTag]
            let added = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers,
                                                 body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[10,10,120,30],"text":"dolce – 柔らかく"}"#))
            XCTAssertEqual(added.status, .created, String(buffer: added.body))
        }
        let restarted = try fixture.server()
        let catalog = restarted.service.catalog
        XCTAssertEqual(try catalog.changes(score: "Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf").first?.author, EditAuthor.current(), "by whoever runs the server, as the CLI")
        try await Application(router: restarted.router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            let state = try await client.execute(uri: "/api/scores/\(id)/undo", method: .get)
            XCTAssertEqual(String(buffer: state.body), #"{"change":"Added a text"}"#)
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/metadata", method: .get).headers[.eTag]
            let undone = try await client.execute(uri: "/api/scores/\(id)/undo", method: .post, headers: headers)
            XCTAssertEqual(undone.status, .ok, String(buffer: undone.body))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }

    func testUndoIsRefusedOnceSomeoneElseChangedTheFile() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            let page = try await client.execute(uri: "/api/scores/\(id)/annotations?page=1", method: .get)
            headers[.ifMatch] = page.headers[.eTag]
            let added = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers,
                                                 body: ByteBuffer(string: #"{"type":"square","page":1,"rect":[10,10,50,50]}"#))
            XCTAssertEqual(added.status, .created)
            // Another program saves after the server did: undoing now would throw its edit away.
            try PDFSaver.update(path: path) { try $0.setInfo("Subject", to: "Impressionism") }
            let edited = try Data(contentsOf: URL(fileURLWithPath: path))
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/metadata", method: .get).headers[.eTag]
            let refused = try await client.execute(uri: "/api/scores/\(id)/undo", method: .post, headers: headers)
            XCTAssertEqual(refused.status, .conflict)
            XCTAssertTrue(String(buffer: refused.body).contains("can no longer be undone"))
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), edited)
        }
    }

    func testStampsPlaceMusicalMarks() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            let uri = "/api/scores/\(id)/annotations"
            headers[.ifMatch] = try await client.execute(uri: "\(uri)?page=2", method: .get).headers[.eTag]
            let refused = try await client.execute(uri: uri, method: .post, headers: headers,
                                                   body: ByteBuffer(string: #"{"type":"stamp","page":2,"rect":[10,10,20,20],"symbol":"coda"}"#))
            XCTAssertEqual(refused.status, .badRequest)
            XCTAssertTrue(String(buffer: refused.body).contains("fermata"), "the message lists the marks")
            let added = try await client.execute(uri: uri, method: .post, headers: headers,
                                                 body: ByteBuffer(string: #"{"type":"stamp","page":2,"rect":[100,120,22,22],"symbol":"fermata"}"#))
            XCTAssertEqual(added.status, .created, String(buffer: added.body))
            let read = try ServerFixture.python("""
                import sys, pymupdf
                page = pymupdf.open(sys.argv[1])[1]
                print([(a.type[1], a.xref and page.parent.xref_get_key(a.xref, 'Name')[1]) for a in page.annots()])
                """, path)
            XCTAssertEqual(read, "[('Stamp', '/FolioFermata')]")
            // Listed by its mark, as the marks list names it ("Stamp: fermata").
            struct Listed: Decodable { let annotations: [ScoreService.Annotation] }
            let listed = try ServerFixture.decode(Listed.self, try await client.execute(uri: "\(uri)?page=2", method: .get))
            XCTAssertEqual(listed.annotations.filter { $0.subtype == "Stamp" }.map(\.symbol), ["fermata"])
        }
    }

    func testAnAnnotationIsMovedAndRewordedInPlace() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            let uri = "/api/scores/\(id)/annotations"
            headers[.ifMatch] = try await client.execute(uri: "\(uri)?page=1", method: .get).headers[.eTag]
            let added = try await client.execute(uri: uri, method: .post, headers: headers,
                                                 body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[60,80,120,24],"text":"Tacet","size":12}"#))
            XCTAssertEqual(added.status, .created)
            struct Added: Decodable { let id: String }
            let annotation = try ServerFixture.decode(Added.self, added).id
            headers[.ifMatch] = added.headers[.eTag]
            let edited = try await client.execute(uri: "\(uri)/\(annotation)", method: .patch, headers: headers,
                                                  body: ByteBuffer(string: ##"{"rect":[200,300,150,30],"text":"Play the second time","color":"#1060c0"}"##))
            XCTAssertEqual(edited.status, .noContent, String(buffer: edited.body))
            headers[.ifMatch] = edited.headers[.eTag]
            let missing = try await client.execute(uri: "\(uri)/nothing", method: .patch, headers: headers, body: ByteBuffer(string: "{}"))
            XCTAssertEqual(missing.status, .notFound)
            let bad = try await client.execute(uri: "\(uri)/\(annotation)", method: .patch, headers: headers,
                                               body: ByteBuffer(string: #"{"rect":[1,2,0,4]}"#))
            XCTAssertEqual(bad.status, .badRequest)
            // PyMuPDF finds the words and the place (top-left origin, as the API's).
            let read = try ServerFixture.python("""
                import sys, pymupdf
                page = pymupdf.open(sys.argv[1])[0]
                for a in page.annots():
                    if a.type[1] == 'FreeText':
                        r = a.rect
                        print(a.info['content'], round(r.x0), round(r.y0), round(r.width), round(r.height))
                """, path)
            XCTAssertEqual(read, "Play the second time 200 300 150 30")
        }
    }

    /// A mark sent twice with its own name (its answer lost the first time) is in the file once;
    /// the second answer is the same mark, and the file is not saved again.
    func testAMarkSentAgainWithItsNameIsAddedOnce() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            let uri = "/api/scores/\(id)/annotations"
            let name = UUID().uuidString.lowercased()
            let body = #"{"type":"freetext","page":2,"rect":[60,80,160,24],"text":"attacca – すぐに","name":"\#(name)"}"#
            headers[.ifMatch] = try await client.execute(uri: "\(uri)?page=2", method: .get).headers[.eTag]
            let first = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
            XCTAssertEqual(first.status, .created, String(buffer: first.body))
            struct Added: Decodable { let id: String }
            XCTAssertEqual(try ServerFixture.decode(Added.self, first).id, name)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            // Sent again against the new version (as a device does after a session renewal).
            headers[.ifMatch] = first.headers[.eTag]
            let again = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
            XCTAssertEqual(try ServerFixture.decode(Added.self, again).id, name)
            XCTAssertEqual(again.headers[.eTag], first.headers[.eTag])
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes, "nothing saved the second time")
            // pikepdf: one annotation of that name, with the text.
            let read = try ServerFixture.python("""
                import sys, pikepdf
                pdf = pikepdf.open(sys.argv[1])
                named = [a for p in pdf.pages for a in p.get('/Annots', []) if str(a.get('/NM', '')) == sys.argv[2]]
                print(len(named), str(named[0].Contents))
                """, path, name)
            XCTAssertEqual(read, "1 attacca – すぐに")
            // Names that could pass for another mark's id, or that are not plain, are refused.
            for bad in ["", "obj-12", String(repeating: "a", count: 65), "ноты", "a b", "a/b"] {
                let refused = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string:
                    #"{"type":"square","page":1,"rect":[10,10,20,20],"name":"\#(bad)"}"#))
                XCTAssertEqual(refused.status, .badRequest, bad)
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        }
    }

    /// Page tools through the API, each an undoable incremental save checked against the
    /// version, read back with pikepdf and PyMuPDF, `qpdf --check` clean; and the score as a
    /// forScore container, read with Python's gzip and plistlib.
    func testPageToolsAndTheForScoreContainer() async throws {
        let path = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try await Application(router: try fixture.server().router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "bergamasque")
            let uri = "/api/scores/\(id)/pages"
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/annotations?page=1", method: .get).headers[.eTag]
            func apply(_ body: String) async throws -> PageTool.Result {
                let answer = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
                XCTAssertEqual(answer.status, .ok, "\(body): \(String(buffer: answer.body))")
                headers[.ifMatch] = answer.headers[.eTag]
                return try ServerFixture.decode(PageTool.Result.self, answer)
            }

            // Refused, the file untouched.
            var refusals = headers
            refusals[.ifMatch] = "\"1-1\""
            let stale = try await client.execute(uri: uri, method: .post, headers: refusals, body: ByteBuffer(string: #"{"action":"delete","pages":"1"}"#))
            XCTAssertEqual(stale.status, .conflict)
            for (bad, message) in [(#"{"action":"explode"}"#, "not one of rotate, delete"), (#"{"action":"delete","pages":"9"}"#, "valid: page numbers 1 to 4"),
                                   (#"{"action":"rotate","pages":"1","by":45}"#, "90"), (#"{"action":"rotate"}"#, "by is missing"),
                                   (#"{"action":"delete"}"#, "pages is missing"), (#"{"action":"crop","box":[1,2,3]}"#, "box must be"),
                                   (#"{"action":"insert-blank","at":0}"#, "valid: 1 to 5")] {
                let refused = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: bad))
                XCTAssertEqual(refused.status, .badRequest, bad)
                XCTAssertTrue(String(buffer: refused.body).contains(message), "\(bad): \(String(buffer: refused.body))")
            }
            var unprotected = headers
            unprotected[HTTPField.Name("X-Folio-CSRF")!] = nil
            let forged = try await client.execute(uri: uri, method: .post, headers: unprotected, body: ByteBuffer(string: #"{"action":"delete","pages":"1"}"#))
            XCTAssertEqual(forged.status, .forbidden)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)

            let step1 = try await apply(#"{"action":"rotate","pages":"2","by":90}"#)
            XCTAssertEqual(step1.pages, 4)
            let step2 = try await apply(#"{"action":"insert-blank","at":5}"#)
            XCTAssertEqual(step2.pages, 5)
            let listed = try await client.execute(uri: "/api/scores/\(id)", method: .get)
            XCTAssertEqual(try ServerFixture.decode(ScoreService.Score.self, listed).pages, 5, "the catalog follows at once")
            let step3 = try await apply(#"{"action":"move","pages":"5","to":1}"#)
            XCTAssertEqual(step3.pages, 5)
            let step4 = try await apply(#"{"action":"delete","pages":"5"}"#)
            XCTAssertEqual(step4.pages, 4)
            let step5 = try await apply(#"{"action":"crop","pages":"3","box":[20,30,300,400]}"#)
            XCTAssertEqual(step5.pages, 4)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(original.count), original, "incremental updates only")

            let read = try ServerFixture.python("""
                import sys, subprocess, pikepdf, pymupdf
                pdf = pikepdf.open(sys.argv[1])
                rotations = [int(page.obj.get('/Rotate', 0)) for page in pdf.pages]
                crop = [float(v) for v in pdf.pages[2].obj.get('/CropBox', [])]
                document = pymupdf.open(sys.argv[1])
                texts = [bool(document[i].get_text().strip()) for i in range(document.page_count)]
                check = subprocess.run(['qpdf', '--check', sys.argv[1]], capture_output=True, text=True)
                print(rotations, [round(crop[2] - crop[0]), round(crop[3] - crop[1])] if crop else None, texts,
                      check.returncode, 'No syntax or stream encoding errors found' in check.stdout)
                """, path)
            // The blank page went first, page 2 (now 3) is turned, the last page was deleted and page 3 cropped.
            XCTAssertEqual(read, "[0, 0, 90, 0] [300, 400] [False, True, True, True] 0 True")

            // Undo takes back the crop: the file ends where the delete left it.
            let undone = try await client.execute(uri: "/api/scores/\(id)/undo", method: .post, headers: headers)
            XCTAssertEqual(undone.status, .ok, String(buffer: undone.body))
            XCTAssertTrue(String(buffer: undone.body).contains("Cropped page(s) 3"))
            let uncropped = try ServerFixture.python("import sys, pikepdf; pdf = pikepdf.open(sys.argv[1]); print('/CropBox' in pdf.pages[2].obj)", path)
            XCTAssertEqual(uncropped, "False")

            // The forScore container: gzip'd plist with the PDF unchanged and its title.
            let container = try await client.execute(uri: "/api/scores/\(id)/4sc", method: .get)
            XCTAssertEqual(container.status, .ok)
            XCTAssertTrue(container.headers[.contentDisposition]?.contains("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.4sc") == true)
            let saved = fixture.path("exported.4sc.bin")
            try Data(buffer: container.body).write(to: URL(fileURLWithPath: saved))
            let unpacked = try ServerFixture.python("""
                import sys, gzip, plistlib
                plist = plistlib.loads(gzip.decompress(open(sys.argv[1], 'rb').read()))
                titles = [value for key, value in plist.items() if key.endswith('|title')]
                print(plist['pdfData'] == open(\(String(reflecting: path)), 'rb').read(), titles)
                """, saved)
            let title = try ServerFixture.python("import sys, pikepdf; pdf = pikepdf.open(sys.argv[1]); print(str(pdf.docinfo['/Title']))", path)
            XCTAssertEqual(unpacked, "True ['\(title)']")
        }
    }

    /// `folio serve --font-file`: the Text tool's words, in any script, are drawn in the
    /// server's font (Japanese from the installed CJK font it lacks), added and moved alike.
    func testTheServersFontDrawsTheTextTool() async throws {
        let path = fixture.path("Brahms-Cancion_de_Cuna.pdf")
        let serif = try TextFont.read("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
        XCTAssertEqual(serif.name, "DejaVuSerif")
        let server = try fixture.server { $0.textFont = serif }
        try await Application(router: try server.router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "cuna")
            let uri = "/api/scores/\(id)/annotations"
            headers[.ifMatch] = try await client.execute(uri: "\(uri)?page=1", method: .get).headers[.eTag]
            for text in ["a tempo", "Dvořák — ゆっくり"] {
                let added = try await client.execute(uri: uri, method: .post, headers: headers,
                                                     body: ByteBuffer(string: #"{"type":"freetext","page":1,"rect":[60,80,200,24],"text":"\#(text)"}"#))
                XCTAssertEqual(added.status, .created, String(buffer: added.body))
                headers[.ifMatch] = added.headers[.eTag]
                struct Added: Decodable { let id: String }
                let moved = try await client.execute(uri: "\(uri)/\(try ServerFixture.decode(Added.self, added).id)", method: .patch,
                                                     headers: headers, body: ByteBuffer(string: #"{"rect":[60,300,220,30]}"#))
                XCTAssertEqual(moved.status, .noContent, String(buffer: moved.body))
                headers[.ifMatch] = moved.headers[.eTag]
            }
        }
        // Each FreeText's appearance names its fonts: the server's first, Droid only for Japanese.
        let fonts = try ServerFixture.python("""
            import sys, pikepdf
            pdf = pikepdf.open(sys.argv[1])
            for a in pdf.pages[0].get("/Annots", []):
                if a.get("/Subtype") == "/FreeText":
                    names = sorted(str(f.get("/BaseFont")).split("+")[-1] for f in a.AP.N.Resources.Font.values())
                    print(str(a.Contents), "|", str(a.DA).split()[0], "|", ",".join(names))
            """, path)
        XCTAssertEqual(fonts.split(separator: "\n").map(String.init),
                       ["a tempo | /FolioU0 | DejaVuSerif", "Dvořák — ゆっくり | /FolioU0 | DejaVuSerif,DroidSansFallback"])
        XCTAssertThrowsError(try TextFont.read(fixture.path("Brahms-Cancion_de_Cuna.pdf"))) { error in
            XCTAssertTrue("\(error)".contains("Brahms-Cancion_de_Cuna.pdf"), "\(error)")
        }
    }

}
