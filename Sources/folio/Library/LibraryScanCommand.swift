import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio library scan`.
struct LibraryScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Catalog every PDF below a folder, reading only new and changed files.",
        discussion: """
            A file whose size and modification time are unchanged is not opened; a file moved or renamed (same \
            content) keeps its id; files gone leave the catalog. Hidden files and symbolic links are skipped. \
            Files that cannot be read are listed (and kept in the catalog with their error) without stopping the \
            scan. Progress goes to standard error on a terminal; a summary at the end, or with --json one JSON object \
            on standard output: found, opened, added, updated, moved, removed, audio, unreadable, skipped, renamed \
            (the last three lists of strings).
            Example: folio library scan ~/Scores
            Exit codes: 0 every file read; 1 a file could not be read, or the catalog could not be written; \
            64 usage error.
            """
    )

    @Argument(help: "The library folder (default: --library, $FOLIO_LIBRARY, the library at or above the current folder, else the current folder, which becomes one).")
    var directory: String?
    @OptionGroup var location: LibraryLocation
    @Flag(help: "No progress and no summary.") var quiet = false
    @Flag(help: "Print the summary as one JSON object.") var json = false

    func run() throws {
        let summary = try LibraryCommand.run("scan") {
            // The one command that makes a catalog: with no library named or found above, here.
            let folder = directory ?? (try? location.folder()) ?? FileManager.default.currentDirectoryPath
            let catalog = try location.catalog(folder: folder, create: true)
            let bar = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
            defer { bar.finish() }
            return try LibraryScanner(catalog: catalog).scan { bar.show($0.done, of: $0.total, $0.path) }
        }
        for line in summary.unreadable { printError("folio library scan: cannot read \(line)") }
        for renamed in summary.renamed {
            printError("folio library scan: renamed \(renamed.from) to \(renamed.to): another file has the same name in another Unicode form")
        }
        for line in summary.skipped { printError("folio library scan: skipped \(line)") }
        for path in summary.notAudio {
            printError("folio library scan: note: \(path) is not audio by its content (\(AudioKind.described)); left out")
        }
        if json {
            let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
            print(JSONValue.object([
                ("found", .int(summary.found)), ("opened", .int(summary.opened)), ("added", .int(summary.added)),
                ("updated", .int(summary.updated)), ("moved", .int(summary.moved)), ("removed", .int(summary.removed)),
                ("audio", .int(summary.audio)), ("unreadable", strings(summary.unreadable)), ("skipped", strings(summary.skipped)),
                ("renamed", strings(summary.renamed.map { "\($0.from) → \($0.to)" })),
            ]) as String)
        } else if !quiet {
            printError("""
                \(summary.found) PDFs: \(summary.opened) opened (\(summary.added) new, \(summary.updated) changed, \
                \(summary.moved) moved), \(summary.removed) removed, \(summary.unreadable.count) unreadable\
                \(summary.renamed.isEmpty ? "" : ", \(summary.renamed.count) renamed")\
                \(summary.audio == 0 ? "" : "; \(summary.audio) audio files")\
                \(summary.skipped.isEmpty ? "" : ", \(summary.skipped.count) skipped")
                """)
        }
        if !summary.unreadable.isEmpty || !summary.skipped.isEmpty { throw ExitCode(1) }
    }
}
