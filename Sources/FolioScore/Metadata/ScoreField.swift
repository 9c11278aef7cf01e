/// The fields of ``ScoreMetadata``, described once: each field's name (as the command
/// line, the API's JSON, the catalog and the Open In dictionary spell it), its kind, its
/// valid range and where forScore keeps it. Every form of a score's metadata derives
/// from this table — ``ScoreMetadata``'s JSON, ``ScoreEdit``, the Open In dictionary, the
/// catalog's stored fields, the CLI's output — so a new field is a new case here and a
/// stored property on ``ScoreMetadata``.
///
/// ```swift
/// let field = try ScoreField(parsing: "composer")   // .composers
/// field.kind                                       // .list
/// ScoreField.rating.range                          // 0...5
/// ```
public enum ScoreField: String, Sendable, CaseIterable, Hashable, CodingKey {
    case title, composers, genres, tags, labels, rating, difficulty, duration, key, reference
    /// Beats per minute, 1–999 (forScore's `bpm`); Folio's XMP.
    case tempo
    /// "3/4", "6/8", "C" or "¢"; Folio's XMP.
    case timeSignature

    /// What a field holds.
    ///
    /// ```swift
    /// ScoreField.composers.kind   // .list
    /// ```
    public enum Kind: Sendable, Equatable {
        /// One line of text.
        case text
        /// Several values; forScore joins them with commas.
        case list
        /// A whole number in ``ScoreField/range``.
        case number
        /// A ``MusicalKey``.
        case key
    }

    /// Parses a field name, singular or plural, case-insensitively ("time-signature",
    /// "time_signature" and "bpm" too).
    public init(parsing text: String) throws {
        let lower = text.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
        let byName = ScoreField.allCases.first { $0.rawValue.lowercased() == lower || $0.rawValue.lowercased() == lower + "s" }
        if let field = byName ?? (lower == "bpm" ? .tempo : nil) {
            self = field
        } else {
            throw ScoreError(.invalidValue, "unknown field '\(text)' (valid: "
                + ScoreField.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
    }

    public var kind: Kind {
        switch self {
        case .title, .reference, .timeSignature: .text
        case .composers, .genres, .tags, .labels: .list
        case .rating, .difficulty, .duration, .tempo: .number
        case .key: .key
        }
    }

    /// The valid values of a number field (a duration is seconds, at most a year); nil for
    /// the other kinds.
    public var range: ClosedRange<Int>? {
        switch self {
        case .rating: 0...5
        case .difficulty: 0...3
        case .duration: 0...(366 * 24 * 3600)
        case .tempo: 1...999
        default: nil
        }
    }

    /// The field's name as a label ("Composers", "Time signature").
    public var label: String {
        self == .timeSignature ? "Time signature" : rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    }

    /// Where ``ScoreMetadata`` keeps the field: the one link between this table and the
    /// stored properties.
    var keyPath: PartialKeyPath<ScoreMetadata> {
        switch self {
        case .title: \.title
        case .composers: \.composers
        case .genres: \.genres
        case .tags: \.tags
        case .labels: \.labels
        case .rating: \.rating
        case .difficulty: \.difficulty
        case .duration: \.duration
        case .key: \.key
        case .reference: \.reference
        case .tempo: \.tempo
        case .timeSignature: \.timeSignature
        }
    }

    /// The Info entry forScore reads the field from; nil for labels and reference, which
    /// live in XMP only.
    public var infoKey: String? {
        switch self {
        case .title: "Title"
        case .composers: "Author"
        case .genres: "Subject"
        case .tags, .rating, .difficulty, .duration, .key: "Keywords"
        case .labels, .reference, .tempo, .timeSignature: nil
        }
    }

    /// Whether forScore's Open In dictionary carries the field (a key as `keysf` and
    /// `keymi`); forScore's reference, tempo and time signature have no key there.
    public var isInOpenIn: Bool { ![.reference, .tempo, .timeSignature].contains(self) }

    /// A time signature as written: "3/4" (numerator 1–99, denominator 1, 2, 4, 8, 16, 32 or
    /// 64), "C" or "¢"; nil otherwise.
    ///
    /// ```swift
    /// ScoreField.timeSignature(" 6 / 8 ")   // "6/8"
    /// ```
    public static func timeSignature(_ text: String) -> String? {
        let trimmed = text.replacingOccurrences(of: " ", with: "")
        if trimmed == "C" || trimmed == "c" { return "C" }
        if trimmed == "¢" { return "¢" }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count <= 2 }), let top = Int(parts[0]), let bottom = Int(parts[1]),
              (1...99).contains(top), [1, 2, 4, 8, 16, 32, 64].contains(bottom) else { return nil }
        return "\(top)/\(bottom)"
    }

    /// Throws when `value` is out of the field's range, naming the valid one.
    func check(_ value: Int) throws {
        guard let range, !range.contains(value) else { return }
        let valid = self == .duration ? "0 seconds to \(range.upperBound)" : "\(range.lowerBound) to \(range.upperBound)"
        throw ScoreError(.outOfRange, "\(rawValue) \(value) is out of range (valid: \(valid))")
    }
}

/// One field's value, of the field's ``ScoreField/Kind``.
///
/// ```swift
/// var score = ScoreMetadata()
/// score[.composers] = .list(["Bedřich Smetana"])
/// score[.rating]      // nil
/// ```
public enum ScoreValue: Sendable, Hashable {
    case text(String)
    case list([String])
    case number(Int)
    case key(MusicalKey)

    /// The value as a table shows it: lists joined with ", ", a duration as 3:25.
    public func display(as field: ScoreField) -> String {
        switch self {
        case .text(let text): text
        case .list(let values): values.joined(separator: ", ")
        case .number(let number): field == .duration ? ScoreDuration.format(number) : String(number)
        case .key(let key): key.name
        }
    }
}

extension ScoreMetadata {
    /// A field's value; nil when the field is unset (an empty list reads as nil, and
    /// setting nil empties it). A value of another kind than the field's is ignored.
    public subscript(field: ScoreField) -> ScoreValue? {
        get {
            switch self[keyPath: field.keyPath] {
            case let text as String: .text(text)
            case let list as [String]: list.isEmpty ? nil : .list(list)
            case let number as Int: .number(number)
            case let key as MusicalKey: .key(key)
            default: nil
            }
        }
        set {
            switch (field.keyPath, newValue) {
            case (let path as WritableKeyPath<ScoreMetadata, String?>, .text(let text)): self[keyPath: path] = text
            case (let path as WritableKeyPath<ScoreMetadata, String?>, nil): self[keyPath: path] = nil
            case (let path as WritableKeyPath<ScoreMetadata, [String]>, .list(let list)): self[keyPath: path] = list
            case (let path as WritableKeyPath<ScoreMetadata, [String]>, nil): self[keyPath: path] = []
            case (let path as WritableKeyPath<ScoreMetadata, Int?>, .number(let number)): self[keyPath: path] = number
            case (let path as WritableKeyPath<ScoreMetadata, Int?>, nil): self[keyPath: path] = nil
            case (let path as WritableKeyPath<ScoreMetadata, MusicalKey?>, .key(let key)): self[keyPath: path] = key
            case (let path as WritableKeyPath<ScoreMetadata, MusicalKey?>, nil): self[keyPath: path] = nil
            default: break
            }
        }
    }

    /// The fields that hold a value.
    public var setFields: [ScoreField] { ScoreField.allCases.filter { self[$0] != nil } }
}
