import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// What a bulk metadata command works on and how: `FILE...` or `--library DIR` (every
/// readable file of its catalog, which is brought up to date first and after), `--dry-run`,
/// `--json`, the password and how files are saved.
///
/// ```
/// folio meta adopt --library ~/Scores --dry-run
/// folio lint Faure.pdf Chopin.pdf --fix --json
/// ```
struct BulkTargets: ParsableArguments {
    @Argument(help: "The PDFs (or --library).") var files: [String] = []
    @Option(name: .customLong("library"), help: "Every catalogued PDF of this library folder (scanned first).")
    var library: String?
    @Option(help: "The catalog database with --library (default: LIBRARY/.folio/library.sqlite).") var db: String?
    @Option(help: "Password for encrypted files.") var password: String?
    @Flag(help: "One JSON object per line.") var json = false
    @OptionGroup var saving: SaveFlags

    func validate() throws {
        if files.isEmpty == (library == nil) { throw ValidationError("give FILE... or --library DIR (one of them)") }
    }

    /// The files, as paths to open and paths to show; with --library the catalog is scanned first.
    func resolve(command: String) throws -> (catalog: LibraryCatalog?, files: [(open: String, show: String)]) {
        guard let library else { return (nil, files.map { ($0, $0) }) }
        return try LibraryCommand.run(command, program: command) {
            let catalog = try LibraryCatalog(folder: library, databasePath: db, create: true)
            _ = try LibraryScanner(catalog: catalog).scan()
            return (catalog, try catalog.paths().map { (catalog.folder + "/" + $0, $0) })
        }
    }

    /// Runs `change` over the files as a ``ScoreBatch`` and prints each file's table.
    /// Returns whether every file succeeded.
    func run(command: String, dryRun: Bool,
             change: (ScoreFile.Document, _ show: String) throws -> ScoreChange) throws -> Bool {
        let (catalog, targets) = try resolve(command: command)
        let shown = Dictionary(targets.map { ($0.open, $0.show) }, uniquingKeysWith: { first, _ in first })
        let saving = self.saving
        let batch = ScoreBatch(dryRun: dryRun, password: password) { saving.options(command: command, file: $0) }
        let json = self.json
        let ok = batch.run(files: targets.map(\.open)) { document, path in
            try change(document, shown[path] ?? path)
        } report: { outcome in
            BulkOutput.report(outcome, path: shown[outcome.path] ?? outcome.path, command: command, json: json,
                              applied: !dryRun)
        }
        if let catalog, !dryRun { _ = try? LibraryScanner(catalog: catalog).scan() }
        return ok
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
