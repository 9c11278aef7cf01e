/// A token bucket: how many messages a rehearsal member may send — `burst` at once, then
/// `perSecond` — so a misbehaving page cannot flood the others.
///
/// ```swift
/// var rate = MessageRate(perSecond: 20, burst: 40)
/// rate.take(at: .now)   // true while tokens remain
/// ```
public struct MessageRate: Sendable {
    public let perSecond: Double
    public let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant?

    public init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
        tokens = burst
    }

    /// Takes one token at `now`; false when none is left.
    public mutating func take(at now: ContinuousClock.Instant) -> Bool {
        if let last {
            let elapsed = last.duration(to: now)
            tokens = min(burst, tokens + max(0, elapsed / .seconds(1)) * perSecond)
        }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
