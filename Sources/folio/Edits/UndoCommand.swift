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
            Exit codes: 0 undone (or listed); 1 nothing to undo, the file changed since, or no library; 64 usage error.
            """
    )

    @Flag(help: "List the recorded changes instead of undoing the last.") var list = false
    @Argument(help: "The score.") var file: String

    func run() throws {
        var locator = CatalogLocator()
        guard let (catalog, relative) = locator.catalog(for: file) else {
            let error = LibraryError(.notFound, "\(file) is not catalogued in a library (run `folio library scan` in its folder)")
            throw CommandError.report(error, command: "undo", file: nil)
        }
        do {
            if list {
                let changes = try catalog.changes(score: relative)
                if changes.isEmpty { print("\(relative): no recorded changes") }
                let undoable = try catalog.lastChange(score: relative)
                for (index, change) in changes.enumerated() {
                    let when = ISO8601DateFormatter().string(from: change.madeAt)
                    let mark = index == 0 && undoable != nil ? " (undoable)" : ""
                    print("\(when)  \(change.author ?? "-")  \(change.change)\(mark)")
                }
            } else {
                let undone = try catalog.undo(score: relative, expected: nil)
                print("\(relative): undid \(undone.change)")
            }
        } catch {
            throw CommandError.report(error, command: "undo", file: file)
        }
    }
}
