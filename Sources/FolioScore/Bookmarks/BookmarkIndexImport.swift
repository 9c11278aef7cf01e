import Foundation

/// Page-range bookmarks from a CSV or TSV index (forScore's layout, or any sheet with a title
/// and a page column): the one import behind `folio bookmarks import` and an index dropped into
/// a library. It reads the index against the score's page count, optionally applies the
/// index's score row to the metadata and replaces the bookmarks already there, and adds one
/// bookmark per row; rows that cannot be read are reported, not fatal (unless
/// ``CSVIndex/Options/strict``).
///
/// ```swift
/// let text = "Title,Start,End\nЁлочка,1,2\nСвятки,3,4\n"
/// let index = BookmarkIndexImport(text: text, source: "Альбом.csv")
/// try BookmarkChain.update(ScoreFile("Альбом.pdf"), index: nil) { manager, document in
///     try index.apply(to: &manager, in: document)
/// }
/// ```
public struct BookmarkIndexImport: Sendable {
    /// The index's text.
    public var text: String
    /// Its name in messages (the file it came from).
    public var source: String
    /// How its columns, header rows and pages are read.
    public var options: CSVIndex.Options
    /// Also apply the index's score row (a file name and no pages) to the score's metadata.
    public var applyScoreRow: Bool
    /// Remove the bookmarks of the first store written to before adding.
    public var replace: Bool

    public init(text: String, source: String, options: CSVIndex.Options = CSVIndex.Options(),
                applyScoreRow: Bool = false, replace: Bool = false) {
        self.text = text
        self.source = source
        self.options = options
        self.applyScoreRow = applyScoreRow
        self.replace = replace
    }

    /// What an import did.
    public struct Report: Sendable, Equatable {
        /// The bookmarks added, in the index's order.
        public var added: [Bookmark] = []
        /// Rows skipped, each with its line and reason.
        public var problems: [String] = []
        /// What writing the score row warned about (a comma in a name, a value trimmed).
        public var warnings: [String] = []
    }

    /// Column choices written `FIELD=POSITION` (1-based) or `FIELD=HEADER`, as `--map` takes
    /// them. An unknown field or a missing `=` is `invalidValue`, naming the fields.
    ///
    /// ```swift
    /// let mapping = try BookmarkIndexImport.mapping(["title=1", "start=Seite"])
    /// ```
    public static func mapping(_ items: [String]) throws -> [CSVIndex.Field: CSVIndex.Column] {
        var mapping: [CSVIndex.Field: CSVIndex.Column] = [:]
        for item in items {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty, let field = CSVIndex.Field(rawValue: parts[0].lowercased()) else {
                throw ScoreError(.invalidValue, "a column is chosen as FIELD=COLUMN with FIELD one of "
                    + CSVIndex.Field.allCases.map(\.rawValue).joined(separator: ", ") + "; got '\(item)'")
            }
            mapping[field] = Int(parts[1]).map { .position($0) } ?? .name(parts[1])
        }
        return mapping
    }

    /// Adds the index's bookmarks to `manager` (its first provider is where they are
    /// written), for the score open as `document`; with ``applyScoreRow`` also writes the score
    /// row into `document` (unsaved, like the bookmarks). An index that cannot be read, or a
    /// score row that cannot be written, throws `invalidValue` naming ``source``; then nothing
    /// has been added.
    public func apply(to manager: inout BookmarkManager, in document: ScoreFile.Document) throws -> Report {
        let contents: CSVIndex.Contents
        do {
            contents = try CSVIndex.read(text, options: options, pageCount: document.pageCount)
        } catch let error as ScoreError {
            throw ScoreError(.invalidValue, "\(source): \(error.message)")
        }
        var report = Report(problems: contents.problems.map { "\(source): \($0)" })
        if applyScoreRow, let row = contents.score, !ScoreEdit(setting: row).isEmpty {
            do {
                report.warnings = try ScoreWriter.write(ScoreEdit(setting: row), to: document, options: .init(allowComma: true))
            } catch let error as ScoreError {
                throw ScoreError(.invalidValue, "\(source): the score row: \(error.message)")
            }
        }
        if replace, let target = manager.providers.first {
            for bookmark in target.bookmarks { manager.remove(id: bookmark.id) }
        }
        for bookmark in contents.bookmarks { manager.add(bookmark) }
        report.added = contents.bookmarks
        return report
    }
}
