import FolioPDF
import FolioScore
import Foundation

/// A library CSV in forScore's layout (`LibraryCSV`) written into the library's PDFs: each
/// row's Filename resolved in the catalog (a path, or a bare name exactly one file has), the
/// score row's fields and the bookmark rows applied to that file as one incremental save through
/// the library's edit path (recorded, its catalog row current at once). `folio library
/// import-csv` and `folio add` (and so the server's uploads) run it; a dry run writes nothing
/// and says what would change.
///
/// ```swift
/// let report = try LibraryCSVImport.run(text: csv, catalog: catalog, dryRun: true) { outcome in
///     print(outcome.path, outcome.rows.map(\.field))
/// }
/// report.problems   // rows naming no file, values out of range
/// ```
public enum LibraryCSVImport {
    /// What an import did or, dry, would do.
    ///
    /// ```swift
    /// let report = try LibraryCSVImport.run(text: csv, catalog: catalog, dryRun: false) { _ in }
    /// if !report.complete { print(report.problems.joined(separator: "\n")) }
    /// ```
    public struct Report: Sendable {
        /// Each file's outcome, its path relative to the library.
        public var outcomes: [ScoreBatch.Outcome] = []
        /// Rows that could not be read or applied, each with its line.
        public var problems: [String] = []
        /// Whether every file was read (and saved, unless dry).
        public var saved = true
        /// Whether the sheet named any file's own fields (a score row), not bookmarks alone.
        public var hasScoreRows = false

        /// Every row applied and every file saved.
        public var complete: Bool { saved && problems.isEmpty }
    }

    /// Reads `text` and applies it to the catalogued files (`report` hears of each file,
    /// its path relative to the library). Throws for a CSV that cannot be read at all.
    /// Each change is recorded in the library's record of changes by `author`.
    public static func run(text: String, catalog: LibraryCatalog, dryRun: Bool, password: String? = nil,
                           saveOptions: @escaping @Sendable (String) -> SaveOptions = { _ in SaveOptions() },
                           author: String? = nil, report: (ScoreBatch.Outcome) -> Void) throws -> Report {
        let sheet = try LibraryCSV.read(text)
        var result = Report()
        result.problems = sheet.problems.map { "\($0); skipped" }
        result.hasScoreRows = sheet.files.contains { $0.score != nil }
        var rowsByPath: [String: LibraryCSV.FileRows] = [:]
        var order: [String] = []
        for file in sheet.files {
            do {
                let relative = try catalog.resolve(fileName: file.fileName)
                let absolute = catalog.folder + "/" + relative
                guard rowsByPath[absolute] == nil else {
                    throw LibraryError(.invalidArgument, "\(relative) is named again (as \(file.fileName))")
                }
                rowsByPath[absolute] = file
                order.append(absolute)
            } catch {
                result.problems.append("line \(file.line): \(error); skipped")
            }
        }
        var batch = ScoreBatch(dryRun: dryRun, password: password, saveOptions: saveOptions)
        batch.changeName = "Imported a library CSV"
        batch.author = author
        let prefix = catalog.folder + "/"
        var problems: [String] = []
        result.saved = batch.run(files: order) { document, path in
            guard let rows = rowsByPath[path] else { return ScoreChange() }
            let (change, rowProblems) = LibraryCSV.change(for: rows, columns: sheet.columns, document: document)
            problems += rowProblems.map { "\($0) (\(rows.fileName)); skipped" }
            return change
        } report: { outcome in
            var relative = outcome
            if outcome.path.hasPrefix(prefix) { relative.path = String(outcome.path.dropFirst(prefix.count)) }
            result.outcomes.append(relative)
            report(relative)
        }
        result.problems += problems
        return result
    }
}
