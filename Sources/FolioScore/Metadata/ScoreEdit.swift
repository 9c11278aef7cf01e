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
@dynamicMemberLookup
public struct ScoreEdit: Sendable, Equatable {
    /// The values the edit sets, by field.
    public var values: [ScoreField: ScoreValue] = [:]
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
        for field in score.setFields { values[field] = score[field] }
    }

    /// The edit that makes a score's metadata exactly `score`, as a form or the API sends
    /// it: text trimmed, blank texts and list values dropped, every field without a value
    /// cleared.
    ///
    /// ```swift
    /// let edit = ScoreEdit(replacingWith: ScoreMetadata(title: " Rusalka ", composers: ["Antonín Dvořák", " "]))
    /// edit.title       // "Rusalka"
    /// edit.cleared     // every other field but composers
    /// ```
    public init(replacingWith score: ScoreMetadata) {
        for field in ScoreField.allCases {
            switch score[field] {
            case .text(let value): values[field] = Self.trimmed(value).map(ScoreValue.text)
            case .list(let list):
                let kept = Self.trimmed(list)
                values[field] = kept.isEmpty ? nil : .list(kept)
            case let value: values[field] = value
            }
        }
        cleared = Set(ScoreField.allCases).subtracting(values.keys)
    }

    /// A field the edit sets, by name: `edit.title`, `edit.composers` (nil when the edit
    /// leaves the field alone).
    public subscript<Value>(dynamicMember path: WritableKeyPath<ScoreMetadata, Value?>) -> Value? {
        get { Self.field(path).flatMap { field in values[field].map { ScoreMetadata(field, $0)[keyPath: path] } } ?? nil }
        set { set(path, newValue.map { value in { $0[keyPath: path] = value } }) }
    }

    /// A list field the edit sets, by name (nil when the edit leaves it alone).
    public subscript(dynamicMember path: WritableKeyPath<ScoreMetadata, [String]>) -> [String]? {
        get { Self.field(path).flatMap { field in values[field].map { ScoreMetadata(field, $0)[keyPath: path] } } }
        set { set(path, newValue.map { value in { $0[keyPath: path] = value } }) }
    }

    private mutating func set(_ path: AnyKeyPath, _ change: ((inout ScoreMetadata) -> Void)?) {
        guard let field = Self.field(path) else { return }
        guard let change else {
            values[field] = nil
            return
        }
        var score = ScoreMetadata()
        change(&score)
        // An empty list is still a value to set (it empties the field).
        values[field] = score[field] ?? (field.kind == .list ? .list([]) : nil)
    }

    private static func field(_ path: AnyKeyPath) -> ScoreField? {
        ScoreField.allCases.first { $0.keyPath == path }
    }

    /// A field's value in the edit, or nil when the edit does not set it.
    public subscript(field: ScoreField) -> ScoreValue? {
        get { values[field] }
        set { values[field] = newValue }
    }

    /// The fields the edit sets.
    public var setFields: Set<ScoreField> { Set(values.keys) }

    /// Every field the edit sets or clears.
    public var changedFields: Set<ScoreField> { setFields.union(cleared) }

    public var isEmpty: Bool { changedFields.isEmpty }

    /// Throws when a field is both set and cleared, the title is empty, a tag reads as a
    /// special keyword, or a value is out of its range.
    public func validate() throws {
        if let both = ScoreField.allCases.first(where: { setFields.contains($0) && cleared.contains($0) }) {
            throw ScoreError(.invalidValue, "\(both.rawValue) is both set and cleared")
        }
        if let title = self.title, title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ScoreError(.invalidValue, "the title is empty (to remove it, clear the title field)")
        }
        if let special = self.tags?.first(where: ForScoreInfo.isSpecialKeyword) {
            throw ScoreError(.invalidValue, "tag '\(special)' would be read as a special keyword, not a tag; "
                + "set rating, difficulty, duration or key instead")
        }
        try applied(to: ScoreMetadata()).validate()
    }

    /// Values with a comma in the fields forScore splits on commas (composers, genres,
    /// tags, labels): forScore would read each as several values.
    public var valuesWithCommas: [(field: ScoreField, value: String)] {
        ScoreField.allCases.flatMap { field -> [(field: ScoreField, value: String)] in
            guard case .list(let list) = values[field] else { return [] }
            return list.filter { $0.contains(",") }.map { (field, $0) }
        }
    }

    /// forScore's comma rule for this edit: throws ``ScoreError`` `.invalidValue` naming the
    /// first value with a comma unless `allowComma`; with it, one warning per such value.
    ///
    /// ```swift
    /// var edit = ScoreEdit()
    /// edit.composers = ["Dvořák, Antonín"]
    /// try edit.commaWarnings(allowComma: true)   // ["composers: 'Dvořák, Antonín' contains a comma, …"]
    /// ```
    @discardableResult
    public func commaWarnings(allowComma: Bool) throws -> [String] {
        try Self.commaRule(valuesWithCommas.map { ($0.field.rawValue, $0.value) }, allowComma: allowComma)
    }

    /// The comma rule over `(field, value)` pairs that hold a comma, written once for an edit
    /// and for metadata about to become Info fields (``ForScoreInfo/fields(for:allowComma:)``).
    static func commaRule(_ values: [(field: String, value: String)], allowComma: Bool) throws -> [String] {
        let messages = values.map { "\($0.field): '\($0.value)' contains a comma, so forScore reads it as several values" }
        if !allowComma, let first = messages.first {
            throw ScoreError(.invalidValue, first + " (--allow-comma keeps it)")
        }
        return messages
    }

    /// A text as a field keeps it: white space trimmed at both ends, nil when nothing is left.
    ///
    /// ```swift
    /// ScoreEdit.trimmed("  Rusalka ")   // "Rusalka"
    /// ScoreEdit.trimmed(" \n")          // nil
    /// ```
    public static func trimmed(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A list as a field keeps it: each value trimmed, blank ones dropped.
    ///
    /// ```swift
    /// ScoreEdit.trimmed(["Antonín Dvořák ", " ", "Чайковский"])   // ["Antonín Dvořák", "Чайковский"]
    /// ```
    public static func trimmed(_ values: [String]) -> [String] {
        values.compactMap { trimmed($0) }
    }

    /// `score` with this edit applied.
    public func applied(to score: ScoreMetadata) -> ScoreMetadata {
        var result = score
        for (field, value) in values { result[field] = value }
        for field in cleared { result[field] = nil }
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
