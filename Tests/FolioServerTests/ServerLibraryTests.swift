import FolioLibrary
import FolioPDF
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// The library view's API: filters, sorting and facets, and adding files by upload — PDFs
/// with forScore's Open In dictionary, images and text made into PDFs, everything else
/// refused with the folder left as it was.
final class ServerLibraryTests: ServerTestCase, @unchecked Sendable {

    override func setUpWithError() throws {
        try super.setUpWithError()
        try PDFSaver.update(path: fixture.path("Brahms-Cancion_de_Cuna.pdf")) { document in
            try document.setInfo("Author", to: "Johannes Brahms")
            try document.setInfo("Keywords", to: "lullaby, rating:5, keysf:-3, keymi:0")
        }
        try PDFSaver.update(path: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")) { document in
            try document.setInfo("Author", to: "Claude Debussy")
            try document.setInfo("Keywords", to: "rating:3")
        }
    }


    private struct Scores: Decodable { let scores: [ScoreService.Score] }
    private struct Facets: Decodable { let facets: [String: [ScoreService.Facet]] }
    private struct Upload: Decodable { let score: ScoreService.Score; let warnings: [String] }

    private func titles(_ client: some TestClientProtocol, _ query: String) async throws -> [String] {
        let response = try await client.execute(uri: "/api/scores?\(query)", method: .get)
        XCTAssertEqual(response.status, .ok, "\(query): \(String(buffer: response.body))")
        return try ServerFixture.decode(Scores.self, response).scores.map(\.title)
    }

    func testFiltersSortingAndFacets() async throws {
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let byKey = try await self.titles(client, "key=Eb%20major")
            XCTAssertEqual(byKey, ["Canción de cuna"])
            let rated = try await self.titles(client, "rating=3&sort=rating")
            XCTAssertEqual(rated, ["Canción de cuna", "Suite Bergamasque – Clair de Lune"])
            let byComposer = try await self.titles(client, "composer=johannes%20brahms")
            XCTAssertEqual(byComposer, ["Canción de cuna"], "composer values match without case")
            let both = try await self.titles(client, "composer=Claude%20Debussy&rating=4")
            XCTAssertEqual(both, [])
            for (query, message) in [("rating=9", "valid: 1 to 5"), ("sort=size", "not one of"), ("key=H", "unknown key"),
                                     ("limit=x", "must be an integer")] {
                let refused = try await client.execute(uri: "/api/scores?\(query)", method: .get)
                XCTAssertEqual(refused.status, .badRequest, query)
                XCTAssertTrue(String(buffer: refused.body).contains(message), String(buffer: refused.body))
            }
            let facets = try ServerFixture.decode(Facets.self, try await client.execute(uri: "/api/facets", method: .get)).facets
            // Greensleeves names its composer only where LilyPond writes it (/Composer "Traditional; 16th…").
            XCTAssertEqual(Set(facets["composer"]?.map(\.value) ?? []), ["Johannes Brahms", "Claude Debussy", "Traditional"])
            XCTAssertEqual(facets["key"]?.map(\.value), ["E♭ major"])
            XCTAssertEqual(facets["tag"]?.first?.count, 1)
            let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
            XCTAssertTrue(page.contains(#"<option value="Johannes Brahms">Johannes Brahms (1)</option>"#))
        }
    }

    /// The library page's results come from the server as HTML (the page swaps them in and
    /// restates nothing): the same list items as the page, every string escaped, the count.
    func testSearchResultsAsTheLibraryPageShowsThem() async throws {
        try PDFSaver.update(path: fixture.path("Brahms-Cancion_de_Cuna.pdf")) { document in
            try document.setInfo("Title", to: "<Wiegenlied> & \"Колыбельная\"")
        }
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let response = try await client.execute(uri: "/library/results?composer=johannes%20brahms", method: .get)
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers[.contentType], "text/html; charset=utf-8")
            let html = String(buffer: response.body)
            XCTAssertTrue(html.contains(#"<span id="count">1 score</span>"#), html)
            XCTAssertTrue(html.contains("&lt;Wiegenlied&gt; &amp; &quot;Колыбельная&quot;"), html)
            XCTAssertFalse(html.contains("<Wiegenlied>"), html)
            XCTAssertEqual(html.components(separatedBy: "<li data-id=").count - 1, 1, html)
            let all = String(buffer: try await client.execute(uri: "/library/results", method: .get).body)
            XCTAssertTrue(all.contains(#"<span id="count">3 scores</span>"#), all)
            // The page itself shows its list items the same way.
            let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
            XCTAssertTrue(page.contains("&lt;Wiegenlied&gt; &amp; &quot;Колыбельная&quot;"))
            let refused = try await client.execute(uri: "/library/results?rating=9", method: .get)
            XCTAssertEqual(refused.status, .badRequest)
        }
    }

    /// An arranger and a lyricist are shown beside the composers, by role, never as composers:
    /// in the API's "credits", the library's rows and the score view's header, escaped; a
    /// search finds them.
    func testArrangerAndLyricistShownBesideTheComposersNeverAsOne() async throws {
        let arranger = "Диего <Гильен> & Co"
        try PDFSaver.update(path: fixture.path("Brahms-Cancion_de_Cuna.pdf")) { document in
            try document.setInfo("Arranger", to: arranger)
            try document.setInfo("Poet", to: "滝廉太郎")
        }
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let response = try await client.execute(uri: "/api/scores?q=%D0%B3%D0%B8%D0%BB%D1%8C%D0%B5%D0%BD", method: .get)
            let found = try ServerFixture.decode(Scores.self, response).scores
            XCTAssertEqual(found.map(\.title), ["Canción de cuna"], "a search for the arranger (гильен) finds the score")
            let score = try XCTUnwrap(found.first)
            XCTAssertEqual(score.composers, ["Johannes Brahms"])
            XCTAssertEqual(score.credits.map(\.role), [.arranger, .lyricist])
            XCTAssertEqual(score.credits.map(\.name), [arranger, "滝廉太郎"])
            XCTAssertEqual(score.credits.map(\.source), ["/Arranger", "/Poet"])
            let json = String(buffer: response.body)
            XCTAssertTrue(json.contains(#""role":"arranger""#), json)
            let expected = #"<span class="people"><span class="composers">Johannes Brahms</span>"#
                + #"<span class="credits"> · arr. Диего &lt;Гильен&gt; &amp; Co · words 滝廉太郎</span></span>"#
            let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
            XCTAssertTrue(page.contains(expected), page)
            let view = String(buffer: try await client.execute(uri: "/scores/\(score.id)", method: .get).body)
            XCTAssertTrue(view.contains(expected.replacingOccurrences(of: #"class="people""#, with: #"class="people muted""#)), view)
            // A score without credits shows its composers alone.
            XCTAssertTrue(page.contains(#"<span class="people"><span class="composers">Claude Debussy</span></span>"#), page)
        }
    }

    func testUploadsAddPDFsImagesAndTextAndRefuseTheRest() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("folio-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let png = work.appendingPathComponent("part.png").path
        _ = try ServerFixture.python("""
            import sys
            from PIL import Image
            Image.new('RGB', (300, 400), (250, 250, 240)).save(sys.argv[1], dpi=(150, 150))
            """, png)
        let tiny = work.appendingPathComponent("tiny.png").path
        _ = try ServerFixture.python("import sys\nfrom PIL import Image\nImage.new('L', (1, 1)).save(sys.argv[1])", tiny)
        let pdf = try Data(contentsOf: URL(fileURLWithPath: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")))
        try await Application(router: try fixture.server(maxUpload: 2 << 20).router()).test(.router) { client in
            let headers = try await ServerFixture.csrf(client)
            func upload(_ name: String, _ bytes: Data, openIn: String? = nil, headers: HTTPFields = headers) async throws -> TestResponse {
                var uri = "/api/uploads?name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)"
                if let openIn {
                    let encoded = Data(openIn.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
                    uri += "&openin=\(encoded)"
                }
                return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(data: bytes))
            }
            let before = try FileManager.default.contentsOfDirectory(atPath: self.fixture.folder.path).sorted()

            // Refused, nothing written: no CSRF token, a folder in the name, not a kind Folio takes,
            // a PDF header over junk, a bad dictionary, too large.
            let refusals: [(TestResponse, HTTPResponse.Status)] = [
                (try await upload("a.pdf", pdf, headers: [:]), .forbidden),
                (try await upload("../a.pdf", pdf), .badRequest),
                (try await upload(".hidden.pdf", pdf), .badRequest),
                (try await upload("tool.pdf", Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0, 0])), .unsupportedMediaType),
                (try await upload("fake.pdf", Data("%PDF-1.7\nnothing here\n".utf8)), .unprocessableContent),
                (try await upload("a.pdf", pdf, openIn: #"{"rating": 9}"#), .badRequest),
                (try await upload("big.pdf", pdf + Data(count: 2 << 20)), .contentTooLarge),
                // Found by schemathesis: a 1×1 image makes a page below PDF's 1 pt minimum (was a 500).
                (try await upload("0", try Data(contentsOf: URL(fileURLWithPath: tiny))), .unprocessableContent),
            ]
            for (index, (response, status)) in refusals.enumerated() {
                XCTAssertEqual(response.status, status, "refusal \(index): \(String(buffer: response.body))")
                XCTAssertTrue(String(buffer: response.body).contains("\"message\""), "refusal \(index) explains itself")
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: self.fixture.folder.path).sorted(), before)

            // A PDF with its Open In dictionary; the same name again gets a number, never overwrites.
            let first = try await upload("Clair.pdf", pdf, openIn: #"{"title": "Clair de lune", "composers": "Claude Debussy", "rating": 5, "keysf": -5}"#)
            XCTAssertEqual(first.status, .created, String(buffer: first.body))
            XCTAssertEqual(try ServerFixture.decode(Upload.self, first).score.path, "Clair.pdf")
            let stored = self.fixture.path("Clair.pdf")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stored)).prefix(pdf.count), pdf, "stored as it came, plus an update")
            let info = try ServerFixture.python("""
                import sys, pikepdf
                pdf = pikepdf.open(sys.argv[1])
                print(pdf.docinfo.Title); print(pdf.docinfo.Author); print(pdf.docinfo.Keywords)
                """, stored).components(separatedBy: "\n")
            XCTAssertEqual(info[0], "Clair de lune")
            XCTAssertEqual(info[1], "Claude Debussy")
            XCTAssertTrue(info[2].contains("rating:5") && info[2].contains("keysf:-5"), info[2])
            let second = try await upload("Clair.pdf", pdf)
            XCTAssertEqual(try ServerFixture.decode(Upload.self, second).score.path, "Clair 2.pdf")

            // An image and a text file become PDFs that other readers open.
            let image = try await upload("part.png", try Data(contentsOf: URL(fileURLWithPath: png)))
            XCTAssertEqual(image.status, .created, String(buffer: image.body))
            let imagePDF = self.fixture.path(try ServerFixture.decode(Upload.self, image).score.path)
            let size = try ServerFixture.python("""
                import sys, pymupdf
                d = pymupdf.open(sys.argv[1]); p = d[0]
                print(len(d), round(p.rect.width), round(p.rect.height), len(p.get_images()))
                """, imagePDF)
            XCTAssertEqual(size, "1 144 192 1", "one page of 300×400 px at 150 dpi, the image on it")
            let text = try await upload("Song.txt", Data("Scarborough Fair\n\nAre you going to Scarborough Fair?\n".utf8))
            XCTAssertEqual(text.status, .created, String(buffer: text.body))
            let song = try ServerFixture.decode(Upload.self, text).score
            XCTAssertEqual(song.title, "Scarborough Fair")
            let words = try ServerFixture.python("import sys, pymupdf; print(pymupdf.open(sys.argv[1])[0].get_text())",
                                                 self.fixture.path(song.path))
            XCTAssertTrue(words.contains("Are you going to Scarborough Fair?"), words)
            let found = try await self.titles(client, "q=scarborough")
            XCTAssertEqual(found, ["Scarborough Fair"], "catalogued at once")
        }
    }

    func testCoversAreDrawnOnceAndCached() async throws {
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let scores = try ServerFixture.decode(Scores.self, try await client.execute(uri: "/api/scores", method: .get)).scores
            let id = try XCTUnwrap(scores.first { $0.path.hasPrefix("Debussy") }).id
            let cover = try await client.execute(uri: "/api/scores/\(id)/cover", method: .get)
            XCTAssertEqual(cover.status, .ok, String(buffer: cover.body))
            XCTAssertEqual(cover.headers[.contentType], "image/png")
            XCTAssertEqual(Array(cover.body.readableBytesView.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
            let tag = try XCTUnwrap(cover.headers[.eTag])
            let unchanged = try await client.execute(uri: "/api/scores/\(id)/cover", method: .get, headers: [.ifNoneMatch: tag])
            XCTAssertEqual(unchanged.status, .notModified)
            let cached = try FileManager.default.contentsOfDirectory(atPath: self.fixture.path(".folio/pages"))
            XCTAssertEqual(cached.filter { $0.hasPrefix("\(id)-") }.count, 1)
            // Pillow reads it: a page's shape, 240 pixels high.
            let png = self.fixture.path(".folio/pages/" + (try XCTUnwrap(cached.first { $0.hasPrefix("\(id)-") })))
            let size = try ServerFixture.python("import sys\nfrom PIL import Image\nprint(Image.open(sys.argv[1]).size)", png)
            XCTAssertTrue(size.hasSuffix(", 240)") && size.hasPrefix("(1"), size)
            let missing = try await client.execute(uri: "/api/scores/999999/cover", method: .get)
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    /// The picture of a page a score opens on: the page as pdftoppm draws it at that height
    /// (compared pixel by pixel with pdftoppm's own run), kept per version and dropped with it.
    func testPagePicturesAreThePagesAsPopplerDrawsThem() async throws {
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let scores = try ServerFixture.decode(Scores.self, try await client.execute(uri: "/api/scores", method: .get)).scores
            let score = try XCTUnwrap(scores.first { ($0.pages ?? 0) >= 2 })
            let id = score.id
            let picture = try await client.execute(uri: "/api/scores/\(id)/pages/2/image?height=300", method: .get)
            XCTAssertEqual(picture.status, .ok, String(buffer: picture.body))
            XCTAssertEqual(picture.headers[.contentType], "image/png")
            let tag = try XCTUnwrap(picture.headers[.eTag])
            let served = self.fixture.path("served.png")
            try Data(picture.body.readableBytesView).write(to: URL(fileURLWithPath: served))
            // pdftoppm's own picture of the page, compared pixel by pixel (Pillow).
            let compare = try ServerFixture.python("""
                import subprocess, sys
                from PIL import Image, ImageChops
                subprocess.run(["pdftoppm", "-f", "2", "-l", "2", "-scale-to-y", "300", "-scale-to-x", "-1", "-png", "-singlefile",
                                sys.argv[1], sys.argv[2] + ".reference"], check=True)
                a = Image.open(sys.argv[2] + ".reference.png").convert("RGB")
                b = Image.open(sys.argv[2]).convert("RGB")
                print(a.size, b.size, ImageChops.difference(a, b).getbbox())
                """, self.fixture.path(score.path), served)
            XCTAssertTrue(compare.hasSuffix("None"), "the served picture differs from pdftoppm's: \(compare)")
            XCTAssertTrue(compare.contains(", 300)"), compare)
            let again = try await client.execute(uri: "/api/scores/\(id)/pages/2/image?height=300", method: .get, headers: [.ifNoneMatch: tag])
            XCTAssertEqual(again.status, .notModified)
            // Out of range: said with the valid range.
            let pages = try XCTUnwrap(score.pages)
            let past = try await client.execute(uri: "/api/scores/\(id)/pages/\(pages + 1)/image", method: .get)
            XCTAssertEqual(past.status, .badRequest)
            XCTAssertTrue(String(buffer: past.body).contains("valid: 1 to \(pages)"), String(buffer: past.body))
            let tall = try await client.execute(uri: "/api/scores/\(id)/pages/1/image?height=5000", method: .get)
            XCTAssertEqual(tall.status, .badRequest)
            XCTAssertTrue(String(buffer: tall.body).contains("valid: 100 to 2400"), String(buffer: tall.body))
            // The score page fetches the picture of the page it opens on.
            let html = String(buffer: try await client.execute(uri: "/scores/\(id)?page=2", method: .get).body)
            XCTAssertTrue(html.contains("src=\"/api/scores/\(id)/pages/2/image\""), html)
            // A new version of the file: its pictures are drawn anew and the old ones go.
            let first = try await client.execute(uri: "/api/scores/\(id)/pages/1/image", method: .get)
            XCTAssertEqual(first.status, .ok)
            var headers = try await ServerFixture.csrf(client)
            headers[.ifMatch] = tag
            let mark = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers,
                                                body: ByteBuffer(string: #"{"type":"square","page":1,"rect":[40,40,200,120]}"#))
            XCTAssertEqual(mark.status, .created, String(buffer: mark.body))
            let redrawn = try await client.execute(uri: "/api/scores/\(id)/pages/1/image", method: .get)
            XCTAssertEqual(redrawn.status, .ok)
            XCTAssertNotEqual(redrawn.headers[.eTag], tag)
            XCTAssertNotEqual(Data(redrawn.body.readableBytesView), Data(first.body.readableBytesView), "the new square shows")
            let kept = try FileManager.default.contentsOfDirectory(atPath: self.fixture.path(".folio/pages")).filter { $0.hasPrefix("\(id)-") }
            XCTAssertEqual(kept.count, 1, "\(kept)")
        }
    }
}
