import Foundation

/// Counts wrong passwords and tokens per client address and slows, then bans, a client that
/// keeps guessing: the first ``Policy/freeFailures`` are answered at once, each further one
/// after a delay that doubles (up to ``Policy/maxDelay``), and after ``Policy/banAfter`` the
/// client is refused everything for ``Policy/banDuration``. A success forgets the client's
/// failures; failures older than ``Policy/window`` are forgotten too. At most
/// ``Policy/maxClients`` addresses are remembered (the stalest are dropped first), so a
/// flood of addresses cannot grow it without end.
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
    private let lock = NSLock()
    private let clock = ContinuousClock()

    public init(policy: Policy) {
        self.policy = policy
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
            return verdict
        }
    }

    /// Forgets the client's failures after it proved access.
    public func succeeded(_ client: String) {
        lock.withLock {
            if records[client]?.bannedUntil == nil { records[client] = nil }
        }
    }

    /// Drops the tenth of the records that were touched longest ago (bans last).
    private func dropStalest() {
        let order = records.sorted { ($0.value.bannedUntil != nil ? 1 : 0, $0.value.last) < ($1.value.bannedUntil != nil ? 1 : 0, $1.value.last) }
        for (key, _) in order.prefix(max(1, records.count / 10)) { records[key] = nil }
    }
}
