/// The fields of ``ScoreMetadata``, by the names the command line and the Open In
/// dictionary use.
///
/// ```swift
/// try ScoreField(parsing: "composer")   // .composers
/// ```
public enum ScoreField: String, Sendable, CaseIterable, Hashable {
    case title, composers, genres, tags, labels, rating, difficulty, duration, key, reference

    /// Parses a field name, singular or plural, case-insensitively.
    public init(parsing text: String) throws {
        let lower = text.lowercased()
        if let field = ScoreField(rawValue: lower) ?? ScoreField(rawValue: lower + "s") {
            self = field
        } else {
            throw ScoreError(.invalidValue, "unknown field '\(text)' (valid: "
                + ScoreField.allCases.map(\.rawValue).joined(separator: ", ") + ")")
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
        case .labels, .reference: nil
        }
    }
}
