import Foundation

/// The answers to the searches that were slow to compute, kept until the catalog changes.
///
/// A short query typed into a search field ("a", "sco") matches most of a large library,
/// and ranking every match (FTS5's bm25) then costs tens of milliseconds, while a query
/// that matches a few scores costs well under one. Search as you type sends the short ones
/// most often, from every user, so their answers are kept: at most `capacity` of them, each
/// for at most `lifetime` seconds, and all dropped by any write to the catalog through this
/// process (``generation``). The lifetime bounds how long a change another process made
/// (`folio library scan` beside a running server) can go unseen.
///
/// ```swift
/// let cache = SearchCache(capacity: 64, lifetime: 30)
/// cache.store(entries, for: key, generation: cache.generation)
/// let hit = cache.entries(for: key)
/// ```
final class SearchCache: @unchecked Sendable {  // every mutable property is guarded by `lock`

    private struct Kept {
        let entries: [LibraryEntry]
        let generation: UInt64
        let stored: ContinuousClock.Instant
        var used: ContinuousClock.Instant
    }

    private let lock = NSLock()
    private var kept: [String: Kept] = [:]
    private var changes: UInt64 = 0
    /// Searches faster than this are not kept: computing them again costs less than keeping them.
    private var threshold: Duration = .milliseconds(3)
    let capacity: Int
    let lifetime: Duration

    init(capacity: Int = 64, lifetime: Duration = .seconds(30)) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Counts the catalog's writes; an answer computed before the latest one is stale.
    var generation: UInt64 {
        lock.withLock { changes }
    }

    /// Whether a search that took `time` is worth keeping.
    func worthKeeping(_ time: Duration) -> Bool {
        lock.withLock { time >= threshold }
    }

    /// Keeps every answer, however fast: for tests, whose libraries are too small to be slow.
    func keepEverything() {
        lock.withLock { threshold = .zero }
    }

    /// Called before and after every write transaction.
    func invalidate() {
        lock.withLock {
            changes &+= 1
            kept.removeAll(keepingCapacity: true)
        }
    }

    /// The kept answer for `key`, when it is still current.
    func entries(for key: String) -> [LibraryEntry]? {
        let now = ContinuousClock.now
        return lock.withLock {
            guard var hit = kept[key] else { return nil }
            guard hit.generation == changes, hit.stored.duration(to: now) < lifetime else {
                kept[key] = nil
                return nil
            }
            hit.used = now
            kept[key] = hit
            return hit.entries
        }
    }

    /// Keeps `entries` for `key` unless the catalog changed since `generation` (when the
    /// search began); the least recently used answer makes room.
    func store(_ entries: [LibraryEntry], for key: String, generation: UInt64) {
        let now = ContinuousClock.now
        lock.withLock {
            guard generation == changes else { return }
            if kept[key] == nil, kept.count >= capacity, let oldest = kept.min(by: { $0.value.used < $1.value.used })?.key {
                kept[oldest] = nil
            }
            kept[key] = Kept(entries: entries, generation: generation, stored: now, used: now)
        }
    }
}
