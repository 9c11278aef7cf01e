import Foundation

/// What is known of one client's guessing (wrong passwords and tokens): kept by a
/// ``GuessLedger``, judged by the server's login throttle. Times are seconds since 1970, so
/// that servers on several machines read one another's records.
public struct GuessRecord: Sendable, Equatable {
    /// Wrong guesses counted (since the last right one, within the throttle's window).
    public var failures: Int
    /// When the last was counted.
    public var last: Double
    /// Until when the client is refused everything, when it is banned.
    public var bannedUntil: Double?
    /// When the client last proved access (a right password, session or token).
    public var proven: Double?

    public init(failures: Int = 0, last: Double, bannedUntil: Double? = nil, proven: Double? = nil) {
        self.failures = failures
        self.last = last
        self.bannedUntil = bannedUntil
        self.proven = proven
    }
}

/// The guesses every client may still make before guessing pauses, and when that was counted.
public struct GuessAllowance: Sendable, Equatable {
    public var allowance: Double
    public var counted: Double

    public init(allowance: Double, counted: Double) {
        self.allowance = allowance
        self.counted = counted
    }
}

/// Where a server's login throttle keeps its counts: in its own memory (one server), or in the
/// catalog's PostgreSQL (``PostgresGuessLedger``), where every server counts into the same
/// records, so guessing is bounded across all of them together. A ledger only keeps; the rules
/// are the throttle's, applied inside ``update(_:_:)`` while the record is held.
///
/// ```swift
/// let ledger = MemoryGuessLedger(maxClients: 10_000)
/// let failures = try ledger.update("192.0.2.7") { record -> Int in
///     var next = record ?? GuessRecord(last: Date().timeIntervalSince1970)
///     next.failures += 1
///     record = next
///     return next.failures
/// }
/// ```
public protocol GuessLedger: Sendable {
    /// The client's record, nil when none is kept.
    func record(_ client: String) throws -> GuessRecord?
    /// Changes the client's record (nil: none, or forget it) as one step no other server interleaves with.
    func update<T>(_ client: String, _ change: (inout GuessRecord?) -> T) throws -> T
    /// The allowance every client shares, nil when none is kept yet.
    func allowance() throws -> GuessAllowance?
    /// Changes the allowance every client shares (`fresh` when none is kept yet), as one step.
    func updateAllowance<T>(fresh: GuessAllowance, _ change: (inout GuessAllowance) -> T) throws -> T
    /// Forgets records neither banned nor proven nor counted since `before` (a time as the records keep it).
    func forget(before: Double, now: Double) throws
}

/// A ledger in the server's memory, for one server: at most `maxClients` records (the stalest
/// go first, bans last), so a flood of addresses cannot grow it without end.
public final class MemoryGuessLedger: GuessLedger, @unchecked Sendable {
    private let lock = NSLock()
    private var records: [String: GuessRecord] = [:]
    private var allowanceKept: GuessAllowance?
    public let maxClients: Int

    public init(maxClients: Int) {
        self.maxClients = max(1, maxClients)
    }

    public func record(_ client: String) -> GuessRecord? {
        lock.withLock { records[client] }
    }

    public func update<T>(_ client: String, _ change: (inout GuessRecord?) -> T) -> T {
        lock.withLock {
            var record = records[client]
            let isNew = record == nil
            let result = change(&record)
            if isNew, record != nil, records.count >= maxClients { dropStalest() }
            records[client] = record
            return result
        }
    }

    public func allowance() -> GuessAllowance? {
        lock.withLock { allowanceKept }
    }

    public func updateAllowance<T>(fresh: GuessAllowance, _ change: (inout GuessAllowance) -> T) -> T {
        lock.withLock {
            var current = allowanceKept ?? fresh
            let result = change(&current)
            allowanceKept = current
            return result
        }
    }

    public func forget(before: Double, now: Double) {
        lock.withLock {
            records = records.filter { Self.isKept($0.value, before: before, now: now) }
        }
    }

    /// Whether a record still says something at `now`: a ban in force, or a count or proof since `before`.
    static func isKept(_ record: GuessRecord, before: Double, now: Double) -> Bool {
        (record.bannedUntil ?? 0) > now || record.last >= before || (record.proven ?? 0) >= before
    }

    /// Drops the tenth of the records touched longest ago (bans last).
    private func dropStalest() {
        let order = records.sorted {
            ($0.value.bannedUntil != nil ? 1 : 0, max($0.value.last, $0.value.proven ?? 0))
                < ($1.value.bannedUntil != nil ? 1 : 0, max($1.value.last, $1.value.proven ?? 0))
        }
        for (key, _) in order.prefix(max(1, records.count / 10)) { records[key] = nil }
    }
}
