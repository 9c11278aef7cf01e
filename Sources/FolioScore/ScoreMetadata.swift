import Foundation

/// What a musician's library knows about a score, in forScore's terms.
///
/// ```swift
/// var score = ScoreMetadata()
/// score.title = "Nocturne Op. 9 № 2"
/// score.composers = ["Frédéric Chopin"]
/// score.key = try MusicalKey(parsing: "Eb")
/// try score.validate()
/// ```
public struct ScoreMetadata: Sendable, Equatable {
    public var title: String?
    public var composers: [String] = []
    public var genres: [String] = []
    public var tags: [String] = []
    public var labels: [String] = []
    /// 0–5.
    public var rating: Int?
    /// 0–3.
    public var difficulty: Int?
    /// Seconds, ≥ 0.
    public var duration: Int?
    public var key: MusicalKey?
    /// forScore's free-text "Reference" (a catalogue or book number); the Info dictionary
    /// has no place for it, so it lives in Folio's XMP namespace.
    public var reference: String?

    public init(title: String? = nil, composers: [String] = [], genres: [String] = [], tags: [String] = [],
                labels: [String] = [], rating: Int? = nil, difficulty: Int? = nil, duration: Int? = nil,
                key: MusicalKey? = nil, reference: String? = nil) {
        self.title = title
        self.composers = composers
        self.genres = genres
        self.tags = tags
        self.labels = labels
        self.rating = rating
        self.difficulty = difficulty
        self.duration = duration
        self.key = key
        self.reference = reference
    }

    public static let ratingRange = 0...5
    public static let difficultyRange = 0...3

    /// Throws for values forScore cannot hold, naming the valid range.
    public func validate() throws {
        if let rating, !ScoreMetadata.ratingRange.contains(rating) {
            throw ScoreError(.outOfRange, "rating \(rating) is out of range (valid: 0 to 5)")
        }
        if let difficulty, !ScoreMetadata.difficultyRange.contains(difficulty) {
            throw ScoreError(.outOfRange, "difficulty \(difficulty) is out of range (valid: 0 to 3)")
        }
        if let duration, duration < 0 {
            throw ScoreError(.outOfRange, "duration \(duration) is out of range (valid: 0 seconds or more)")
        }
    }
}

extension ScoreMetadata {
    /// A bookmark's own fields, else its score's — what a musician means by "this piece":
    /// composers, genres, tags, labels, key and reference come from `score` where these are
    /// empty. Title, rating, difficulty and duration stay the piece's own.
    ///
    /// ```swift
    /// let piece = bookmark.metadata.inheriting(from: book)   // the book's composer when the piece names none
    /// ```
    public func inheriting(from score: ScoreMetadata) -> ScoreMetadata {
        var result = self
        if result.composers.isEmpty { result.composers = score.composers }
        if result.genres.isEmpty { result.genres = score.genres }
        if result.tags.isEmpty { result.tags = score.tags }
        if result.labels.isEmpty { result.labels = score.labels }
        result.key = result.key ?? score.key
        result.reference = result.reference ?? score.reference
        return result
    }
}

extension ScoreMetadata {
    /// The title a score without one goes by: its file name without the extension, as the
    /// catalog shows it and forScore does.
    ///
    /// ```swift
    /// ScoreMetadata.title(forFile: "Jazz/Autumn Leaves.pdf")   // "Autumn Leaves"
    /// ```
    public static func title(forFile path: String) -> String {
        ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    }
}
