/// How a metadata field is entered: what a form shows for it and what it accepts, derived
/// from ``ScoreField`` so the browser builds its details form from the server's words
/// (`GET /api/fields`) instead of restating them.
///
/// ```swift
/// let rating = ScoreField.rating.form
/// rating.input       // .stars
/// rating.maximum     // 5
/// ```
public struct ScoreFieldForm: Codable, Sendable, Equatable {
    /// The control a field is entered with.
    public enum Input: String, Codable, Sendable {
        /// One line of text.
        case text
        /// Several values, comma-separated in the form.
        case list
        /// A whole number between ``ScoreFieldForm/minimum`` and ``ScoreFieldForm/maximum``.
        case number
        /// Stars from 1 to the maximum, or none.
        case stars
        /// One of ``ScoreFieldForm/choices``, or none.
        case choice
        /// A duration as the server reads it: seconds, m:ss or h:mm:ss.
        case duration
    }

    /// A value a ``Input/choice`` field takes, with its label.
    public struct Choice: Codable, Sendable, Equatable {
        public var value: String
        public var label: String
    }

    /// The field's name in the metadata's JSON form ("timeSignature").
    public var name: String
    /// The label ("Time signature").
    public var label: String
    public var input: Input
    public var minimum: Int?
    public var maximum: Int?
    public var choices: [Choice]?
    /// What an empty control shows ("m:ss").
    public var placeholder: String?
    /// Whether a score must have it (the title).
    public var required: Bool

    /// Every field's form, in forScore's order.
    public static var all: [ScoreFieldForm] { ScoreField.allCases.map(\.form) }

    /// Difficulty's names, as forScore shows its three levels.
    public static let difficulties = ["Easy", "Medium", "Difficult"]
}

extension ScoreField {
    /// How the field is entered (see ``ScoreFieldForm``).
    public var form: ScoreFieldForm {
        var form = ScoreFieldForm(name: rawValue, label: label, input: .text, minimum: range?.lowerBound, maximum: range?.upperBound,
                                  choices: nil, placeholder: nil, required: self == .title)
        switch self {
        case .composers, .genres, .tags, .labels:
            form.input = .list
            form.placeholder = "comma-separated"
        case .rating:
            form.input = .stars
        case .difficulty:
            form.input = .choice
            form.choices = ScoreFieldForm.difficulties.enumerated().map { .init(value: String($0.offset + 1), label: $0.element) }
        case .key:
            form.input = .choice
            form.choices = MusicalKey.all.map { .init(value: $0.name, label: $0.name) }
        case .duration:
            form.input = .duration
            form.placeholder = "m:ss"
        case .tempo:
            form.input = .number
            form.placeholder = "bpm"
        case .timeSignature:
            form.placeholder = "3/4"
        case .title, .reference:
            break
        }
        return form
    }
}
