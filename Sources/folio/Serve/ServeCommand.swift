import ArgumentParser
import FolioLibrary
import FolioScore
import FolioServer
import Hummingbird
import Foundation
import Logging

/// `folio serve`: the library in a browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a library folder to a browser: search, score viewer, annotation editor.",
        discussion: """
            Scans the folder (progress on the terminal), then serves it and keeps the catalog current while files are \
            added, changed or removed. Loopback only by default; with --host set to any other address every request \
            needs the access token (from --token-file, or a random one printed at start: open the printed address), or \
            the password from --password-file (the browser asks for it; any user name; at least 8 characters besides \
            white space). Wrong guesses are slowed and, after 20, the client is shut out for 15 minutes. Browsers must \
            reach the server by its address, localhost, or a name given with --allow-host (DNS rebinding is refused). \
            HTTPS: --https makes (once) a local certificate authority in --tls-dir and a certificate for this machine's \
            names and addresses, renewed before it expires; /trust tells each device how to trust it once. Or give your \
            own certificate with --tls-cert and --tls-key (read again when the files change). Cookies are then Secure. \
            Stops on Ctrl-C or SIGTERM after the requests in flight, so no save is cut in half. \
            The JSON API is described at /api/openapi.yaml.
            Example: folio serve Samples --port 8080
            Example: folio serve Samples --host 0.0.0.0 --https --password-file ~/.folio-password
            Exit codes: 0 stopped; 1 the folder, catalog or local authority could not be opened, or the port was taken; \
            64 usage error (a certificate or key that cannot be used among them).
            """
    )

    @Argument(help: "The library folder.") var folder: String = "."
    @Option(parsing: .unconditional, help: "Port to listen on (1 to 65535).") var port: Int = 8080
    @Option(help: "Address to listen on; anything but loopback requires an access token.") var host: String = "127.0.0.1"
    @Option(help: "A file whose first line is the access token.") var tokenFile: String?
    @Option(help: "A file whose first line is the password the browser asks for (instead of a token).") var passwordFile: String?
    @Option(help: "Folder holding pdf.js (pdf.js and pdf.worker.js).") var pdfjs: String = LibraryServer.Options().pdfjs
    @Option(parsing: .unconditional, help: "Seconds between looks at the folder for changes (0 turns them off).") var rescan: Double = 2
    @Option(name: .customLong("allow-host"),
            help: "A name browsers use to reach the server besides its address and localhost (repeatable), e.g. music.example.org behind a reverse proxy.")
    var allowHosts: [String] = []
    @Option(name: .customLong("trusted-proxy"),
            help: "The address of a reverse proxy (repeatable) whose X-Forwarded-For and X-Forwarded-Proto are believed; with HTTPS there, cookies are Secure.")
    var trustedProxies: [String] = []
    @Option(help: "A TrueType font (.ttf) the Text tool's annotations are drawn in (embedded as a subset; the installed fonts draw what it lacks).")
    var fontFile: String?
    @Option(help: "Open connections one client address may hold (1 to 10000; a browser opens about six).")
    var maxConnectionsPerAddress: Int = ConnectionLimits.Policy(total: 0).perAddress
    @Flag(help: "Serve HTTPS with a certificate from Folio's own local authority (made once in --tls-dir).")
    var https = false
    @Option(help: "The folder of the local authority for --https (default: $XDG_DATA_HOME/folio/tls or ~/.local/share/folio/tls).")
    var tlsDir: String?
    @Option(help: "Serve HTTPS with this certificate chain (PEM; the server's certificate first). Needs --tls-key.")
    var tlsCert: String?
    @Option(help: "The private key (PEM) of --tls-cert.")
    var tlsKey: String?

    func validate() throws {
        guard (1...10_000).contains(maxConnectionsPerAddress) else {
            throw ValidationError("--max-connections-per-address \(maxConnectionsPerAddress) is out of range (valid: 1 to 10000)")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port \(port) is out of range (valid: 1 to 65535)") }
        guard rescan.isFinite, rescan >= 0 else { throw ValidationError("--rescan \(rescan) is out of range (valid: 0 or more)") }
        guard tokenFile == nil || passwordFile == nil else { throw ValidationError("give --token-file or --password-file, not both") }
        for name in allowHosts where name.isEmpty || name.contains(where: { $0.isWhitespace || "/@".contains($0) })
            || HostName.ascii(AllowedHosts.hostPart(name)) == nil {
            throw ValidationError("--allow-host \(name) is not a host name")
        }
        for address in trustedProxies where !AllowedHosts.isNumericAddress(AllowedHosts.hostPart(address)) {
            throw ValidationError("--trusted-proxy \(address) is not an IP address")
        }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("give --tls-cert and --tls-key together") }
        guard !(https && tlsCert != nil) else { throw ValidationError("give --https or --tls-cert/--tls-key, not both") }
        guard tlsDir == nil || https else { throw ValidationError("--tls-dir goes with --https") }
    }

    /// Where the certificate comes from, as the flags say; nil: plain HTTP.
    var tlsSource: TLSSource? {
        if let tlsCert, let tlsKey { return .files(certificate: tlsCert, key: tlsKey) }
        return https ? .localAuthority(folder: tlsDir ?? LocalAuthority.defaultFolder()) : nil
    }

    /// The first line of a secret's file; a warning on standard error when others may read the file.
    static func firstLine(of path: String, option: String) throws -> String {
        let line = try OptionFile.firstLine(of: path, option: option)
        if let exposure = SecretFile.exposure(of: path, called: path) {
            FileHandle.standardError.write(Data("folio serve: warning: \(exposure)\n".utf8))
        }
        return line
    }

    func run() async throws {
        var logger = Logger(label: "folio.serve")
        logger.logLevel = .info
        var options = LibraryServer.Options()
        options.host = host
        options.port = port
        options.pdfjs = pdfjs
        options.rescanInterval = rescan
        let loopback = AllowedHosts.isLoopback(host)
        options.allowedHosts = allowHosts
        var connections = ConnectionLimits.Policy.forThisProcess()
        connections.perAddress = maxConnectionsPerAddress
        options.connections = connections
        options.trustedProxies = trustedProxies.map(AllowedHosts.hostPart)
        options.tls = tlsSource
        for problem in tlsSource?.exposure() ?? [] { FileHandle.standardError.write(Data("folio serve: warning: \(problem)\n".utf8)) }
        do { options.textFont = try fontFile.map(TextFont.read) } catch let error as ScoreError {
            throw ValidationError("--font-file \(error.message)")
        }
        if let tokenFile {
            let token = try Self.firstLine(of: tokenFile, option: "--token-file").trimmingCharacters(in: .whitespaces)
            guard token.count >= 16, !token.contains(where: \.isWhitespace) else {
                throw ValidationError("--token-file \(tokenFile): no token of at least 16 characters (and no spaces) on its first line")
            }
            options.access = .token(token)
        } else if let passwordFile {
            switch AccessSecret.password(fromLine: try Self.firstLine(of: passwordFile, option: "--password-file")) {
            case .success(let secret): options.access = secret
            case .failure(let error): throw ValidationError("--password-file \(passwordFile): \(error.message)")
            }
        } else if !loopback {
            options.access = .token(LibraryServer.randomToken())
        }
        let server: LibraryServer
        do {
            let catalog = try LibraryCatalog(folder: folder)
            // A library with members: each logs in with their own name and password, on loopback too.
            if try catalog.hasMembers() {
                guard tokenFile == nil, passwordFile == nil else {
                    throw ValidationError("this library has members, who log in with their own passwords: "
                        + "--token-file and --password-file are for a library without members")
                }
                options.access = .members
            }
            // A scan that fails is reported and the library served as catalogued: the watcher tries again.
            do {
                // The scan's progress on a terminal only, cleared before the summary.
                let bar = ProgressLine(enabled: isatty(STDERR_FILENO) == 1)
                let summary = try LibraryScanner(catalog: catalog).scan { bar.show($0.done, of: $0.total, $0.path) }
                bar.finish()
                FileHandle.standardError.write(Data("\(summary.found) scores (\(summary.opened) read, \(summary.unreadable.count) unreadable)\n".utf8))
                for renamed in summary.renamed {
                    logger.notice("renamed \(renamed.from) to \(renamed.to): another file has the same name in another Unicode form")
                }
                for line in summary.skipped { logger.warning("skipped \(line)") }
            } catch let error as LibraryError where error.code == .database {
                logger.error("the first scan failed: \(error.message); serving the catalog as it is")
            }
            server = try LibraryServer(catalog: catalog, options: options)
        } catch let error as LibraryError {
            FileHandle.standardError.write(Data("folio serve: \(error.message)\n".utf8))
            throw CommandError.exitCode(for: error)
        }
        if !loopback, trustedProxies.isEmpty, options.tls == nil {
            logger.warning("""
                listening on \(host) without HTTPS: the token or password crosses the network in clear. \
                Start with --https, or put a reverse proxy with HTTPS in front and start with --trusted-proxy ADDRESS \
                (docs/serving.md: "Beyond loopback").
                """)
        }
        if !server.hasPDFJS {
            logger.warning("pdf.js not found in \(pdfjs): install libjs-pdf (apt-get install libjs-pdf) or give --pdfjs DIR")
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        // Written at once (not buffered), so a log or a script reading it sees the address before requests arrive.
        let scheme = options.tls == nil ? "http" : "https"
        FileHandle.standardOutput.write(Data(("Folio is serving \(server.service.catalog.folder) at \(scheme)://\(shown):\(port)/"
            + (options.access.flatMap { if case .token(let token) = $0 { "?token=\(token)" } else { nil } } ?? "") + "\n").utf8))
        if options.access == .members {
            FileHandle.standardOutput.write(Data("Members log in at \(scheme)://\(shown):\(port)/login (folio members list)\n".utf8))
        }
        if let authority = server.tls?.authority {
            FileHandle.standardOutput.write(Data("""
                HTTPS by Folio's local authority in \(authority.folder), SHA-256 fingerprint \(authority.fingerprint)
                Trust it once on each device: \(scheme)://\(shown):\(port)/trust (certificate valid until \(server.tls?.identity.notValidAfter.formatted(.iso8601) ?? "?"))

                """.utf8))
        }
        do {
            try await server.application(logger: logger).runService()
        } catch {
            FileHandle.standardError.write(Data("folio serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
