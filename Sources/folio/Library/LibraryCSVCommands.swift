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
            Header: Filename,Title,Start Page (Bookmark),End Page (Bookmark),Composers,Genres,Tags,Labels,Reference,
            Rating,Difficulty,Minutes,Seconds,keysf,keymi. Per score a row with no pages, then a row per bookmark
            (table-of-contents pieces and stored bookmarks, with their own fields), each repeating Filename, which is
            the path relative to the library. Files the catalog could not read are left out. The catalog is
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
            Columns by forScore's positions when the first four header cells are forScore's (renamed categories
            such as "Artists" for Composers are accepted), else by header names. A column the CSV has sets the
            field, an empty cell clearing it (an empty Title leaves the title); a column it lacks leaves the field
            alone. Bookmark rows are matched with the file's bookmarks by title and pages: a stored one is updated,
            a table-of-contents piece without fields of its own is already there, any other row is added as a
            stored bookmark; bookmarks the CSV does not name are kept. Filename is a path relative to the library,
            or a bare name that exactly one catalogued file has; rows naming no file, or several, are reported and
            never guessed. Each file is one incremental, atomic save; the catalog is updated after.
            --dry-run prints what would change and writes no PDF.
            Example: folio library import-csv scores.csv --library ~/Scores --dry-run
            Exit codes: 0 every row applied; 1 rows reported (unknown files, bad values) or a file failed — the
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
        let sheet: LibraryCSV.Sheet
        do { sheet = try LibraryCSV.read(text) } catch {
            printError("folio library import-csv: \(csv): \(CommandError.describe(error))")
            throw ExitCode.validationFailure
        }
        var complete = sheet.problems.isEmpty
        for problem in sheet.problems { printError("folio library import-csv: \(csv): \(problem); skipped") }
        let catalog = try LibraryCommand.run("import-csv") { try location.catalog(scanning: true) }
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
                printError("folio library import-csv: \(csv): line \(file.line): \(CommandError.describe(error)); skipped")
                complete = false
            }
        }
        let saving = self.saving, columns = sheet.columns, json = self.json, dryRun = self.dryRun
        var problems = 0
        let batch = ScoreBatch(dryRun: dryRun, password: password) { saving.options(command: "library import-csv", file: $0) }
        let prefix = catalog.folder + "/"
        let saved = batch.run(files: order) { document, path in
            guard let rows = rowsByPath[path] else { return ScoreChange() }
            let (change, rowProblems) = LibraryCSV.change(for: rows, columns: columns, document: document)
            for problem in rowProblems {
                printError("folio library import-csv: \(csv): \(problem) (\(rows.fileName)); skipped")
            }
            problems += rowProblems.count
            return change
        } report: { outcome in
            let path = outcome.path.hasPrefix(prefix) ? String(outcome.path.dropFirst(prefix.count)) : outcome.path
            BulkOutput.report(outcome, path: path, command: "library import-csv", json: json, applied: !dryRun)
        }
        if !dryRun { _ = try LibraryCommand.run("import-csv") { try LibraryScanner(catalog: catalog).scan() } }
        if !saved || !complete || problems > 0 { throw ExitCode(1) }
    }
}
