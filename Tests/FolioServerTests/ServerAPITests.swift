import FolioLibrary
import FolioPDF
import FolioServer
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

    private func server(token: String? = nil) throws -> LibraryServer {
        try fixture.server(token: token)
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
        XCTAssertNil(paths.resolve(outside.path))
        XCTAssertNil(paths.resolve("escape.pdf"), "a symbolic link out of the folder")
        XCTAssertNil(paths.resolve("./Brahms-Cancion_de_Cuna.pdf"))
        XCTAssertNil(paths.resolve("Brahms-Cancion_de_Cuna.pdf\0.txt"))
        XCTAssertNotNil(paths.resolve("Brahms-Cancion_de_Cuna.pdf"))
        try await application(server).test(.router) { client in
            for uri in ["/assets/..%2F..%2FPackage.swift", "/assets/%2e%2e%2fPackage.swift", "/assets/../Package.swift",
                        "/pdfjs/..%2F..%2F..%2Fetc%2Fpasswd", "/pdfjs/%2Fetc%2Fpasswd", "/scores/..%2F1", "/api/scores/999999",
                        "/api/scores/..%2F..%2Fetc/pdf", "/api/scores/-1/pdf"] {
                let response = try await client.execute(uri: uri, method: .get)
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

    func testAnAccessTokenIsRequiredWhenSet() async throws {
        let token = String(repeating: "ab12", count: 8)
        try await application(try server(token: token)).test(.router) { client in
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
        }
    }
}
