import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// What a bulk metadata command works on and how: `FILE...` or `--library DIR` (every
/// readable file of its catalog, which is brought up to date first; `folio library scan` makes it), `--dry-run`,
/// `--json`, the password and how files are saved.
///
/// ```
/// folio meta adopt --library ~/Scores --dry-run
/// folio lint Faure.pdf Chopin.pdf --fix --json
/// ```
struct BulkTargets: ParsableArguments {
    @Argument(help: "The PDFs (or --library).") var files: [String] = []
    @Option(name: .customLong("library"), help: "Every catalogued PDF of this library folder (scanned first; `folio library scan` makes its catalog).")
    var library: String?
    @Option(help: "The catalog database with --library (default: LIBRARY/.folio/library.sqlite).") var db: String?
    @Option(help: "Password for encrypted files.") var password: String?
    @Flag(help: "One JSON object per line.") var json = false
    @OptionGroup var saving: SaveFlags

    func validate() throws {
        if files.isEmpty == (library == nil) { throw ValidationError("give FILE... or --library DIR (one of them)") }
    }

    /// Runs `change` over the files, or every score of the library, as a ``ScoreBatch``
    /// and prints each file's table. Returns whether every file succeeded.
    func run(command: String, dryRun: Bool,
             change: (ScoreFile.Document, _ show: String) throws -> ScoreChange) throws -> Bool {
        var batch = ScoreBatch.writing(command, output: nil, password: password, saving: saving, allowComma: true)
        batch.dryRun = dryRun
        let json = self.json
        let report = { (outcome: ScoreBatch.Outcome) in
            BulkOutput.report(outcome, path: outcome.path, command: command, json: json, applied: !dryRun)
        }
        guard let library else { return batch.run(files: files, change: change, report: report) }
        return try LibraryCommand.run(command, program: command) {
            try batch.run(library: try LibraryCatalog(folder: library, databasePath: db, create: false), change: change, report: report)
        }
    }
}

/// Before → after tables.
enum BulkOutput {
    /// One file's outcome: its error or warnings on standard error, its table on standard output.
    static func report(_ outcome: ScoreBatch.Outcome, path: String, command: String, json: Bool, applied: Bool) {
        if let error = outcome.error {
            printError("folio \(command): \(path): \(error)")
            return
        }
        for warning in outcome.warnings { printError("folio \(command): \(path): warning: \(warning)") }
        print(path: path, rows: outcome.rows, json: json, applied: applied)
    }

    /// A metadata edit's outcome as `meta set` and `meta apply` print it: the before → after
    /// table with `--json` or `--dry-run` (nothing saved), else only its warnings and error.
    static func reportEdit(_ outcome: ScoreBatch.Outcome, command: String, json: Bool, dryRun: Bool) {
        if json || dryRun {
            report(outcome, path: outcome.path, command: command, json: json, applied: !dryRun)
        } else {
            outcome.print(command: command)
        }
    }

    static func print(path: String, rows: [FieldChange], json: Bool, applied: Bool) {
        guard !rows.isEmpty else { return }
        if json {
            for row in rows {
                let fields: [(String, JSONValue)] = [
                    ("path", .string(path)), ("field", .string(row.field)), ("before", .string(row.before)),
                    ("after", .string(row.after)), ("reason", .optional(row.reason)), ("applied", .bool(applied)),
                ]
                Swift.print(JSONValue.object(fields) as String)
            }
            return
        }
        Swift.print(path)
        let width = rows.map(\.field.count).max() ?? 0
        for row in rows {
            let field = row.field + String(repeating: " ", count: width - row.field.count)
            let before = row.before.isEmpty ? "(none)" : row.before
            let after = row.after.isEmpty ? "(none)" : row.after
            Swift.print("  \(field)  \(before) → \(after)" + (row.reason.map { "   [\($0)]" } ?? ""))
        }
    }
}
