import ArgumentParser
import FolioLibrary
import Foundation

/// `folio undo FILE`: takes back the last change saved to a catalogued score through the
/// library's edit path (by `folio` or by the server), as the server's Undo does; `--list`
/// shows the changes that are recorded, the last first, with who made them and their number;
/// `--change N` takes back change N, keeping the changes made after it.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Take back the last change saved to a catalogued score (or list its changes).",
        discussion: """
            The score must be catalogued in a library (a folder above it holds .folio/library.sqlite). It is \
            named as every command names one: a file by any path, a path relative to the library, a file name \
            only one catalogued file has (from anywhere in the library, or with --library), or its id. \
            Every change Folio saves is an incremental update: undo cuts the file back to its revision \
            before the last recorded change, when nothing changed the file since. The record lives in \
            the catalog, so it outlives a restart of the server. \
            --change N takes back an earlier change (its number from --list) and keeps every change made \
            after it: what it changed is put back, merged with later changes to the same things (another \
            mark on the same page stays), saved as a change of its own. Refused when a later change touched \
            the same thing in a way that does not merge: take that one back first.
            Example: folio meta set Rusalka.pdf --rating 5; folio undo Rusalka.pdf
            Example: folio undo Rusalka.pdf --list; folio undo Rusalka.pdf --change 12 \
            --json prints one object a line: each change with --list ("id", "change", "author", "madeAt", "undoable"), \
            else what was (or with --dry-run would be) undone.
            Exit codes: 0 undone (or listed); 1 nothing to undo, the file changed since, a later change in the way, \
            no such score or no library; 64 usage error (a file name several files have, a file outside the library).
            """
    )

    @Flag(help: "List the recorded changes instead of undoing the last.") var list = false
    @Flag(help: "Say what would be undone; change nothing.") var dryRun = false
    @Option(help: ArgumentHelp("Take back this change (its number from --list), keeping those after it.", valueName: "number"))
    var change: Int64?
    @Flag(help: "Print JSON, one object a line.") var json = false
    @Argument(help: "The score: a file by any path, a path in the library, a file name only one score has, or its id.")
    var file: String
    @OptionGroup var location: LibraryLocation

    /// One change as `--json` prints it.
    struct Item: Encodable {
        let score: String
        let id: Int64
        let change: String
        let author: String?
        let madeAt: String
        let undoable: Bool
        /// Whether this run took it back (false for --list and --dry-run).
        let undone: Bool

        init(score: String, _ record: LibraryCatalog.ChangeRecord, undoable: Bool, undone: Bool) {
            self.score = score
            id = record.id
            change = record.change
            author = record.author
            madeAt = ISO8601DateFormatter().string(from: record.madeAt)
            self.undoable = undoable
            self.undone = undone
        }
    }

    func validate() throws {
        if list && dryRun { throw ValidationError("--list changes nothing; --dry-run goes with an undo") }
        if change != nil && (list || dryRun) { throw ValidationError("--change takes a change back; it goes without --list and --dry-run") }
    }

    func run() throws {
        let (catalog, relative) = try LibraryCommand.run("undo", program: "undo") { try location.score(file) }
        do {
            if list {
                let changes = try catalog.changes(score: relative)
                let undoable = try catalog.lastChange(score: relative)
                let items = changes.enumerated().map { Item(score: relative, $1, undoable: $0 == 0 && undoable != nil, undone: false) }
                if json { return try printJSONLines(items) }
                if changes.isEmpty { print("\(relative): no recorded changes") }
                for item in items {
                    print("\(item.id)  \(item.madeAt)  \(item.author ?? "-")  \(item.change)\(item.undoable ? " (undoable)" : "")")
                }
            } else if let change {
                guard let step = try catalog.changes(score: relative).first(where: { $0.id == change }) else {
                    throw LibraryError(.notFound, "no change \(change) is recorded for \(relative) (see --list)")
                }
                let undone = try catalog.takeBack(score: relative, change: change, expected: nil)
                if json { return try printJSONLine(Item(score: relative, step, undoable: true, undone: true)) }
                print("\(relative): took back \(undone.change)")
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
