import FolioLibrary
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// Folio as an installable app: the service worker names its build's version and an app shell
/// whose every file the server serves; the manifest opens on the library with icons of the
/// sizes it claims (read from the PNG header); every page links the manifest.
final class ServerAppTests: ServerTestCase, @unchecked Sendable {
    private struct Manifest: Decodable {
        struct Icon: Decodable { let src: String; let sizes: String; let type: String }
        let name: String
        let start_url: String
        let display: String
        let icons: [Icon]
    }

    /// Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian).
    private func pngSize(_ data: Data) throws -> (Int, Int) {
        let bytes = [UInt8](data)
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "not a PNG")
        guard bytes.count >= 24 else { XCTFail("short PNG"); return (0, 0) }
        let number = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    func testServiceWorkerAndManifest() async throws {
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            XCTAssertEqual(worker.status, .ok)
            XCTAssertEqual(worker.headers[.contentType], "text/javascript; charset=utf-8")
            let text = String(buffer: worker.body)
            XCTAssertNil(text.range(of: "__VERSION__"), "the version was not filled in")
            XCTAssertNotNil(text.range(of: #"const VERSION = '[0-9a-f]{16}';"#, options: .regularExpression), "no build version")
            // Every file of the app shell is one the server serves.
            let shell = text.components(separatedBy: "const SHELL_FILES = [").dropFirst().first?.components(separatedBy: "];").first ?? ""
            let files = shell.components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
                .filter { $0.hasPrefix("/") && !$0.hasPrefix("/pdfjs/") }
            XCTAssertTrue(files.contains("/assets/score.js") && files.contains("/assets/offline.js"), "\(files)")
            XCTAssertFalse(files.contains("/assets/sw.js"))
            for file in files {
                let response = try await client.execute(uri: file, method: .get)
                XCTAssertEqual(response.status, .ok, file)
            }

            let answer = try await client.execute(uri: "/manifest.webmanifest", method: .get)
            XCTAssertEqual(answer.headers[.contentType], "application/manifest+json")
            let manifest = try JSONDecoder().decode(Manifest.self, from: Data(buffer: answer.body))
            XCTAssertEqual([manifest.name, manifest.start_url, manifest.display], ["Folio", "/", "standalone"])
            XCTAssertEqual(Set(manifest.icons.map(\.sizes)), ["192x192", "512x512"])
            for icon in manifest.icons {
                let image = try await client.execute(uri: icon.src, method: .get)
                XCTAssertEqual(image.status, .ok, icon.src)
                XCTAssertEqual(image.headers[.contentType], "image/png")
                let (width, height) = try self.pngSize(Data(buffer: image.body))
                XCTAssertEqual("\(width)x\(height)", icon.sizes, icon.src)
            }
            let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
            XCTAssertTrue(page.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
        }
    }

    /// `/api/session` gives a page its server's CSRF token again (after a restart) with the
    /// cookie set anew; a request another site's page makes is refused, and the token it gives
    /// is the one a change needs.
    func testTheSessionIsRenewedOnlyForFolioPages() async throws {
        try await Application(router: try fixture.server().router()).test(.router) { client in
            let headers = try await ServerFixture.csrf(client)
            let token = try XCTUnwrap(headers[HTTPField.Name("X-Folio-CSRF")!])
            let session = try await client.execute(uri: "/api/session", method: .get)
            XCTAssertEqual(session.status, .ok)
            XCTAssertEqual(session.headers[.cacheControl], "no-store")
            let answer = try JSONSerialization.jsonObject(with: Data(buffer: session.body)) as? [String: Any]
            XCTAssertEqual(answer?["csrf"] as? String, token)
            // A musician alone: no members, every right.
            XCTAssertEqual(answer?["members"] as? Bool, false)
            XCTAssertEqual((answer?["rights"] as? [String])?.count, MemberRight.allCases.count)
            XCTAssertTrue(session.headers[.setCookie]?.contains("folio_csrf=\(token)") == true)
            XCTAssertTrue(session.headers[.setCookie]?.contains("SameSite=Strict") == true)
            XCTAssertTrue(session.headers[.setCookie]?.contains("HttpOnly") == true)
            let crossSite = try await client.execute(uri: "/api/session", method: .get, headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            XCTAssertEqual(crossSite.status, .forbidden)
            XCTAssertFalse(String(buffer: crossSite.body).contains(token))
            // A stale token is refused with the message the page renews on.
            var stale = headers
            stale[HTTPField.Name("X-Folio-CSRF")!] = String(repeating: "0", count: 64)
            stale[.cookie] = "folio_csrf=" + String(repeating: "0", count: 64)
            let refused = try await client.execute(uri: "/api/setlists", method: .post, headers: stale, body: ByteBuffer(string: #"{"name":"Ensayo – リハ"}"#))
            XCTAssertEqual(refused.status, .forbidden)
            XCTAssertTrue(String(buffer: refused.body).contains("CSRF"))
        }
    }
}
