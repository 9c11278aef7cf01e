import ArgumentParser
import FolioLibrary
import FolioServer
import Foundation
import Logging

/// `folio serve`: the library in a browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a library folder to a browser: search, score viewer, annotation editor.",
        discussion: """
            Scans the folder (progress on the terminal), then serves it and keeps the catalog current while files are
            added, changed or removed. Loopback only by default; with --host set to any other address every request
            needs the access token (from --token-file, or a random one printed at start: open the printed address), or
            the password from --password-file (the browser asks for it; any user name).
            Stops on Ctrl-C or SIGTERM after the requests in flight, so no save is cut in half.
            The JSON API is described at /api/openapi.yaml.
            Example: folio serve Samples --port 8080
            Exit codes: 0 stopped; 1 the folder or catalog could not be opened, or the port was taken; 64 usage error.
            """
    )

    @Argument(help: "The library folder.") var folder: String = "."
    @Option(help: "Port to listen on (1 to 65535).") var port: Int = 8080
    @Option(help: "Address to listen on; anything but loopback requires an access token.") var host: String = "127.0.0.1"
    @Option(help: "A file whose first line is the access token.") var tokenFile: String?
    @Option(help: "A file whose first line is the password the browser asks for (instead of a token).") var passwordFile: String?
    @Option(help: "Folder holding pdf.js (pdf.js and pdf.worker.js).") var pdfjs: String = LibraryServer.Options().pdfjs
    @Option(help: "Seconds between looks at the folder for changes (0 turns them off).") var rescan: Double = 2

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port \(port) is out of range (valid: 1 to 65535)") }
        guard rescan.isFinite, rescan >= 0 else { throw ValidationError("--rescan \(rescan) is out of range (valid: 0 or more)") }
        guard tokenFile == nil || passwordFile == nil else { throw ValidationError("give --token-file or --password-file, not both") }
    }

    /// The first line of a secret's file, at least `least` characters long.
    static func firstLine(of path: String, option: String, what: String, least: Int) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let line = text.split(whereSeparator: \.isNewline).first, line.count >= least else {
            throw ValidationError("\(option) \(path): no \(what) of at least \(least) characters on its first line")
        }
        return String(line)
    }

    func run() async throws {
        var logger = Logger(label: "folio.serve")
        logger.logLevel = .info
        var options = LibraryServer.Options()
        options.host = host
        options.port = port
        options.pdfjs = pdfjs
        options.rescanInterval = rescan
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(host) || host.hasPrefix("127.")
        if let tokenFile {
            options.access = .token(try Self.firstLine(of: tokenFile, option: "--token-file", what: "token", least: 16))
        } else if let passwordFile {
            options.access = .password(try Self.firstLine(of: passwordFile, option: "--password-file", what: "password", least: 8))
        } else if !loopback {
            options.access = .token(LibraryServer.randomToken())
        }
        let server: LibraryServer
        do {
            let catalog = try LibraryCatalog(folder: folder)
            let summary = try LibraryScanner(catalog: catalog).scan { progress in
                if progress.done % 100 == 0 || progress.done == progress.total {
                    FileHandle.standardError.write(Data("\rscanning \(progress.done)/\(progress.total)".utf8))
                }
            }
            FileHandle.standardError.write(Data("\r\(summary.found) scores (\(summary.opened) read, \(summary.unreadable.count) unreadable)\n".utf8))
            server = try LibraryServer(catalog: catalog, options: options)
        } catch let error as LibraryError {
            FileHandle.standardError.write(Data("folio serve: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
        if !server.hasPDFJS {
            logger.warning("pdf.js not found in \(pdfjs): install libjs-pdf (apt-get install libjs-pdf) or give --pdfjs DIR")
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        // Written at once (not buffered), so a log or a script reading it sees the address before requests arrive.
        FileHandle.standardOutput.write(Data(("Folio is serving \(server.service.catalog.folder) at http://\(shown):\(port)/"
            + (options.access.flatMap { if case .token(let token) = $0 { "?token=\(token)" } else { nil } } ?? "") + "\n").utf8))
        do {
            try await server.application(logger: logger).runService()
        } catch {
            FileHandle.standardError.write(Data("folio serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
