import FolioLibrary
import FolioScore
import Foundation

/// Searching the catalog for the library view, and the facets it filters by.
extension ScoreService {
    /// What the library view asks for: words, field values, a minimum rating, an order.
    ///
    /// ```swift
    /// let found = try service.search(ScoreService.Search(text: "Dvořák"))
    /// ```
    public struct Search: Sendable {
        public var text: String?
        public var composer: String?
        public var genre: String?
        public var tag: String?
        public var label: String?
        public var key: String?
        /// The lowest rating shown, 1 to 5.
        public var minRating: Int?
        public var sort: String?
        public var limit = 200
        public init(text: String? = nil) { self.text = text }
    }

    /// The scores matching `search` (every score without text or filters), best first.
    public func search(_ search: Search) throws -> [Score] {
        func value(_ text: String?) -> String? {
            guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
            return trimmed
        }
        var query = LibraryQuery(text: value(search.text))
        query.limit = search.limit
        query.composers = value(search.composer).map { [$0] } ?? []
        query.genres = value(search.genre).map { [$0] } ?? []
        query.tags = value(search.tag).map { [$0] } ?? []
        query.labels = value(search.label).map { [$0] } ?? []
        if let key = value(search.key) { query.key = try MusicalKey(parsing: key) }
        if let rating = search.minRating {
            guard (1...5).contains(rating) else { throw LibraryError(.invalidArgument, "rating \(rating) is out of range (valid: 1 to 5)") }
            query.rating = try LibraryQuery.Comparison(parsing: ">=\(rating)", field: "rating", valid: 0...5)
        }
        if let sort = value(search.sort) {
            guard let order = LibraryQuery.Sort(rawValue: sort) else {
                throw LibraryError(.invalidArgument, "sort \(sort) is not one of \(LibraryQuery.Sort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.sort = order
        }
        var scores = try catalog.search(query).map(Score.init)
        let pieces = try catalog.bookmarkCounts(of: scores.map(\.id))
        for index in scores.indices { scores[index].pieces = pieces[scores[index].id] ?? 0 }
        return scores
    }

    /// The values to filter by, most used first: field (composer, genre, tag, label, key)
    /// → values with the number of scores carrying each, at most `limit` per field.
    public func facets(limit: Int = 100) throws -> [String: [Facet]] {
        let all = try catalog.facets()
        var result: [String: [Facet]] = [:]
        for facet in all where (result[facet.field]?.count ?? 0) < limit {
            result[facet.field, default: []].append(Facet(value: facet.value, count: facet.count))
        }
        return result
    }

    /// A value of a field and how many scores carry it.
    ///
    /// ```swift
    /// try service.facets()["composer"]?.first   // Facet(value: "Antonín Dvořák", count: 12)
    /// ```
    public struct Facet: Codable, Sendable, Equatable {
        public var value: String
        public var count: Int
    }
}
