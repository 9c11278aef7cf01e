import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// A catalog's PostgreSQL database: its connections, used synchronously as GRDB's SQLite
/// connections are (a caller waits for its answer), and its schema, brought up to date
/// (`PostgresSchema`) by whichever server opens it first.
///
/// The connections run on SwiftNIO's own threads, never on the caller's: a request handler
/// that waits for its query does not hold up the query.
///
/// ```swift
/// let address = PostgresAddress(host: "db.example.org", user: "folio", database: "ноты", password: "…")
/// let database = try PostgresCatalog(address: address)
/// let scores: Int? = try database.read { try $0.scalar("SELECT count(*) FROM score") }
/// ```
public final class PostgresCatalog: Sendable {
    /// Where it is (its password included).
    public let address: PostgresAddress
    /// The most connections held open at once; a caller past them waits for one to come back.
    public let maxConnections: Int
    private let idle = NIOLockedValueBox<[PostgresConnection]>([])
    private let slots: DispatchSemaphore
    private let nextID = NIOLockedValueBox(0)
    private let logger = Logger(label: "folio.catalog.postgresql")
    private let tls: PostgresConnection.Configuration.TLS
    /// SQLite's tokenizer, for the text index (`PostgresSearchText`).
    let searchText: PostgresSearchText
    /// How many rows each phrase a search weighed matched, per version of the catalog.
    let phraseCounts = PhraseCounts()
    /// How long a connection may take to open.
    public static let timeout: TimeAmount = .seconds(10)
    /// How long a statement may take to answer (the catalog's are short; a migration the longest).
    public static let statementTimeout: TimeAmount = .seconds(30)

    /// Connects and brings the schema up to date.
    ///
    /// - Throws: ``LibraryError`` `.unavailable` when the server cannot be reached or refuses the
    ///   login, `.database` when it refuses the schema.
    public init(address: PostgresAddress, maxConnections: Int = 8) throws {
        self.address = address
        self.maxConnections = max(1, maxConnections)
        searchText = try PostgresSearchText()
        slots = DispatchSemaphore(value: self.maxConnections)
        switch address.tls {
        case .disable:
            tls = .disable
        case .prefer, .require, .verifyFull:
            var configuration = TLSConfiguration.makeClientConfiguration()
            if address.tls != .verifyFull { configuration.certificateVerification = .none }
            let context: NIOSSLContext
            do { context = try NIOSSLContext(configuration: configuration) } catch {
                throw LibraryError(.internal, "cannot set up TLS for \(address): \(error)")
            }
            tls = address.tls == .prefer ? .prefer(context) : .require(context)
        }
        try transaction { try PostgresSchema.migrate($0) }
    }

    deinit {
        for connection in idle.withLockedValue({ $0 }) { connection.close().whenComplete { _ in } }
    }

    /// Runs `body` with a connection of its own; returns the connection after (dropping it when it broke).
    public func withConnection<T>(_ body: (PostgresCatalogConnection) throws -> T) throws -> T {
        try withConnection(opening: nil, body)
    }

    /// ``withConnection(_:)`` with `first` run before `body` (a transaction's BEGIN). A kept
    /// connection that turns out dead there (the server restarted, or was away) is dropped and
    /// another tried, so the catalog is used again the moment its server is back.
    private func withConnection<T>(opening first: PostgresQuery?, _ body: (PostgresCatalogConnection) throws -> T) throws -> T {
        guard slots.wait(timeout: .now() + .seconds(Int(Self.timeout.nanoseconds / 1_000_000_000))) == .success else {
            throw LibraryError(.busy, "all \(maxConnections) connections to the catalog are taken", retryAfter: 1)
        }
        defer { slots.signal() }
        var dead = 0
        while true {
            // A kept connection its server closed is dropped unused.
            var kept = idle.withLockedValue { $0.popLast() }
            while let closed = kept, closed.isClosed {
                closed.close().whenComplete { _ in }
                kept = idle.withLockedValue { $0.popLast() }
            }
            let connection = try kept ?? open()
            let wrapped = PostgresCatalogConnection(connection: connection, logger: logger, searchText: searchText, phraseCounts: phraseCounts)
            defer {
                if !connection.isClosed, !wrapped.broken.withLockedValue({ $0 }) {
                    idle.withLockedValue { $0.append(connection) }
                } else {
                    connection.close().whenComplete { _ in }
                }
            }
            if let first {
                do {
                    try wrapped.run(first)
                } catch let error as LibraryError where error.code == .unavailable && kept != nil && dead <= maxConnections {
                    dead += 1
                    continue   // `run` marked it broken: it is closed as the loop goes on
                }
            }
            return try body(wrapped)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: (PostgresCatalogConnection) throws -> T) throws -> T {
        try committed(opening: "BEGIN", body)
    }

    /// `body` in the transaction `begin` opens, ended by `end` when it returns (COMMIT, or
    /// ROLLBACK for a dry run), rolled back when it throws.
    private func committed<T>(opening begin: PostgresQuery, ending end: PostgresQuery = "COMMIT",
                              _ body: (PostgresCatalogConnection) throws -> T) throws -> T {
        try withConnection(opening: begin) { connection in
            do {
                let result = try body(connection)
                try connection.run(end)
                return result
            } catch {
                _ = try? connection.run("ROLLBACK")
                throw error
            }
        }
    }

    /// The key of the lock every write transaction holds ("folio" and 1): the catalog's writes
    /// follow one another from every server, as an SQLite catalog's do, so a rule checked in a
    /// write (the last librarian, a name taken) holds when it commits.
    static let writeLock: Int64 = 0x666F_6C69_6F01

    /// A write transaction, as ``LibraryCatalog``'s on SQLite: under the write lock, counted in
    /// `catalog_state.changes` (answers kept for an older version are stale); with `rollingBack`,
    /// every check and answer of the change and none of its effect.
    public func write<T>(rollingBack: Bool = false, _ body: (PostgresCatalogConnection) throws -> T) throws -> T {
        try committed(opening: "BEGIN", ending: rollingBack ? "ROLLBACK" : "COMMIT") { connection in
            try connection.run("SELECT pg_advisory_xact_lock(\(Self.writeLock))")
            let result = try body(connection)
            if !rollingBack { try connection.run("UPDATE catalog_state SET changes = changes + 1") }
            return result
        }
    }

    /// A read-only transaction: one consistent view of the catalog.
    public func read<T>(_ body: (PostgresCatalogConnection) throws -> T) throws -> T {
        try committed(opening: "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// Has PostgreSQL gather its statistics of the catalog's tables (after many rows came in
    /// at once: a migration, a first scan), so that its plans fit what they hold.
    public func refreshStatistics() throws {
        try withConnection { try $0.run("ANALYZE score, entry, facet, entry_text") }
    }

    /// Closes every idle connection (those in use close when they come back).
    public func close() {
        for connection in idle.withLockedValue({ list in defer { list.removeAll() }; return list }) {
            _ = try? PostgresCatalogConnection.waiting(for: connection.close(), Self.timeout)
        }
    }

    private func open() throws -> PostgresConnection {
        var configuration = address.isSocket
            ? PostgresConnection.Configuration(unixSocketPath: address.socketPath, username: address.user,
                                               password: address.password, database: address.database)
            : PostgresConnection.Configuration(host: address.host, port: address.port, username: address.user,
                                               password: address.password, database: address.database, tls: tls)
        configuration.options.connectTimeout = Self.timeout
        let id = nextID.withLockedValue { value in
            value &+= 1
            return value
        }
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        do {
            return try PostgresCatalogConnection.waiting(for: PostgresConnection.connect(on: loop, configuration: configuration, id: id,
                                                                                         logger: logger), Self.timeout + .seconds(1))
        } catch {
            throw LibraryError(.unavailable, "cannot reach the catalog at \(address): \(PostgresCatalogConnection.reason(error))",
                               retryAfter: 5)
        }
    }
}

/// One connection of a ``PostgresCatalog``, lent for a transaction.
public struct PostgresCatalogConnection: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    let searchText: PostgresSearchText
    let phraseCounts: PhraseCounts
    /// Set when a statement failed in a way that leaves the connection unfit for the next one.
    let broken = NIOLockedValueBox(false)

    /// Runs a statement written for PostgreSQL, its values bound where they are interpolated.
    ///
    /// ```swift
    /// let rows = try connection.run("SELECT name FROM member WHERE nameKey = \(key)")
    /// ```
    @discardableResult
    public func run(_ query: PostgresQuery) throws -> [PostgresRow] {
        do {
            return Array(try Self.waiting(for: connection.query(query, logger: logger), PostgresCatalog.statementTimeout).rows)
        } catch {
            if connection.isClosed || (error as? PSQLError)?.serverInfo == nil {
                broken.withLockedValue { $0 = true }
                // A connection that timed out may still be waiting for its answer: it is never used again.
                connection.close().whenComplete { _ in }
            }
            throw Self.failure(error, query: query.sql)
        }
    }

    /// The answer of `future`, or ``TimedOut`` once `limit` has passed: a server that stops
    /// answering (gone, or its connection dropped unseen) never holds a caller for good.
    static func waiting<T: Sendable>(for future: EventLoopFuture<T>, _ limit: TimeAmount) throws -> T {
        let answer = future.eventLoop.makePromise(of: T.self)
        future.cascade(to: answer)
        let timer = future.eventLoop.scheduleTask(in: limit) { answer.fail(TimedOut(limit: limit)) }
        defer { timer.cancel() }
        return try answer.futureResult.wait()
    }

    /// A statement or connection that got no answer in time.
    struct TimedOut: Error, CustomStringConvertible {
        let limit: TimeAmount
        var description: String { "no answer within \(limit.nanoseconds / 1_000_000_000) s" }
    }

    /// The server's own words, which `PSQLError`'s description keeps back (it may hold data).
    static func reason(_ error: Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        }
        return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
    }

    /// A statement's failure in the library's vocabulary: the server gone is `.unavailable`; a
    /// unique key taken is `.taken`; a serialization or deadlock failure is `.busy`.
    static func failure(_ error: Error, query: String) -> LibraryError {
        let state = (error as? PSQLError)?.serverInfo?[.sqlState]
        switch state {
        case "23505"?: return LibraryError(.taken, reason(error))
        case "40001"?, "40P01"?, "55P03"?: return LibraryError(.busy, reason(error), retryAfter: 1)
        case nil: return LibraryError(.unavailable, "the catalog's server did not answer: \(reason(error))", retryAfter: 5)
        default: return LibraryError(.database, "\(reason(error)) in \(query.prefix(120))")
        }
    }
}

extension PostgresCatalogConnection: CatalogStatements {
    public var dialect: CatalogDialect { .postgresql }

    public func indexTexts(_ texts: [IndexedText]) throws {
        let rows = try searchText.rows(texts.map { [$0.title, $0.people, $0.words] })
        let values = zip(texts, rows).map { text, row -> [CatalogValue] in
            [.integer(text.rowid), .integer(text.entryID), .text(row.document), .text(row.terms), .integer(Int64(row.length))]
        }
        try insert(into: "entry_text", columns: ["rowid", "entryid", "document", "terms", "tokens"], rows: values,
                   places: ["?", "?", "?::tsvector", "?", "?"])
    }

    public func execute(_ sql: String, _ arguments: [CatalogValue]) throws {
        try run(Self.query(sql, arguments))
    }

    public func rows(_ sql: String, _ arguments: [CatalogValue]) throws -> [CatalogRow] {
        let answer = try run(Self.query(sql, arguments))
        guard let first = answer.first else { return [] }
        let names = first.map { $0.columnName.lowercased() }
        return try answer.map { row in CatalogRow(names: names, values: try row.map(Self.value(of:))) }
    }

    public func insertRow(_ sql: String, _ arguments: [CatalogValue]) throws -> Int64 {
        guard let id = try rows(sql + " RETURNING id", arguments).first.flatMap({ Int64.from($0[index: 0]) }) else {
            throw LibraryError(.database, "the catalog gave no id for a new row: \(sql.prefix(60))")
        }
        return id
    }

    public func each(_ sql: String, _ arguments: [CatalogValue], _ body: (CatalogRow) throws -> Void) throws {
        for row in try rows(sql, arguments) { try body(row) }
    }

    /// The statement with each `?` (outside quotes) numbered as PostgreSQL numbers them, and its arguments bound.
    static func query(_ sql: String, _ arguments: [CatalogValue]) throws -> PostgresQuery {
        var text = ""
        text.reserveCapacity(sql.utf8.count + 8)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "?" {
                number += 1
                text += "$\(number)"
                continue
            }
            text.append(character)
        }
        guard number == arguments.count else {
            throw LibraryError(.internal, "a catalog statement has \(number) places for \(arguments.count) arguments: \(sql.prefix(120))")
        }
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: binds.appendNull()
            case .integer(let value): try binds.append(value)
            case .real(let value): try binds.append(value)
            case .text(let value): try binds.append(value)
            }
        }
        return PostgresQuery(unsafeSQL: text, binds: binds)
    }

    /// A cell of an answer as a catalog value, by its type.
    static func value(of cell: PostgresCell) throws -> CatalogValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .float4, .float8: return .real(try cell.decode(Double.self))
            case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .numeric:
                // sum() of integers: a whole number in Int64's range is an integer, as SQLite answers.
                let number = NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue
                if number.rounded() == number, abs(number) < 9.2e18 { return .integer(Int64(number)) }
                return .real(number)
            default: return .text(try cell.decode(String.self))
            }
        } catch {
            throw LibraryError(.database, "the catalog's \(cell.columnName) (\(cell.dataType)) cannot be read: \(error)")
        }
    }
}
