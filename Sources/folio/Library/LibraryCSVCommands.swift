import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio library export-csv`.
struct LibraryExportCSVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-csv",
        abstract: "Write the library's metadata and bookmarks as one CSV in forScore's layout.",
        discussion: """
            Header: Filename,Title,Start Page (Bookmark),End Page (Bookmark),Composers,Genres,Tags,Labels,Reference, \
            Rating,Difficulty,Minutes,Seconds,keysf,keymi. Per score a row with no pages, then a row per bookmark \
            (table-of-contents pieces and stored bookmarks, with their own fields), each repeating Filename, which is \
            the path relative to the library. Files the catalog could not read are left out. The catalog is \
            brought up to date first (--no-scan skips that). Cells a spreadsheet would run as formulas start with '.
            Example: folio library export-csv ~/Scores --output scores.csv
            Exit codes: 0 written; 1 the catalog or the output could not be written; 64 usage error.
            """
    )

    @OptionGroup var library: ScannedLibrary
    @Option(help: "Write to this file (through a temporary file and a rename) instead of standard output.")
    var output: String?

    func run() throws {
        try LibraryCommand.run("export-csv") {
            let catalog = try library.catalog()
            if let output {
                var text = ""
                try catalog.exportCSV { text += $0 }
                try ExportFile.write(Array(text.utf8), to: output)
            } else {
                try catalog.exportCSV { FileHandle.standardOutput.write(Data($0.utf8)) }
            }
        }
    }
}

/// `folio library import-csv`.
struct LibraryImportCSVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-csv",
        abstract: "Write a forScore-layout CSV's metadata and bookmarks into the library's PDFs.",
        discussion: """
            Columns by forScore's positions when the first four header cells are forScore's (renamed categories \
            such as "Artists" for Composers are accepted), else by header names. A column the CSV has sets the \
            field, an empty cell clearing it (an empty Title leaves the title); a column it lacks leaves the field \
            alone. Bookmark rows are matched with the file's bookmarks by title and pages: a stored one is updated, \
            a table-of-contents piece without fields of its own is already there, any other row is added as a \
            stored bookmark; bookmarks the CSV does not name are kept. Filename is a path relative to the library, \
            or a bare name that exactly one catalogued file has; rows naming no file, or several, are reported and \
            never guessed. Each file is one incremental, atomic save; the catalog is updated after. \
            --dry-run prints what would change and writes no PDF.
            Example: folio library import-csv scores.csv --library ~/Scores --dry-run
            Exit codes: 0 every row applied; 1 rows reported (unknown files, bad values) or a file failed — the \
            other files are saved, a failed one is left byte-identical; 64 the CSV cannot be read.
            """
    )

    @Argument(help: "The CSV (or TSV) file.") var csv: String
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Print what would change; write nothing.") var dryRun = false
    @Flag(help: "One JSON object per line.") var json = false
    @Option(help: "Password for encrypted files.") var password: String?
    @OptionGroup var saving: SaveFlags

    func run() throws {
        let read: String?
        do { read = try BookmarkChain.readIndex(csv) } catch {
            printError("folio library import-csv: \(CommandError.describe(error))")   // the message names the file
            throw ExitCode.validationFailure
        }
        guard let text = read else {
            printError("folio library import-csv: \(csv): no such file")
            throw ExitCode.validationFailure
        }
        let catalog = try LibraryCommand.run("import-csv") { try location.catalog(scanning: true) }
        let saving = self.saving, json = self.json, dryRun = self.dryRun
        let report: LibraryCSVImport.Report
        do {
            report = try LibraryCSVImport.run(text: text, catalog: catalog, dryRun: dryRun, password: password,
                                              saveOptions: { saving.options(command: "library import-csv", file: $0) },
                                              author: EditAuthor.current()) { outcome in
                BulkOutput.report(outcome, path: outcome.path, command: "library import-csv", json: json, applied: !dryRun)
            }
        } catch let error as ScoreError {
            printError("folio library import-csv: \(csv): \(error.message)")
            throw CommandError.exitCode(for: error)
        } catch {
            throw CommandError.report(error, command: "library import-csv", file: nil)
        }
        for problem in report.problems { printError("folio library import-csv: \(csv): \(problem)") }
        if !report.complete { throw ExitCode(1) }
    }
}
