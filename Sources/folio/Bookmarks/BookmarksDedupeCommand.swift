import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio bookmarks dedupe`.
struct BookmarksDedupeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dedupe", abstract: "Remove bookmarks that copy another (same name, pages and fields), as iCloud sync makes them.",
        discussion: "Each FILE is saved only when it had copies. Exit codes: 0 every file done; 1 a file failed (untouched).")

    @Argument(help: "PDF files.") var files: [String]
    @OptionGroup var saving: SaveFlags
    @Option(help: "Password of encrypted files.") var password: String?
    @OptionGroup var store: BookmarkStoreOptions
    @Flag(help: "Count the copies; remove nothing.") var dryRun = false

    func validate() throws {
        try store.validate(files: files)
    }

    func run() throws {
        var failed = false
        for file in files {
            do {
                let removed = try BookmarksCommand.update("dedupe", file: file, output: nil, password: password, store: store,
                                                          saving: saving, dryRun: dryRun) { manager, _ in manager.removeDuplicates() }
                print("\(file): \(removed) duplicate bookmark\(removed == 1 ? "" : "s") \(dryRun ? "would be " : "")removed")
            } catch {
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
