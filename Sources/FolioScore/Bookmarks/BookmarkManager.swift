/// Where bookmarks are kept. A provider takes the adds and removes it is responsible for
/// and returns false for the others, which then go to the next provider.
///
/// ```swift
/// var manager = BookmarkManager(providers: [XMPBookmarkProvider(document: document)])
/// _ = manager.add(Bookmark(name: "Largo", action: .page(index: 4), pages: 5...7))
/// ```
public protocol BookmarkProvider: Sendable {
    /// The bookmarks the provider holds, in no particular order.
    var bookmarks: [Bookmark] { get }
    /// Takes `bookmark` (replacing one with the same identifier) and returns true, or
    /// returns false to leave it to the next provider.
    mutating func add(_ bookmark: Bookmark) -> Bool
    /// Removes the bookmark with `id` if this provider holds it, returning whether it did.
    mutating func remove(id: String) -> Bool
}

/// All bookmarks of a document across a chain of providers (Nutrient's BookmarkManager).
///
/// ```swift
/// var manager = BookmarkManager(providers: [XMPBookmarkProvider(document: doc)])
/// manager.add(Bookmark(name: "Coda", action: .page(index: 11)))
/// manager.bookmarks(in: .pageBased).map(\.name)
/// ```
public struct BookmarkManager: Sendable {
    public var providers: [any BookmarkProvider]

    public init(providers: [any BookmarkProvider]) {
        self.providers = providers
    }

    /// Every bookmark, unsorted.
    public var bookmarks: [Bookmark] { providers.flatMap(\.bookmarks) }

    public func bookmarks(in order: BookmarkOrder) -> [Bookmark] {
        order.sorted(bookmarks)
    }

    /// Adds `bookmark`; one with the same identifier is replaced where it is kept.
    /// Returns false when no provider takes it.
    @discardableResult
    public mutating func add(_ bookmark: Bookmark) -> Bool {
        if let owner = providers.firstIndex(where: { $0.bookmarks.contains { $0.id == bookmark.id } }) {
            if providers[owner].add(bookmark) { return true }
            _ = providers[owner].remove(id: bookmark.id)
        }
        for index in providers.indices where providers[index].add(bookmark) { return true }
        return false
    }

    /// Removes bookmarks that copy an earlier one — same name, action, pages and fields, only
    /// the identifier differing — as iCloud sync multiplies them; returns how many went.
    ///
    /// ```swift
    /// let dropped = manager.removeDuplicates()   // 99 of 100 copies of "Coda"
    /// ```
    @discardableResult
    public mutating func removeDuplicates() -> Int {
        var seen = Set<String>()
        var copies: [String] = []
        for bookmark in bookmarks where !seen.insert(bookmark.contentKey).inserted { copies.append(bookmark.id) }
        return copies.reduce(0) { count, id in remove(id: id) ? count + 1 : count }
    }

    /// Removes the bookmark with `id` from the first provider that holds it.
    @discardableResult
    public mutating func remove(id: String) -> Bool {
        for index in providers.indices where providers[index].remove(id: id) { return true }
        return false
    }
}

extension Array where Element == Bookmark {
    /// Replaces the bookmark with the same identifier, or appends: how providers add.
    mutating func replaceOrAppend(_ bookmark: Bookmark) {
        if let index = firstIndex(where: { $0.id == bookmark.id }) {
            self[index] = bookmark
        } else {
            append(bookmark)
        }
    }

    /// Removes the bookmark with `id`, returning whether there was one.
    mutating func remove(id: String) -> Bool {
        guard let index = firstIndex(where: { $0.id == id }) else { return false }
        remove(at: index)
        return true
    }
}
