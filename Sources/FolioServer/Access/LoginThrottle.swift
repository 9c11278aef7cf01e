import FolioLibrary
import Foundation

/// Counts wrong passwords and tokens per client address and slows, then bans, a client that
/// keeps guessing: the first ``Policy/freeFailures`` are answered at once, each further one
/// after a delay that doubles (up to ``Policy/maxDelay``), and after ``Policy/banAfter`` the
/// client is refused everything for ``Policy/banDuration``. A success forgets the client's
/// failures; failures older than ``Policy/window`` are forgotten too. At most
/// ``Policy/maxClients`` addresses are remembered (the stalest are dropped first), so a
/// flood of addresses cannot grow it without end.
///
/// Guessing is also bounded in all: every failure, from any address, takes one of
/// ``Policy/globalBurst`` allowances, which come back at ``Policy/globalPerMinute``. While
/// none is left, credentials from an address that has not proven access within
/// ``Policy/provenFor`` are refused unread (``guessingPaused(_:)``), so rotating addresses
/// gains an attacker nothing, while the musician's own devices keep working.
///
/// ```swift
/// let throttle = LoginThrottle(policy: .init())
/// let verdict = throttle.failed("192.0.2.7")   // verdict.delay == .zero for the first few
/// throttle.banned("192.0.2.7")                  // nil: not banned (yet)
/// ```
///
/// Its counts are kept in a `GuessLedger`: the server's memory, or a ledger all
/// the servers of one catalog share (`PostgresGuessLedger`), so that guessing on
/// one counts on all. A server asks a shared ledger at most once a second per client whether
/// it is banned, and notes a client's proof there at most once a minute (or after a failure it
/// counted); while the shared ledger cannot be reached, it counts in its own memory.
public final class LoginThrottle: @unchecked Sendable {
    /// How guessing is slowed.
    ///
    /// ```swift
    /// var policy = LoginThrottle.Policy()
    /// policy.banAfter = 10
    /// let throttle = LoginThrottle(policy: policy)
    /// ```
    public struct Policy: Sendable {
        public var freeFailures = 5
        public var firstDelay: Duration = .milliseconds(250)
        public var maxDelay: Duration = .seconds(4)
        public var banAfter = 20
        public var banDuration: Duration = .seconds(15 * 60)
        public var window: Duration = .seconds(15 * 60)
        public var maxClients = 10_000
        /// Failures in all, from every address, before guessing pauses (a band's wrong first
        /// tries fit; a guessing script does not).
        public var globalBurst = 60
        /// Failures in all each minute once the burst is spent: 30, so at most 43,200 guesses
        /// a day however many addresses send them.
        public var globalPerMinute = 30
        /// How long an address that proved access is let in while guessing pauses.
        public var provenFor: Duration = .seconds(24 * 3600)
        public init() {}
    }

    /// What a failure costs the client.
    ///
    /// ```swift
    /// let verdict = throttle.failed("192.0.2.7")
    /// if verdict.delay > .zero { try await Task.sleep(for: verdict.delay) }
    /// ```
    public struct Verdict: Sendable, Equatable {
        /// Failures counted for the client, this one included.
        public var failures: Int
        /// How long to wait before answering.
        public var delay: Duration
        /// Seconds of the ban this failure started, when it started one.
        public var bannedFor: Int?
    }

    public let policy: Policy
    /// The shared ledger, when the servers of one catalog count together.
    private let shared: (any GuessLedger)?
    /// This server's own: the only one without a shared ledger, the fallback while it is away.
    private let local: MemoryGuessLedger
    private let lock = NSLock()
    /// What the shared ledger last said of a client's ban, and when it was asked.
    private var bans: [String: (until: Double?, asked: Double)] = [:]
    /// When this server last noted each client's proof in the shared ledger.
    private var noted: [String: Double] = [:]
    /// The shared allowance as last read, and when.
    private var allowanceSeen: (allowance: GuessAllowance, asked: Double)?
    /// Failures counted since the last pruning of the shared ledger.
    private var sincePruning = 0

    /// How long a shared answer is used before it is asked again, and a proof noted.
    static let sharedFreshness = 1.0
    static let proofNotedFor = 60.0

    /// A throttle counting in this server's memory, or in `shared` with the other servers.
    public init(policy: Policy, shared: (any GuessLedger)? = nil) {
        self.policy = policy
        self.shared = shared
        local = MemoryGuessLedger(maxClients: policy.maxClients)
    }

    private var now: Double { Date().timeIntervalSince1970 }

    /// `body` on the shared ledger, or on this server's own when there is none or it fails.
    /// (A shared ledger's nil answer — no record — stands: only a failure falls back.)
    private func counting<T>(_ body: (any GuessLedger) throws -> T) -> T? {
        if let shared {
            do { return try body(shared) } catch { /* away: counted here meanwhile */ }
        }
        return try? body(local)
    }

    /// Whole seconds until guessing resumes when it is paused for `client` (the failures of
    /// every address have spent the allowance and `client` has not proven access lately);
    /// nil when its credentials may be checked.
    public func guessingPaused(_ client: String) -> Int? {
        let now = self.now
        let allowance = currentAllowance(now)
        guard allowance < 1 else { return nil }
        if isProven(client) { return nil }
        return max(1, Int(((1 - allowance) * 60 / Double(max(policy.globalPerMinute, 1))).rounded(.up)))
    }

    /// Whether `client` proved access within ``Policy/provenFor`` (a member's lockout does not
    /// hold against it: another address's guesses cannot lock a member out of their devices).
    public func isProven(_ client: String) -> Bool {
        let now = self.now
        let record = counting { try $0.record(client) } ?? nil
        return record?.proven.map { now - $0 < policy.provenFor / .seconds(1) } ?? false
    }

    /// Whole seconds left of the client's ban, nil when it is not banned.
    public func banned(_ client: String) -> Int? {
        let now = self.now
        var until: Double?
        if shared != nil {
            if let known = lock.withLock({ bans[client] }), now - known.asked < Self.sharedFreshness {
                until = known.until
            } else {
                until = (counting { try $0.record(client) } ?? nil)?.bannedUntil
                lock.withLock {
                    if bans.count >= policy.maxClients { bans.removeAll() }
                    bans[client] = (until, now)
                }
            }
        } else {
            until = local.record(client)?.bannedUntil
        }
        guard let until, until > now else { return nil }
        return max(1, Int((until - now).rounded(.up)))
    }

    /// Counts a wrong password or token from `client`.
    public func failed(_ client: String) -> Verdict {
        let now = self.now, window = self.policy.window / .seconds(1), policy = self.policy
        let verdict = counting { ledger in
            try ledger.update(client) { stored -> Verdict in
                var record = stored ?? GuessRecord(last: now)
                // A ban that is over, or failures older than the window, start afresh.
                if let until = record.bannedUntil, until <= now { record.bannedUntil = nil; record.failures = 0 }
                if now - record.last > window { record.failures = 0 }
                record.failures += 1
                record.last = now
                var verdict = Verdict(failures: record.failures, delay: .zero)
                if record.failures > policy.freeFailures {
                    let doublings = min(record.failures - policy.freeFailures - 1, 16)
                    verdict.delay = min(policy.firstDelay * (1 << doublings), policy.maxDelay)
                }
                if record.failures >= policy.banAfter, record.bannedUntil == nil {
                    record.bannedUntil = now + policy.banDuration / .seconds(1)
                    verdict.bannedFor = Int(policy.banDuration.components.seconds)
                }
                stored = record
                return verdict
            }
        } ?? Verdict(failures: 1, delay: policy.maxDelay)
        _ = counting { ledger in
            try ledger.updateAllowance(fresh: GuessAllowance(allowance: Double(policy.globalBurst), counted: now)) { allowance in
                allowance = Self.refilled(allowance, now: now, policy: policy)
                allowance.allowance = max(allowance.allowance - 1, 0)
            }
        }
        let prune = lock.withLock { () -> Bool in
            bans[client] = nil
            noted[client] = nil
            allowanceSeen = nil
            sincePruning += 1
            if sincePruning >= 256 { sincePruning = 0; return true }
            return false
        }
        if prune {
            let before = now - max(window, policy.provenFor / .seconds(1))
            _ = counting { try $0.forget(before: before, now: now) }
        }
        return verdict
    }

    /// Forgets the client's failures after it proved access.
    public func succeeded(_ client: String) {
        let now = self.now
        if shared != nil {
            let due = lock.withLock { () -> Bool in
                if let last = noted[client], now - last < Self.proofNotedFor { return false }
                if noted.count >= policy.maxClients { noted.removeAll() }
                noted[client] = now
                return true
            }
            guard due else { return }
        }
        _ = counting { ledger in
            try ledger.update(client) { stored in
                var record = stored ?? GuessRecord(last: now)
                if record.bannedUntil == nil { record.failures = 0 }
                record.proven = now
                stored = record
            }
        }
    }

    /// The allowance every address shares, as it stands at `now` (read at most once a second from a shared ledger).
    private func currentAllowance(_ now: Double) -> Double {
        let fresh = GuessAllowance(allowance: Double(policy.globalBurst), counted: now)
        if shared != nil, let seen = lock.withLock({ allowanceSeen }), now - seen.asked < Self.sharedFreshness {
            return Self.refilled(seen.allowance, now: now, policy: policy).allowance
        }
        let stored = (counting { try $0.allowance() } ?? nil) ?? fresh
        lock.withLock { allowanceSeen = (stored, now) }
        return Self.refilled(stored, now: now, policy: policy).allowance
    }

    /// The allowance with what was earned since it was counted given back.
    private static func refilled(_ allowance: GuessAllowance, now: Double, policy: Policy) -> GuessAllowance {
        let elapsed = max(0, now - allowance.counted)
        return GuessAllowance(allowance: min(Double(policy.globalBurst), allowance.allowance + elapsed * Double(policy.globalPerMinute) / 60),
                              counted: now)
    }
}
