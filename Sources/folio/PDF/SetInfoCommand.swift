import ArgumentParser
import FolioPDF

/// `folio set-info`: change Info entries in an incremental update.
struct SetInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-info",
        abstract: "Set or remove Info dictionary entries, saved as an incremental update.",
        discussion: """
            Example: folio set-info score.pdf --entry "Title=Clair de Lune" --remove Subject \
            The original bytes stay an exact prefix of each file. With several files, a failure does not stop \
            the rest. Exit codes: 0 all saved; 1 any failed (that file untouched); 64 usage error.
            """
    )

    @Option(name: .long, help: "An entry to set, as KEY=VALUE (repeatable).")
    var entry: [String] = []

    @Option(name: .long, help: "An entry to remove (repeatable).")
    var remove: [String] = []

    @Option(name: .long, help: "Write to this file instead of updating FILE in place (one FILE only).")
    var output: String?

    @Option(name: .long, help: "Password for an encrypted file.")
    var password: String?

    @Argument(help: "The PDFs to change.")
    var files: [String]

    @OptionGroup var saving: SaveFlags

    @Flag(help: "Make the changes in memory and print them; write nothing.")
    var dryRun = false

    func validate() throws {
        for item in entry where !item.contains("=") || item.hasPrefix("=") {
            throw ValidationError("--entry takes KEY=VALUE with a non-empty KEY, got '\(item)'")
        }
        if entry.isEmpty && remove.isEmpty { throw ValidationError("give at least one --entry or --remove") }
        if output != nil && files.count != 1 { throw ValidationError("--output takes exactly one FILE") }
    }

    func run() throws {
        let edit: (PDFDocument) throws -> Void = { document in
            for item in entry {
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                try document.setInfo(String(parts[0]), to: parts.count > 1 ? String(parts[1]) : "")
            }
            for key in remove { try document.setInfo(key, to: nil) }
        }
        var failed = false
        for file in files {
            // A catalogued file changes through its library's edit path (recorded for folio undo);
            // the error is reported there.
            do {
                try EditFileOptions.update("set-info", file: file, output: output, password: password, saving: saving,
                                           dryRun: dryRun) { document in
                    let before = document.info
                    try edit(document)
                    if dryRun { Self.printChanges(file: file, before: before, after: document.info) }
                }
            } catch {
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Each entry that would change, as `KEY: before → after` under the file's name.
    static func printChanges(file: String, before: DocumentInfo, after: DocumentInfo) {
        let keys = Set(before.entries.keys).union(after.entries.keys).sorted()
        let changed = keys.filter { before.entries[$0] != after.entries[$0] }
        print(changed.isEmpty ? "\(file): no change" : file)
        for key in changed {
            print("  \(key): \(before.entries[key] ?? "(none)") → \(after.entries[key] ?? "(none)")")
        }
    }
}
