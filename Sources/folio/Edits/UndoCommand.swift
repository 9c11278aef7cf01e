import ArgumentParser
import FolioLibrary
import Foundation

/// `folio undo FILE`: takes back the last change saved to a catalogued score through the
/// library's edit path (by `folio` or by the server), as the server's Undo does; `--list`
/// shows the changes that are recorded, the last first, with who made them.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the last change saved to a catalogued score (or list its changes).",
        discussion: """
            The file must be catalogued in a library (a folder above it holds .folio/library.sqlite).
            Every change Folio saves is an incremental update: undo cuts the file back to its revision
            before the last recorded change, when nothing changed the file since. The record lives in
            the catalog, so it outlives a restart of the server.
            Example: folio meta set Rusalka.pdf --rating 5; folio undo Rusalka.pdf
            --json prints one object a line: each change with --list ("change", "author", "madeAt", "undoable"),
            else what was (or with --dry-run would be) undone.
            Exit codes: 0 undone (or listed); 1 nothing to undo, the file changed since, or no library; 64 usage error.
            """
    )

    @Flag(help: "List the recorded changes instead of undoing the last.") var list = false
    @Flag(help: "Say what would be undone; change nothing.") var dryRun = false
    @Flag(help: "Print JSON, one object a line.") var json = false
    @Argument(help: "The score.") var file: String

    /// One change as `--json` prints it.
    struct Item: Encodable {
        let score: String
        let change: String
        let author: String?
        let madeAt: String
        let undoable: Bool
        /// Whether this run took it back (false for --list and --dry-run).
        let undone: Bool

        init(score: String, _ record: LibraryCatalog.ChangeRecord, undoable: Bool, undone: Bool) {
            self.score = score
            change = record.change
            author = record.author
            madeAt = ISO8601DateFormatter().string(from: record.madeAt)
            self.undoable = undoable
            self.undone = undone
        }
    }

    func validate() throws {
        if list && dryRun { throw ValidationError("--list changes nothing; --dry-run goes with an undo") }
    }

    func run() throws {
        var locator = CatalogLocator()
        guard let (catalog, relative) = locator.catalog(for: file) else {
            let error = LibraryError(.notFound, "\(file) is not catalogued in a library (run `folio library scan` in its folder)")
            throw CommandError.report(error, command: "undo", file: nil)
        }
        do {
            if list {
                let changes = try catalog.changes(score: relative)
                let undoable = try catalog.lastChange(score: relative)
                let items = changes.enumerated().map { Item(score: relative, $1, undoable: $0 == 0 && undoable != nil, undone: false) }
                if json { return try printJSONLines(items) }
                if changes.isEmpty { print("\(relative): no recorded changes") }
                for item in items {
                    print("\(item.madeAt)  \(item.author ?? "-")  \(item.change)\(item.undoable ? " (undoable)" : "")")
                }
            } else if dryRun {
                let step = try catalog.undoable(score: relative)
                if json { return try printJSONLine(Item(score: relative, step, undoable: true, undone: false)) }
                print("\(relative): would undo \(step.change) (\(step.author ?? "author unknown"), "
                      + "\(ISO8601DateFormatter().string(from: step.madeAt)))")
            } else {
                let step = try catalog.undoable(score: relative)
                let undone = try catalog.undo(score: relative, expected: nil)
                if json { return try printJSONLine(Item(score: relative, step, undoable: true, undone: true)) }
                print("\(relative): undid \(undone.change)")
            }
        } catch {
            throw CommandError.report(error, command: "undo", file: file)
        }
    }
}
