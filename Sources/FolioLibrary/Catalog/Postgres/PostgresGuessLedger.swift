import Foundation
import PostgresNIO

/// The login throttle's counts in the catalog's PostgreSQL (`guess_client`, `guess_allowance`):
/// every server behind one address counts into the same records, so a client that guesses on
/// one is slowed and banned on all, and the guesses of all addresses on all servers share one
/// allowance. A record is changed under an advisory lock keyed by its client, in one transaction.
/// Several ledgers share the tables, each its own clients and allowance (`ledger`: a server's
/// throttle of addresses is 1, of accounts 2).
///
/// ```swift
/// let ledger = PostgresGuessLedger(database: try PostgresCatalog(address: address))
/// let record = try ledger.record("192.0.2.7")
/// ```
public final class PostgresGuessLedger: GuessLedger {
    public let database: PostgresCatalog
    /// Which ledger of the tables this is: its allowance's row, and its clients' prefix.
    public let ledger: Int
    /// The first key of every client's lock ("folio" and 2); the second is the client's hash.
    static let lockSpace: Int32 = 0x666F_6C02

    public init(database: PostgresCatalog, ledger: Int = 1) {
        self.database = database
        self.ledger = ledger
    }

    /// The client's key in the shared table.
    private func key(_ client: String) -> String {
        ledger == 1 ? client : "\(ledger)/\(client)"
    }

    public func record(_ client: String) throws -> GuessRecord? {
        let client = key(client)
        return try database.withConnection { try Self.record(client, on: $0) }
    }

    public func update<T>(_ client: String, _ change: (inout GuessRecord?) -> T) throws -> T {
        let client = key(client)
        return try database.transaction { connection in
            try connection.run("SELECT pg_advisory_xact_lock(\(Self.lockSpace), hashtext(\(client)))")
            var record = try Self.record(client, on: connection)
            let result = change(&record)
            if let record {
                try connection.run("""
                    INSERT INTO guess_client (client, failures, last, bannedUntil, proven)
                    VALUES (\(client), \(record.failures), \(record.last), \(record.bannedUntil), \(record.proven))
                    ON CONFLICT (client) DO UPDATE SET failures = excluded.failures, last = excluded.last,
                        bannedUntil = excluded.bannedUntil, proven = excluded.proven
                    """)
            } else {
                try connection.run("DELETE FROM guess_client WHERE client = \(client)")
            }
            return result
        }
    }

    public func allowance() throws -> GuessAllowance? {
        try database.withConnection { connection in
            guard let row = try connection.run("SELECT allowance, counted FROM guess_allowance WHERE id = \(ledger)").first else { return nil }
            let (allowance, counted) = try row.decode((Double, Double).self)
            return GuessAllowance(allowance: allowance, counted: counted)
        }
    }

    public func updateAllowance<T>(fresh: GuessAllowance, _ change: (inout GuessAllowance) -> T) throws -> T {
        try database.transaction { connection in
            try connection.run("""
                INSERT INTO guess_allowance (id, allowance, counted) VALUES (\(ledger), \(fresh.allowance), \(fresh.counted))
                ON CONFLICT (id) DO NOTHING
                """)
            guard let row = try connection.run("SELECT allowance, counted FROM guess_allowance WHERE id = \(ledger) FOR UPDATE").first else {
                throw LibraryError(.database, "the catalog keeps no guess allowance")
            }
            let (allowance, counted) = try row.decode((Double, Double).self)
            var current = GuessAllowance(allowance: allowance, counted: counted)
            let result = change(&current)
            try connection.run("UPDATE guess_allowance SET allowance = \(current.allowance), counted = \(current.counted) WHERE id = \(ledger)")
            return result
        }
    }

    public func forget(before: Double, now: Double) throws {
        try database.withConnection { connection in
            try connection.run("""
                DELETE FROM guess_client WHERE coalesce(bannedUntil, 0) <= \(now) AND last < \(before) AND coalesce(proven, 0) < \(before)
                """)
        }
    }

    private static func record(_ client: String, on connection: PostgresCatalogConnection) throws -> GuessRecord? {
        guard let row = try connection.run("SELECT failures, last, bannedUntil, proven FROM guess_client WHERE client = \(client)").first else {
            return nil
        }
        do {
            let (failures, last, bannedUntil, proven) = try row.decode((Int, Double, Double?, Double?).self)
            return GuessRecord(failures: failures, last: last, bannedUntil: bannedUntil, proven: proven)
        } catch {
            throw LibraryError(.database, "the catalog's guess record of \(client) cannot be read: \(PostgresCatalogConnection.reason(error))")
        }
    }
}
