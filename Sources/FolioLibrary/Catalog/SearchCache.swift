import Foundation

/// The answers to the searches that were slow to compute, kept until the catalog changes.
///
/// A short query typed into a search field ("a", "sco") matches most of a large library,
/// and ranking every match (FTS5's bm25) then costs tens of milliseconds, while a query
/// that matches a few scores costs well under one. Search as you type sends the short ones
/// most often, from every user, so their answers are kept: at most `capacity` of them, each
/// for at most `lifetime` seconds, and each only for the catalog's version it was computed
/// at. The version is the catalog's count of writes, kept in the database itself
/// (`catalog_state.changes`, counted by every write transaction), so a change another
/// process made (`folio library scan` beside a running server) shows in the next search too.
///
/// ```swift
/// let cache = SearchCache(capacity: 64, lifetime: .seconds(30))
/// cache.store(entries, for: key, version: 7)
/// let hit = cache.entries(for: key, version: 7)   // nil at any other version
/// ```
final class SearchCache: @unchecked Sendable {  // every mutable property is guarded by `lock`

    private struct Kept {
        let entries: [LibraryEntry]
        let version: Int64
        let stored: ContinuousClock.Instant
        var used: ContinuousClock.Instant
    }

    private let lock = NSLock()
    private var kept: [String: Kept] = [:]
    /// The catalog version last seen: answers of any other are dropped.
    private var current: Int64 = .min
    /// Searches faster than this are not kept: computing them again costs less than keeping them.
    private var threshold: Duration = .milliseconds(3)
    let capacity: Int
    let lifetime: Duration

    init(capacity: Int = 64, lifetime: Duration = .seconds(30)) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Whether a search that took `time` is worth keeping.
    func worthKeeping(_ time: Duration) -> Bool {
        lock.withLock { time >= threshold }
    }

    /// Keeps every answer, however fast: for tests, whose libraries are too small to be slow.
    func keepEverything() {
        lock.withLock { threshold = .zero }
    }

    /// The kept answer for `key` at catalog version `version` (read in the same transaction
    /// as the search would be), when there is one and it is not too old.
    func entries(for key: String, version: Int64) -> [LibraryEntry]? {
        let now = ContinuousClock.now
        return lock.withLock {
            seen(version)
            guard var hit = kept[key] else { return nil }
            guard hit.version == version, hit.stored.duration(to: now) < lifetime else {
                kept[key] = nil
                return nil
            }
            hit.used = now
            kept[key] = hit
            return hit.entries
        }
    }

    /// Keeps `entries`, computed at catalog version `version`, for `key`; the least recently
    /// used answer makes room.
    func store(_ entries: [LibraryEntry], for key: String, version: Int64) {
        let now = ContinuousClock.now
        lock.withLock {
            seen(version)
            if kept[key] == nil, kept.count >= capacity, let oldest = kept.min(by: { $0.value.used < $1.value.used })?.key {
                kept[oldest] = nil
            }
            kept[key] = Kept(entries: entries, version: version, stored: now, used: now)
        }
    }

    /// Drops every answer when the catalog has changed (called with `lock` held). Any other
    /// version counts, a lower one too: a catalog restored from a backup counts from its own.
    private func seen(_ version: Int64) {
        guard version != current else { return }
        current = version
        kept.removeAll(keepingCapacity: true)
    }
}
