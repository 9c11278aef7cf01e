#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FolioLibrary
import FolioPDF
import FolioScore
@testable import FolioServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import XCTest

/// What a request may cost, driven as the probe of issue 51 drove it: numbers at their
/// extremes in every parameter, requests without `Host` or from another site, sockets that
/// stay open or send a byte at a time, guesses from many addresses, and page pictures.
final class ServerLimitsTests: ServerTestCase, @unchecked Sendable {
    /// Integers that overflow `x - 1`, `x + 1`, `x * 60` or a conversion to a smaller type.
    static let extremes = ["-9223372036854775808", "9223372036854775807", "-1", "0", "4294967296", "-4294967297",
                           "99999999999999999999", "1e300", "٣"]

    func testEveryIntegerParameterAtItsExtremesIsAnsweredWithoutATrap() async throws {
        let server = try fixture.server()
        try await Application(router: server.router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            let id = try await ServerFixture.scoreID(client, query: "Canci%C3%B3n")
            // The file's version, so that edits reach the page check (not 428 for a missing If-Match).
            let listed = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .get)
            headers[.ifMatch] = try XCTUnwrap(listed.headers[.eTag])
            for value in Self.extremes {
                let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
                for uri in ["/api/scores/\(id)/annotations?page=\(encoded)", "/api/scores?rating=\(encoded)", "/api/scores?limit=\(encoded)",
                            "/api/scores/\(id)/pages/\(encoded)/image", "/api/scores/\(id)/pages/1/image?height=\(encoded)",
                            "/api/scores/\(encoded)", "/scores/\(encoded)", "/api/rehearsals/\(encoded)"] {
                    let response = try await client.execute(uri: uri, method: .get)
                    XCTAssertLessThan(response.status.code, 500, "\(uri): \(String(buffer: response.body))")
                    // A rating or a limit may be in range (0); no page, height or id here is.
                    if !uri.hasPrefix("/api/scores?") { XCTAssertNotEqual(response.status, .ok, "\(uri) is no valid request") }
                }
                // Marks added on such a page: refused with the valid range, the file untouched.
                let before = try Data(contentsOf: URL(fileURLWithPath: self.fixture.path("Brahms-Cancion_de_Cuna.pdf")))
                for kind in [#""type":"freetext","text":"Ahoj – 你好""#, #""type":"ink","strokes":[[10,10,20,20]]"#,
                             #""type":"square""#] {
                    let body = #"{\#(kind),"page":\#(value),"rect":[10,10,50,20]}"#
                    let response = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .post, headers: headers,
                                                            body: ByteBuffer(string: body))
                    XCTAssertEqual(response.status, .badRequest, "\(body): \(String(buffer: response.body))")
                    if Int(value) != nil { XCTAssertTrue(String(buffer: response.body).contains("page"), String(buffer: response.body)) }
                }
                for body in [#"{"page":\#(value),"rect":[10,10,50,20],"to":1}"#, #"{"page":1,"rect":[10,10,50,20],"to":\#(value)}"#] {
                    let response = try await client.execute(uri: "/api/scores/\(id)/links", method: .post, headers: headers,
                                                            body: ByteBuffer(string: body))
                    XCTAssertEqual(response.status, .badRequest, "\(body): \(String(buffer: response.body))")
                    if Int(value) != nil { XCTAssertTrue(String(buffer: response.body).contains("page"), String(buffer: response.body)) }
                }
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: self.fixture.path("Brahms-Cancion_de_Cuna.pdf"))), before)
            }
            let past = try await client.execute(uri: "/api/scores/\(id)/annotations?page=-9223372036854775808", method: .get)
            XCTAssertEqual(past.status, .badRequest)
            XCTAssertTrue(String(buffer: past.body).contains("valid: 1 to"), String(buffer: past.body))
        }
    }

    /// Every number a JSON body carries, at its extremes, with the version the edit needs, so
    /// that each reaches the check of its range: answered 4xx, the file and the setlist untouched.
    func testEveryNumberInABodyAtItsExtremesIsRefusedWithoutATrap() async throws {
        let server = try fixture.server()
        try await Application(router: server.router()).test(.router) { client in
            var headers = try await ServerFixture.csrf(client)
            headers[.contentType] = "application/json"
            let id = try await ServerFixture.scoreID(client, query: "Canci%C3%B3n")
            let made = try await client.execute(uri: "/api/setlists", method: .post, headers: headers,
                                                body: ByteBuffer(string: #"{"name":"Zkouška – 練習"}"#))
            XCTAssertEqual(made.status, .created)
            _ = try await client.execute(uri: "/api/setlists/Zkou%C5%A1ka%20%E2%80%93%20%E7%B7%B4%E7%BF%92/entries", method: .post,
                                         headers: Self.with(headers, ifMatch: made.headers[.eTag] ?? ""),
                                         body: ByteBuffer(string: #"{"kind":"score","score":\#(id)}"#))
            let file = self.fixture.path("Brahms-Cancion_de_Cuna.pdf")
            // 0 and -1 are in range for some fields (a rating of 0, a turn by -90…): edits then may land.
            for value in ["-9223372036854775808", "9223372036854775807", "1e300", "-1e300", "0", "-1"] {
                let before = try Data(contentsOf: URL(fileURLWithPath: file))
                let scoreBodies = [
                    ("/api/scores/\(id)/bookmarks", HTTPRequest.Method.post, #"{"name":"Árie","start":\#(value),"end":\#(value)}"#),
                    ("/api/scores/\(id)/bookmarks", .post, #"{"name":"Árie","start":1,"end":\#(value)}"#),
                    ("/api/scores/\(id)/pages", .post, #"{"action":"rotate","pages":"1","by":\#(value)}"#),
                    ("/api/scores/\(id)/pages", .post, #"{"action":"move","pages":"1","to":\#(value)}"#),
                    ("/api/scores/\(id)/pages", .post, #"{"action":"insert","at":\#(value),"count":\#(value)}"#),
                    ("/api/scores/\(id)/pages", .post, #"{"action":"insert","at":1,"count":\#(value)}"#),
                    ("/api/scores/\(id)/pages", .post, #"{"action":"crop","pages":"1","margin":\#(value)}"#),
                    ("/api/scores/\(id)/pages", .post, #"{"action":"crop","pages":"1","box":[\#(value),0,\#(value),10]}"#),
                    ("/api/scores/\(id)/pages", .post, #"{"action":"delete","pages":"1-\#(value.filter { $0 != "-" })"}"#),
                    ("/api/scores/\(id)/metadata", .put, #"{"title":"Ukolébavka – 子守歌","rating":\#(value),"difficulty":\#(value),"duration":\#(value),"tempo":\#(value)}"#),
                    ("/api/scores/\(id)/metadata", .put, #"{"title":"Ukolébavka","duration":\#(value)}"#),
                    ("/api/scores/\(id)/tracks", .post, #"{"file":"Árie.mp3","loopStart":\#(value),"loopEnd":\#(value),"offset":\#(value)}"#),
                    ("/api/scores/\(id)/annotations", .post, #"{"type":"freetext","page":1,"rect":[\#(value),\#(value),\#(value),\#(value)],"text":"ff","size":\#(value)}"#),
                    ("/api/scores/\(id)/annotations", .post, #"{"type":"ink","page":1,"strokes":[[\#(value),1,2,\#(value)]],"width":\#(value),"opacity":\#(value)}"#),
                ]
                for (uri, method, body) in scoreBodies {
                    let version = try await client.execute(uri: "/api/scores/\(id)/annotations", method: .get).headers[.eTag] ?? ""
                    let response = try await client.execute(uri: uri, method: method, headers: Self.with(headers, ifMatch: version),
                                                            body: ByteBuffer(string: body))
                    XCTAssertLessThan(response.status.code, 500, "\(body): \(String(buffer: response.body))")
                    if value.count > 2 {
                        XCTAssertEqual(response.status.code / 100, 4, "\(uri) \(body): \(response.status) \(String(buffer: response.body))")
                    }
                }
                let setlist = "/api/setlists/Zkou%C5%A1ka%20%E2%80%93%20%E7%B7%B4%E7%BF%92"
                for (path, body) in [("/move", #"{"from":\#(value),"to":\#(value)}"#), ("/move", #"{"from":1,"to":\#(value)}"#),
                                     ("/entries", #"{"kind":"score","score":\#(id),"position":\#(value)}"#),
                                     ("/entries", #"{"kind":"score","score":\#(value)}"#)] {
                    let version = try await client.execute(uri: setlist, method: .get).headers[.eTag] ?? ""
                    let response = try await client.execute(uri: setlist + path, method: .post, headers: Self.with(headers, ifMatch: version),
                                                            body: ByteBuffer(string: body))
                    XCTAssertEqual(response.status.code / 100, 4, "\(path) \(body): \(response.status) \(String(buffer: response.body))")
                }
                let rehearsal = try await client.execute(uri: "/api/rehearsals", method: .post, headers: headers,
                                                         body: ByteBuffer(string: #"{"score":\#(id),"setlist":"Zkouška – 練習","piece":\#(value)}"#))
                XCTAssertEqual(rehearsal.status.code / 100, 4, String(buffer: rehearsal.body))
                if value.count > 2 {
                    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before, "\(value): every refused edit left the file as it was")
                }
            }
        }
    }

    private static func with(_ headers: HTTPFields, ifMatch version: String) -> HTTPFields {
        var headers = headers
        headers[.ifMatch] = version
        return headers
    }

    func testRequestsWithoutHostOrFromAnotherSiteAreRefused() async throws {
        let server = try fixture.server()
        try await Application(router: server.router()).test(.router) { client in
            for site in ["cross-site", "CROSS-SITE"] {
                let response = try await client.execute(uri: "/api/scores/1/pages/1/image", method: .get,
                                                        headers: [HTTPField.Name("Sec-Fetch-Site")!: site])
                XCTAssertEqual(response.status, .forbidden, site)
            }
            for site in ["same-origin", "same-site", "none"] {
                let response = try await client.execute(uri: "/api/facets", method: .get, headers: [HTTPField.Name("Sec-Fetch-Site")!: site])
                XCTAssertEqual(response.status, .ok, site)
            }
            // A page another site links to still opens (a navigation, not the API).
            let page = try await client.execute(uri: "/", method: .get, headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            XCTAssertEqual(page.status, .ok)
        }
        var options = server.options
        options.port = 0
        options.connections = .init(total: 64)
        let live = try LibraryServer(catalog: server.service.catalog, options: options)
        try await live.application(logger: Logger(label: "test")).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            XCTAssertEqual(try RawHTTP.send(port: port, "GET /api/facets HTTP/1.1\r\nConnection: close\r\n\r\n").status, 400)
            XCTAssertEqual(try RawHTTP.send(port: port, "GET /api/facets HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n").status, 200)
        }
    }

    /// A head NIO's parser refuses (a raw non-ASCII byte in the path, a header line without a
    /// colon, a request line of garbage) is answered 400 and closed at once — before, the
    /// error reached no handler and the connection stayed open past every timeout.
    func testAMalformedHeadIsAnswered400AndClosedAtOnce() async throws {
        var options = try fixture.server().options
        options.port = 0
        let server = try LibraryServer(catalog: try LibraryCatalog(folder: fixture.folder.path), options: options)
        try await server.application(logger: Logger(label: "test")).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let heads: [[UInt8]] = [Array("GET /scores/1?x=".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8),
                                    Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n".utf8),
                                    Array("\u{1}\u{2} nonsense\r\n\r\n".utf8)]
            for head in heads {
                let socket = try Socket(port: port, from: "127.0.0.6")
                socket.send(head)
                XCTAssertTrue(socket.closedByServer(within: 2), "\(head): left open")
                XCTAssertTrue(socket.received.hasPrefix("HTTP/1.1 400"), socket.received)
            }
            // Their slots come back (released as each channel goes inactive, just after the close).
            for _ in 0..<50 where server.connections.openConnections(from: "127.0.0.6") > 0 { try await Task.sleep(for: .milliseconds(20)) }
            XCTAssertEqual(server.connections.openConnections(from: "127.0.0.6"), 0)
        }
    }

    func testIdleAndSlowSocketsAreClosedAndCappedWhileOthersAreServed() async throws {
        var options = try fixture.server().options
        options.port = 0
        var policy = ConnectionLimits.Policy(total: 40)
        policy.perAddress = 8
        policy.firstHead = .milliseconds(600)
        policy.idle = .milliseconds(900)
        options.connections = policy
        let server = try LibraryServer(catalog: try LibraryCatalog(folder: fixture.folder.path), options: options)
        try await server.application(logger: Logger(label: "test")).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            // 30 sockets from one address, none sending a byte: 8 stay, 22 are closed at once.
            let idle = try (0..<30).map { _ in try Socket(port: port, from: "127.0.0.2") }
            try await Task.sleep(for: .milliseconds(200))
            XCTAssertEqual(idle.filter { $0.closedByServer(within: 0) }.count, 22, "over the per-address cap")
            // Another address is served meanwhile.
            XCTAssertEqual(try RawHTTP.send(port: port, "GET /api/facets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").status, 200)
            // A head sent a byte at a time never ends: closed once the first head's time is up.
            let slow = try Socket(port: port, from: "127.0.0.3")
            let clock = ContinuousClock(), started = clock.now
            for byte in "GET /api/facets HTTP/1.1\r\nHost: 127.0".utf8 where !slow.closedByServer(within: 0) {
                slow.send([byte])
                try await Task.sleep(for: .milliseconds(40))
            }
            XCTAssertTrue(slow.closedByServer(within: 1.5), "slowloris closed")
            XCTAssertLessThan(started.duration(to: clock.now), .seconds(3))
            // The 8 idle ones are gone too, and their slots free again.
            XCTAssertEqual(idle.filter { $0.closedByServer(within: 1.0) }.count, 30)
            XCTAssertEqual(server.connections.openConnections(from: "127.0.0.2"), 0)
            // A body that stops half way is closed after the idle time, the file untouched.
            let body = try Socket(port: port, from: "127.0.0.4")
            body.send(Array("POST /api/uploads?name=x.pdf HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n%PDF-1.4".utf8))
            XCTAssertTrue(body.closedByServer(within: 3), "stalled body closed")
            // Kept-alive connections that go quiet after a response are closed after the idle time.
            let kept = try Socket(port: port, from: "127.0.0.5")
            kept.send(Array("GET /api/facets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            XCTAssertTrue(kept.closedByServer(within: 3), "idle keep-alive closed")
            XCTAssertTrue(kept.received.hasPrefix("HTTP/1.1 200"), kept.received)
        }
    }

    func testGuessesFromManyAddressesPauseGuessingButNotTheMusiciansDevices() async throws {
        let password = "Smetana – Vltava 🎻"
        let server = try fixture.server(access: .password(password)) { options in
            options.trustedProxies = ["127.0.0.1"]
            options.loginPolicy.firstDelay = .milliseconds(1)
            options.loginPolicy.maxDelay = .milliseconds(2)
            options.loginPolicy.globalBurst = 12
            options.loginPolicy.globalPerMinute = 60
        }
        try await Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                func ask(_ from: String, _ secret: String) async throws -> HTTPResponse.Status {
                    try await client.execute(uri: "/api/facets", method: .get, headers: [
                        .authorization: ServerAPITests.basic("", secret), HTTPField.Name("X-Forwarded-For")!: from,
                    ]).status
                }
                let first = try await ask("198.51.100.1", password)
                XCTAssertEqual(first, .ok, "the musician's tablet proves access first")
                var statuses: [HTTPResponse.Status] = []
                for guess in 0..<40 { statuses.append(try await ask("203.0.113.\(guess + 1)", "guess \(guess)")) }
                XCTAssertEqual(statuses.prefix(12).filter { $0 == .unauthorized }.count, 12)
                XCTAssertEqual(statuses.dropFirst(13).filter { $0 == .tooManyRequests }.count, 27, "rotating addresses gains nothing")
                // The right password from a new address tells nothing while guessing pauses…
                let stranger = try await ask("192.0.2.77", password)
                XCTAssertEqual(stranger, .tooManyRequests)
                // …and the tablet that proved access goes on.
                let tablet = try await ask("198.51.100.1", password)
                XCTAssertEqual(tablet, .ok)
                try await Task.sleep(for: .milliseconds(1100))
                let later = try await ask("192.0.2.77", password)
                XCTAssertEqual(later, .ok, "guessing resumes as the allowance comes back")
            }
    }

    func testErrorsNeverShowTheLibrarysAbsolutePath() async throws {
        let middleware = SecurityHeadersMiddleware<FolioRequestContext>(folders: ["/srv/noty", "/mnt/disk/noty"])
        XCTAssertEqual(middleware.redacted("cannot open /srv/noty/Bach/Árie – 詠唱.pdf: Too many open files"),
                       "cannot open Bach/Árie – 詠唱.pdf: Too many open files")
        XCTAssertEqual(middleware.redacted("/mnt/disk/noty is full"), "the library is full")
        XCTAssertEqual(middleware.redacted("page 3 is out of range"), "page 3 is out of range")
        // Through the server: a score replaced by a folder is named as the library names it.
        let server = try fixture.server()
        try await Application(router: server.router()).test(.router) { client in
            let id = try await ServerFixture.scoreID(client, query: "Canci%C3%B3n")
            let file = self.fixture.path("Brahms-Cancion_de_Cuna.pdf")
            try FileManager.default.removeItem(atPath: file)
            try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
            for uri in ["/api/scores/\(id)/annotations", "/api/scores/\(id)/4sc"] {
                let message = String(buffer: try await client.execute(uri: uri, method: .get).body)
                XCTAssertTrue(message.contains("Brahms-Cancion_de_Cuna.pdf"), message)
                XCTAssertFalse(message.contains(self.fixture.folder.path), message)
                XCTAssertFalse(message.contains(server.service.catalog.files.root), message)
            }
        }
    }

    func testLoopbackIsDecidedFromAddressesNotSpelling() {
        for host in ["127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "[::1]", "::ffff:127.0.0.1", "localhost"] {
            XCTAssertTrue(AllowedHosts.isLoopback(host), host)
        }
        for host in ["127.example.invalid", "127.0.0.1.example.invalid", "0.0.0.0", "::", "10.0.0.1", "192.168.1.20",
                     "::ffff:10.0.0.1", "", "128.0.0.1", "ünïcode.invalid"] {
            XCTAssertFalse(AllowedHosts.isLoopback(host), host)
        }
    }

    func testConnectionCountsAndTheEndOfAHead() {
        var policy = ConnectionLimits.Policy(total: 5)
        policy.perAddress = 2
        policy.exempt = ["127.0.0.1"]
        let limits = ConnectionLimits(policy: policy)
        XCTAssertEqual([limits.admit("192.0.2.1"), limits.admit("192.0.2.1"), limits.admit("192.0.2.1")], [true, true, false])
        XCTAssertEqual([limits.admit("127.0.0.1"), limits.admit("127.0.0.1"), limits.admit("127.0.0.1")], [true, true, true],
                       "a trusted proxy counts toward the total only")
        XCTAssertFalse(limits.admit("192.0.2.2"), "the total is reached")
        limits.release("192.0.2.1")
        XCTAssertEqual(limits.openConnections(), 4)
        XCTAssertTrue(limits.admit("192.0.2.2"))
        XCTAssertEqual(limits.openConnections(from: "192.0.2.1"), 1)
        XCTAssertEqual(ConnectionLimits.Policy.total(descriptors: 1024), 768)
        XCTAssertEqual(ConnectionLimits.Policy.total(descriptors: 256), 128)
        XCTAssertEqual(ConnectionLimits.Policy.total(descriptors: 100), 16)
        XCTAssertGreaterThanOrEqual(ConnectionLimits.raiseDescriptorLimit(), 1024)
        for (text, ends) in [("GET / HTTP/1.1\r\nHost: a\r\n\r\n", true), ("GET / HTTP/1.1\r\nHost: a\r\n", false),
                             ("GET / HTTP/1.1\n\n", true), ("\r\n\r", false), ("", false), ("\n", false)] {
            XCTAssertEqual(ConnectionGuardHandler.endsHead(Array(text.utf8)), ends, text.debugDescription)
        }
    }

    func testPagePicturesAreBoundedOnDiskAndLeftoversGo() throws {
        let directory = fixture.folder.appendingPathComponent(".folio/pages").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: directory + "/3-p1-h240-abc.png.part-1234", contents: Data(count: 10))
        for index in 0..<10 {
            let path = directory + "/\(index)-p1-h240-abc.png"
            FileManager.default.createFile(atPath: path, contents: Data(count: 1000))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(index - 100))], ofItemAtPath: path)
        }
        let pictures = PageImageCache(directory: directory, renderer: nil)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/3-p1-h240-abc.png.part-1234"), "drafts of a crash go")
        pictures.trim(maxBytes: 5000)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        XCTAssertEqual(left, (7..<10).map { "\($0)-p1-h240-abc.png" }, "the pictures used longest ago went, down to 3/4 of the bound")
    }
}

/// A client socket from a chosen loopback address, for the connection limits and deadlines.
final class Socket {
    let fd: Int32
    private(set) var received = ""

    init(port: Int, from source: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Whether the server closed the connection (end of file or reset) within `seconds`; what
    /// it sent before is kept in ``received``.
    func closedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        repeat {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = max(0, Int32(deadline.timeIntervalSinceNow * 1000))
            if poll(&poller, 1, left) > 0 {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { return true }
                received += String(decoding: buffer[0..<count], as: UTF8.self)
                continue
            }
        } while Date() < deadline
        return false
    }
}
