import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio bookmarks import`.
struct BookmarksImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add page-range bookmarks from a CSV/TSV index.",
        discussion: """
            Columns are found by header name (title, start/page, end, composers, genres, tags, labels, rating, \
            difficulty, minutes, seconds, duration, keysf, keymi, key; forScore's own header names too), by \
            forScore's column order when there are 15 or more columns without a header, else title, start, end \
            by position; --map FIELD=N (1-based) or FIELD=NAME overrides. Pages are 1-based plus --page-offset; a \
            missing end is the next start - 1. Rows that cannot be read are reported with their line and skipped; \
            --strict refuses the index instead. Identifiers are derived from each row's title and pages, so importing \
            the same index again replaces its bookmarks instead of doubling them. --score also applies the index's \
            score row (forScore's layout: a file name and no pages) to the PDF's metadata, reference included.
            Example:
              folio bookmarks import realbook.pdf --from index.csv --page-offset 3 --map title=1 --map start=3
            Exit codes: 0 every row saved; 1 rows were skipped (the others are saved, each skipped one named on \
            standard error) or the PDF failed (untouched); 64 invalid index or options (untouched).
            """
    )

    @Option(help: "The index (CSV or TSV).") var from: String
    @Option(help: "A column for a field, FIELD=POSITION (1-based) or FIELD=HEADER (repeatable).") var map: [String] = []
    @Option(parsing: .unconditional, help: "Rows before the first entry (default: 1 if the first row is a header, else 0).") var headerRows: Int?
    @Option(parsing: .unconditional, help: "Added to every page of the index (book pages to PDF pages).") var pageOffset: Int = 0
    @Flag(help: "Refuse the index when a row cannot be read.") var strict = false
    @Flag(help: "Replace the bookmarks of the store written to instead of adding to them.") var replace = false
    @Flag(help: "Also apply the index's score row to the PDF's metadata.") var score = false
    @OptionGroup var options: EditFileOptions
    @OptionGroup var store: BookmarkStoreOptions

    func run() throws {
        let mapping: [CSVIndex.Field: CSVIndex.Column]
        let text: String
        do {
            mapping = try BookmarkIndexImport.mapping(map)
            guard let read = try BookmarkChain.readIndex(from) else { throw ScoreError(.invalidValue, "\(from): no such file") }
            text = read
        } catch {
            printError("folio bookmarks import: \(CommandError.describe(error))")
            throw ExitCode.validationFailure
        }
        let index = BookmarkIndexImport(
            text: text, source: from,
            options: CSVIndex.Options(mapping: mapping, headerRows: headerRows, pageOffset: pageOffset, strict: strict),
            applyScoreRow: score, replace: replace)
        let report = try BookmarksCommand.update("import", options, store) { manager, document in
            try index.apply(to: &manager, in: document)
        }
        for problem in report.problems { printError("folio bookmarks import: \(problem); skipped") }
        for warning in report.warnings { printError("folio bookmarks import: \(options.file): \(warning)") }
        // Partial application is not success (docs/saves.md).
        if !report.problems.isEmpty { throw ExitCode(1) }
    }
}
