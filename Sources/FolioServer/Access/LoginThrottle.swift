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

    private struct Record {
        var failures = 0
        var last: ContinuousClock.Instant
        var bannedUntil: ContinuousClock.Instant?
    }

    public let policy: Policy
    private var records: [String: Record] = [:]
    /// When each address last proved access (at most ``Policy/maxClients``).
    private var proven: [String: ContinuousClock.Instant] = [:]
    /// Failures that may still come before guessing pauses, and when that was counted.
    private var allowance: Double
    private var counted: ContinuousClock.Instant
    private let lock = NSLock()
    private let clock = ContinuousClock()

    public init(policy: Policy) {
        self.policy = policy
        allowance = Double(policy.globalBurst)
        counted = clock.now
    }

    /// Whole seconds until guessing resumes when it is paused for `client` (the failures of
    /// every address have spent the allowance and `client` has not proven access lately);
    /// nil when its credentials may be checked.
    public func guessingPaused(_ client: String) -> Int? {
        lock.withLock {
            refill()
            guard allowance < 1 else { return nil }
            if let last = proven[client], clock.now - last < policy.provenFor { return nil }
            return max(1, Int(((1 - allowance) * 60 / Double(max(policy.globalPerMinute, 1))).rounded(.up)))
        }
    }

    /// Whether `client` proved access within ``Policy/provenFor`` (a member's lockout does not
    /// hold against it: another address's guesses cannot lock a member out of their devices).
    public func isProven(_ client: String) -> Bool {
        lock.withLock { proven[client].map { clock.now - $0 < policy.provenFor } ?? false }
    }

    /// Whole seconds left of the client's ban, nil when it is not banned.
    public func banned(_ client: String) -> Int? {
        lock.withLock {
            guard let until = records[client]?.bannedUntil else { return nil }
            let left = until - clock.now
            guard left > .zero else {
                records[client] = nil   // the ban is over: a fresh start
                return nil
            }
            return max(1, Int(left.components.seconds) + (left.components.attoseconds > 0 ? 1 : 0))
        }
    }

    /// Counts a wrong password or token from `client`.
    public func failed(_ client: String) -> Verdict {
        lock.withLock {
            let now = clock.now
            var record = records[client] ?? Record(last: now)
            if now - record.last > policy.window { record.failures = 0 }
            record.failures += 1
            record.last = now
            var verdict = Verdict(failures: record.failures, delay: .zero)
            if record.failures > policy.freeFailures {
                let doublings = min(record.failures - policy.freeFailures - 1, 16)
                verdict.delay = min(policy.firstDelay * (1 << doublings), policy.maxDelay)
            }
            if record.failures >= policy.banAfter, record.bannedUntil == nil {
                record.bannedUntil = now + policy.banDuration
                verdict.bannedFor = Int(policy.banDuration.components.seconds)
            }
            if records[client] == nil, records.count >= policy.maxClients { dropStalest() }
            records[client] = record
            refill()
            allowance = max(allowance - 1, 0)
            return verdict
        }
    }

    /// Forgets the client's failures after it proved access.
    public func succeeded(_ client: String) {
        lock.withLock {
            if records[client]?.bannedUntil == nil { records[client] = nil }
            if proven[client] == nil, proven.count >= policy.maxClients,
               let stalest = proven.min(by: { $0.value < $1.value })?.key { proven[stalest] = nil }
            proven[client] = clock.now
        }
    }

    /// Gives back the allowances earned since they were last counted.
    private func refill() {
        let now = clock.now
        let elapsed = now - counted
        counted = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        allowance = min(Double(policy.globalBurst), allowance + seconds * Double(policy.globalPerMinute) / 60)
    }

    /// Drops the tenth of the records that were touched longest ago (bans last).
    private func dropStalest() {
        let order = records.sorted { ($0.value.bannedUntil != nil ? 1 : 0, $0.value.last) < ($1.value.bannedUntil != nil ? 1 : 0, $1.value.last) }
        for (key, _) in order.prefix(max(1, records.count / 10)) { records[key] = nil }
    }
}
