import FolioScore
import Foundation

/// What to look for in a catalog: words, field values and ranges, combined with AND.
///
/// ```swift
/// var query = LibraryQuery()
/// query.text = "cancion"                       // finds "Canción de cuna"
/// query.composers = ["brahms"]                  // one composer value, case and accents ignored
/// query.rating = try .init(parsing: ">=4", field: "rating", valid: 0...5)
/// ```
public struct LibraryQuery: Sendable, Equatable {
    /// How results are ordered; by default by relevance when there is text, else by title.
    ///
    /// ```swift
    /// var query = LibraryQuery(text: "Chopin")
    /// query.sort = .rating
    /// ```
    public enum Sort: String, Sendable, CaseIterable {
        case title, composer, added, rating, duration
    }

    /// A number compared with `=`, `<`, `<=`, `>` or `>=` (no operator means `=`).
    ///
    /// ```swift
    /// let shorter = try LibraryQuery.Comparison(parsing: "<5:00", field: "duration", valid: nil, duration: true)
    /// shorter.value   // 300
    /// ```
    public struct Comparison: Sendable, Equatable {
        public let operation: String
        public let value: Int

        /// Parses "4", ">=4", "<5:00" (durations as seconds or m:ss), naming the valid range
        /// when the value is outside it.
        public init(parsing text: String, field: String, valid: ClosedRange<Int>?, duration: Bool = false) throws {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let operation = ["<=", ">=", "<", ">", "="].first { trimmed.hasPrefix($0) } ?? "="
            let number = trimmed.hasPrefix(operation) ? String(trimmed.dropFirst(operation.count)) : trimmed
            let value: Int?
            if duration {
                value = try? ScoreDuration.parse(number.trimmingCharacters(in: .whitespaces))
            } else {
                value = Int(number.trimmingCharacters(in: .whitespaces))
            }
            let shape = duration ? "seconds or m:ss" : "a whole number"
            guard let value else {
                throw LibraryError(.invalidArgument,
                                   "--\(field) takes an optional <, <=, >, >= or = and \(shape), got '\(text)'")
            }
            if let valid, !valid.contains(value) {
                throw LibraryError(.invalidArgument,
                                   "--\(field) \(value) is out of range (valid: \(valid.lowerBound) to \(valid.upperBound))")
            }
            self.operation = operation
            self.value = value
        }
    }

    /// Words to find (prefixes match) in titles, composers, genres, tags, labels,
    /// references and bookmark titles.
    public var text: String?
    public var composers: [String] = []
    public var genres: [String] = []
    public var tags: [String] = []
    public var labels: [String] = []
    public var key: MusicalKey?
    public var rating: Comparison?
    public var difficulty: Comparison?
    public var duration: Comparison?
    public var pages: Comparison?
    /// Bookmarks as results of their own (a song inside a fake book).
    public var includeBookmarks = false
    public var sort: Sort?
    /// At most this many results (the best first), as a page of a UI asks; nil for all.
    /// A page of text alone in the default order ranks at most 1,000 matches (see
    /// ``LibraryCatalog/search(_:)``).
    public var limit: Int?

    public init(text: String? = nil, includeBookmarks: Bool = false) {
        self.text = text
        self.includeBookmarks = includeBookmarks
    }

    /// Case- and diacritic-insensitive form of a field value, for equality: "Dvořák" is
    /// "dvorak", "Пётр" is "петр"; й stays a letter of its own, as Russian readers expect.
    public static func fold(_ value: String) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        return trimmed.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "й" || $0 == "Й" })
            .map { $0.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil) }
            .joined(separator: "й")
    }

    /// The FTS5 expression: every word as a quoted prefix, all required; nil when the text
    /// has no word.
    var matchExpression: String? {
        let words = self.words.map { "\"\($0)\"*" }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The words of ``text`` as a search reads them (``SearchText``'s spelling; runs of letters
    /// and digits), each a prefix to find; none without text.
    var words: [String] {
        guard let text else { return [] }
        return SearchText.spelled(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
}
