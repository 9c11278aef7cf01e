import FolioLibrary
import FolioTestSupport
@testable import FolioServer
import Foundation
import Hummingbird
import HummingbirdTesting
import XCTest

/// One path before any decision (`CanonicalPath`): every route of the OpenAPI document, sent
/// cross-site in every spelling the router would collapse (`//`, `/./`, `..`, an encoded
/// unreserved character, a trailing slash), is never answered as its canonical spelling is
/// not: the canonical one is refused (403), another spelling of a GET is sent to the
/// canonical one (308, which the browser follows into the same 403), of a change refused (400).
final class ServerCanonicalPathTests: ServerTestCase, @unchecked Sendable {
    func testTheCanonicalFormOfPaths() {
        let cases: [(String, CanonicalPath.Form)] = [
            ("/", .canonical), ("/api/scores/1/cover", .canonical), ("/api/setlists/AC%2FDC", .canonical),
            ("/api/setlists/Dvo%C5%99%C3%A1k", .canonical), ("/assets/folio.css", .canonical),
            ("//api/scores/1/cover", .other("/api/scores/1/cover")), ("/api//scores", .other("/api/scores")),
            ("/api/scores/", .other("/api/scores")), ("/./api/scores", .other("/api/scores")),
            ("/api/x/../scores", .other("/api/scores")), ("/%61pi/scores", .other("/api/scores")),
            ("/api/scores/%2E%2E/facets", .other("/api/facets")), ("/api/setlists/AC%2fDC", .other("/api/setlists/AC%2FDC")),
            ("/api/setlists/%7e", .other("/api/setlists/~")), ("//", .other("/")), ("/.", .other("/")),
            ("/..", .invalid), ("/api/../../etc", .invalid), ("api/scores", .invalid), ("", .invalid), ("/api/%zz", .invalid),
            ("/api/%2", .invalid), ("/" + String(repeating: "a", count: CanonicalPath.maxLength), .invalid),
        ]
        for (path, form) in cases { XCTAssertEqual(CanonicalPath.form(of: path), form, path) }
    }

    /// Random paths from pieces that trip routers: the canonical form is a fixed point, never
    /// holds an empty or dot segment, and never starts with `//` (no redirect off the site).
    func testRandomPathsHaveOneCanonicalFormThatStaysOnSite() {
        var generator = SeededGenerator(#function)
        let pieces = ["", ".", "..", "%2E", "%2e%2E", "api", "%61pi", "scores", "%2F", "%2f", "~", "%7E", "é", "%C3%A9", "%", "%4", "\\", "😀"]
        for _ in 0..<20_000 {
            let path = "/" + (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined(separator: "/")
            // The quick check says canonical exactly when no `%` and no empty or dot segment.
            let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            let plain = !path.contains("%") && (path == "/" || !segments.contains { $0.isEmpty || $0 == "." || $0 == ".." })
            XCTAssertEqual(CanonicalPath.isPlainlyCanonical(path.utf8), plain, path)
            switch CanonicalPath.form(of: path) {
            case .canonical:
                XCTAssertFalse(path.contains("//") || path.hasSuffix("/") && path != "/", path)
            case .other(let canonical):
                XCTAssertEqual(CanonicalPath.form(of: canonical), .canonical, path)
                XCTAssertFalse(canonical.hasPrefix("//"), path)
                XCTAssertFalse(canonical.split(separator: "/").contains { $0 == "." || $0 == ".." }, path)
            case .invalid:
                break
            }
        }
    }

    func testEveryRouteInEverySpellingIsJudgedAsTheRouterRoutesIt() async throws {
        let document = try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("Sources/FolioServer/Assets/openapi.yaml"),
                                  encoding: .utf8)
        let templates = document.split(separator: "\n").filter { $0.hasPrefix("  /api/") && $0.hasSuffix(":") }
            .map { String($0.dropFirst(2).dropLast()) }
        XCTAssertGreaterThan(templates.count, 40)
        let server = try fixture.server()
        try await Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            func send(_ method: String, _ path: String, _ extra: String = "") throws -> RawHTTP.Reply {
                try RawHTTP.send(port: port, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nSec-Fetch-Site: cross-site\r\n"
                                 + "\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n")
            }
            var checked = 0
            for template in templates {
                let path = template.replacingOccurrences(of: #"\{[^}]+\}"#, with: "1", options: .regularExpression)
                XCTAssertEqual(try send("GET", path).status, 403, path)
                let spellings = ["/" + path, path.replacingOccurrences(of: "/api/", with: "/api//"), path + "/",
                                 path.replacingOccurrences(of: "/api/", with: "/./api/"), "/%61" + path.dropFirst(2),
                                 path.replacingOccurrences(of: "/api/", with: "/api/x/../")]
                for spelling in spellings {
                    let get = try send("GET", spelling)
                    XCTAssertEqual(get.status, 308, spelling)
                    XCTAssertTrue(get.head.lowercased().contains("location: \(path.lowercased())\r\n"), "\(spelling): \(get.head)")
                    for method in ["HEAD"] { XCTAssertEqual(try send(method, spelling).status, 308, "\(method) \(spelling)") }
                    for method in ["POST", "PUT", "PATCH", "DELETE"] { XCTAssertEqual(try send(method, spelling).status, 400, "\(method) \(spelling)") }
                    checked += 1
                }
            }
            XCTAssertEqual(checked, templates.count * 6)
            // A query goes along with the redirect; a path above the root is refused.
            let redirected = try send("GET", "//api/scores/1/pages/1/image?height=2399")
            XCTAssertTrue(redirected.head.contains("/api/scores/1/pages/1/image?height=2399\r\n"), redirected.head)
            XCTAssertEqual(try send("GET", "/../api/scores").status, 400)
            // Two Host headers are one too many.
            XCTAssertEqual(try RawHTTP.send(port: port, "GET /api/scores HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: attacker.example\r\n"
                                            + "Connection: close\r\n\r\n").status, 400)
            XCTAssertEqual(try RawHTTP.send(port: port, "GET /api/scores HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n").status, 200)
        }
    }
}
