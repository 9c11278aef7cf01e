import ArgumentParser
import FolioLibrary
import FolioScore

/// Options every command that edits one PDF takes: the file, where the update goes, the
/// password, how it is saved, and `--dry-run`.
struct EditFileOptions: ParsableArguments {
    @Option(help: "Write to this file instead of updating FILE in place.") var output: String?
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDF.") var file: String
    @OptionGroup var saving: SaveFlags
    @Flag(help: "Make the change in memory and report it; write nothing.") var dryRun = false
}

extension EditFileOptions {
    /// Opens the file, lets `change` edit it and saves incrementally through
    /// `CatalogLocator.update` (in place under the lock, or to --output; a file catalogued in a
    /// library through the library's edit path, recorded for `folio undo`). A failure exits as ``CommandError`` maps it (a bad value 64,
    /// anything else 1); either way the file is untouched.
    func update<T>(_ command: String, change: (ScoreFile.Document) throws -> T) throws -> T {
        try Self.update(command, file: file, output: output, password: password, saving: saving, dryRun: dryRun, change: change)
    }

    /// ``update(_:change:)`` for one of several files a command takes.
    /// With `dryRun` the change is made to the file read into memory, and nothing is saved.
    static func update<T>(_ command: String, file: String, output: String?, password: String?, saving: SaveFlags,
                          dryRun: Bool = false, change: (ScoreFile.Document) throws -> T) throws -> T {
        do {
            if dryRun {
                let result = try change(try ScoreFile(file, password: password).open())
                printError("folio \(command): \(file): dry run, nothing written")
                return result
            }
            var libraries = CatalogLocator()
            return try libraries.update(file: file, output: output, password: password, save: saving.options(command: command, file: file),
                                        change: "folio \(command)", author: EditAuthor.current(), change)
        } catch {
            throw CommandError.report(error, command: command, file: file)
        }
    }
}
