import Foundation

/// The four Info fields forScore reads, as text.
///
/// ```swift
/// let (score, warnings) = ForScoreInfo.read(InfoFields(title: "Моя любовь", author: "Сергей Рахманинов",
///                                                   keywords: "romance, rating:4"))
/// score.rating   // 4
/// ```
public struct InfoFields: Sendable, Equatable {
    public var title: String?
    public var author: String?
    public var subject: String?
    public var keywords: String?

    public init(title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
    }
}

/// forScore's mapping between Info fields and score metadata
/// (`../shared/seeds/forscore-pdf-metadata.txt`): Title as is; Author, Subject and
/// Keywords split on commas into composers, genres and tags; special keywords for rating,
/// difficulty, duration and key.
///
/// ```swift
/// let (score, warnings) = ForScoreInfo.read(InfoFields(keywords: "My Tag, rating:3, difficulty:5"))
/// score.tags         // ["My Tag"]
/// score.difficulty   // 3, with a warning: 5 is clamped to 0–3
/// ```
public enum ForScoreInfo {
    /// Reads metadata as forScore does. Values out of range are clamped and non-numbers
    /// ignored, each with a warning.
    public static func read(_ fields: InfoFields) -> (ScoreMetadata, [String]) {
        var score = ScoreMetadata()
        var warnings: [String] = []
        score.title = fields.title
        score.composers = split(fields.author)
        score.genres = split(fields.subject)
        var keysf: Int?
        var keymi: Int?
        var legacyRating: Int?
        var legacyDifficulty: Int?
        for item in split(fields.keywords) {
            let lower = item.lowercased()
            guard let colon = lower.firstIndex(of: ":") else {
                score.tags.append(item)
                continue
            }
            let name = String(lower[..<colon])
            let rawValue = String(item[item.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            func number(_ range: ClosedRange<Int>) -> Int? {
                guard let value = Int(rawValue) else {
                    warnings.append("keyword '\(item)': '\(rawValue)' is not a whole number; ignored")
                    return nil
                }
                let clamped = min(max(value, range.lowerBound), range.upperBound)
                if clamped != value {
                    warnings.append("keyword '\(item)': \(value) is out of range \(range.lowerBound)–\(range.upperBound); read as \(clamped)")
                }
                return clamped
            }
            switch name {
            case "rating": score.rating = number(ScoreMetadata.ratingRange) ?? score.rating
            case "difficulty": score.difficulty = number(ScoreMetadata.difficultyRange) ?? score.difficulty
            case "duration", "seconds": score.duration = number(0...Int.max) ?? score.duration
            case "keysf": keysf = number(-7...7) ?? keysf
            case "keymi": keymi = number(0...1) ?? keymi
            case "forscore-rating": legacyRating = number(ScoreMetadata.ratingRange) ?? legacyRating
            case "forscore-difficulty": legacyDifficulty = number(ScoreMetadata.difficultyRange) ?? legacyDifficulty
            default: score.tags.append(item)
            }
        }
        // The retired keywords count only where the current ones are absent.
        if score.rating == nil { score.rating = legacyRating }
        if score.difficulty == nil { score.difficulty = legacyDifficulty }
        if let keysf {
            score.key = try? MusicalKey(keysf: keysf, keymi: keymi ?? 0)
        } else if keymi != nil {
            warnings.append("keymi without keysf; no key read")
        }
        return (score, warnings)
    }

    /// The Info fields for `score`: Title, Author (composers), Subject (genres) and
    /// Keywords (tags first, then rating, difficulty, duration, keysf, keymi).
    ///
    /// A value containing a comma in a split field would read back as two values in
    /// forScore: that throws unless `allowComma` is set.
    public static func fields(for score: ScoreMetadata, allowComma: Bool = false) throws -> InfoFields {
        try score.validate()
        let split: [(ScoreField, [String])] = [(.composers, score.composers), (.genres, score.genres), (.tags, score.tags)]
        try ScoreEdit.commaRule(split.flatMap { field, values in values.filter { $0.contains(",") }.map { (field.rawValue, $0) } },
                                allowComma: allowComma)
        var keywords = score.tags
        if let rating = score.rating { keywords.append("rating:\(rating)") }
        if let difficulty = score.difficulty { keywords.append("difficulty:\(difficulty)") }
        if let duration = score.duration { keywords.append("duration:\(duration)") }
        if let key = score.key {
            keywords.append("keysf:\(key.keysf)")
            keywords.append("keymi:\(key.keymi)")
        }
        func joined(_ values: [String]) -> String? { values.isEmpty ? nil : values.joined(separator: ", ") }
        return InfoFields(title: score.title, author: joined(score.composers), subject: joined(score.genres),
                          keywords: joined(keywords))
    }

    /// Names of the special keywords, lower-cased (the retired ones included).
    static let specialNames: Set<String> = [
        "rating", "difficulty", "duration", "seconds", "keysf", "keymi", "forscore-rating", "forscore-difficulty",
    ]

    /// Whether forScore would read `keyword` as a special keyword rather than a tag.
    public static func isSpecialKeyword(_ keyword: String) -> Bool {
        let trimmed = keyword.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let colon = trimmed.firstIndex(of: ":") else { return false }
        return specialNames.contains(String(trimmed[..<colon]))
    }

    /// Splits on commas, trims white space and drops empty items, as forScore does.
    public static func split(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }
}
