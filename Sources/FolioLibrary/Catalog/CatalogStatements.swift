import Foundation
import GRDB

/// A value of a catalog statement's argument or answer: what both SQLite and PostgreSQL hold in
/// the catalog's columns (integers, doubles, text, NULL).
///
/// ```swift
/// let values = [CatalogValue("Anna Nováková"), CatalogValue(42), CatalogValue(nil)]   // .text, .integer, .null
/// ```
public enum CatalogValue: Sendable, Equatable, CatalogValueConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// A value from Swift's: `String`, `Int`, `Int64`, `Double`, `Bool` (0 or 1), or nil.
    public init(_ value: (any CatalogValueConvertible)?) {
        self = value?.catalogValue ?? .null
    }

    public var catalogValue: CatalogValue { self }
    public static func from(_ value: CatalogValue) -> CatalogValue? { value }

    /// A value of a known type, made without boxing it (a scan stores millions).
    static func of(_ value: String?) -> CatalogValue { value.map { .text($0) } ?? .null }
    static func of(_ value: Int?) -> CatalogValue { value.map { .integer(Int64($0)) } ?? .null }
}

/// A statement's arguments, as Swift values: `[name, id, nil]`.
public typealias CatalogArguments = [(any CatalogValueConvertible)?]

/// A Swift type a ``CatalogValue`` is made from and read back as.
public protocol CatalogValueConvertible: Sendable {
    var catalogValue: CatalogValue { get }
    /// The value read back; nil when the column holds something else (or NULL).
    static func from(_ value: CatalogValue) -> Self?
}

extension String: CatalogValueConvertible {
    public var catalogValue: CatalogValue { .text(self) }
    public static func from(_ value: CatalogValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Int64: CatalogValueConvertible {
    public var catalogValue: CatalogValue { .integer(self) }
    public static func from(_ value: CatalogValue) -> Int64? {
        switch value {
        case .integer(let number): number
        // Only a whole double in Int64's range (a REAL column holding an integral value).
        case .real(let number): number.rounded() == number && abs(number) < 9.2e18 ? Int64(number) : nil
        default: nil
        }
    }
}

extension Int: CatalogValueConvertible {
    public var catalogValue: CatalogValue { .integer(Int64(self)) }
    public static func from(_ value: CatalogValue) -> Int? { Int64.from(value).flatMap { Int(exactly: $0) } }
}

extension Double: CatalogValueConvertible {
    public var catalogValue: CatalogValue { .real(self) }
    public static func from(_ value: CatalogValue) -> Double? {
        switch value {
        case .real(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }
}

extension Bool: CatalogValueConvertible {
    public var catalogValue: CatalogValue { .integer(self ? 1 : 0) }
    public static func from(_ value: CatalogValue) -> Bool? { Int64.from(value).map { $0 != 0 } }
}

/// A row of a catalog statement's answer: its columns by name, without regard to case
/// (PostgreSQL folds unquoted names to lower case, SQLite keeps them as written), or by place.
///
/// ```swift
/// let name: String = try row.value("name")
/// let instrument: String? = row.optional("instrument")
/// ```
public struct CatalogRow: Sendable, Equatable {
    /// The columns' names in lower case, shared by every row of one answer.
    public let names: [String]
    /// The columns' values, in order.
    public let values: [CatalogValue]

    public init(_ columns: [(name: String, value: CatalogValue)]) {
        self.init(names: columns.map { $0.name.lowercased() }, values: columns.map(\.value))
    }

    /// A row of `values` under `names` (already in lower case).
    init(names: [String], values: [CatalogValue]) {
        self.names = names
        self.values = values
    }

    /// The column's value, `.null` when there is no such column.
    public subscript(column: String) -> CatalogValue {
        let key = column.lowercased()
        return names.firstIndex(of: key).map { values[$0] } ?? .null
    }

    /// The column at `index` (0 is the first).
    public subscript(index index: Int) -> CatalogValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The column's value as `T`, or `.database` when it is NULL or of another kind (a damaged catalog).
    public func value<T: CatalogValueConvertible>(_ column: String) throws -> T {
        guard let value = T.from(self[column]) else {
            throw LibraryError(.database, "the catalog's \(column) is \(self[column]), not \(T.self)")
        }
        return value
    }

    /// The column's value as `T`; nil for NULL (or a value of another kind).
    public func optional<T: CatalogValueConvertible>(_ column: String) -> T? {
        T.from(self[column])
    }

    /// The value at `index` as `T`, or `.database` when it is NULL or of another kind.
    public func value<T: CatalogValueConvertible>(at index: Int) throws -> T {
        guard let value = T.from(self[index: index]) else {
            throw LibraryError(.database, "the catalog's column \(index) is \(self[index: index]), not \(T.self)")
        }
        return value
    }

    /// The value at `index` as `T`; nil for NULL.
    public func optional<T: CatalogValueConvertible>(at index: Int) -> T? {
        T.from(self[index: index])
    }
}

/// The SQL a database reads where SQLite's and PostgreSQL's differ (search, mostly).
public enum CatalogDialect: Sendable {
    case sqlite, postgresql
}

/// The statements of one transaction on the catalog, in whichever database holds it: the
/// operations that go through it keep their rules in one place for both. SQL is written once,
/// with `?` for each argument, in what SQLite and PostgreSQL both read.
///
/// ```swift
/// let names = try statements.rows("SELECT name FROM member WHERE role = ?", ["librarian"])
///     .map { try $0.value("name") as String }
/// ```
public protocol CatalogStatements {
    /// Which database runs the statements.
    var dialect: CatalogDialect { get }
    /// Runs a statement for its effect.
    func execute(_ sql: String, _ arguments: [CatalogValue]) throws
    /// Runs a statement, returning its rows.
    func rows(_ sql: String, _ arguments: [CatalogValue]) throws -> [CatalogRow]
    /// Runs an `INSERT` into a table with an `id` column and returns the new row's id (SQLite's
    /// last inserted rowid, PostgreSQL's `RETURNING id`).
    func insertRow(_ sql: String, _ arguments: [CatalogValue]) throws -> Int64
    /// Runs a statement, handing `body` its rows one at a time (SQLite reads each only then).
    func each(_ sql: String, _ arguments: [CatalogValue], _ body: (CatalogRow) throws -> Void) throws
    /// Stores what entries are found by (``IndexedText``) in the database's text index: FTS5 in
    /// SQLite, `PostgresSearchText` in PostgreSQL.
    func indexTexts(_ texts: [IndexedText]) throws
}

/// What one catalog entry is found by: `SearchText`'s three columns, at the entry's place
/// (`rowid`) in the text index.
///
/// ```swift
/// try statements.indexTexts([IndexedText(rowid: 7, entryID: 7, title: "Largo", people: "Antonín Dvořák", words: "")])
/// ```
public struct IndexedText: Sendable, Equatable {
    public var rowid: Int64
    public var entryID: Int64
    public var title: String
    public var people: String
    public var words: String

    public init(rowid: Int64, entryID: Int64, title: String, people: String, words: String) {
        self.rowid = rowid
        self.entryID = entryID
        self.title = title
        self.people = people
        self.words = words
    }
}

extension CatalogStatements {
    /// Runs a statement for its effect.
    public func execute(_ sql: String, _ arguments: CatalogArguments = []) throws {
        try execute(sql, arguments.map(CatalogValue.init))
    }

    /// Runs a statement, returning its rows.
    public func rows(_ sql: String, _ arguments: CatalogArguments = []) throws -> [CatalogRow] {
        try rows(sql, arguments.map(CatalogValue.init))
    }

    /// Inserts `rows` (values in the order of `columns`) into `table`, many to a statement;
    /// `places` are the columns' placeholders when one needs more than `?` (`?::tsvector`).
    public func insert(into table: String, columns: [String], rows: [[CatalogValue]], places: [String]? = nil) throws {
        guard !columns.isEmpty else { return }
        let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let place = "(" + (places ?? Array(repeating: "?", count: columns.count)).joined(separator: ", ") + ")"
        // Under both databases' limits on a statement's values (SQLite's 32,766, PostgreSQL's 65,535).
        let perStatement = max(1, min(500, 30_000 / columns.count))
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + perStatement, rows.count)]
            try execute("INSERT INTO \(table) (\(names)) VALUES " + Array(repeating: place, count: chunk.count).joined(separator: ", "),
                        chunk.flatMap { $0 })
            start += chunk.count
        }
    }

    /// Runs an `INSERT` and returns the new row's id.
    public func insertRow(_ sql: String, _ arguments: CatalogArguments) throws -> Int64 {
        try insertRow(sql, arguments.map(CatalogValue.init))
    }

    /// Runs a statement, handing `body` its rows one at a time.
    public func each(_ sql: String, _ arguments: CatalogArguments = [], _ body: (CatalogRow) throws -> Void) throws {
        try each(sql, arguments.map(CatalogValue.init), body)
    }

    /// The first row, or nil.
    public func row(_ sql: String, _ arguments: CatalogArguments = []) throws -> CatalogRow? {
        try rows(sql, arguments.map(CatalogValue.init)).first
    }

    /// Runs `body` in a savepoint: what it did is undone when it throws (the transaction goes
    /// on), kept when it returns.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT folio_each")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT folio_each")
            return result
        } catch {
            try execute("ROLLBACK TO SAVEPOINT folio_each")
            try execute("RELEASE SAVEPOINT folio_each")
            throw error
        }
    }

    /// `text` ordered as SQLite's NOCASE orders it (ASCII letters without case, the rest by
    /// their bytes), in this dialect.
    public func noCase(_ expression: String) -> String {
        switch dialect {
        case .sqlite: "\(expression) COLLATE NOCASE"
        case .postgresql: "translate(\(expression), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE \"C\""
        }
    }

    /// `text` ordered by its bytes (SQLite's BINARY), in this dialect.
    public func binary(_ expression: String) -> String {
        dialect == .sqlite ? expression : "\(expression) COLLATE \"C\""
    }

    /// The first column of the first row as `T`, or nil (no row, or NULL).
    public func scalar<T: CatalogValueConvertible>(_ sql: String, _ arguments: CatalogArguments = []) throws -> T? {
        try rows(sql, arguments.map(CatalogValue.init)).first.flatMap { T.from($0[index: 0]) }
    }
}

/// The statements of a transaction on the SQLite catalog (GRDB).
struct SQLiteStatements: CatalogStatements {
    let db: Database
    var dialect: CatalogDialect { .sqlite }

    func indexTexts(_ texts: [IndexedText]) throws {
        for text in texts {
            try execute("INSERT INTO entry_text (rowid, title, people, words) VALUES (?, ?, ?, ?)",
                        [.integer(text.rowid), .text(text.title), .text(text.people), .text(text.words)] as [CatalogValue])
        }
    }

    func execute(_ sql: String, _ arguments: [CatalogValue]) throws {
        try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
    }

    func insertRow(_ sql: String, _ arguments: [CatalogValue]) throws -> Int64 {
        try execute(sql, arguments)
        return db.lastInsertedRowID
    }

    func rows(_ sql: String, _ arguments: [CatalogValue]) throws -> [CatalogRow] {
        try rows(of: db.cachedStatement(sql: sql), arguments)
    }

    /// ``rows(_:_:)`` of a statement made for this once and not kept: a search's, whose text
    /// varies with what it is asked (kept, every combination of filters would stay in memory).
    func uncachedRows(_ sql: String, _ arguments: [CatalogValue]) throws -> [CatalogRow] {
        try rows(of: db.makeStatement(sql: sql), arguments)
    }

    private func rows(of statement: Statement, _ arguments: [CatalogValue]) throws -> [CatalogRow] {
        var rows: [CatalogRow] = []
        try each(statement, arguments) { rows.append($0) }
        return rows
    }

    func each(_ sql: String, _ arguments: [CatalogValue], _ body: (CatalogRow) throws -> Void) throws {
        try each(db.makeStatement(sql: sql), arguments, body)
    }

    private func each(_ statement: Statement, _ arguments: [CatalogValue], _ body: (CatalogRow) throws -> Void) throws {
        let names = statement.columnNames.map { $0.lowercased() }
        let cursor = try Row.fetchCursor(statement, arguments: Self.arguments(arguments))
        while let row = try cursor.next() {
            try body(CatalogRow(names: names, values: (0..<row.count).map { index in
                let stored: DatabaseValue = row[index]
                return switch stored.storage {
                case .null: .null
                case .int64(let number): .integer(number)
                case .double(let number): .real(number)
                case .string(let text): .text(text)
                case .blob(let data): .text(String(decoding: data, as: UTF8.self))
                }
            }))
        }
    }

    /// The values as GRDB binds them (as `DatabaseValue`s: no value boxed on the way).
    static func arguments(_ values: [CatalogValue]) -> StatementArguments {
        StatementArguments(values.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let number): number.databaseValue
            case .real(let number): number.databaseValue
            case .text(let text): text.databaseValue
            }
        })
    }
}
