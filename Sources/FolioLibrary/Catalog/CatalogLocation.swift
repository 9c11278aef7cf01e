import Foundation

/// Where a library's catalog lives: the SQLite file beside the scores (the default, for one
/// machine), or a PostgreSQL database that several servers over one shared folder use together.
///
/// A password never travels on the command line, where `ps` shows it to everyone: it is read
/// from the file `FOLIO_CATALOG_PASSWORD_FILE` names (readable by its owner only, as libpq asks
/// of `.pgpass`), else from `FOLIO_CATALOG_PASSWORD`.
///
/// ```swift
/// let here = try CatalogLocation(parsing: "sqlite")
/// let shared = try CatalogLocation(parsing: "postgresql://folio@db.example.org/ноты?sslmode=verify-full",
///                                  environment: ["FOLIO_CATALOG_PASSWORD": "…"])
/// // shared == .postgresql(PostgresAddress(host: "db.example.org", port: 5432, user: "folio",
/// //                                       database: "ноты", password: "…", tls: .verifyFull))
/// ```
public enum CatalogLocation: Sendable, Equatable, CustomStringConvertible {
    /// The SQLite file: `.folio/library.sqlite` in the library folder, or the path given.
    case sqlite(path: String?)
    /// A PostgreSQL database.
    case postgresql(PostgresAddress)

    /// The environment variable naming a file that holds the catalog's password.
    public static let passwordFileVariable = "FOLIO_CATALOG_PASSWORD_FILE"
    /// The environment variable holding the catalog's password (the file is preferred).
    public static let passwordVariable = "FOLIO_CATALOG_PASSWORD"
    /// The environment variable `--catalog` falls back to.
    public static let locationVariable = "FOLIO_CATALOG"

    /// Reads `sqlite`, `sqlite:PATH`, or `postgresql://[USER@][HOST][:PORT][/DATABASE][?PARAMETERS]`
    /// (`postgres://` too). Parameters: `sslmode` (`disable`, `prefer` — the default, as libpq's —,
    /// `require`, `verify-full`) and `host` (a folder holding the server's socket, as libpq's).
    /// User and database default to `folio`, the host to `localhost`, the port to 5432.
    ///
    /// - Throws: ``LibraryError`` `.invalidArgument` for anything else, a password in the text
    ///   among it; `.io` when the password file cannot be read or others may read it.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard text.utf8.count <= Self.maxLength else {
            throw LibraryError(.invalidArgument, "a catalog's address is at most \(Self.maxLength) bytes")
        }
        if text == "sqlite" {
            self = .sqlite(path: nil)
            return
        }
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty, !path.utf8.contains(0) else {
                throw LibraryError(.invalidArgument, "sqlite: needs the database file's path (sqlite:/srv/scores.sqlite)")
            }
            self = .sqlite(path: path)
            return
        }
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") else {
            throw LibraryError(.invalidArgument,
                               "a catalog is sqlite, sqlite:PATH or postgresql://USER@HOST:PORT/DATABASE, not \(Self.shown(text))")
        }
        self = .postgresql(try PostgresAddress(url: text, environment: environment))
    }

    /// The longest address read (a URL of every part at PostgreSQL's own limits fits many times over).
    public static let maxLength = 4096

    /// The address without its password, for logs and messages.
    public var description: String {
        switch self {
        case .sqlite(let path): path.map { "sqlite:\($0)" } ?? "sqlite"
        case .postgresql(let address): address.description
        }
    }

    /// Text quoted in a message, cut short when long.
    static func shown(_ text: String) -> String {
        text.count > 80 ? "'\(text.prefix(80))…'" : "'\(text)'"
    }
}

/// A PostgreSQL server and database, with the password read from where ``CatalogLocation`` says.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted, as libpq's `sslmode`.
    public enum TLS: String, Sendable, CaseIterable {
        /// Never.
        case disable
        /// When the server offers it (libpq's default).
        case prefer
        /// Always, without checking the server's certificate.
        case require
        /// Always, with the server's certificate checked against the system's authorities and its name.
        case verifyFull = "verify-full"
    }

    /// A host name or address, or (starting with `/`) the folder of the server's Unix socket.
    public var host: String
    /// 1 to 65535.
    public var port: Int
    public var user: String
    public var database: String
    /// Never from the address itself.
    public var password: String?
    public var tls: TLS

    /// PostgreSQL's longest name (NAMEDATALEN − 1 bytes): a longer user or database name would be cut short by the server.
    public static let maxNameBytes = 63

    /// Creates an address from its parts.
    public init(host: String = "localhost", port: Int = 5432, user: String = "folio", database: String = "folio",
                password: String? = nil, tls: TLS = .prefer) {
        self.host = host
        self.port = port
        self.user = user
        self.database = database
        self.password = password
        self.tls = tls
    }

    /// Whether the server is reached through a Unix socket (``host`` is its folder).
    public var isSocket: Bool { host.hasPrefix("/") }

    /// The socket's path, as PostgreSQL names it in its folder.
    public var socketPath: String { (host as NSString).appendingPathComponent(".s.PGSQL.\(port)") }

    /// `postgresql://USER@HOST:PORT/DATABASE`, without the password.
    public var description: String {
        func encoded(_ part: String) -> String {
            part.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? part
        }
        let query = [isSocket ? "host=\(encoded(host))" : nil, tls == .prefer ? nil : "sslmode=\(tls.rawValue)"].compactMap { $0 }
        let place = isSocket ? "" : (host.contains(":") ? "[\(host)]" : host) + (port == 5432 ? "" : ":\(port)")
        let tail = query.isEmpty ? "" : "?" + query.joined(separator: "&")
        let portPart = isSocket && port != 5432 ? ":\(port)" : ""
        return "postgresql://\(encoded(user))@\(place)\(portPart)/\(encoded(database))\(tail)"
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// Reads a `postgresql://` URL (see ``CatalogLocation/init(parsing:environment:)``).
    init(url text: String, environment: [String: String]) throws {
        func refuse(_ why: String) -> LibraryError {
            LibraryError(.invalidArgument, "catalog \(CatalogLocation.shown(Self.redacted(text))): \(why)")
        }
        let rest = text.hasPrefix("postgresql://") ? text.dropFirst("postgresql://".count) : text.dropFirst("postgres://".count)
        let (beforeQuery, query) = Self.split(rest, at: "?")
        let (authority, path) = Self.split(beforeQuery, at: "/")
        // The user ends at the last @ (a name may not hold one unencoded, but be lenient where it is unambiguous).
        var place = authority
        var user = "folio"
        if let at = authority.lastIndex(of: "@") {
            let userPart = authority[..<at]
            place = authority[authority.index(after: at)...]
            if userPart.contains(":") {
                throw refuse("a password is never given in the address, where other users can see it; "
                             + "put it in a file named by \(CatalogLocation.passwordFileVariable) (mode 600) "
                             + "or in \(CatalogLocation.passwordVariable)")
            }
            user = try Self.decoded(userPart, "user", refuse)
        }
        var host = "localhost"
        var port = 5432
        if place.hasPrefix("[") {
            guard let close = place.firstIndex(of: "]") else { throw refuse("an IPv6 address is closed by ]") }
            host = String(place[place.index(after: place.startIndex)..<close])
            let after = place[place.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse("only :PORT may follow ]") }
                port = try Self.port(after.dropFirst(), refuse)
            }
        } else if let colon = place.firstIndex(of: ":") {
            host = try Self.decoded(place[..<colon], "host", refuse)
            port = try Self.port(place[place.index(after: colon)...], refuse)
        } else if !place.isEmpty {
            host = try Self.decoded(place, "host", refuse)
        }
        var database = "folio"
        if let path, !path.isEmpty {
            database = try Self.decoded(path, "database", refuse)
        }
        var tls = TLS.prefer
        if let query, !query.isEmpty {
            for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
                let (key, value) = Self.split(pair, at: "=")
                let decoded = try Self.decoded(value ?? "", key == "host" ? "host" : "value of \(key)", refuse)
                switch key {
                case "sslmode":
                    guard let mode = TLS(rawValue: decoded) else {
                        throw refuse("sslmode is \(TLS.allCases.map(\.rawValue).joined(separator: ", ")), not \(CatalogLocation.shown(decoded))")
                    }
                    tls = mode
                case "host":
                    guard decoded.hasPrefix("/") else { throw refuse("host= names the folder of the server's socket, from /") }
                    host = decoded
                case "password":
                    throw refuse("a password is never given in the address; use \(CatalogLocation.passwordFileVariable)")
                default:
                    throw refuse("\(CatalogLocation.shown(String(key))) is not a parameter folio reads (sslmode, host)")
                }
            }
        }
        for (name, value) in [("user", user), ("database", database)] {
            guard !value.isEmpty else { throw refuse("the \(name) name is empty") }
            guard value.utf8.count <= Self.maxNameBytes else {
                throw refuse("the \(name) name is \(value.utf8.count) bytes; PostgreSQL keeps \(Self.maxNameBytes)")
            }
        }
        guard !host.isEmpty else { throw refuse("the host is empty") }
        self.init(host: host, port: port, user: user, database: database,
                  password: try Self.password(environment), tls: tls)
    }

    /// The password from the environment: the file first, then the variable.
    static func password(_ environment: [String: String]) throws -> String? {
        if let file = environment[CatalogLocation.passwordFileVariable], !file.isEmpty {
            var status = stat()
            guard stat(file, &status) == 0 else {
                throw LibraryError(.io, "cannot read the catalog's password file \(file): \(String(cString: strerror(errno)))")
            }
            guard status.st_mode & 0o077 == 0 else {
                throw LibraryError(.io, "the catalog's password file \(file) may be read by others; chmod 600 it")
            }
            guard status.st_size <= 4096 else { throw LibraryError(.io, "the catalog's password file \(file) is not a password") }
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw LibraryError(.io, "cannot read the catalog's password file \(file): \(error.localizedDescription)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw LibraryError(.io, "the catalog's password file \(file) is not UTF-8")
            }
            // One line: the newline an editor adds is not part of it.
            return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
        }
        return environment[CatalogLocation.passwordVariable]
    }

    private static func split<S: StringProtocol>(_ text: S, at separator: Character) -> (S.SubSequence, S.SubSequence?) {
        guard let index = text.firstIndex(of: separator) else { return (text[...], nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    private static func decoded<S: StringProtocol>(_ part: S, _ what: String, _ refuse: (String) -> LibraryError) throws -> String {
        guard let value = String(part).removingPercentEncoding else { throw refuse("the \(what) has a broken %-escape") }
        guard !value.utf8.contains(0) else { throw refuse("the \(what) holds a NUL") }
        return value
    }

    private static func port<S: StringProtocol>(_ text: S, _ refuse: (String) -> LibraryError) throws -> Int {
        guard !text.isEmpty, text.utf8.count <= 5, text.utf8.allSatisfy({ (48...57).contains($0) }),
              let value = Int(text), (1...65535).contains(value) else {
            throw refuse("the port is 1 to 65535, not \(CatalogLocation.shown(String(text)))")
        }
        return value
    }

    /// `text` with what could be a password (between `//user:` and `@`, or a `password=`
    /// parameter's value) blanked, for messages.
    static func redacted(_ text: String) -> String {
        var text = text
        if let query = text.firstIndex(of: "?") {
            let parameters = text[text.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("password=") ? "password=***" : String($0) }
            text = String(text[...query]) + parameters.joined(separator: "&")
        }
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
