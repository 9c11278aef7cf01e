import FolioPDF
import Foundation

/// A whole library's metadata as one CSV in forScore's layout
/// (`../shared/seeds/forscore-file-types.txt`): the header, then per file a row for the
/// score (no pages) and a row per bookmark, each repeating the file name.
///
/// forScore lets a user rename the categories (Composers → "Artists"), so a header whose
/// first four columns are forScore's is read by position; any other header by its names.
/// A column the header has is authoritative on import (an empty cell clears the field); a
/// column it lacks leaves the field alone.
///
/// ```swift
/// let sheet = try LibraryCSV.read(text)
/// for file in sheet.files {
///     let change = LibraryCSV.change(for: file, columns: sheet.columns, document: try PDFDocument(path: file.fileName))
///     print(file.fileName, change.describe(current: ScoreMetadata.read(from: document).0))
/// }
/// ```
public enum LibraryCSV {
    /// A bookmark row, pages as written (checked against the PDF on import).
    ///
    /// ```swift
    /// let sheet = try LibraryCSV.read(text)
    /// sheet.files.first?.bookmarks.map(\.title)
    /// ```
    public struct BookmarkRow: Sendable, Equatable {
        public let line: Int
        public let title: String
        public let start: Int
        public let end: Int?
        public let metadata: ScoreMetadata
    }

    /// The rows of one file.
    ///
    /// ```swift
    /// for file in try LibraryCSV.read(text).files { print(file.fileName, file.score?.title ?? "") }
    /// ```
    public struct FileRows: Sendable, Equatable {
        /// As written in the Filename column: a path relative to the library, or a bare name.
        public let fileName: String
        /// The first line that names the file.
        public let line: Int
        /// The score row's fields; nil when the file has bookmark rows only.
        public var score: ScoreMetadata?
        public var bookmarks: [BookmarkRow] = []
    }

    /// A read sheet: files in the order they first appear.
    ///
    /// ```swift
    /// let sheet = try LibraryCSV.read("Filename,Title\nMá vlast.pdf,Má vlast\n")
    /// sheet.columns.contains(.title)   // true
    /// ```
    public struct Sheet: Sendable {
        public var files: [FileRows]
        /// The fields the header has.
        public var columns: Set<CSVIndex.Field>
        public var problems: [CSVIndex.Problem]
    }

    /// Reads a library CSV (comma, semicolon or tab separated). Rows that cannot be read are
    /// problems with their line; a file named by two score rows keeps the first.
    public static func read(_ text: String) throws -> Sheet {
        guard text.utf8.count <= CSVIndex.maxBytes else {
            throw ScoreError(.invalidValue, "the CSV has \(text.utf8.count) bytes; at most \(CSVIndex.maxBytes) are read")
        }
        let records = try CSVIndex.records(text)
        guard let header = records.first, !header.allSatisfy(\.isEmpty) else {
            throw ScoreError(.invalidValue, "the CSV is empty; its first row must be a header with Filename and Title")
        }
        var columns: [CSVIndex.Field: Int] = [:]
        let lowered = header.map { $0.lowercased() }
        if lowered.count >= 4, Array(lowered.prefix(4)) == CSVIndex.forScoreHeader.prefix(4).map({ $0.lowercased() }) {
            for (index, field) in CSVIndex.forScoreFields.enumerated() where index < header.count { columns[field] = index }
        } else {
            for (index, name) in lowered.enumerated() {
                if let field = CSVIndex.headerNames[name], columns[field] == nil { columns[field] = index }
            }
        }
        guard columns[.filename] != nil, columns[.title] != nil else {
            throw ScoreError(.invalidValue, "line 1: the header needs a Filename and a Title column "
                + "(forScore's header: \(CSVIndex.forScoreHeader.joined(separator: ",")))")
        }
        var sheet = Sheet(files: [], columns: Set(columns.keys), problems: [])
        var position: [String: Int] = [:]
        for (offset, record) in records.enumerated().dropFirst() {
            let line = offset + 1
            if record.allSatisfy(\.isEmpty) { continue }
            func cell(_ field: CSVIndex.Field) -> String {
                guard let index = columns[field], index < record.count else { return "" }
                return CSVIndex.unguarded(record[index])
            }
            do {
                let fileName = cell(.filename)
                guard !fileName.isEmpty else { throw ScoreError(.invalidValue, "no file name") }
                let metadata = try CSVIndex.rowMetadata(cell)
                let index = position[fileName] ?? {
                    sheet.files.append(FileRows(fileName: fileName, line: line))
                    position[fileName] = sheet.files.count - 1
                    return sheet.files.count - 1
                }()
                if cell(.start).isEmpty {
                    guard sheet.files[index].score == nil else {
                        throw ScoreError(.invalidValue, "a second score row for \(fileName); the first is kept")
                    }
                    var score = metadata
                    score.title = cell(.title).isEmpty ? nil : cell(.title)
                    sheet.files[index].score = score
                    continue
                }
                let title = cell(.title)
                guard !title.isEmpty else { throw ScoreError(.invalidValue, "a bookmark row with no title") }
                func page(_ field: CSVIndex.Field, _ what: String) throws -> Int? {
                    let text = cell(field)
                    guard !text.isEmpty else { return nil }
                    guard let number = Int(text), number >= 1 else {
                        throw ScoreError(.outOfRange, "\(what) '\(text)' is out of range (valid: 1 or more)")
                    }
                    return number
                }
                guard let start = try page(.start, "start page") else { continue }
                let end = try page(.end, "end page")
                if let end, end < start {
                    throw ScoreError(.outOfRange, "end page \(end) is before the start page \(start)")
                }
                sheet.files[index].bookmarks.append(BookmarkRow(line: line, title: title, start: start, end: end,
                                                                metadata: metadata))
            } catch let error as ScoreError {
                sheet.problems.append(CSVIndex.Problem(line: line, message: error.message))
            }
        }
        return sheet
    }

    /// What importing `rows` into `document` changes: the score's fields the header has
    /// and that differ, and the bookmarks not already there with the same title, pages and
    /// fields. A row matching a stored bookmark by title and pages updates it; one matching
    /// a bookmark derived from the table of contents with no fields of its own is already
    /// there; any other is added. Bookmarks the CSV does not name are kept. Rows whose pages
    /// the PDF does not have are problems.
    public static func change(for rows: FileRows, columns: Set<CSVIndex.Field>, document: PDFDocument)
        -> (ScoreChange, [CSVIndex.Problem])
    {
        var change = ScoreChange()
        let (current, _) = ScoreMetadata.read(from: document)
        if let wanted = rows.score {
            change.edit = edit(from: wanted, current: current, columns: columns)
        }
        var problems: [CSVIndex.Problem] = []
        let pageCount = document.pageCount
        let stored = XMPBookmarkProvider(document: document).bookmarks
        let derived = TableOfContents.bookmarks(from: document.outline(), pageCount: pageCount)
        var occurrences: [String: Int] = [:]
        for (position, row) in rows.bookmarks.enumerated() {
            // A missing end is the next row's start - 1, as forScore fills it.
            let nextStart = rows.bookmarks.dropFirst(position + 1).map(\.start).filter { $0 > row.start }.min()
            let end = row.end ?? min(pageCount, max(row.start, (nextStart ?? pageCount + 1) - 1))
            guard row.start <= pageCount, end <= pageCount else {
                problems.append(CSVIndex.Problem(line: row.line, message: "pages \(row.start)–\(end) are out of range "
                    + "(valid: 1 to \(pageCount) in this PDF)"))
                continue
            }
            let pages = row.start...end
            if let existing = stored.first(where: { ($0.name ?? "") == row.title && $0.pages == pages }) {
                if existing.metadata != row.metadata {
                    change.bookmarks.append(Bookmark(id: existing.id, name: existing.name, action: existing.action,
                                                     sortKey: existing.sortKey, pages: pages, metadata: row.metadata))
                }
                continue
            }
            if row.metadata == ScoreMetadata(),
               derived.contains(where: { $0.title == row.title && $0.start == row.start && $0.end == end }) {
                continue
            }
            let key = "\(row.title)|\(pages)"
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            change.bookmarks.append(Bookmark(id: BookmarkIdentifier.derived(title: row.title, pages: pages,
                                                                            occurrence: occurrence),
                                             name: row.title, action: .page(index: row.start - 1), pages: pages,
                                             metadata: row.metadata))
        }
        return (change, problems)
    }

    /// The edit that makes `current` hold `wanted` in the fields `columns` has.
    static func edit(from wanted: ScoreMetadata, current: ScoreMetadata, columns: Set<CSVIndex.Field>) -> ScoreEdit {
        var edit = ScoreEdit()
        // forScore always has a title: an empty title cell leaves it alone.
        if columns.contains(.title), let title = wanted.title, title != current.title { edit.title = title }
        let present: [ScoreField: Bool] = [
            .composers: columns.contains(.composers), .genres: columns.contains(.genres), .tags: columns.contains(.tags),
            .labels: columns.contains(.labels), .reference: columns.contains(.reference),
            .rating: columns.contains(.rating), .difficulty: columns.contains(.difficulty),
            .duration: !columns.isDisjoint(with: [.minutes, .seconds, .duration]),
            .key: !columns.isDisjoint(with: [.keysf, .key]),
        ]
        for field in ScoreField.allCases where present[field] == true && wanted[field] != current[field] {
            if let new = wanted[field] { edit[field] = new } else { edit.cleared.insert(field) }
        }
        return edit
    }

    /// The header line of a library CSV (forScore's), with its line end.
    public static let header = CSVIndex.forScoreHeader.joined(separator: ",") + "\r\n"

    /// One score's rows as `export` writes them (score row, bookmarks in page
    /// order), without the header: a library CSV is ``header`` and then these for each score,
    /// `fileName` relative to the library.
    public static func rows(fileName: String, score: ScoreMetadata, bookmarks: [Bookmark]) -> String {
        let single = CSVIndex.export(fileName: fileName, score: score, bookmarks: bookmarks)
        guard let end = single.range(of: "\r\n") else { return "" }
        return String(single[end.upperBound...])
    }
}
