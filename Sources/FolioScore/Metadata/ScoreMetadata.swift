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
    /// Beats per minute, 1–999 (forScore's `bpm`), in Folio's XMP namespace.
    public var tempo: Int?
    /// "3/4", "6/8", "C" or "¢", in Folio's XMP namespace.
    public var timeSignature: String?

    public init(title: String? = nil, composers: [String] = [], genres: [String] = [], tags: [String] = [],
                labels: [String] = [], rating: Int? = nil, difficulty: Int? = nil, duration: Int? = nil,
                key: MusicalKey? = nil, reference: String? = nil, tempo: Int? = nil, timeSignature: String? = nil) {
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
        self.tempo = tempo
        self.timeSignature = timeSignature
    }

    public static let ratingRange = ScoreField.rating.range ?? 0...5
    public static let difficultyRange = ScoreField.difficulty.range ?? 0...3

    /// Throws for values forScore cannot hold, naming the valid range.
    public func validate() throws {
        for field in ScoreField.allCases {
            if case .number(let number) = self[field] { try field.check(number) }
        }
        if let signature = timeSignature, ScoreField.timeSignature(signature) == nil {
            throw ScoreError(.outOfRange, "time signature \(signature) is not one (valid: such as 3/4, 6/8, C or ¢)")
        }
    }
}

/// The JSON form of a score's metadata, the API's, the CLI's and the catalog's: every field
/// by its ``ScoreField`` name, lists as arrays (empty ones too), the key by its name ("F♯
/// minor"), the duration in seconds with `durationText` beside it as written ("4:05"),
/// unset values left out. Decoding takes missing lists as empty, a blank key as none, and a
/// duration as seconds or as written ("4:05", read by ``ScoreDuration``).
///
/// ```swift
/// let json = try JSONCoding.data(ScoreMetadata(title: "Má vlast", composers: ["Bedřich Smetana"]))
/// let back = try JSONDecoder().decode(ScoreMetadata.self, from: json)
/// ```
extension ScoreMetadata: Codable {
    public init(from decoder: any Decoder) throws {
        self.init()
        let values = try decoder.container(keyedBy: ScoreField.self)
        for field in ScoreField.allCases {
            switch field.kind {
            case .text: self[field] = try values.decodeIfPresent(String.self, forKey: field).map(ScoreValue.text)
            case .list: self[field] = try values.decodeIfPresent([String].self, forKey: field).map(ScoreValue.list)
            case .number:
                // A number may come as a form writes it: text, a duration as m:ss or h:mm:ss.
                if let text = try? values.decodeIfPresent(String.self, forKey: field) {
                    self[field] = try Self.number(text, field).map(ScoreValue.number)
                } else {
                    self[field] = try values.decodeIfPresent(Int.self, forKey: field).map(ScoreValue.number)
                }
            case .key:
                let name = try values.decodeIfPresent(String.self, forKey: field)?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                self[field] = name.isEmpty ? nil : .key(try MusicalKey(parsing: name))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: MemberKey.self)
        for (name, value) in jsonMembers {
            switch value {
            case .text(let text): try values.encode(text, forKey: MemberKey(name))
            case .texts(let list): try values.encode(list, forKey: MemberKey(name))
            case .number(let number): try values.encode(number, forKey: MemberKey(name))
            }
        }
    }

    /// A number field's value as a form sends it: blank is none; a duration is read by
    /// ``ScoreDuration``, any other number must be a whole one.
    private static func number(_ text: String, _ field: ScoreField) throws -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        if field == .duration { return try ScoreDuration.parse(trimmed) }
        guard let number = Int(trimmed) else {
            let range = field.range.map { " (valid: \($0.lowerBound) to \($0.upperBound))" } ?? ""
            throw ScoreError(.invalidValue, "\(field.rawValue): '\(trimmed)' is not a whole number\(range)")
        }
        return number
    }

    /// A value of the JSON form.
    public enum JSONMember: Sendable, Equatable {
        case text(String)
        case texts([String])
        case number(Int)
    }

    /// The members of the JSON form in ``ScoreField`` order, `durationText` after the
    /// duration: what the API encodes and `folio meta get --json` and `folio library list
    /// --json` print, in one place.
    ///
    /// ```swift
    /// ScoreMetadata(title: "Nocturne", duration: 245).jsonMembers.map(\.name)
    /// // ["title", "composers", "genres", "tags", "labels", "duration", "durationText"]
    /// ```
    public var jsonMembers: [(name: String, value: JSONMember)] {
        var members: [(name: String, value: JSONMember)] = []
        for field in ScoreField.allCases {
            switch self[field] {
            case .text(let text): members.append((field.rawValue, .text(text)))
            case .list(let list): members.append((field.rawValue, .texts(list)))
            case .number(let number):
                members.append((field.rawValue, .number(number)))
                if field == .duration { members.append(("durationText", .text(ScoreDuration.format(number)))) }
            case .key(let key): members.append((field.rawValue, .text(key.name)))
            case nil: if field.kind == .list { members.append((field.rawValue, .texts([]))) }
            }
        }
        return members
    }

    private struct MemberKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

extension ScoreMetadata {
    /// A score holding one field.
    init(_ field: ScoreField, _ value: ScoreValue) {
        self.init()
        self[field] = value
    }

    /// The fields a bookmark never inherits from its score.
    static let ownFields: Set<ScoreField> = [.title, .rating, .difficulty, .duration, .tempo, .timeSignature]

    /// A bookmark's own fields, else its score's — what a musician means by "this piece":
    /// composers, genres, tags, labels, key and reference come from `score` where these are
    /// empty. Title, rating, difficulty, duration, tempo and time signature stay the piece's own.
    ///
    /// ```swift
    /// let piece = bookmark.metadata.inheriting(from: book)   // the book's composer when the piece names none
    /// ```
    public func inheriting(from score: ScoreMetadata) -> ScoreMetadata {
        var result = self
        for field in ScoreField.allCases where !ScoreMetadata.ownFields.contains(field) && result[field] == nil {
            result[field] = score[field]
        }
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
