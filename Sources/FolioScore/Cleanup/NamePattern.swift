import Foundation

/// Fields from folder and file names (`folio meta from-names`): a pattern of literal text
/// and placeholders — `{composer}`, `{title}`, `{genre}`, `{tag}`, `{opus}` (into the
/// reference), `{key}` ("F# minor", "Eb"), `{rating}`, `{difficulty}`, and `{*}` for a part
/// to skip. A pattern with `/` matches the last folders and the file name; one without
/// matches the file name. A trailing `.pdf` is optional. Placeholders take as little as
/// they can from the left, so the last one takes the rest; `_` reads as a space.
///
/// ```swift
/// let pattern = try NamePattern("{composer}/{title}.pdf")
/// let fields = try pattern.match("Scores/Fauré/Après_un_rêve.pdf")
/// fields?.composers   // ["Fauré"]
/// fields?.title       // "Après un rêve"
/// ```
public struct NamePattern: Sendable {
    /// The fields a pattern can name, and `*` for a part to skip.
    ///
    /// ```swift
    /// NamePattern.Placeholder.allCases.map(\.rawValue)   // ["composer", "title", …, "*"]
    /// ```
    public enum Placeholder: String, Sendable, CaseIterable {
        case composer, title, genre, tag, opus, key, rating, difficulty
        case skip = "*"
    }

    public let pattern: String
    private let components: Int
    private let expression: NSRegularExpression
    private let placeholders: [Placeholder]

    /// Parses `pattern`; throws naming an unknown or repeated placeholder.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        var body = pattern
        if body.lowercased().hasSuffix(".pdf") { body.removeLast(4) }
        guard !body.isEmpty, !body.hasPrefix("/") else {
            throw ScoreError(.invalidValue, "the pattern '\(pattern)' is empty or absolute (example: \"{composer}/{title}.pdf\")")
        }
        var regex = "^"
        var placeholders: [Placeholder] = []
        var rest = Substring(body)
        while !rest.isEmpty {
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw ScoreError(.invalidValue, "the pattern '\(pattern)' has a { without }")
                }
                let name = rest[rest.index(after: rest.startIndex)..<close].lowercased()
                guard let placeholder = Placeholder(rawValue: name) else {
                    throw ScoreError(.invalidValue, "unknown placeholder {\(name)} (valid: "
                        + Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ") + ")")
                }
                if placeholder != .skip, placeholders.contains(placeholder) {
                    throw ScoreError(.invalidValue, "{\(name)} appears twice in the pattern '\(pattern)'")
                }
                placeholders.append(placeholder)
                regex += "([^/]+?)"
                rest = rest[rest.index(after: close)...]
            } else {
                let next = rest.firstIndex(of: "{") ?? rest.endIndex
                regex += NSRegularExpression.escapedPattern(for: String(rest[..<next]))
                rest = rest[next...]
            }
        }
        guard placeholders.contains(where: { $0 != .skip }) else {
            throw ScoreError(.invalidValue, "the pattern '\(pattern)' has no placeholder (example: \"{composer} - {title}\")")
        }
        regex += "$"
        do {
            expression = try NSRegularExpression(pattern: regex, options: [.caseInsensitive])
        } catch {
            throw ScoreError(.invalidValue, "the pattern '\(pattern)' cannot be read: \(error)")
        }
        self.placeholders = placeholders
        components = body.split(separator: "/", omittingEmptySubsequences: false).count
    }

    /// The fields `path` gives (folders separated by `/`); nil when it does not match.
    /// Throws when a matched key, rating or difficulty is not valid.
    public func match(_ path: String) throws -> ScoreMetadata? {
        var parts = path.split(separator: "/").map(String.init)
        guard parts.count >= components, var last = parts.popLast() else { return nil }
        if last.lowercased().hasSuffix(".pdf") { last.removeLast(4) }
        parts.append(last)
        let subject = parts.suffix(components).joined(separator: "/")
        let range = NSRange(subject.startIndex..., in: subject)
        guard let result = expression.firstMatch(in: subject, range: range) else { return nil }
        var score = ScoreMetadata()
        for (index, placeholder) in placeholders.enumerated() {
            guard let captured = Range(result.range(at: index + 1), in: subject) else { continue }
            let value = collapsingWhitespace(subject[captured].replacingOccurrences(of: "_", with: " "))
            guard !value.isEmpty else { continue }
            switch placeholder {
            // As forScore reads Author and Subject: commas separate values.
            case .composer: score.composers = ForScoreInfo.split(value)
            case .title: score.title = value
            case .genre: score.genres = ForScoreInfo.split(value)
            case .tag: score.tags = ForScoreInfo.split(value)
            case .opus: score.reference = value.first?.isNumber == true ? "Op. \(value)" : value
            case .key: score.key = try MusicalKey(parsing: value)
            case .rating:
                guard let rating = Int(value), ScoreMetadata.ratingRange.contains(rating) else {
                    throw ScoreError(.outOfRange, "rating '\(value)' in the name is out of range (valid: 0 to 5)")
                }
                score.rating = rating
            case .difficulty:
                guard let difficulty = Int(value), ScoreMetadata.difficultyRange.contains(difficulty) else {
                    throw ScoreError(.outOfRange, "difficulty '\(value)' in the name is out of range (valid: 0 to 3)")
                }
                score.difficulty = difficulty
            case .skip: continue
            }
        }
        return score
    }

    /// The change taking `named` into `current`: only fields `current` lacks, unless `overwrite`.
    public static func change(from named: ScoreMetadata, current: ScoreMetadata, overwrite: Bool) -> ScoreChange {
        var change = ScoreChange()
        if let title = named.title, title != current.title, overwrite || current.title == nil { change.edit.title = title }
        func list(_ path: KeyPath<ScoreMetadata, [String]>, _ field: ScoreField, _ set: (inout ScoreEdit) -> Void) {
            guard !named[keyPath: path].isEmpty, named[keyPath: path] != current[keyPath: path],
                  overwrite || current[keyPath: path].isEmpty else { return }
            set(&change.edit)
        }
        list(\.composers, .composers) { $0.composers = named.composers }
        list(\.genres, .genres) { $0.genres = named.genres }
        // Tags from a name join the tags already there.
        let newTags = named.tags.filter { !current.tags.contains($0) }
        if !newTags.isEmpty { change.edit.tags = current.tags + newTags }
        func value<T: Equatable>(_ path: KeyPath<ScoreMetadata, T?>, _ set: (inout ScoreEdit, T) -> Void) {
            guard let new = named[keyPath: path], new != current[keyPath: path],
                  overwrite || current[keyPath: path] == nil else { return }
            set(&change.edit, new)
        }
        value(\.reference) { $0.reference = $1 }
        value(\.key) { $0.key = $1 }
        value(\.rating) { $0.rating = $1 }
        value(\.difficulty) { $0.difficulty = $1 }
        for field in change.edit.setFields { change.reasons[field] = "name" }
        return change
    }
}
