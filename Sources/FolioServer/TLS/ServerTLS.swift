import FolioLibrary
import Foundation
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization

/// Where the server's certificate comes from (`folio serve --https` or `--tls-cert`/`--tls-key`).
///
/// ```swift
/// var options = LibraryServer.Options()
/// options.tls = .localAuthority(folder: LocalAuthority.defaultFolder())
/// options.tls = .files(certificate: "/etc/folio/fullchain.pem", key: "/etc/folio/privkey.pem")
/// ```
public enum TLSSource: Sendable, Equatable {
    /// The user's own certificate chain and private key, PEM files; read again when they change
    /// (a certificate renewed by certbot is served without a restart).
    case files(certificate: String, key: String)
    /// A certificate from Folio's own ``LocalAuthority`` kept in `folder`, for the machine's names.
    case localAuthority(folder: String)

    /// What others on the machine could do with the keys, one sentence each (empty when
    /// nothing): a private key readable by group or others, a folder of keys others may read
    /// or write, for the server to warn about as it does a readable password file.
    ///
    /// ```swift
    /// for problem in TLSSource.localAuthority(folder: "/var/lib/folio/tls").exposure() { print("warning: \(problem)") }
    /// ```
    public func exposure() -> [String] {
        func mode(_ path: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int }
        var problems: [String] = []
        let keys: [String]
        switch self {
        case .files(_, let key):
            keys = [key]
        case .localAuthority(let folder):
            keys = [LocalAuthority.File.authorityKey, .serverKey].map { LocalAuthority.path($0, in: folder) }
            if let folderMode = mode(folder), folderMode & 0o077 != 0 {
                problems.append("\(folder) can be \(folderMode & 0o022 != 0 ? "changed" : "read") by other users "
                    + "(mode \(String(folderMode & 0o777, radix: 8))); keep it private: chmod 700 \(folder)")
            }
        }
        problems += keys.compactMap { SecretFile.exposure(of: $0, called: "the private key \($0)") }
        return problems
    }
}

/// The server's TLS identity while it runs: read once at start (a wrong file stops the start
/// with a clear error), then swapped in place when ``refresh(now:)`` finds it renewed — every new
/// connection's handshake presents the current one.
///
/// ```swift
/// let tls = try ServerTLS(source: .localAuthority(folder: folder), names: { .forMachine(listening: "0.0.0.0") })
/// let configuration = tls.configuration()
/// ```
public final class ServerTLS: Sendable {
    /// The largest certificate or key file read (a chain is a few kilobytes).
    public static let maxFileBytes = 1 << 20

    public let source: TLSSource
    /// The names and addresses a certificate from the local authority must cover, asked again at
    /// each ``refresh(now:)``: an address the machine gets later is certified then.
    public let currentNames: @Sendable () -> ServerNames
    /// The local authority, when the certificate is Folio's own (for the trust page).
    public let authority: LocalAuthority?

    private struct Loaded: Sendable {
        let identity: ServerIdentity
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        /// The files' sizes and modification times when read (`.files` only).
        let stamp: [String]
        let names: ServerNames
    }
    private let current: Mutex<Loaded>

    public init(source: TLSSource, names: @escaping @Sendable () -> ServerNames, now: Date = Date()) throws {
        self.source = source
        currentNames = names
        switch source {
        case .files:
            authority = nil
        case .localAuthority(let folder):
            authority = try LocalAuthority.open(folder: folder, now: now)
        }
        current = Mutex(try Self.load(source, authority: authority, names: names(), now: now))
    }

    /// The names the certificate now served was asked for.
    public var names: ServerNames { current.withLock { $0.names } }

    /// The identity now served.
    public var identity: ServerIdentity { current.withLock { $0.identity } }

    /// Reads the identity again: the local authority's certificate is renewed when due; the
    /// user's files are read again when their size or time changed. Returns whether the identity
    /// changed; throws (and keeps serving the old one) when the new one cannot be read.
    @discardableResult
    public func refresh(now: Date = Date()) throws -> Bool {
        if case .files(let certificate, let key) = source, Self.stamp([certificate, key]) == current.withLock({ $0.stamp }) {
            return false
        }
        let loaded = try Self.load(source, authority: authority, names: currentNames(), now: now)
        return current.withLock { kept in
            guard kept.identity != loaded.identity else { return false }
            kept = loaded
            return true
        }
    }

    /// How long a closing connection waits for the client's close_notify before it is closed.
    static let closeNotifyWait: TimeAmount = .milliseconds(250)

    /// TLS 1.2's suites as Mozilla's "intermediate" profile has them: forward-secret key
    /// exchange and an AEAD cipher only (no CBC with SHA-1, no static RSA). TLS 1.3's suites
    /// are all AEAD and are not set by this list.
    static let cipherSuites = ["ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
                               "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305"]
        .joined(separator: ":")

    /// The TLS configuration to serve with: the identity now loaded, and a handshake callback
    /// that presents the one loaded when the connection arrives.
    public func configuration() -> TLSConfiguration {
        let loaded = current.withLock { $0 }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: loaded.chain.map { .certificate($0) },
                                                                     privateKey: .privateKey(loaded.key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.cipherSuites = Self.cipherSuites
        configuration.applicationProtocols = ["http/1.1"]
        // Closing sends close_notify; browsers seldom answer it on an idle keep-alive connection,
        // and NIOSSL's default waits 5 s for them, which held every stop of the server that long.
        configuration.shutdownTimeout = Self.closeNotifyWait
        configuration.sslContextCallback = { [self] _, promise in
            let now = current.withLock { $0 }
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = now.chain.map { .certificate($0) }
            override.privateKey = .privateKey(now.key)
            promise.succeed(override)
        }
        return configuration
    }

    private static func load(_ source: TLSSource, authority: LocalAuthority?, names: ServerNames, now: Date) throws -> Loaded {
        let identity: ServerIdentity
        var stamp: [String] = []
        switch source {
        case .files(let certificateFile, let keyFile):
            stamp = Self.stamp([certificateFile, keyFile])
            let chain = try read(certificateFile, what: "--tls-cert"), key = try read(keyFile, what: "--tls-key")
            identity = ServerIdentity(certificateChainPEM: chain, privateKeyPEM: key, notValidAfter: .distantFuture)
        case .localAuthority:
            guard let authority else { throw LibraryError(.internal, "no local authority was opened") }
            identity = try authority.serverIdentity(for: names, now: now)
        }
        // The user's own files are the caller's input (`folio serve` exits 64); the authority's are Folio's.
        let bad: LibraryErrorCode = if case .files = source { .invalidArgument } else { .unreadable }
        let chain: [NIOSSLCertificate], key: NIOSSLPrivateKey
        do { chain = try NIOSSLCertificate.fromPEMBytes(Array(identity.certificateChainPEM.utf8)) } catch {
            throw LibraryError(bad, "the certificate (\(describe(source, key: false))) is not a PEM certificate chain: \(error)")
        }
        guard let leaf = chain.first else {
            throw LibraryError(bad, "the certificate (\(describe(source, key: false))) holds no certificate (-----BEGIN CERTIFICATE-----)")
        }
        do { key = try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem) } catch {
            throw LibraryError(bad, "the private key (\(describe(source, key: true))) is not a PEM private key: \(error)")
        }
        // The key must be the certificate's: BoringSSL checks when a context is made from them.
        do {
            _ = try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(leaf)], privateKey: .privateKey(key)))
        } catch {
            throw LibraryError(bad, "the private key (\(describe(source, key: true))) is not the key of the certificate "
                + "(\(describe(source, key: false))): \(error)")
        }
        var expiry = identity.notValidAfter
        if case .files = source { expiry = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter)) }
        return Loaded(identity: ServerIdentity(certificateChainPEM: identity.certificateChainPEM, privateKeyPEM: identity.privateKeyPEM,
                                               notValidAfter: expiry),
                      chain: chain, key: key, stamp: stamp, names: names)
    }

    private static func describe(_ source: TLSSource, key: Bool) -> String {
        switch source {
        case .files(let certificate, let keyFile): key ? "--tls-key \(keyFile)" : "--tls-cert \(certificate)"
        case .localAuthority(let folder): "\(folder)/" + (key ? LocalAuthority.File.serverKey.rawValue : LocalAuthority.File.server.rawValue)
        }
    }

    /// A file's text, refused past ``maxFileBytes``.
    private static func read(_ path: String, what: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LibraryError(.invalidArgument, "\(what) \(path): cannot be opened")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: maxFileBytes + 1) ?? Data() } catch {
            throw LibraryError(.invalidArgument, "\(what) \(path): cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= maxFileBytes else { throw LibraryError(.tooLarge, "\(what) \(path): larger than \(maxFileBytes) bytes") }
        guard let text = String(data: data, encoding: .utf8) else { throw LibraryError(.invalidArgument, "\(what) \(path): not PEM text") }
        return text
    }

    /// Each file's size and modification time, to notice a renewal.
    private static func stamp(_ paths: [String]) -> [String] {
        paths.map { path in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
            let size = (attributes[.size] as? Int) ?? -1
            let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(size) \(time)"
        }
    }
}

/// Keeps the certificate current while the server runs: looks every `interval` and swaps in a
/// renewed one (the local authority's before it expires; the user's files when replaced).
struct CertificateRenewal: Service {
    let tls: ServerTLS
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            do {
                if try tls.refresh() {
                    logger.notice("serving a renewed certificate, valid until \(tls.identity.notValidAfter)")
                }
            } catch {
                logger.warning("the certificate could not be renewed, the current one is kept: \(error)")
            }
        }
    }
}
