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
/// (PostgreSQL folds unquoted names to lower case, SQLite keeps them as written).
///
/// ```swift
/// let name: String = try row.value("name")
/// let instrument: String? = row.optional("instrument")
/// ```
public struct CatalogRow: Sendable, Equatable {
    /// The columns in order, names in lower case.
    public let columns: [(name: String, value: CatalogValue)]

    public init(_ columns: [(name: String, value: CatalogValue)]) {
        self.columns = columns.map { ($0.name.lowercased(), $0.value) }
    }

    public static func == (lhs: CatalogRow, rhs: CatalogRow) -> Bool {
        lhs.columns.elementsEqual(rhs.columns) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The column's value, `.null` when there is no such column.
    public subscript(column: String) -> CatalogValue {
        let key = column.lowercased()
        return columns.first { $0.name == key }?.value ?? .null
    }

    /// The column at `index` (0 is the first).
    public subscript(index index: Int) -> CatalogValue {
        columns.indices.contains(index) ? columns[index].value : .null
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
    /// Runs a statement for its effect.
    func execute(_ sql: String, _ arguments: [CatalogValue]) throws
    /// Runs a statement, returning its rows.
    func rows(_ sql: String, _ arguments: [CatalogValue]) throws -> [CatalogRow]
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

    /// The first row, or nil.
    public func row(_ sql: String, _ arguments: CatalogArguments = []) throws -> CatalogRow? {
        try rows(sql, arguments.map(CatalogValue.init)).first
    }

    /// The first column of the first row as `T`, or nil (no row, or NULL).
    public func scalar<T: CatalogValueConvertible>(_ sql: String, _ arguments: CatalogArguments = []) throws -> T? {
        try rows(sql, arguments.map(CatalogValue.init)).first.flatMap { T.from($0[index: 0]) }
    }
}

/// The statements of a transaction on the SQLite catalog (GRDB).
struct SQLiteStatements: CatalogStatements {
    let db: Database

    func execute(_ sql: String, _ arguments: [CatalogValue]) throws {
        try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
    }

    func rows(_ sql: String, _ arguments: [CatalogValue]) throws -> [CatalogRow] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: Self.arguments(arguments)).map { row in
            CatalogRow(row.columnNames.enumerated().map { index, name in
                let stored: DatabaseValue = row[index]
                let value: CatalogValue = switch stored.storage {
                case .null: .null
                case .int64(let number): .integer(number)
                case .double(let number): .real(number)
                case .string(let text): .text(text)
                case .blob(let data): .text(String(decoding: data, as: UTF8.self))
                }
                return (name, value)
            })
        }
    }

    static func arguments(_ values: [CatalogValue]) -> StatementArguments {
        StatementArguments(values.map { value -> (any DatabaseValueConvertible)? in
            switch value {
            case .null: nil
            case .integer(let number): number
            case .real(let number): number
            case .text(let text): text
            }
        })
    }
}
