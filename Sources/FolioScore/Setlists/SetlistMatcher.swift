import Foundation

/// How a setlist entry found its score, in forScore's order of trying: the exact name,
/// then ignoring case, then ignoring case and diacritics. Names are compared as Unicode
/// text, so a file name stored in NFD matches the same name in NFC at every level.
///
/// ```swift
/// SetlistMatchLevel.diacritics.key("Dvořák – Humoreska")   // "dvorak – humoreska"
/// ```
public enum SetlistMatchLevel: String, Sendable, Codable, Comparable {
    case exact
    case caseInsensitive = "case"
    case diacritics

    public static func < (lhs: Self, rhs: Self) -> Bool {
        let order: [Self] = [.exact, .caseInsensitive, .diacritics]
        return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
    }

    /// `text` in the form compared at this level.
    public func key(_ text: String) -> String {
        let composed = text.precomposedStringWithCanonicalMapping
        switch self {
        case .exact: return composed
        case .caseInsensitive: return composed.folding(options: [.caseInsensitive], locale: nil)
        case .diacritics: return composed.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        }
    }
}

/// Finds a setlist entry's score or bookmark among a library's, by path (a score) or by
/// path and title (a bookmark), as forScore's 4SS import does. A path matches a library
/// file's path relative to the library or, failing that, its file name; among several
/// files at the same level, the one whose full path matched wins, then the first by path.
///
/// ```swift
/// let matcher = SetlistMatcher(scores: ["Jazz/Autumn Leaves.pdf"], bookmarks: [])
/// matcher.score(path: "autumn leaves.pdf")   // ("Jazz/Autumn Leaves.pdf", .caseInsensitive, 1)
/// ```
public struct SetlistMatcher: Sendable {
    /// A bookmark of a library file: its title and 1-based pages.
    ///
    /// ```swift
    /// let matcher = SetlistMatcher(scores: ["Real Book.pdf"],
    ///                              bookmarks: [.init(path: "Real Book.pdf", title: "Les feuilles mortes", start: 12, end: 13)])
    /// ```
    public struct Bookmark: Sendable, Equatable {
        public var path: String
        public var title: String
        public var start: Int
        public var end: Int

        public init(path: String, title: String, start: Int, end: Int) {
            self.path = path
            self.title = title
            self.start = start
            self.end = end
        }
    }

    /// A score found: its library path, how, and how many files matched at that level.
    ///
    /// ```swift
    /// matcher.score(path: "real book.pdf")?.level   // .caseInsensitive
    /// ```
    public struct ScoreMatch: Sendable, Equatable {
        public var path: String
        public var level: SetlistMatchLevel
        public var candidates: Int
    }

    /// The bookmark a setlist entry names, how it was matched and among how many.
    ///
    /// ```swift
    /// matcher.bookmark(path: "Real Book.pdf", title: "Les Feuilles Mortes")?.bookmark.start   // 12
    /// ```
    public struct BookmarkMatch: Sendable, Equatable {
        public var bookmark: Bookmark
        public var level: SetlistMatchLevel
        public var candidates: Int
    }

    private let levels: [SetlistMatchLevel] = [.exact, .caseInsensitive, .diacritics]
    /// Per level: key of a full path → paths, key of a file name → paths.
    private var byPath: [SetlistMatchLevel: [String: [String]]] = [:]
    private var byName: [SetlistMatchLevel: [String: [String]]] = [:]
    private var bookmarksByPath: [String: [Bookmark]] = [:]

    public init(scores: [String], bookmarks: [Bookmark]) {
        for level in levels {
            var paths: [String: [String]] = [:]
            var names: [String: [String]] = [:]
            for path in scores.sorted() {
                paths[level.key(path), default: []].append(path)
                names[level.key((path as NSString).lastPathComponent), default: []].append(path)
            }
            byPath[level] = paths
            byName[level] = names
        }
        for bookmark in bookmarks { bookmarksByPath[bookmark.path, default: []].append(bookmark) }
    }

    /// The library file `path` names, or nil.
    public func score(path: String) -> ScoreMatch? {
        for level in levels {
            let key = level.key(path)
            if let found = byPath[level]?[key], let first = found.first {
                return ScoreMatch(path: first, level: level, candidates: found.count)
            }
            let nameKey = level.key((path as NSString).lastPathComponent)
            if let found = byName[level]?[nameKey], let first = found.first {
                return ScoreMatch(path: first, level: level, candidates: found.count)
            }
        }
        return nil
    }

    /// The bookmark titled `title` in the file `path` names, or nil. The level is the
    /// looser of the two matches.
    public func bookmark(path: String, title: String) -> BookmarkMatch? {
        for level in levels {
            // Every file the path names at this level or a stricter one.
            var files: [String] = []
            for pathLevel in levels where pathLevel <= level {
                files += byPath[pathLevel]?[pathLevel.key(path)] ?? []
                files += byName[pathLevel]?[pathLevel.key((path as NSString).lastPathComponent)] ?? []
            }
            var seen = Set<String>()
            for file in files where seen.insert(file).inserted {
                let found = (bookmarksByPath[file] ?? []).filter { level.key($0.title) == level.key(title) }
                if let first = found.first { return BookmarkMatch(bookmark: first, level: level, candidates: found.count) }
            }
        }
        return nil
    }
}
