import ArgumentParser
import FolioLibrary
import FolioScore

/// Options every command that edits one PDF takes: the file, where the update goes, and
/// the password.
struct EditFileOptions: ParsableArguments {
    @Option(help: "Write to this file instead of updating FILE in place.") var output: String?
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDF.") var file: String
    @OptionGroup var saving: SaveFlags
}

extension EditFileOptions {
    /// Opens the file, lets `change` edit it and saves incrementally through
    /// `CatalogLocator.update` (in place under the lock, or to --output; a file catalogued in a
    /// library through the library's edit path, recorded for `folio undo`). A failure exits as ``CommandError`` maps it (a bad value 64,
    /// anything else 1); either way the file is untouched.
    func update<T>(_ command: String, change: (ScoreFile.Document) throws -> T) throws -> T {
        try Self.update(command, file: file, output: output, password: password, saving: saving, change: change)
    }

    /// ``update(_:change:)`` for one of several files a command takes.
    static func update<T>(_ command: String, file: String, output: String?, password: String?, saving: SaveFlags,
                          change: (ScoreFile.Document) throws -> T) throws -> T {
        do {
            var libraries = CatalogLocator()
            return try libraries.update(file: file, output: output, password: password, save: saving.options(command: command, file: file),
                                        change: "folio \(command)", author: EditAuthor.current(), change)
        } catch {
            throw CommandError.report(error, command: command, file: file)
        }
    }
}
