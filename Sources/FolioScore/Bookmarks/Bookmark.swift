import Foundation

/// A bookmark after Nutrient's model (`../shared/seeds/nutrient-bookmarks.txt`): an
/// identifier, a name, an action and a sort key, extended for forScore with a page range
/// and the piece's own metadata. A value: changing one means adding the changed copy to
/// the ``BookmarkManager``, which replaces the bookmark with the same identifier.
///
/// ```swift
/// var piece = Bookmark(name: "Sonata No. 2", action: .page(index: 4), pages: 5...9)
/// piece.metadata.composers = ["Muzio Clementi"]
/// manager.add(piece)
/// ```
public struct Bookmark: Sendable, Equatable, Identifiable {
    /// What selecting the bookmark does.
    ///
    /// ```swift
    /// let piece = Bookmark(name: "Largo", action: .page(index: 11), pages: 12...14)
    /// let link = Bookmark(name: "Партитура онлайн", action: .url("https://imslp.org"))
    /// ```
    public enum Action: Sendable, Equatable {
        /// Go to a page, 0-based.
        case page(index: Int)
        /// Open a URL.
        case url(String)
        /// Another action, by its Nutrient type name, kept as it was read.
        case other(String)
    }

    /// A UUID string; never changed once made.
    public let id: String
    public var name: String?
    public var action: Action
    /// The position in the custom order (smaller first); nil sorts after the keyed ones.
    public var sortKey: Int?
    /// The first and last page, 1-based, of the piece the bookmark marks.
    public var pages: ClosedRange<Int>?
    /// The piece's metadata (composers, genres, tags, key…); its title is `name`.
    public var metadata: ScoreMetadata

    public init(id: String = UUID().uuidString, name: String? = nil, action: Action, sortKey: Int? = nil,
                pages: ClosedRange<Int>? = nil, metadata: ScoreMetadata = ScoreMetadata()) {
        self.id = id
        self.name = name
        self.action = action
        self.sortKey = sortKey
        self.pages = pages
        self.metadata = metadata
    }

    /// What makes two bookmarks copies of one another: name (NFC), action, pages and fields
    /// alike, only the identifier (and custom order) differing — as iCloud sync multiplies them.
    var contentKey: String {
        [name?.precomposedStringWithCanonicalMapping ?? "", "\(action)", pages.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "",
         "\(metadata)"].joined(separator: "\u{1F}")
    }

    /// The page the action goes to, 0-based.
    // Not inlined: inlined into closures over borrowed bookmarks, the switch on `action`
    // crashed Swift 6.3.1's optimizer (CopyPropagation ownership error) in -O builds.
    public var pageIndex: Int? {
        @inline(never) get {
            if case .page(let index) = action { return index }
            return nil
        }
    }
}

/// The orders bookmarks are listed in.
///
/// ```swift
/// let listed = BookmarkOrder.pageBased.sorted(manager.bookmarks)   // by first page, then name
/// ```
public enum BookmarkOrder: String, Sendable, CaseIterable {
    /// By sort key (bookmarks without one after, in the order they came).
    case custom
    /// By page; bookmarks without a page at the end; stable.
    case pageBased = "page"

    /// `bookmarks` sorted in this order; ties keep their order.
    public func sorted(_ bookmarks: [Bookmark]) -> [Bookmark] {
        let indexed = bookmarks.enumerated().map { ($0.offset, $0.element) }
        let key: (Bookmark) -> Int? = self == .custom ? { $0.sortKey } : { $0.pageIndex }
        return indexed.sorted { lhs, rhs in
            switch (key(lhs.1), key(rhs.1)) {
            case let (left?, right?): (left, lhs.0) < (right, rhs.0)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.0 < rhs.0
            }
        }.map(\.1)
    }
}
