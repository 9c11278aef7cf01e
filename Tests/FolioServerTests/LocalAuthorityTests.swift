import FolioLibrary
import FolioTestSupport
@testable import FolioServer
import Foundation
import XCTest

/// Folio's own certificate authority (`folio serve --https`), checked with OpenSSL, Python's
/// `cryptography` and `plistlib`: what a device is asked to trust, and what the server presents.
final class LocalAuthorityTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tls-\(UUID().uuidString)/tls").path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent)
    }

    private func file(_ name: LocalAuthority.File) -> String { (folder as NSString).appendingPathComponent(name.rawValue) }

    private func openssl(_ arguments: [String]) throws -> String {
        let result = try TestEnvironment.runTool("openssl", arguments)
        guard result.status == 0 else { throw TestFailure("openssl \(arguments): \(String(decoding: result.stderr, as: UTF8.self))") }
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// The days between a certificate's notBefore and notAfter, as OpenSSL reads them.
    private func lifetimeDays(_ pem: String) throws -> Double {
        let dates = try openssl(["x509", "-in", pem, "-noout", "-dates"])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy 'GMT'"
        func date(_ key: String) throws -> Date {
            let line = try XCTUnwrap(dates.split(separator: "\n").first { $0.hasPrefix(key + "=") })
            let text = line.dropFirst(key.count + 1).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            return try XCTUnwrap(formatter.date(from: text), text)
        }
        return try date("notAfter").timeIntervalSince(try date("notBefore")) / 86_400
    }

    func testTheAuthorityAndItsServerCertificateAreWhatDevicesAccept() throws {
        let authority = try LocalAuthority.open(folder: folder)
        let names = ServerNames(dns: ["localhost", "Ноты.local", "studio.local"], addresses: ["127.0.0.1", "::1", "192.168.1.20"])
        let identity = try authority.serverIdentity(for: names)
        // OpenSSL verifies the chain and reads what Apple's devices and browsers require.
        XCTAssertEqual(try openssl(["verify", "-CAfile", file(.authority), file(.server)]).trimmingCharacters(in: .whitespacesAndNewlines),
                       "\(file(.server)): OK")
        let server = try openssl(["x509", "-in", file(.server), "-noout", "-text"])
        for entry in ["DNS:localhost", "DNS:xn--m1acm0b.local", "DNS:studio.local", "IP Address:127.0.0.1", "IP Address:0:0:0:0:0:0:0:1",
                      "IP Address:192.168.1.20", "TLS Web Server Authentication", "CA:FALSE", "ecdsa-with-SHA256"] {
            XCTAssertTrue(server.contains(entry), "\(entry) missing from\n\(server)")
        }
        XCTAssertLessThanOrEqual(try lifetimeDays(file(.server)), 398)
        let ca = try openssl(["x509", "-in", file(.authority), "-noout", "-text"])
        XCTAssertTrue(ca.contains("CA:TRUE, pathlen:0"), ca)
        XCTAssertTrue(ca.contains("Certificate Sign"), ca)
        // The fingerprint shown is OpenSSL's.
        let fingerprint = try openssl(["x509", "-in", file(.authority), "-noout", "-fingerprint", "-sha256"])
        XCTAssertEqual(fingerprint.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }, authority.fingerprint)
        // The chain served: the server's certificate, then the authority's.
        XCTAssertEqual(identity.certificateChainPEM.components(separatedBy: "BEGIN CERTIFICATE").count - 1, 2)
        // Keys private, the folder private; the authority's certificate readable.
        for (path, mode) in [(folder, 0o700), (file(.authorityKey), 0o600), (file(.serverKey), 0o600), (file(.authority), 0o644)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertEqual((attributes[.posixPermissions] as? Int).map { $0 & 0o777 }, mode, path)
        }
        XCTAssertNoThrow(try openssl(["ec", "-in", file(.serverKey), "-check", "-noout"]))
    }

    func testTheServerCertificateIsKeptWhileGoodAndRenewedWhenDueOrShortOfAName() throws {
        let start = Date()
        let names = ServerNames(dns: ["localhost"], addresses: ["127.0.0.1"])
        let first = try LocalAuthority.open(folder: folder, now: start).serverIdentity(for: names, now: start)
        let authority = try LocalAuthority.open(folder: folder, now: start)
        // Opened again: the same authority, the same server certificate.
        let pem = try String(contentsOfFile: file(.authority), encoding: .utf8)
        XCTAssertEqual(try authority.serverIdentity(for: names, now: start.addingTimeInterval(300 * 86_400)), first)
        XCTAssertEqual(try String(contentsOfFile: file(.authority), encoding: .utf8), pem)
        // 30 days before it expires, a new one (still from the same authority).
        let due = start.addingTimeInterval(Double(LocalAuthority.serverLifetime - 20) * 86_400)
        let renewed = try authority.serverIdentity(for: names, now: due)
        XCTAssertNotEqual(renewed, first)
        XCTAssertGreaterThan(renewed.notValidAfter, first.notValidAfter)
        XCTAssertEqual(try String(contentsOfFile: file(.authority), encoding: .utf8), pem)
        XCTAssertTrue(try openssl(["verify", "-attime", String(Int(due.timeIntervalSince1970)), "-CAfile", file(.authority), file(.server)]).contains("OK"))
        // A new name (the machine got another address): a new one naming it.
        let wider = ServerNames(dns: ["localhost"], addresses: ["127.0.0.1", "10.0.0.7"])
        XCTAssertNotEqual(try authority.serverIdentity(for: wider, now: due), renewed)
        XCTAssertTrue(try openssl(["x509", "-in", file(.server), "-noout", "-ext", "subjectAltName"]).contains("10.0.0.7"))
        // A certificate from another authority in its place is replaced.
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tls-other-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: other) }
        _ = try LocalAuthority.open(folder: other).serverIdentity(for: wider)
        for name in [LocalAuthority.File.server, .serverKey] {
            try FileManager.default.removeItem(atPath: file(name))
            try TestEnvironment.copy(atPath: (other as NSString).appendingPathComponent(name.rawValue), toPath: file(name))
        }
        _ = try authority.serverIdentity(for: wider, now: due)
        XCTAssertTrue(try openssl(["verify", "-attime", String(Int(due.timeIntervalSince1970)), "-CAfile", file(.authority), file(.server)]).contains("OK"))
    }

    func testADamagedOrHalfAuthorityIsRefusedAndLeftAsItWas() throws {
        _ = try LocalAuthority.open(folder: folder)
        let key = try Data(contentsOf: URL(fileURLWithPath: file(.authorityKey)))
        for damage in [Data("not a key – キー".utf8), key.prefix(40), Data()] {
            try damage.write(to: URL(fileURLWithPath: file(.authorityKey)))
            let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            let certificate = try Data(contentsOf: URL(fileURLWithPath: file(.authority)))
            XCTAssertThrowsError(try LocalAuthority.open(folder: folder)) { error in
                XCTAssertEqual((error as? LibraryError)?.code, .unreadable)
                XCTAssertTrue("\(error)".contains("move the folder away"), "\(error)")
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), before)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file(.authority))), certificate)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file(.authorityKey))), damage)
        }
        try FileManager.default.removeItem(atPath: file(.authorityKey))
        XCTAssertThrowsError(try LocalAuthority.open(folder: folder)) { error in
            XCTAssertTrue("\(error)".contains("only half"), "\(error)")
        }
        // Another authority's key beside this certificate.
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tls-other-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: other) }
        _ = try LocalAuthority.open(folder: other)
        try TestEnvironment.copy(atPath: (other as NSString).appendingPathComponent(LocalAuthority.File.authorityKey.rawValue),
                                         toPath: file(.authorityKey))
        XCTAssertThrowsError(try LocalAuthority.open(folder: folder)) { error in
            XCTAssertTrue("\(error)".contains("is not the key of"), "\(error)")
        }
    }

    func testTheAppleProfileHoldsTheAuthoritysCertificate() throws {
        let authority = try LocalAuthority.open(folder: folder)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("folio-\(UUID().uuidString).mobileconfig")
        defer { try? FileManager.default.removeItem(at: profile) }
        try TrustProfile.mobileconfig(for: authority).write(to: profile)
        // plistlib reads the profile; cryptography reads the certificate in it, equal to the PEM's.
        let read = try ServerFixture.python("""
            import plistlib, sys
            from cryptography import x509
            profile = plistlib.load(open(sys.argv[1], 'rb'))
            payload = profile['PayloadContent'][0]
            certificate = x509.load_der_x509_certificate(payload['PayloadContent'])
            pem = x509.load_pem_x509_certificate(open(sys.argv[2], 'rb').read())
            print(profile['PayloadType'], payload['PayloadType'], certificate == pem, profile['PayloadUUID'] != payload['PayloadUUID'])
            """, profile.path, file(.authority))
        XCTAssertEqual(read, "Configuration com.apple.security.root True True")
        // The same profile each time: installing it again replaces the first.
        XCTAssertEqual(try TrustProfile.mobileconfig(for: authority), try TrustProfile.mobileconfig(for: LocalAuthority.open(folder: folder)))
    }

    func testHostNamesInAnyScriptAreWhatPythonsIDNACodecGives() throws {
        let names = ["ноты.local", "Müsik-Zimmer.example", "楽譜.example", "مكتبة.local", "ΣΧΟΛΗ.gr", "studio.local", "a.b.c", "xn--m1acm0b.local"]
        // Python's own IDNA codec (nameprep and Punycode), one name at a time.
        for name in names {
            let expected = try ServerFixture.python("import sys; print(sys.argv[1].encode('idna').decode('ascii'))", name)
            XCTAssertEqual(HostName.ascii(name), expected, name)
        }
        for bad in ["", "a..b", String(repeating: "ж", count: 70) + ".local", String(repeating: "a.", count: 130)] {
            XCTAssertNil(HostName.ascii(bad), bad)
        }
        // A property: whatever a label holds, the result is ASCII and within DNS's lengths, or nil.
        var generator = SeededGenerator(#function)
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...80, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &generator))
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            if let ascii = HostName.ascii(text) {
                XCTAssertTrue(ascii.unicodeScalars.allSatisfy(\.isASCII))
                XCTAssertLessThanOrEqual(ascii.utf8.count, 253)
                XCTAssertTrue(ascii.split(separator: ".").allSatisfy { $0.utf8.count <= 63 })
            }
        }
        let allowed = AllowedHosts(listening: "127.0.0.1", extra: ["Ноты.local"])
        XCTAssertTrue(allowed.allows(authority: "xn--m1acm0b.local:8443"))
    }
}
