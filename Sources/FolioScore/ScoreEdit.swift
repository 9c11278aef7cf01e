import Foundation

/// A change to a score's metadata: the fields to set and the fields to clear. Fields it
/// does not mention stay as they are.
///
/// ```swift
/// var edit = ScoreEdit()
/// edit.title = "Nocturne Op. 90 № 2"
/// edit.composers = ["Frédéric Chopin"]
/// edit.cleared = [.rating]
/// let warnings = try ScoreWriter.write(edit, to: document)
/// ```
public struct ScoreEdit: Sendable, Equatable {
    public var title: String?
    public var composers: [String]?
    public var genres: [String]?
    public var tags: [String]?
    public var labels: [String]?
    public var rating: Int?
    public var difficulty: Int?
    public var duration: Int?
    public var key: MusicalKey?
    public var reference: String?
    /// Fields to remove.
    public var cleared: Set<ScoreField> = []

    public init() {}

    /// An edit that sets every field `score` holds (a list only when it has values).
    ///
    /// ```swift
    /// let edit = ScoreEdit(setting: ScoreMetadata(title: "Blue Bossa", composers: ["Kenny Dorham"]))
    /// edit.setFields   // [.title, .composers]
    /// ```
    public init(setting score: ScoreMetadata) {
        func list(_ values: [String]) -> [String]? { values.isEmpty ? nil : values }
        title = score.title
        composers = list(score.composers)
        genres = list(score.genres)
        tags = list(score.tags)
        labels = list(score.labels)
        rating = score.rating
        difficulty = score.difficulty
        duration = score.duration
        key = score.key
        reference = score.reference
    }

    /// The fields the edit sets.
    public var setFields: Set<ScoreField> {
        var fields: Set<ScoreField> = []
        if title != nil { fields.insert(.title) }
        if composers != nil { fields.insert(.composers) }
        if genres != nil { fields.insert(.genres) }
        if tags != nil { fields.insert(.tags) }
        if labels != nil { fields.insert(.labels) }
        if rating != nil { fields.insert(.rating) }
        if difficulty != nil { fields.insert(.difficulty) }
        if duration != nil { fields.insert(.duration) }
        if key != nil { fields.insert(.key) }
        if reference != nil { fields.insert(.reference) }
        return fields
    }

    /// Every field the edit sets or clears.
    public var changedFields: Set<ScoreField> { setFields.union(cleared) }

    public var isEmpty: Bool { changedFields.isEmpty }

    /// Throws when a field is both set and cleared, the title is empty, a tag reads as a
    /// special keyword, or a value is out of its range.
    public func validate() throws {
        if let both = ScoreField.allCases.first(where: { setFields.contains($0) && cleared.contains($0) }) {
            throw ScoreError(.invalidValue, "\(both.rawValue) is both set and cleared")
        }
        if let title, title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ScoreError(.invalidValue, "the title is empty (to remove it, clear the title field)")
        }
        if let special = tags?.first(where: ForScoreInfo.isSpecialKeyword) {
            throw ScoreError(.invalidValue, "tag '\(special)' would be read as a special keyword, not a tag; "
                + "set rating, difficulty, duration or key instead")
        }
        try applied(to: ScoreMetadata()).validate()
    }

    /// Values with a comma in the fields forScore splits on commas (composers, genres,
    /// tags, labels): forScore would read each as several values.
    public var valuesWithCommas: [(field: ScoreField, value: String)] {
        let lists: [(ScoreField, [String]?)] = [(.composers, composers), (.genres, genres), (.tags, tags), (.labels, labels)]
        return lists.flatMap { field, values in (values ?? []).filter { $0.contains(",") }.map { (field, $0) } }
    }

    /// `score` with this edit applied.
    public func applied(to score: ScoreMetadata) -> ScoreMetadata {
        var result = score
        if let title { result.title = title }
        if let composers { result.composers = composers }
        if let genres { result.genres = genres }
        if let tags { result.tags = tags }
        if let labels { result.labels = labels }
        if let rating { result.rating = rating }
        if let difficulty { result.difficulty = difficulty }
        if let duration { result.duration = duration }
        if let key { result.key = key }
        if let reference { result.reference = reference }
        for field in cleared {
            switch field {
            case .title: result.title = nil
            case .composers: result.composers = []
            case .genres: result.genres = []
            case .tags: result.tags = []
            case .labels: result.labels = []
            case .rating: result.rating = nil
            case .difficulty: result.difficulty = nil
            case .duration: result.duration = nil
            case .key: result.key = nil
            case .reference: result.reference = nil
            }
        }
        return result
    }
}

extension ScoreEdit {
    /// An edit that sets the title alone.
    init(title: String) {
        self.init()
        self.title = title
    }
}
