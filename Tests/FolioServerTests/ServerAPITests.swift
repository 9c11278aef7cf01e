import FolioLibrary
import FolioPDF
import FolioScore
import FolioServer
import FolioTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// The JSON API and pages of `folio serve`, through Hummingbird's test client: search,
/// annotations with versions and CSRF, traversal, hostile titles, access tokens.
final class ServerAPITests: ServerTestCase, @unchecked Sendable {
    private var folder: URL { fixture.folder }
    private static let hostile = ServerFixture.hostile

    private func server(access: AccessSecret? = nil) throws -> LibraryServer {
        try fixture.server(access: access)
    }

    private func application(_ server: LibraryServer) -> some ApplicationProtocol {
        Application(router: server.router())
    }

    private struct Scores: Decodable { let scores: [ScoreService.Score] }
    private struct Annotations: Decodable { let annotations: [ScoreService.Annotation] }

    private func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try ServerFixture.decode(type, response)
    }

    private func csrf(_ client: some TestClientProtocol) async throws -> HTTPFields {
        try await ServerFixture.csrf(client)
    }

    func testSearchFoldsCaseAndDiacritics() async throws {
        try await application(try server()).test(.router) { client in
            let all = try await client.execute(uri: "/api/scores", method: .get)
            XCTAssertEqual(all.status, .ok)
            XCTAssertEqual(try self.decode(Scores.self, all).scores.count, 3)
            let found = try await client.execute(uri: "/api/scores?q=CANCION", method: .get)
            XCTAssertEqual(try self.decode(Scores.self, found).scores.map(\.title), ["Canción de cuna"])
            let bad = try await client.execute(uri: "/api/scores?limit=0", method: .get)
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertTrue(String(buffer: bad.body).contains("valid: 1 to 10000"))
        }
    }

    /// The details form is the server's description of the fields, and what it sends as
    /// written (a duration as m:ss) is read by the server, which says what it refuses.
    func testTheFieldsAndTheDetailsFormAreTheServers() async throws {
        try await application(try server()).test(.router) { client in
            let fields = try await client.execute(uri: "/api/fields", method: .get)
            XCTAssertEqual(try self.decode([ScoreFieldForm].self, fields), ScoreFieldForm.all)
            let id = try await ServerFixture.scoreID(client, query: "cuna")
            let page = String(buffer: try await client.execute(uri: "/scores/\(id)", method: .get).body)
            for field in ScoreFieldForm.all {
                XCTAssertTrue(page.contains("name=\"\(field.name)\""), field.name)
            }
            var headers = try await ServerFixture.csrf(client)
            headers[.ifMatch] = try await client.execute(uri: "/api/scores/\(id)/metadata", method: .get).headers[.eTag]
            let bad = try await client.execute(uri: "/api/scores/\(id)/metadata", method: .put, headers: headers,
                                               body: ByteBuffer(string: #"{"title": "Wiegenlied", "duration": "1:75"}"#))
            XCTAssertEqual(bad.status, .badRequest)
            XCTAssertTrue(String(buffer: bad.body).contains("duration '1:75' is invalid"), String(buffer: bad.body))
            let saved = try await client.execute(uri: "/api/scores/\(id)/metadata", method: .put, headers: headers,
                                                 body: ByteBuffer(string: #"{"title": "Wiegenlied — Колыбельная", "duration": "2:05", "rating": "3"}"#))
            XCTAssertEqual(saved.status, .ok, String(buffer: saved.body))
            let metadata = try self.decode(ScoreMetadata.self, saved)
            XCTAssertEqual(metadata.duration, 125)
            XCTAssertEqual(metadata.rating, 3)
            XCTAssertTrue(String(buffer: saved.body).contains(#""durationText":"2:05""#))
        }
    }

    func testHostileTitlesRenderAsText() async throws {
        try await application(try server()).test(.router) { client in
            let page = try await client.execute(uri: "/", method: .get)
            let html = String(buffer: page.body)
            XCTAssertFalse(html.contains("<script>alert"), "a title's markup reached the page")
            XCTAssertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Ünïcode&quot;"))
            XCTAssertTrue(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            XCTAssertEqual(page.headers[.xContentTypeOptions], "nosniff")
            let scores = try self.decode(Scores.self, try await client.execute(uri: "/api/scores?q=script", method: .get)).scores
            XCTAssertEqual(scores.first?.title, Self.hostile, "JSON carries the title as it is")
            let view = try await client.execute(uri: "/scores/\(scores[0].id)", method: .get)
            XCTAssertFalse(String(buffer: view.body).contains("<script>alert"))
        }
    }

    func testAnnotationsAreAddedAndRemovedOnlyWithTheCurrentVersionAndToken() async throws {
        let server = try server()
        try await application(server).test(.router) { client in
            let headers = try await self.csrf(client)
            let score = try self.decode(Scores.self, try await client.execute(uri: "/api/scores?q=bergamasque", method: .get)).scores[0]
            let path = self.folder.appendingPathComponent(score.path).path
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let list = try await client.execute(uri: "/api/scores/\(score.id)/annotations?page=1", method: .get)
            XCTAssertEqual(list.status, .ok)
            let before = try self.decode(Annotations.self, list).annotations
            guard let version = list.headers[.eTag] else { return XCTFail("no ETag") }
            let body = ByteBuffer(string: ##"{"type":"square","page":1,"rect":[72,90,144,36],"color":"#1060c0"}"##)
            let uri = "/api/scores/\(score.id)/annotations"

            // Refused: no CSRF token, a foreign Origin, no If-Match, a stale version, bad values.
            var plain: HTTPFields = [.ifMatch: version]
            let response1 = try await client.execute(uri: uri, method: .post, headers: plain, body: body)
            XCTAssertEqual(response1.status, .forbidden)
            plain = headers
            plain[.ifMatch] = version
            plain[.origin] = "http://evil.example"
            let response2 = try await client.execute(uri: uri, method: .post, headers: plain, body: body)
            XCTAssertEqual(response2.status, .forbidden)
            let response3 = try await client.execute(uri: uri, method: .post, headers: headers, body: body)
            XCTAssertEqual(response3.status, .preconditionRequired)
            var stale = headers
            stale[.ifMatch] = "\"1-1\""
            let response4 = try await client.execute(uri: uri, method: .post, headers: stale, body: body)
            XCTAssertEqual(response4.status, .conflict)
            var current = headers
            current[.ifMatch] = version
            let outside = try await client.execute(uri: uri, method: .post, headers: current,
                                                   body: ByteBuffer(string: #"{"type":"square","page":99,"rect":[1,1,2,2]}"#))
            XCTAssertEqual(outside.status, .badRequest)
            XCTAssertTrue(String(buffer: outside.body).contains("page 99"), String(buffer: outside.body))
            let response5 = try await client.execute(uri: uri, method: .post, headers: current,
                                                    body: ByteBuffer(string: #"{"type":"script","page":1}"#))
            XCTAssertEqual(response5.status, .badRequest)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "refused edits left the file untouched")

            // Accepted with the current version: saved as an incremental update.
            let added = try await client.execute(uri: uri, method: .post, headers: current, body: body)
            XCTAssertEqual(added.status, .created, String(buffer: added.body))
            let newVersion = added.headers[.eTag]
            XCTAssertNotNil(newVersion)
            XCTAssertNotEqual(newVersion, version)
            let saved = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual(saved.prefix(original.count), original, "the original bytes stay a prefix")
            let after = try self.decode(Annotations.self, try await client.execute(uri: "\(uri)?page=1", method: .get)).annotations
            XCTAssertEqual(after.count, before.count + 1)
            let square = try XCTUnwrap(after.first { $0.subtype == "Square" && $0.color == "#1060c0" })
            XCTAssertEqual(square.rect, [72, 90, 144, 36])

            // The old version can no longer delete; the new one can.
            var old = headers
            old[.ifMatch] = version
            let response6 = try await client.execute(uri: "\(uri)/\(square.id)", method: .delete, headers: old)
            XCTAssertEqual(response6.status, .conflict)
            var fresh = headers
            fresh[.ifMatch] = newVersion
            let removed = try await client.execute(uri: "\(uri)/\(square.id)", method: .delete, headers: fresh)
            XCTAssertEqual(removed.status, .noContent)
            let last = try self.decode(Annotations.self, try await client.execute(uri: "\(uri)?page=1", method: .get)).annotations
            XCTAssertEqual(last.map(\.id), before.map(\.id))
            fresh[.ifMatch] = removed.headers[.eTag]
            let response7 = try await client.execute(uri: "\(uri)/no-such-id", method: .delete, headers: fresh)
            XCTAssertEqual(response7.status, .notFound)
        }
    }

    func testNothingOutsideTheLibraryIsReachable() async throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("folio-outside-\(UUID().uuidString).pdf")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf"), to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("escape.pdf").path,
                                                   withDestinationPath: outside.path)
        let server = try server()
        let paths = server.service.paths
        XCTAssertNil(paths.resolve("../\(outside.lastPathComponent)"))
        // "/" and a combining mark are one character to Swift, two things to the file system.
        let marked = outside.deletingLastPathComponent().appendingPathComponent("\u{301}\(outside.lastPathComponent)")
        try FileManager.default.copyItem(at: outside, to: marked)
        defer { try? FileManager.default.removeItem(at: marked) }
        XCTAssertNil(paths.resolve("../\u{301}\(outside.lastPathComponent)"))
        try FileManager.default.copyItem(at: outside, to: folder.appendingPathComponent("\u{301}inside.pdf"))
        XCTAssertNotNil(paths.resolve("\u{301}inside.pdf"), "a name that starts with a combining mark is inside")
        XCTAssertNil(paths.resolve(outside.path))
        XCTAssertNil(paths.resolve("escape.pdf"), "a symbolic link out of the folder")
        XCTAssertNil(paths.resolve("./Brahms-Cancion_de_Cuna.pdf"))
        XCTAssertNil(paths.resolve("Brahms-Cancion_de_Cuna.pdf\0.txt"))
        XCTAssertNotNil(paths.resolve("Brahms-Cancion_de_Cuna.pdf"))
        try await application(server).test(.router) { client in
            for uri in ["/assets/..%2F..%2FPackage.swift", "/assets/%2e%2e%2fPackage.swift", "/assets/../Package.swift",
                        "/pdfjs/..%2F..%2F..%2Fetc%2Fpasswd", "/pdfjs/%2Fetc%2Fpasswd", "/scores/..%2F1", "/api/scores/999999",
                        "/api/scores/..%2F..%2Fetc/pdf", "/api/scores/-1/pdf"] {
                var response = try await client.execute(uri: uri, method: .get)
                // A dot segment is first sent to the one spelling every decision is made on.
                if response.status == .permanentRedirect, let location = response.headers[.location] {
                    XCTAssertFalse(location.split(separator: "/").contains { $0 == ".." || $0 == "." }, "\(uri) → \(location)")
                    response = try await client.execute(uri: location, method: .get)
                }
                XCTAssertEqual(response.status, .notFound, uri)
                XCTAssertFalse(String(buffer: response.body).contains("root:"), uri)
            }
            // The symlinked file may be catalogued, but it is never served.
            let scores = try self.decode(Scores.self, try await client.execute(uri: "/api/scores?limit=100", method: .get)).scores
            for score in scores where score.path == "escape.pdf" {
                let response8 = try await client.execute(uri: "/api/scores/\(score.id)/pdf", method: .get)
                XCTAssertEqual(response8.status, .notFound)
            }
            let pdf = try await client.execute(uri: "/api/scores/\(scores[0].id)/pdf", method: .get)
            XCTAssertEqual(pdf.status, .ok)
            XCTAssertEqual(pdf.headers[.contentType], "application/pdf")
            XCTAssertEqual(Array(pdf.body.readableBytesView.prefix(5)), Array("%PDF-".utf8))
            let spec = try await client.execute(uri: "/api/openapi.yaml", method: .get)
            XCTAssertEqual(spec.status, .ok)
            XCTAssertTrue(String(buffer: spec.body).hasPrefix("openapi: 3"))
        }
    }

    /// The PDF is streamed with its version, revalidated with 304, and served in byte ranges
    /// (what pdf.js asks for with disableAutoFetch), each checked against the file itself.
    func testThePDFIsServedWholeOrInRangesWithItsVersion() async throws {
        try await application(try server()).test(.router) { client in
            let score = try self.decode(Scores.self, try await client.execute(uri: "/api/scores?q=cuna", method: .get)).scores[0]
            let file = try Data(contentsOf: self.folder.appendingPathComponent(score.path))
            let uri = "/api/scores/\(score.id)/pdf"
            let whole = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(whole.status, .ok)
            XCTAssertEqual(Data(buffer: whole.body), file)
            XCTAssertEqual(whole.headers[.acceptRanges], "bytes")
            XCTAssertEqual(whole.headers[.contentLength], String(file.count))
            let tag = try XCTUnwrap(whole.headers[.eTag])
            XCTAssertEqual(tag, FileVersion.tag(of: self.folder.appendingPathComponent(score.path).path))

            for (header, expected) in [("bytes=0-1023", 0..<1024), ("bytes=100-", 100..<file.count),
                                       ("bytes=-500", (file.count - 500)..<file.count),
                                       ("bytes=10-99999999", 10..<file.count)] {
                let part = try await client.execute(uri: uri, method: .get, headers: [.range: header])
                XCTAssertEqual(part.status, .partialContent, header)
                XCTAssertEqual(Data(buffer: part.body), file.subdata(in: expected), header)
                XCTAssertEqual(part.headers[.contentRange], "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(file.count)", header)
                XCTAssertEqual(part.headers[.eTag], tag)
            }
            let past = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=\(file.count)-"])
            XCTAssertEqual(past.status, .rangeNotSatisfiable)
            XCTAssertEqual(past.headers[.contentRange], "bytes */\(file.count)")
            // Ranges of a changed file are refused in favour of the whole new file (If-Range);
            // several ranges, or a range in other units, get the whole file.
            for headers: HTTPFields in [[.range: "bytes=0-9", .ifRange: "\"an older version\""], [.range: "bytes=0-9,20-29"],
                                        [.range: "pages=1-2"], [.range: "bytes=9-0"]] {
                let answer = try await client.execute(uri: uri, method: .get, headers: headers)
                XCTAssertEqual(answer.status, .ok, "\(headers)")
                XCTAssertEqual(answer.body.readableBytes, file.count)
            }
            let sameRange = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-9", .ifRange: tag])
            XCTAssertEqual(sameRange.status, .partialContent)
            for match in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                let unchanged = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: match])
                XCTAssertEqual(unchanged.status, .notModified, match)
                XCTAssertEqual(unchanged.body.readableBytes, 0)
            }
            let changed = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"other\""])
            XCTAssertEqual(changed.status, .ok)
            // HEAD: the size and version without the bytes.
            let head = try await client.execute(uri: uri, method: .head)
            XCTAssertEqual(head.status, .ok)
            XCTAssertEqual(head.headers[.contentLength], String(file.count))
            XCTAssertEqual(head.headers[.eTag], tag)
            XCTAssertEqual(head.body.readableBytes, 0)
            let missing = try await client.execute(uri: "/api/scores/999999/pdf", method: .head)
            XCTAssertEqual(missing.status, .notFound)
        }
    }

    /// A score larger than what is sent in one write (`FileResponse.chunk`): the whole file
    /// streamed, and seeded random ranges — at both ends, one byte either side of the chunk's
    /// size, suffixes — asked for twenty at a time, each the file's own bytes as `Data` reads
    /// them. pikepdf writes the score (1.2 MB: a page with an unused 1.1 MB image).
    func testALargeScoreIsServedWholeAndInRangesOnEitherSideOfAWrite() async throws {
        var random = SeededGenerator(#function)
        let name = "Großes Heft – 大きな楽譜.pdf"
        _ = try ServerFixture.python("""
            import sys, random, pikepdf
            random.seed(int(sys.argv[2]))
            pdf = pikepdf.new()
            pdf.add_blank_page(page_size=(595, 842))
            data = bytes(random.getrandbits(8) for _ in range(1_150_000))
            image = pdf.make_stream(data, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=1000, Height=1150,
                                    ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
            pdf.pages[0].Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
            pdf.docinfo["/Title"] = "Großes Heft – 大きな楽譜"
            pdf.save(sys.argv[1], compress_streams=False)
            """, fixture.path(name), String(random.next() % 1_000_000))
        let file = try Data(contentsOf: URL(fileURLWithPath: fixture.path(name)))
        let chunk = 256 << 10
        XCTAssertGreaterThan(file.count, 4 * chunk, "the score is streamed in several writes")
        var ranges: [ClosedRange<Int>] = [0...(chunk - 2), 0...(chunk - 1), 0...chunk, (file.count - chunk - 1)...(file.count - 1),
                                          (file.count - 1)...(file.count - 1), 0...(file.count - 1), 7...(7 + 2 * chunk)]
        for _ in 0..<33 {
            let first = Int.random(in: 0..<file.count, using: &random)
            let length = Int.random(in: 1...(3 * chunk), using: &random)
            ranges.append(first...min(file.count - 1, first + length - 1))
        }
        let asked = ranges
        try await application(try server()).test(.router) { client in
            let id = try await ServerFixture.scoreID(client, query: try XCTUnwrap("大きな楽譜".addingPercentEncoding(withAllowedCharacters: .alphanumerics)))
            let uri = "/api/scores/\(id)/pdf"
            let whole = try await client.execute(uri: uri, method: .get)
            XCTAssertEqual(whole.status, .ok)
            XCTAssertEqual(whole.headers[.contentLength], String(file.count))
            XCTAssertTrue(Data(buffer: whole.body) == file, "the whole file, byte for byte")

            for batch in stride(from: 0, to: asked.count, by: 20) {
                let answers = try await withThrowingTaskGroup(of: (ClosedRange<Int>, TestResponse).self) { group in
                    for range in asked[batch..<min(asked.count, batch + 20)] {
                        group.addTask {
                            (range, try await client.execute(uri: uri, method: .get,
                                                             headers: [.range: "bytes=\(range.lowerBound)-\(range.upperBound)"]))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for (range, answer) in answers {
                    XCTAssertEqual(answer.status, .partialContent, "\(range)")
                    XCTAssertEqual(answer.headers[.contentLength], String(range.count), "\(range)")
                    XCTAssertEqual(answer.headers[.contentRange], "bytes \(range.lowerBound)-\(range.upperBound)/\(file.count)")
                    XCTAssertTrue(Data(buffer: answer.body) == file.subdata(in: range.lowerBound..<(range.upperBound + 1)), "\(range)")
                }
            }
            let suffix = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=-\(chunk + 1)"])
            XCTAssertEqual(suffix.status, .partialContent)
            XCTAssertTrue(Data(buffer: suffix.body) == file.suffix(chunk + 1))
        }
    }

    /// pdf.js's own data comes from beside pdf.js, by plain names only.
    func testPDFJSDataIsServedByPlainNamesOnly() async throws {
        let pdfjs = FileManager.default.temporaryDirectory.appendingPathComponent("folio-pdfjs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pdfjs) }
        try FileManager.default.createDirectory(at: pdfjs.appendingPathComponent("build"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: pdfjs.appendingPathComponent("web/standard_fonts"), withIntermediateDirectories: true)
        let font = Data((0..<300).map { UInt8($0 % 256) })
        try font.write(to: pdfjs.appendingPathComponent("web/standard_fonts/FoxitSerif.pfb"))
        try Data("secret".utf8).write(to: pdfjs.appendingPathComponent("web/secret.txt"))
        let catalog = try LibraryCatalog(folder: folder.path)
        var options = LibraryServer.Options()
        options.pdfjs = pdfjs.appendingPathComponent("build").path
        options.rescanInterval = 0
        try await application(try LibraryServer(catalog: catalog, options: options)).test(.router) { client in
            let found = try await client.execute(uri: "/pdfjs/standard_fonts/FoxitSerif.pfb", method: .get)
            XCTAssertEqual(found.status, .ok)
            XCTAssertEqual(Data(buffer: found.body), font)
            for uri in ["/pdfjs/standard_fonts/..%2Fsecret.txt", "/pdfjs/standard_fonts/.hidden", "/pdfjs/cmaps/Adobe-Japan1-UCS2.bcmap",
                        "/pdfjs/standard_fonts/%2Fetc%2Fpasswd"] {
                let refused = try await client.execute(uri: uri, method: .get)
                XCTAssertEqual(refused.status, .notFound, uri)
            }
        }
    }

    func testAnAccessTokenIsRequiredWhenSet() async throws {
        let token = String(repeating: "ab12", count: 8)
        try await application(try server(access: .token(token))).test(.router) { client in
            let response9 = try await client.execute(uri: "/", method: .get)
            XCTAssertEqual(response9.status, .unauthorized)
            let response10 = try await client.execute(uri: "/?token=wrong", method: .get)
            XCTAssertEqual(response10.status, .unauthorized)
            let entry = try await client.execute(uri: "/?token=\(token)", method: .get)
            XCTAssertEqual(entry.status, .seeOther)
            XCTAssertTrue(entry.headers[.setCookie]?.contains("folio_token=\(token)") == true)
            let response11 = try await client.execute(uri: "/", method: .get, headers: [.cookie: "folio_token=\(token)"])
            XCTAssertEqual(response11.status, .ok)
            let response12 = try await client.execute(uri: "/api/scores", method: .get,
                                                    headers: [.authorization: "Bearer \(token)"])
            XCTAssertEqual(response12.status, .ok)
            let wrongBearer = try await client.execute(uri: "/api/scores", method: .get, headers: [.authorization: "Bearer \(token)x"])
            XCTAssertEqual(wrongBearer.status, .unauthorized)
            // A password is no token: Basic credentials do not open a token-guarded library.
            let basic = try await client.execute(uri: "/api/scores", method: .get, headers: [.authorization: Self.basic("u", token)])
            XCTAssertEqual(basic.status, .unauthorized)
        }
    }

    func testAPasswordIsAskedForByBasicAuthenticationWhenSet() async throws {
        let password = "correct horse ✓"
        try await application(try server(access: .password(password))).test(.router) { client in
            let bare = try await client.execute(uri: "/", method: .get)
            XCTAssertEqual(bare.status, .unauthorized)
            XCTAssertEqual(bare.headers[.wwwAuthenticate], "Basic realm=\"Folio\", charset=\"UTF-8\"")   // the browser's prompt
            let wrong = try await client.execute(uri: "/", method: .get, headers: [.authorization: Self.basic("anyone", "wrong")])
            XCTAssertEqual(wrong.status, .unauthorized)
            let asToken = try await client.execute(uri: "/api/scores?token=\(password)", method: .get)
            XCTAssertEqual(asToken.status, .unauthorized)
            for user in ["anyone", ""] {
                let page = try await client.execute(uri: "/", method: .get, headers: [.authorization: Self.basic(user, password)])
                XCTAssertEqual(page.status, .ok, user)
            }
            let api = try await client.execute(uri: "/api/scores", method: .get, headers: [.authorization: Self.basic("me", password)])
            XCTAssertEqual(api.status, .ok)
            XCTAssertNotNil(try ServerFixture.decode([String: [ScoreService.Score]].self, api)["scores"])
        }
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}
