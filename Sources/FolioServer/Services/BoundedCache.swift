import Synchronization

/// Values kept by key, bounded by how many and by their cost in all (marks, bytes): when
/// either bound is passed, the value asked for least lately goes first. Safe to share between
/// requests. A value costing more than the bound alone is not kept.
///
/// ```swift
/// let bodies = BoundedCache<String, [UInt8]>(count: 256, cost: 8 << 20)
/// bodies.insert(Array("{}".utf8), for: "7|1|\"5120-1700000000\"", cost: 2)
/// bodies.value(for: "7|1|\"5120-1700000000\"")   // [123, 125]
/// ```
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Kept {
        var value: Value
        var cost: Int
        var used: UInt64
    }

    private struct State {
        var kept: [Key: Kept] = [:]
        var clock: UInt64 = 0
        var cost = 0
    }

    private let state = Mutex(State())
    /// The most values kept, and the most cost kept in all.
    let countLimit: Int
    let costLimit: Int

    init(count: Int, cost: Int) {
        countLimit = max(1, count)
        costLimit = max(1, cost)
    }

    /// How many values are kept now.
    var count: Int { state.withLock { $0.kept.count } }

    /// The value kept under `key`, now the one asked for most lately; nil when none is.
    func value(for key: Key) -> Value? {
        state.withLock { state in
            guard var kept = state.kept[key] else { return nil }
            state.clock &+= 1
            kept.used = state.clock
            state.kept[key] = kept
            return kept.value
        }
    }

    /// Keeps `value` under `key` at `cost` (0 or more), first letting go of the values
    /// `replaces` says it takes the place of; then the least lately asked for, until both
    /// bounds hold.
    func insert(_ value: Value, for key: Key, cost: Int, replacing replaces: (Key) -> Bool = { _ in false }) {
        let cost = max(0, cost)
        guard cost <= costLimit else { return }
        state.withLock { state in
            for (other, kept) in state.kept where other == key || replaces(other) {
                state.kept[other] = nil
                state.cost -= kept.cost
            }
            state.clock &+= 1
            state.kept[key] = Kept(value: value, cost: cost, used: state.clock)
            state.cost += cost
            while state.kept.count > countLimit || state.cost > costLimit,
                  let oldest = state.kept.min(by: { $0.value.used < $1.value.used }) {
                state.kept[oldest.key] = nil
                state.cost -= oldest.value.cost
            }
        }
    }
}
