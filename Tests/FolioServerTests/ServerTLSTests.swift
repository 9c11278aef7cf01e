import FolioLibrary
import FolioTestSupport
@testable import FolioServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import XCTest

/// The server over HTTPS, with its own local authority and with a user's certificate, checked
/// with curl and OpenSSL's client: accepted when the authority is trusted, refused otherwise,
/// renewed in place, and every unusable certificate or key refused with a clear error.
final class ServerTLSTests: ServerTestCase, @unchecked Sendable {
    private var scratch = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: scratch)
        try super.tearDownWithError()
    }

    private func path(_ name: String) -> String { (scratch as NSString).appendingPathComponent(name) }

    private func curl(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let result = try TestEnvironment.runTool("curl", ["-sS", "--max-time", "10"] + arguments, timeout: 30)
        return (result.status, String(decoding: result.stdout + result.stderr, as: UTF8.self))
    }

    /// The serial number of the certificate the server presents, as OpenSSL's client sees it.
    private func presentedSerial(port: Int) throws -> String {
        let script = "openssl s_client -connect 127.0.0.1:\(port) -servername localhost </dev/null 2>/dev/null | openssl x509 -noout -serial"
        let result = try TestEnvironment.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], timeout: 30)
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func serial(ofFile file: String) throws -> String {
        let result = try TestEnvironment.runTool("openssl", ["x509", "-in", file, "-noout", "-serial"])
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A self-signed certificate and key made by OpenSSL, as a user brings them.
    private func opensslCertificate(_ certificate: String, key: String, name: String = "localhost") throws {
        let result = try TestEnvironment.runTool("openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "30",
            "-keyout", key, "-out", certificate, "-subj", "/CN=\(name)", "-addext", "subjectAltName=DNS:\(name),IP:127.0.0.1",
        ])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
    }

    func testHTTPSWithFoliosOwnAuthorityIsTrustedOnlyWhereTheAuthorityIs() async throws {
        let folder = path("authority")
        let server = try fixture.server { options in
            options.port = 0
            options.tls = .localAuthority(folder: folder)
        }
        let authority = try XCTUnwrap(server.tls?.authority)
        let ca = (folder as NSString).appendingPathComponent(LocalAuthority.File.authority.rawValue)
        try await server.application(logger: Logger(label: "test")).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            // Trusted with the authority: the library, with Secure cookies.
            let trusted = try self.curl(["-D", "-", "-o", "/dev/null", "--cacert", ca, "https://localhost:\(port)/"])
            XCTAssertEqual(trusted.status, 0, trusted.text)
            XCTAssertTrue(trusted.text.hasPrefix("HTTP/1.1 200"), trusted.text)
            let cookie = try XCTUnwrap(trusted.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: folio_csrf=") })
            XCTAssertTrue(cookie.hasSuffix("; Secure"), String(cookie))
            // By address too (an IP entry), and refused without the authority (curl's 60: peer certificate not trusted).
            XCTAssertEqual(try self.curl(["-o", "/dev/null", "--cacert", ca, "https://127.0.0.1:\(port)/api/facets"]).status, 0)
            XCTAssertEqual(try self.curl(["-o", "/dev/null", "https://localhost:\(port)/"]).status, 60)
            // Plain HTTP on the HTTPS port gets no page.
            let plain = try self.curl(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/"])
            XCTAssertFalse(plain.text.hasPrefix("200"), plain.text)
            // The trust page and the certificate to install.
            let page = try self.curl(["--cacert", ca, "https://localhost:\(port)/trust"])
            XCTAssertTrue(page.text.contains(authority.fingerprint), page.text)
            XCTAssertTrue(page.text.contains("/trust/folio.mobileconfig"))
            // The name the device lists under Certificate Trust Settings, as OpenSSL reads it.
            let subject = try TestEnvironment.runTool("openssl", ["x509", "-in", ca, "-noout", "-subject"])
            let commonName = try XCTUnwrap(String(decoding: subject.stdout, as: UTF8.self).components(separatedBy: "CN = ").last)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(authority.name, commonName)
            XCTAssertTrue(page.text.contains("full trust for “\(commonName)”"), page.text)
            XCTAssertEqual(try self.curl(["--cacert", ca, "https://localhost:\(port)/trust/folio-ca.pem"]).text,
                           try String(contentsOfFile: ca, encoding: .utf8))
            let der = self.path("folio-ca.crt")
            XCTAssertEqual(try self.curl(["--cacert", ca, "-o", der, "https://localhost:\(port)/trust/folio-ca.crt"]).status, 0)
            let fromDER = try TestEnvironment.runTool("openssl", ["x509", "-inform", "der", "-in", der, "-noout", "-fingerprint", "-sha256"])
            XCTAssertTrue(String(decoding: fromDER.stdout, as: UTF8.self).contains(authority.fingerprint))
            // Renewed while running: the next handshake presents the new certificate.
            let server = try XCTUnwrap(server.tls)
            let first = try self.presentedSerial(port: port)
            XCTAssertEqual(first, try self.serial(ofFile: (folder as NSString).appendingPathComponent("server.pem")))
            XCTAssertFalse(try server.refresh(), "nothing due yet")
            XCTAssertTrue(try server.refresh(now: Date().addingTimeInterval(Double(LocalAuthority.serverLifetime - 10) * 86_400)))
            let second = try self.presentedSerial(port: port)
            XCTAssertNotEqual(second, first)
            XCTAssertEqual(second, try self.serial(ofFile: (folder as NSString).appendingPathComponent("server.pem")))
        }
    }

    /// The connection guard reads the request head after TLS has decrypted it: a kept-alive
    /// HTTPS connection lives past the first-head deadline and answers its second request, while
    /// a socket that sends nothing, or half a ClientHello, is still closed at that deadline.
    func testAnHTTPSConnectionPastItsFirstHeadIsNotCutAndASilentOneIs() async throws {
        let folder = path("authority")
        let server = try fixture.server { options in
            options.port = 0
            options.tls = .localAuthority(folder: folder)
            var policy = ConnectionLimits.Policy(total: 40)
            policy.firstHead = .milliseconds(800)
            policy.idle = .seconds(10)
            options.connections = policy
        }
        let ca = (folder as NSString).appendingPathComponent(LocalAuthority.File.authority.rawValue)
        let lines = RecordingLog.Lines()
        let logger = Logger(label: "test") { _ in RecordingLog(lines: lines) }
        try await server.application(logger: logger).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            // Two requests on one connection, the second 1.6 s after it opened (twice the deadline).
            let request = "GET /api/facets HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n"
            let script = "(printf '\(request)'; sleep 1.6; printf '\(request)'; sleep 1) | "
                + "openssl s_client -quiet -no_ign_eof -CAfile '\(ca)' -verify_return_error -connect 127.0.0.1:\(port) -servername localhost 2>/dev/null"
            let result = try TestEnvironment.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], timeout: 30)
            let answers = String(decoding: result.stdout, as: UTF8.self).components(separatedBy: "HTTP/1.1 200").count - 1
            XCTAssertEqual(answers, 2, String(decoding: result.stdout, as: UTF8.self))
            // Silence, and a handshake that stops half way, are closed at the deadline.
            let silent = try Socket(port: port, from: "127.0.0.1"), half = try Socket(port: port, from: "127.0.0.1")
            half.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01])
            XCTAssertFalse(silent.closedByServer(within: 0.3), "closed before the deadline")
            XCTAssertTrue(silent.closedByServer(within: 3), "a silent socket outlived the deadline")
            XCTAssertTrue(half.closedByServer(within: 3), "half a handshake outlived the deadline")
            // A client that refuses the certificate closes before its first request.
            XCTAssertEqual(try self.curl(["-o", "/dev/null", "https://localhost:\(port)/"]).status, 60)
        }
        // None of those closes is an error in the server's log (swift-nio#3209 reports them as one).
        let logged = lines.all
        XCTAssertTrue(logged.contains { $0.level == .debug && $0.text == "Error handling upgrade result" }, "\(logged)")
        XCTAssertEqual(logged.filter { $0.level >= .error }.map(\.text), [])
    }

    func testANewAddressOfTheMachineIsCertifiedAtTheNextLook() throws {
        let addresses = Mutex(["127.0.0.1"])
        let tls = try ServerTLS(source: .localAuthority(folder: path("authority")),
                                names: { ServerNames(dns: ["localhost"], addresses: addresses.withLock { $0 }) })
        XCTAssertFalse(try tls.refresh())
        addresses.withLock { $0.append("192.168.7.20") }
        XCTAssertTrue(try tls.refresh())
        XCTAssertEqual(tls.names.addresses, ["127.0.0.1", "192.168.7.20"])
        let served = path("served.pem")
        try Data(tls.identity.certificateChainPEM.utf8).write(to: URL(fileURLWithPath: served))
        let alternatives = try TestEnvironment.runTool("openssl", ["x509", "-in", served, "-noout", "-ext", "subjectAltName"])
        XCTAssertTrue(String(decoding: alternatives.stdout, as: UTF8.self).contains("IP Address:192.168.7.20"))
    }

    func testAUsersOwnCertificateIsServedAndReadAgainWhenReplaced() async throws {
        let certificate = path("fullchain.pem"), key = path("privkey.pem")
        try opensslCertificate(certificate, key: key)
        let token = String(repeating: "7", count: 32)
        let server = try fixture.server(access: .token(token)) { options in
            options.port = 0
            options.tls = .files(certificate: certificate, key: key)
        }
        XCTAssertNil(server.tls?.authority)
        let first = path("first.pem")
        try TestEnvironment.copy(atPath: certificate, toPath: first)
        try await server.application(logger: Logger(label: "test")).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let base = "https://localhost:\(port)"
            // The trust page needs no token (it says the certificate is the user's); the library does.
            let trust = try self.curl(["--cacert", certificate, base + "/trust"])
            XCTAssertTrue(trust.text.contains("uses your own certificate"), trust.text)
            XCTAssertEqual(try self.curl(["-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate, base + "/api/scores"]).text, "401")
            XCTAssertEqual(try self.curl(["-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate, base + "/trust/folio-ca.pem"]).text, "404")
            for sneaky in ["/trust/../api/scores", "/trust/%2e%2e/api/scores", "/trust/folio-ca.pem/../../api/scores", "/TRUST"] {
                // Followed through the redirect to the path's one spelling (dot segments resolved).
                let answer = try self.curl(["--path-as-is", "-L", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate, base + sneaky])
                XCTAssertTrue(["401", "404"].contains(answer.text), "\(sneaky): \(answer.text)")
            }
            // The token in the address becomes a Secure cookie.
            let login = try self.curl(["-D", "-", "-o", "/dev/null", "--cacert", certificate, base + "/?token=\(token)"])
            XCTAssertTrue(login.text.contains("folio_token=") && login.text.contains("; Secure"), login.text)
            // certbot renews: new files in place; the server reads them again and presents them.
            try FileManager.default.removeItem(atPath: certificate)
            try FileManager.default.removeItem(atPath: key)
            try self.opensslCertificate(certificate, key: key)
            XCTAssertTrue(try XCTUnwrap(server.tls).refresh())
            XCTAssertFalse(try XCTUnwrap(server.tls).refresh(), "unchanged files are not read again")
            XCTAssertEqual(try self.curl(["-o", "/dev/null", "--cacert", certificate, base + "/trust"]).status, 0)
            XCTAssertEqual(try self.curl(["-o", "/dev/null", "--cacert", first, base + "/trust"]).status, 60)
            // A broken renewal keeps the working certificate.
            try Data("-----BEGIN CERTIFICATE-----\nnope\n".utf8).write(to: URL(fileURLWithPath: certificate))
            XCTAssertThrowsError(try XCTUnwrap(server.tls).refresh())
            XCTAssertEqual(try self.presentedSerial(port: port).isEmpty, false)
        }
    }

    func testEveryUnusableCertificateOrKeyIsRefusedWithAClearError() throws {
        let certificate = path("cert.pem"), key = path("key.pem"), otherCertificate = path("other.pem"), otherKey = path("other-key.pem")
        try opensslCertificate(certificate, key: key)
        try opensslCertificate(otherCertificate, key: otherKey, name: "другой.example")
        let names: @Sendable () -> ServerNames = { ServerNames(dns: ["localhost"], addresses: ["127.0.0.1"]) }
        func refused(_ certificateFile: String, _ keyFile: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try ServerTLS(source: .files(certificate: certificateFile, key: keyFile), names: names), file: file, line: line) { error in
                guard let failure = error as? LibraryError else { return XCTFail("\(error)", file: file, line: line) }
                XCTAssertTrue(failure.kind.isCallersInput, "\(failure)", file: file, line: line)
                XCTAssertTrue(failure.message.contains(what), "\(failure.message) lacks \(what)", file: file, line: line)
            }
        }
        XCTAssertNoThrow(try ServerTLS(source: .files(certificate: certificate, key: key), names: names))
        refused(path("missing.pem"), key, "--tls-cert")
        refused(certificate, path("missing.pem"), "--tls-key")
        refused(certificate, otherKey, "is not the key of the certificate")
        refused(key, key, "is not a PEM certificate chain")
        refused(certificate, certificate, "is not a PEM private key")
        try Data(repeating: 0x41, count: ServerTLS.maxFileBytes + 1).write(to: URL(fileURLWithPath: path("huge.pem")))
        refused(path("huge.pem"), key, "larger than")
        // A property: every prefix of a good certificate and key, and random bytes, are refused or accepted, never a trap.
        let good = try Data(contentsOf: URL(fileURLWithPath: certificate)), goodKey = try Data(contentsOf: URL(fileURLWithPath: key))
        var generator = SeededGenerator(#function)
        let cut = path("cut.pem")
        for length in stride(from: 0, to: good.count, by: 37) {
            try good.prefix(length).write(to: URL(fileURLWithPath: cut))
            refused(cut, key, "--tls-cert")
        }
        for length in stride(from: 0, to: goodKey.count, by: 23) {
            try goodKey.prefix(length).write(to: URL(fileURLWithPath: cut))
            refused(certificate, cut, "--tls-key")
        }
        for _ in 0..<100 {
            var noise = good
            for _ in 0..<4 { noise[Int.random(in: 0..<noise.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            try noise.write(to: URL(fileURLWithPath: cut))
            do { _ = try ServerTLS(source: .files(certificate: cut, key: key), names: names) } catch let error as LibraryError {
                XCTAssertTrue(error.kind.isCallersInput, "\(error)")
            }
        }
    }

    /// TLS 1.2 offers AEAD suites with forward secrecy only (Mozilla's "intermediate"): OpenSSL's
    /// client asking for CBC with SHA-1, or static RSA, gets no handshake; ECDHE with AES-GCM does.
    func testTLS12OffersOnlyForwardSecretAEADSuites() async throws {
        let server = try fixture.server { options in
            options.port = 0
            options.tls = .localAuthority(folder: self.path("authority"))
        }
        try await server.application(logger: Logger(label: "test")).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            func handshake(_ cipher: String) throws -> String {
                let script = "openssl s_client -connect 127.0.0.1:\(port) -servername localhost -tls1_2 -cipher '\(cipher)' </dev/null 2>&1"
                let result = try TestEnvironment.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], timeout: 30)
                let text = String(decoding: result.stdout, as: UTF8.self)
                return text.split(separator: "\n").first { $0.contains("Cipher is") }.map(String.init) ?? text.suffix(300).description
            }
            for weak in ["ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA256", "AES128-GCM-SHA256", "AES128-SHA"] {
                let answer = try handshake(weak)
                XCTAssertFalse(answer.contains("Cipher is \(weak)"), "\(weak): \(answer)")
            }
            for strong in ["ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305"] {
                XCTAssertTrue(try handshake(strong).contains("Cipher is \(strong)"), strong)
            }
        }
    }

    /// Keys and their folder that others could read or change are named at start (a warning,
    /// as for a readable password file); private ones are not.
    func testKeysOthersMayReadAreNamed() throws {
        let folder = path("authority")
        _ = try LocalAuthority.open(folder: folder)
        _ = try LocalAuthority.open(folder: folder).serverIdentity(for: ServerNames(dns: ["localhost"], addresses: ["127.0.0.1"]))
        let source = TLSSource.localAuthority(folder: folder)
        XCTAssertEqual(source.exposure(), [], "made private")
        let key = LocalAuthority.path(.authorityKey, in: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        let problems = source.exposure()
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("chmod 700 \(folder)") && $0.contains("mode 755") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("chmod 600 \(key)") && $0.contains("mode 644") }, "\(problems)")
        let certificate = path("cert.pem"), own = path("key.pem")
        try opensslCertificate(certificate, key: own)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: own)
        XCTAssertEqual(TLSSource.files(certificate: certificate, key: own).exposure().count, 1)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: own)
        XCTAssertEqual(TLSSource.files(certificate: certificate, key: own).exposure(), [])
    }
}

/// A log handler that keeps what it is given, at every level, for a test to read.
struct RecordingLog: LogHandler {
    final class Lines: Sendable {
        private let kept = Mutex<[(level: Logger.Level, text: String)]>([])
        var all: [(level: Logger.Level, text: String)] { kept.withLock { $0 } }
        func add(_ level: Logger.Level, _ text: String) { kept.withLock { $0.append((level, text)) } }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    func log(event: LogEvent) {
        lines.add(event.level, event.message.description)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
