import FolioPDF
import Foundation

/// One line of a before → after table.
///
/// ```swift
/// FieldChange(field: "composers", before: "", after: "Gabriel Fauré", reason: "lilypond-composer")
/// ```
public struct FieldChange: Sendable, Equatable {
    public let field: String
    public let before: String
    public let after: String
    /// The rule or source behind the change, when there is one.
    public let reason: String?

    public init(field: String, before: String, after: String, reason: String? = nil) {
        self.field = field
        self.before = before
        self.after = after
        self.reason = reason
    }
}

/// What a bulk operation (CSV import, adopt, from-names, lint --fix) does to one score:
/// a metadata edit and the stored bookmarks to add or replace (by identifier). Applied
/// to an opened document, which the caller saves incrementally.
///
/// ```swift
/// var change = ScoreChange()
/// change.edit.composers = ["Gabriel Fauré"]
/// try PDFSaver.update(path: "Faure.pdf") { document in try change.apply(to: document) }
/// ```
public struct ScoreChange: Sendable, Equatable {
    public var edit = ScoreEdit()
    /// Stored bookmarks to add, or to replace the one with the same identifier.
    public var bookmarks: [Bookmark] = []
    /// Why each field changes, by field (shown in the table).
    public var reasons: [ScoreField: String] = [:]
    /// Link annotations to remove, by id (an engraver's point-and-click links).
    public var removedLinks: Set<String> = []

    public init() {}

    public var isEmpty: Bool { edit.isEmpty && bookmarks.isEmpty && removedLinks.isEmpty }

    /// The table of what changes, fields in forScore's order, then bookmarks.
    public func describe(current: ScoreMetadata) -> [FieldChange] {
        let after = edit.applied(to: current)
        var rows: [FieldChange] = []
        for field in ScoreField.allCases where edit.changedFields.contains(field) {
            rows.append(FieldChange(field: field.rawValue, before: Self.display(field, current),
                                    after: Self.display(field, after), reason: reasons[field]))
        }
        for bookmark in bookmarks {
            let pages = bookmark.pages.map { "\($0.lowerBound)–\($0.upperBound)" } ?? ""
            var fields = Self.summary(bookmark.metadata)
            if !fields.isEmpty { fields = " (" + fields + ")" }
            rows.append(FieldChange(field: "bookmark", before: "", after: "\(bookmark.name ?? "") p. \(pages)\(fields)"))
        }
        if !removedLinks.isEmpty {
            rows.append(FieldChange(field: "links", before: "\(removedLinks.count) point-and-click", after: "", reason: "point-and-click"))
        }
        return rows
    }

    /// Applies the change to `document` (unsaved); returns the writers' warnings.
    @discardableResult
    public func apply(to document: PDFDocument, allowComma: Bool = true, date: Date = Date()) throws -> [String] {
        var warnings: [String] = []
        if !edit.isEmpty {
            warnings += try ScoreWriter.write(edit, to: document, options: .init(allowComma: allowComma, date: date))
        }
        if !bookmarks.isEmpty {
            var store = XMPBookmarkProvider(document: document)
            for bookmark in bookmarks { _ = store.add(bookmark) }
            warnings += try store.write(to: document, date: date)
        }
        try PointAndClickLinks.remove(removedLinks, from: document)
        return warnings
    }

    /// A field's value as the table shows it ("" when empty).
    public static func display(_ field: ScoreField, _ score: ScoreMetadata) -> String {
        score[field]?.display(as: field) ?? ""
    }

    static func summary(_ score: ScoreMetadata) -> String {
        ScoreField.allCases.compactMap { field in
            let value = display(field, score)
            return value.isEmpty ? nil : "\(field.rawValue): \(value)"
        }.joined(separator: "; ")
    }
}
