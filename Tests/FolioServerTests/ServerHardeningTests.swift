import FolioLibrary
import FolioPDF
import FolioScore
import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import XCTest

/// The faults a probe of `folio serve` found, each driven as the probe did: names in two
/// Unicode forms, rebound host names, password guessing, uploads held in memory, a file
/// swapped for a link after cataloguing.
final class ServerHardeningTests: ServerTestCase, @unchecked Sendable {
    private struct Scores: Decodable { let scores: [ScoreService.Score] }
    private struct Added: Decodable { let score: ScoreService.Score }

    private static let composed = "Étude – Dvořák.pdf".precomposedStringWithCanonicalMapping
    private static let decomposed = "Étude – Dvořák.pdf".decomposedStringWithCanonicalMapping

    private func upload(_ client: some TestClientProtocol, _ name: String, _ bytes: Data,
                        headers: HTTPFields) async throws -> TestResponse {
        let uri = "/api/uploads?name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)"
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(data: bytes))
    }

    func testNamesInTwoUnicodeFormsAreTwoScoresAndNeverWedgeTheCatalog() async throws {
        XCTAssertNotEqual(Array(Self.composed.utf8), Array(Self.decomposed.utf8))
        let brahms = try Data(contentsOf: URL(fileURLWithPath: fixture.path("Brahms-Cancion_de_Cuna.pdf")))
        let debussy = try Data(contentsOf: URL(fileURLWithPath: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")))
        let server = try fixture.server()
        try await Application(router: server.router()).test(.router) { client in
            let headers = try await ServerFixture.csrf(client)
            let first = try await self.upload(client, Self.composed, brahms, headers: headers)
            XCTAssertEqual(first.status, .created, String(buffer: first.body))
            let second = try await self.upload(client, Self.decomposed, debussy, headers: headers)
            XCTAssertEqual(second.status, .created, String(buffer: second.body))
            let a = try ServerFixture.decode(Added.self, first).score, b = try ServerFixture.decode(Added.self, second).score
            XCTAssertEqual(Array(a.path.utf8), Array(Self.composed.utf8))
            XCTAssertEqual(Array(b.path.utf8), Array("Étude – Dvořák 2.pdf".precomposedStringWithCanonicalMapping.utf8),
                           "the second name is made free in any Unicode form")
            XCTAssertNotEqual(a.id, b.id)
            let listed = try ServerFixture.decode(Scores.self, try await client.execute(uri: "/api/scores?limit=100", method: .get))
            XCTAssertEqual(listed.scores.count, 5)
            // Names that disguise or break lines are refused, nothing written.
            let before = try FileManager.default.contentsOfDirectory(atPath: self.fixture.folder.path).sorted()
            for name in ["Tab\there.pdf", "line\nend.pdf", "evil\u{202E}fdp.pdf", "\u{2066}isolate.pdf", "nul\u{0}.pdf"] {
                let refused = try await self.upload(client, name, brahms, headers: headers)
                XCTAssertEqual(refused.status, .badRequest, name.debugDescription)
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: self.fixture.folder.path).sorted(), before)
        }
        // The other way round as a Mac writes it: a file in decomposed form dropped beside the
        // composed one. Rescans rename it and never fail; a restart scans and serves as before.
        try FileManager.default.copyItem(atPath: fixture.path("Brahms-Cancion_de_Cuna.pdf"),
                                         toPath: fixture.path("Canción.pdf".decomposedStringWithCanonicalMapping))
        try FileManager.default.copyItem(atPath: fixture.path("Traditional-Greensleeves_hymntune.pdf"),
                                         toPath: fixture.path("Canción.pdf".precomposedStringWithCanonicalMapping))
        for _ in 0..<3 {
            let summary = try LibraryScanner(catalog: server.service.catalog).scan()
            XCTAssertEqual(summary.skipped, [])
        }
        let restarted = try LibraryCatalog(folder: fixture.folder.path)
        let summary = try LibraryScanner(catalog: restarted).scan()
        XCTAssertEqual(summary.added + summary.updated + summary.moved + summary.removed, 0, "a restart finds the catalog complete")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path).filter { $0.hasPrefix("Canci") }
        XCTAssertEqual(names.count, 2)
        XCTAssertEqual(Set(names.map { CatalogPath.key($0) }).count, 2, "no two names are one name any more: \(names)")
        try await Application(router: try LibraryServer(catalog: restarted, options: server.options).router()).test(.router) { client in
            let listed = try ServerFixture.decode(Scores.self, try await client.execute(uri: "/api/scores?limit=100", method: .get))
            XCTAssertEqual(listed.scores.count, 7)
            for score in listed.scores {
                let pdf = try await client.execute(uri: "/api/scores/\(score.id)/pdf", method: .head)
                XCTAssertEqual(pdf.status, .ok, score.path)
            }
        }
    }

    func testARequestForAnotherHostNameIsRefused() async throws {
        let server = try fixture.server { $0.allowedHosts = ["music.example.org"] }
        try await Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let port = try XCTUnwrap(client.port)
                func get(_ host: String, _ extra: String = "") throws -> RawHTTP.Reply {
                    try RawHTTP.send(port: port, "GET /api/scores HTTP/1.1\r\nHost: \(host)\r\n\(extra)Connection: close\r\n\r\n")
                }
                for host in ["attacker.example:\(port)", "attacker.example", "127.0.0.1.nip.io:\(port)", "localhost.attacker.example"] {
                    let reply = try get(host)
                    XCTAssertEqual(reply.status, 421, host)
                    XCTAssertFalse(reply.body.contains("\"scores\""), host)
                }
                for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "music.example.org", "music.example.org."] {
                    XCTAssertEqual(try get(host).status, 200, host)
                }
                // The rebinding attack of the probe: the page's own token and a matching Origin.
                let page = try get("127.0.0.1:\(port)")
                XCTAssertEqual(page.status, 200)
                let home = try RawHTTP.send(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
                let token = try XCTUnwrap(home.body.range(of: #"content="[0-9a-f]{64}""#, options: .regularExpression)
                    .map { String(home.body[$0].dropFirst(9).dropLast()) })
                let body = #"{"name":"Rebound"}"#
                func post(host: String, origin: String) throws -> Int {
                    try RawHTTP.send(port: port, """
                        POST /api/setlists HTTP/1.1\r\nHost: \(host)\r\nOrigin: \(origin)\r\nContent-Type: application/json\r\n\
                        X-Folio-CSRF: \(token)\r\nCookie: folio_csrf=\(token)\r\nContent-Length: \(body.utf8.count)\r\n\
                        Connection: close\r\n\r\n\(body)
                        """).status
                }
                XCTAssertEqual(try post(host: "attacker.example:\(port)", origin: "http://attacker.example:\(port)"), 421)
                XCTAssertEqual(try post(host: "127.0.0.1:\(port)", origin: "http://attacker.example:\(port)"), 403)
                XCTAssertEqual(try post(host: "127.0.0.1:\(port)", origin: "null"), 403)
                XCTAssertEqual(try post(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)"), 201)
            }
    }

    func testPasswordGuessesAreSlowedThenBannedAndTheRightOneWorksAfterTheBan() async throws {
        let password = "Dvořák – Humoreska ♭"
        let server = try fixture.server(access: .password(password)) { options in
            options.loginPolicy.freeFailures = 5
            options.loginPolicy.firstDelay = .milliseconds(20)
            options.loginPolicy.maxDelay = .milliseconds(40)
            options.loginPolicy.banAfter = 20
            options.loginPolicy.banDuration = .seconds(2)
        }
        try await Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let wrong: HTTPFields = [.authorization: ServerAPITests.basic("", "guess")]
                let right: HTTPFields = [.authorization: ServerAPITests.basic("", password)]
                var statuses: [HTTPResponse.Status] = []
                var times: [Duration] = []
                let clock = ContinuousClock()
                for _ in 0..<100 {
                    let started = clock.now
                    statuses.append(try await client.execute(uri: "/api/facets", method: .get, headers: wrong).status)
                    times.append(started.duration(to: clock.now))
                }
                XCTAssertEqual(statuses.prefix(20).filter { $0 == .unauthorized }.count, 20)
                XCTAssertEqual(statuses.dropFirst(20).filter { $0 == .tooManyRequests }.count, 80, "banned after 20 wrong passwords")
                XCTAssertTrue(times.prefix(5).allSatisfy { $0 < .milliseconds(20) } || times.prefix(5).max()! < times[10],
                              "the first five are answered at once")
                XCTAssertTrue(times[6...19].allSatisfy { $0 >= .milliseconds(20) }, "later guesses wait: \(times[6...19])")
                let banned = try await client.execute(uri: "/api/facets", method: .get, headers: right)
                XCTAssertEqual(banned.status, .tooManyRequests, "during the ban the right password is refused too")
                XCTAssertNotNil(banned.headers[.retryAfter])
                try await Task.sleep(for: .milliseconds(2200))
                let after = try await client.execute(uri: "/api/facets", method: .get, headers: right)
                XCTAssertEqual(after.status, .ok, "the right password works once the ban is over")
                // A success forgets the failures: one more wrong guess is answered at once.
                let again = try await client.execute(uri: "/api/facets", method: .get, headers: wrong)
                XCTAssertEqual(again.status, .unauthorized)
            }
        // Passwords of white space are no passwords.
        for line in ["        ", "\t \t \t \t ", " short  "] {
            guard case .failure = AccessSecret.password(fromLine: line) else { return XCTFail("accepted \(line.debugDescription)") }
        }
        guard case .success(.password("Dvořák – Humoreska ♭")) = AccessSecret.password(fromLine: "  Dvořák – Humoreska ♭ ") else {
            return XCTFail("a password with spaces around it")
        }
    }

    /// Behind a trusted reverse proxy: clients are told apart by the address the proxy names,
    /// and cookies are Secure when the proxy says the browser used HTTPS; from anyone else
    /// those headers count for nothing.
    func testATrustedProxyNamesTheClientAndMakesCookiesSecure() async throws {
        let password = "Ελληνικά – σιγά σιγά"
        for trusted in [true, false] {
            let server = try fixture.server(access: .password(password)) { options in
                options.trustedProxies = trusted ? ["127.0.0.1"] : []
                options.loginPolicy.freeFailures = 20
                options.loginPolicy.banAfter = 3
            }
            try await Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
                .test(.live) { client in
                    let port = try XCTUnwrap(client.port)
                    func get(from address: String, password given: String, https: Bool = true) throws -> RawHTTP.Reply {
                        let credentials = Data(":\(given)".utf8).base64EncodedString()
                        return try RawHTTP.send(port: port, """
                            GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Basic \(credentials)\r\n\
                            X-Forwarded-For: 198.51.100.1, \(address)\r\nX-Forwarded-Proto: \(https ? "https" : "http")\r\n\
                            Connection: close\r\n\r\n
                            """)
                    }
                    let page = try get(from: "203.0.113.5", password: password)
                    XCTAssertEqual(page.status, 200)
                    let cookie = try XCTUnwrap(page.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: folio_csrf=") })
                    XCTAssertEqual(cookie.hasSuffix("; Secure"), trusted, String(cookie))
                    let plain = try get(from: "203.0.113.5", password: password, https: false)
                    XCTAssertFalse(plain.head.contains("; Secure"), "a browser on plain HTTP would drop a Secure cookie")
                    for _ in 0..<3 { XCTAssertEqual(try get(from: "203.0.113.5", password: "wrong").status, 401) }
                    XCTAssertEqual(try get(from: "203.0.113.5", password: password).status, 429, "the guesser is banned")
                    XCTAssertEqual(try get(from: "203.0.113.6", password: password).status, trusted ? 200 : 429,
                                   trusted ? "another client behind the proxy is not" : "without the trust, X-Forwarded-For is ignored")
                }
        }
    }

    func testATokenInTheAddressNeverSendsTheBrowserOffSite() async throws {
        let token = String(repeating: "c0ffee", count: 4)
        try await Application(router: try fixture.server(access: .token(token)).router()).test(.router) { client in
            for path in ["//evil.example/x", "/\\evil.example/x", "///evil.example"] {
                var response = try await client.execute(uri: "\(path)?token=\(token)", method: .get)
                // Empty segments are first sent to the path's one spelling, on this site, the token kept.
                if response.status == .permanentRedirect {
                    let canonical = try XCTUnwrap(response.headers[.location])
                    XCTAssertTrue(canonical.hasPrefix("/") && !canonical.hasPrefix("//") && canonical.hasSuffix("?token=\(token)"), canonical)
                    response = try await client.execute(uri: canonical, method: .get)
                }
                XCTAssertEqual(response.status, .seeOther, path)
                let location = try XCTUnwrap(response.headers[.location])
                XCTAssertTrue(location.hasPrefix("/") && !location.hasPrefix("//") && !location.hasPrefix("/\\"), location)
            }
        }
    }

    func testAFileSwappedForALinkAfterCataloguingIsServedByNoRoute() async throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("folio-secret-\(UUID().uuidString).pdf")
        try FileManager.default.copyItem(atPath: fixture.path("Brahms-Cancion_de_Cuna.pdf"), toPath: outside.path)
        defer { try? FileManager.default.removeItem(at: outside) }
        let server = try fixture.server()
        try await Application(router: server.router()).test(.router) { client in
            let headers = try await ServerFixture.csrf(client)
            let scores = try ServerFixture.decode(Scores.self, try await client.execute(uri: "/api/scores?limit=100", method: .get)).scores
            let victim = try XCTUnwrap(scores.first { $0.path == "Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf" })
            let setlist = try await client.execute(uri: "/api/setlists", method: .post, headers: headers,
                                                   body: ByteBuffer(string: #"{"name":"Gig"}"#))
            XCTAssertEqual(setlist.status, .created)
            var entry = headers
            entry[.ifMatch] = setlist.headers[.eTag]
            let added = try await client.execute(uri: "/api/setlists/Gig/entries", method: .post, headers: entry,
                                                 body: ByteBuffer(string: #"{"kind":"score","score":\#(victim.id)}"#))
            XCTAssertEqual(added.status, .ok, String(buffer: added.body))
            // The swap: the catalogued file becomes a link to a file outside the library.
            try FileManager.default.removeItem(atPath: self.fixture.path(victim.path))
            try FileManager.default.createSymbolicLink(atPath: self.fixture.path(victim.path), withDestinationPath: outside.path)
            for uri in ["/api/scores/\(victim.id)/pdf", "/api/scores/\(victim.id)/cover", "/api/scores/\(victim.id)/annotations",
                        "/api/scores/\(victim.id)/metadata", "/api/scores/\(victim.id)/contents", "/api/scores/\(victim.id)/4sc",
                        "/scores/\(victim.id)"] {
                let response = try await client.execute(uri: uri, method: .get)
                XCTAssertEqual(response.status, .notFound, uri)
            }
            let merged = try await client.execute(uri: "/api/setlists/Gig/pdf", method: .get)
            XCTAssertNotEqual(merged.status, .ok, "the setlist's only piece lies outside the library")
            XCTAssertFalse(String(buffer: merged.body).contains("%PDF"))
        }
    }

    func testUploadsAreStreamedToTheLibraryAndLeftoversOfACrashAreRemoved() async throws {
        // What a server that died mid-upload left: a part file of a process that is gone.
        let spool = fixture.folder.appendingPathComponent(".folio/uploads")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        let leftover = spool.appendingPathComponent("upload-2147483646-77.part").path
        XCTAssertTrue(FileManager.default.createFile(atPath: leftover, contents: Data(count: 1000)))
        let server = try fixture.server(maxUpload: 4 << 20)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover), "removed when the next server starts")
        let pdf = try Data(contentsOf: URL(fileURLWithPath: fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf")))
        try await Application(router: server.router()).test(.router) { client in
            let headers = try await ServerFixture.csrf(client)
            let response = try await self.upload(client, "Клер де Люн.pdf", pdf, headers: headers)
            XCTAssertEqual(response.status, .created, String(buffer: response.body))
            let path = try ServerFixture.decode(Added.self, response).score.path
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: self.fixture.path(path))), pdf, "the bytes as sent")
            let tooBig = try await self.upload(client, "big.pdf", pdf + Data(count: 5 << 20), headers: headers)
            XCTAssertEqual(tooBig.status, .contentTooLarge)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spool.path), [], "no part file stays behind")
    }

    func testHeavyWorkWaitsInABoundedQueue() async throws {
        let queue = WorkQueue(slots: 1, waiting: 1, seconds: 5)
        let gate = DispatchSemaphore(value: 0)
        async let first: Int = queue.run { gate.wait(); return 1 }
        try await Task.sleep(for: .milliseconds(100))
        async let second: Int = queue.run { 2 }
        try await Task.sleep(for: .milliseconds(100))
        var load = await queue.load()
        XCTAssertEqual(load.running, 1)
        XCTAssertEqual(load.waiting, 1)
        do {
            _ = try await queue.run { 3 }
            XCTFail("a full queue turns work away")
        } catch let error as LibraryError {
            XCTAssertEqual(error.code, .busy)
            XCTAssertEqual(error.retryAfter, 2)
        }
        gate.signal()
        let results = try await [first, second]
        XCTAssertEqual(results, [1, 2])
        load = await queue.load()
        XCTAssertEqual(load.running, 0)
    }
}

/// Bookmarks a musician keeps in a CSV index beside the PDF (`folio bookmarks … --store csv`,
/// forScore's layout) are the server's too: listed, and deleted from the index.
final class ServerBookmarkChainTests: ServerTestCase, @unchecked Sendable {
    func testBookmarksInAnIndexBesideThePDFAreListedAndDeleted() async throws {
        let name = "Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf"
        let index = fixture.path("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.csv")
        let kept = [Bookmark(name: "Rêverie – Ζεϊμπέκικο", action: .page(index: 0), pages: 1...2),
                    Bookmark(name: "Coda (Дебюсси)", action: .page(index: 2), pages: 3...4)]
        try CSVIndex.export(fileName: name, score: ScoreMetadata(title: "Clair de lune"), bookmarks: kept)
            .write(toFile: index, atomically: true, encoding: .utf8)
        let pdfBefore = try Data(contentsOf: URL(fileURLWithPath: fixture.path(name)))
        let server = try fixture.server()
        try await Application(router: server.router()).test(.router) { client in
            let scores = try ServerFixture.decode([String: [ScoreService.Score]].self,
                                                  try await client.execute(uri: "/api/scores?limit=100", method: .get))["scores"] ?? []
            let id = try XCTUnwrap(scores.first { $0.path == name }?.id)
            let listed = try await client.execute(uri: "/api/scores/\(id)/contents", method: .get)
            let contents = try ServerFixture.decode(ScoreService.Contents.self, listed)
            XCTAssertEqual(contents.bookmarks.map(\.name), ["Rêverie – Ζεϊμπέκικο", "Coda (Дебюсси)"])
            XCTAssertEqual(contents.bookmarks.map(\.start), [1, 3])
            XCTAssertEqual(contents.bookmarks.map(\.end), [2, 4])
            var headers = try await ServerFixture.csrf(client)
            headers[.ifMatch] = listed.headers[.eTag]
            let coda = try XCTUnwrap(contents.bookmarks.last?.id)
            let removed = try await client.execute(uri: "/api/scores/\(id)/bookmarks/\(coda)", method: .delete, headers: headers)
            XCTAssertEqual(removed.status, .ok, String(buffer: removed.body))
            XCTAssertEqual(try ServerFixture.decode(ScoreService.Contents.self, removed).bookmarks.map(\.name), ["Rêverie – Ζεϊμπέκικο"])
        }
        // The index lost the row, read back by Python's csv module; the PDF is untouched.
        let rows = try ServerFixture.python("import csv, sys\nprint('|'.join(r[1] for r in list(csv.reader(open(sys.argv[1], encoding='utf-8')))[1:]))", index)
        XCTAssertFalse(rows.contains("Coda"), rows)
        XCTAssertTrue(rows.contains("Rêverie – Ζεϊμπέκικο"), rows)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: fixture.path(name))), pdfBefore)
    }
}
