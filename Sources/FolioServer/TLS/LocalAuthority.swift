import Crypto
import FolioLibrary
import Foundation
import SwiftASN1
import X509

/// A certificate authority of this machine's own, as mkcert makes one: `folio serve --https`
/// needs nothing else to speak HTTPS on a local network. The authority's key never leaves its
/// folder (mode 700, keys 600); its certificate is what a device trusts once (see
/// ``TrustProfile``), after which every server certificate it signs is accepted.
///
/// The server certificate names the machine as browsers reach it (its host name, `NAME.local`,
/// `localhost`, the names given with `--allow-host`, and its addresses as IP entries), carries
/// `serverAuth`, is ECDSA P-256 with SHA-256, and lives ``serverLifetime`` days — under the 825
/// Apple's devices accept from a root they were given, and the 398 they accept from any. It is
/// issued again when it is missing, damaged, from another authority, short of a name, or within
/// ``renewalMargin`` days of expiring.
///
/// ```swift
/// let authority = try LocalAuthority.open(folder: "/home/me/.local/share/folio/tls")
/// let identity = try authority.serverIdentity(for: ServerNames(dns: ["localhost"], addresses: ["127.0.0.1"]))
/// print(identity.notValidAfter, authority.fingerprint)
/// ```
public struct LocalAuthority: Sendable {
    /// Days a server certificate is valid.
    public static let serverLifetime = 397
    /// Days before expiry a server certificate is replaced.
    public static let renewalMargin = 30
    /// Days the authority's own certificate is valid (ten years).
    public static let authorityLifetime = 3650

    /// The folder holding the authority and the server certificate.
    public let folder: String
    /// The authority's certificate, which devices trust.
    public let certificate: Certificate
    /// The authority's private key, as its raw scalar (swift-crypto's key type is not `Sendable`).
    private let keyScalar: Data
    var key: P256.Signing.PrivateKey {
        get throws { try P256.Signing.PrivateKey(rawRepresentation: keyScalar) }
    }

    private init(folder: String, certificate: Certificate, key: P256.Signing.PrivateKey) {
        self.folder = folder
        self.certificate = certificate
        keyScalar = key.rawRepresentation
    }

    /// Where the files are, by role.
    enum File: String {
        case authority = "folio-ca.pem", authorityKey = "folio-ca-key.pem", server = "server.pem", serverKey = "server-key.pem"
    }

    func path(_ file: File) -> String { Self.path(file, in: folder) }

    static func path(_ file: File, in folder: String) -> String { (folder as NSString).appendingPathComponent(file.rawValue) }

    /// The folder used when none is given: `$XDG_DATA_HOME/folio/tls`, or `~/.local/share/folio/tls`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".local/share")
        return ((data as NSString).appendingPathComponent("folio") as NSString).appendingPathComponent("tls")
    }

    /// The authority kept in `folder`, made there first if the folder holds none.
    ///
    /// An authority that is there but cannot be read is an error, not replaced: the devices that
    /// trust it would stop trusting this server without a word.
    public static func open(folder: String, now: Date = Date()) throws -> LocalAuthority {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw LibraryError(.io, "cannot make the certificate folder \(folder): \(error.localizedDescription)")
        }
        let certificateFile = path(.authority, in: folder), keyFile = path(.authorityKey, in: folder)
        let hasCertificate = manager.fileExists(atPath: certificateFile), hasKey = manager.fileExists(atPath: keyFile)
        if hasCertificate || hasKey {
            guard hasCertificate, hasKey else {
                throw LibraryError(.unreadable, "\(folder) holds only half of the local authority (\(hasKey ? File.authority.rawValue : File.authorityKey.rawValue) is missing); "
                    + "move the folder away to make a new authority, which every device must then trust again")
            }
            let authority: LocalAuthority
            do {
                let certificate = try Certificate(pemEncoded: try String(contentsOfFile: certificateFile, encoding: .utf8))
                let key = try P256.Signing.PrivateKey(pemRepresentation: try String(contentsOfFile: keyFile, encoding: .utf8))
                authority = LocalAuthority(folder: folder, certificate: certificate, key: key)
            } catch {
                throw LibraryError(.unreadable, "the local authority in \(folder) cannot be read (\(error)); "
                    + "move the folder away to make a new one, which every device must then trust again")
            }
            guard authority.certificate.publicKey == Certificate.PublicKey(try authority.key.publicKey) else {
                throw LibraryError(.unreadable, "\(File.authorityKey.rawValue) in \(folder) is not the key of \(File.authority.rawValue)")
            }
            guard authority.certificate.notValidAfter > now else {
                throw LibraryError(.unreadable, "the local authority in \(folder) expired on \(authority.certificate.notValidAfter); "
                    + "move the folder away to make a new one, which every device must then trust again")
            }
            return authority
        }
        return try make(folder: folder, now: now)
    }

    private static func make(folder: String, now: Date) throws -> LocalAuthority {
        let key = P256.Signing.PrivateKey()
        let machine = AllowedHosts.machineName() ?? "this machine"
        let name = try DistinguishedName {
            OrganizationName("Folio")
            OrganizationalUnitName("local authority")
            CommonName("Folio on \(machine)")
        }
        let publicKey = Certificate.PublicKey(key.publicKey)
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Double(authorityLifetime) * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: .init(key))
        let authority = LocalAuthority(folder: folder, certificate: certificate, key: key)
        try SecretFile.write(key.pemRepresentation, to: authority.path(.authorityKey), secret: true)
        do {
            try SecretFile.write(try certificate.serializeAsPEM().pemString, to: authority.path(.authority), secret: false)
        } catch {
            // Not half an authority left behind: the next start makes a whole one.
            unlink(authority.path(.authorityKey))
            throw error
        }
        return authority
    }

    /// The authority's name as devices list it (its certificate's common name, "Folio on NAME").
    public var name: String {
        certificate.subject.lazy.flatMap { $0 }.first { $0.type == .RDNAttributeType.commonName }.flatMap { String($0.value) } ?? "Folio"
    }

    /// The authority's certificate as DER (what Android and Windows import as `.crt`).
    public var certificateDER: [UInt8] {
        var serializer = DER.Serializer()
        // A certificate read or made here serializes.
        guard (try? serializer.serialize(certificate)) != nil else { return [] }
        return serializer.serializedBytes
    }

    /// The authority's certificate as PEM.
    public var certificatePEM: String { (try? certificate.serializeAsPEM().pemString) ?? "" }

    /// The SHA-256 fingerprint of the authority's certificate, as browsers and `openssl x509
    /// -fingerprint -sha256` show it (`AB:CD:…`), to compare before trusting.
    public var fingerprint: String {
        SHA256.hash(data: certificateDER).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The server certificate for `names`: the one kept in the folder while it is good for
    /// them, a new one otherwise (written to the folder, the key first, mode 600).
    public func serverIdentity(for names: ServerNames, now: Date = Date()) throws -> ServerIdentity {
        if let kept = keptIdentity(), kept.isGood(for: names, from: self, at: now) { return kept.identity }
        return try issue(for: names, now: now)
    }

    private struct Kept {
        let certificate: Certificate
        let identity: ServerIdentity

        func isGood(for names: ServerNames, from authority: LocalAuthority, at now: Date) -> Bool {
            guard certificate.issuer == authority.certificate.subject,
                  authority.certificate.publicKey.isValidSignature(certificate.signature, for: certificate),
                  certificate.notValidBefore <= now,
                  certificate.notValidAfter.timeIntervalSince(now) > Double(LocalAuthority.renewalMargin) * 86_400,
                  let alternatives = try? certificate.extensions.subjectAlternativeNames
            else { return false }
            return names.generalNames.allSatisfy(alternatives.contains)
        }
    }

    private func keptIdentity() -> Kept? {
        guard let pem = try? String(contentsOfFile: path(.server), encoding: .utf8),
              let keyPEM = try? String(contentsOfFile: path(.serverKey), encoding: .utf8),
              let certificate = try? Certificate(pemEncoded: pem),
              let key = try? P256.Signing.PrivateKey(pemRepresentation: keyPEM),
              certificate.publicKey == Certificate.PublicKey(key.publicKey)
        else { return nil }
        return Kept(certificate: certificate, identity: identity(certificatePEM: pem, keyPEM: keyPEM, notValidAfter: certificate.notValidAfter))
    }

    private func issue(for names: ServerNames, now: Date) throws -> ServerIdentity {
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let subject = try DistinguishedName {
            OrganizationName("Folio")
            CommonName(names.dns.first ?? names.addresses.first ?? "localhost")
        }
        let authorityKey = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(Double(Self.serverLifetime) * 86_400),
            issuer: self.certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.generalNames)
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: authorityKey)
            },
            issuerPrivateKey: .init(try self.key))
        let pem = try certificate.serializeAsPEM().pemString
        // The key first: a certificate on disk is never without its key.
        try SecretFile.write(key.pemRepresentation, to: path(.serverKey), secret: true)
        try SecretFile.write(pem, to: path(.server), secret: true)
        return identity(certificatePEM: pem, keyPEM: key.pemRepresentation, notValidAfter: certificate.notValidAfter)
    }

    /// The chain a server presents: its certificate, then the authority's.
    private func identity(certificatePEM pem: String, keyPEM: String, notValidAfter: Date) -> ServerIdentity {
        ServerIdentity(certificateChainPEM: pem.trimmingCharacters(in: .whitespacesAndNewlines) + "\n" + certificatePEM,
                       privateKeyPEM: keyPEM, notValidAfter: notValidAfter)
    }
}

/// The names and addresses a server certificate is for.
///
/// ```swift
/// let names = ServerNames(dns: ["localhost", "studio.local"], addresses: ["127.0.0.1", "::1", "192.168.1.20"])
/// ```
public struct ServerNames: Sendable, Equatable {
    /// DNS names, lower case, in their ASCII form (``HostName``).
    public var dns: [String]
    /// IPv4 and IPv6 addresses, as written.
    public var addresses: [String]

    public init(dns: [String], addresses: [String]) {
        var seen = Set<String>()
        self.dns = dns.compactMap(HostName.ascii).filter { seen.insert($0).inserted }
        self.addresses = addresses.filter { Self.bytes(of: $0) != nil && seen.insert($0).inserted }
    }

    /// The names of this machine as a browser reaches a server listening on `host`: `localhost`,
    /// the loopback addresses, the machine's name and `NAME.local`, `extra` (`--allow-host`), and
    /// the listening address — or every address of the machine when it listens on all of them.
    public static func forMachine(listening host: String, extra: [String] = []) -> ServerNames {
        let bound = AllowedHosts.hostPart(host)
        var dns = ["localhost"], addresses = ["127.0.0.1", "::1"]
        if let own = AllowedHosts.machineName() {
            dns.append(own)
            if !own.contains(".") { dns.append(own + ".local") }
        }
        for name in extra.map(AllowedHosts.hostPart) {
            if AllowedHosts.isNumericAddress(name) { addresses.append(name) } else { dns.append(name) }
        }
        if bound == "0.0.0.0" || bound == "::" || bound.isEmpty {
            addresses += MachineAddresses.current()
        } else if AllowedHosts.isNumericAddress(bound) {
            addresses.append(bound)
        } else {
            dns.append(bound)
        }
        return ServerNames(dns: dns, addresses: addresses)
    }

    /// The subjectAltName entries: DNS names, then addresses as 4 or 16 bytes.
    var generalNames: [GeneralName] {
        dns.map { GeneralName.dnsName($0) }
            + addresses.compactMap { Self.bytes(of: $0).map { GeneralName.ipAddress(ASN1OctetString(contentBytes: ArraySlice($0))) } }
    }

    /// An address's bytes in network order; nil for anything but an IPv4 or IPv6 address.
    static func bytes(of address: String) -> [UInt8]? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        if inet_pton(AF_INET6, address, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }
}

/// A certificate chain and its private key, in PEM, as the TLS layer loads them.
public struct ServerIdentity: Sendable, Equatable {
    /// The server's certificate, then the certificates that lead to a trusted one.
    public var certificateChainPEM: String
    /// The server certificate's private key.
    public var privateKeyPEM: String
    /// When the server's certificate expires.
    public var notValidAfter: Date

    public init(certificateChainPEM: String, privateKeyPEM: String, notValidAfter: Date) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.notValidAfter = notValidAfter
    }
}

/// The addresses of this machine's interfaces that are up (link-local IPv6 aside: a browser
/// cannot name them in an address without the interface).
enum MachineAddresses {
    static func current() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var node: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = node {
            defer { node = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                var bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                guard inet_ntop(AF_INET, &bytes, &buffer, socklen_t(buffer.count)) != nil else { continue }
            case AF_INET6:
                var bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                let raw = withUnsafeBytes(of: bytes) { Array($0) }
                if raw[0] == 0xFE && raw[1] & 0xC0 == 0x80 { continue }
                guard inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count)) != nil else { continue }
            default:
                continue
            }
            found.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return found
    }
}

/// Files holding secrets (a password, a token, a private key): written whole or not at all —
/// into a new file beside the target (mode 600 from its creation when secret), then renamed
/// over it — and checked for what others on the machine may read.
///
/// ```swift
/// if let warning = SecretFile.exposure(of: "/home/me/.pw", called: "/home/me/.pw") { print("warning: \(warning)") }
/// ```
public enum SecretFile {
    /// The sentence that says group or others may read the file at `path` (`called` in it) and
    /// how to keep it private; nil when only its owner may, or it cannot be looked at.
    public static func exposure(of path: String, called: String) -> String? {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o077 != 0 else {
            return nil
        }
        return "\(called) can be read by other users (mode \(String(mode & 0o777, radix: 8))); keep secrets private: chmod 600 \(path)"
    }

    static func write(_ text: String, to path: String, secret: Bool) throws {
        let temporary = path + ".new-\(UUID().uuidString.prefix(8))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, secret ? 0o600 : 0o644)
        guard descriptor >= 0 else {
            throw LibraryError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, path) == 0 else { throw LibraryError(.io, "cannot write \(path): \(String(cString: strerror(errno)))") }
        } catch {
            unlink(temporary)
            if let error = error as? LibraryError { throw error }
            throw LibraryError(.io, "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
