import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio add`.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Take files into a library as forScore does: scores, setlists, archives, CSV, dictionaries.",
        discussion: """
            Each file's kind is told by its content, never its name. PDF, JPEG and PNG images, text and ChordPro \
            become scores (typeset as `folio make` does); RTF, Word (DOC, DOCX) and OpenDocument text are converted by \
            LibreOffice headless (an optional dependency: sudo apt-get install libreoffice-writer-nogui; or set \
            FOLIO_SOFFICE) and titled from the document's properties or first heading. A forScore setlist (4SS) \
            becomes a setlist (scores matched by path, then ignoring case and diacritics; placeholders for the rest), \
            a backup or archive (4SB) is imported (files, metadata, bookmarks, setlists, markings), a container \
            (4SC) becomes a score with its metadata and markings. A CSV in forScore's library layout writes its \
            metadata and bookmarks into the files it names; a CSV index (title and page columns, no file names) \
            becomes bookmarks of the score named like it, or of --score. An Open In dictionary (JSON or property \
            list) gives its details to the score named like it, or to --score. A new score never overwrites a file: \
            "Name 2.pdf" is taken when "Name.pdf" is. Files are taken in order, scores before the rest, so a \
            dictionary or CSV dropped with its PDF finds it; a file that is refused leaves the library as it was.
            Examples: folio add "Ave Maria.docx" scan.jpg Koncert.4ss --library ~/Scores
                      folio add "Real Book index.csv" --score "Real Book.pdf" --library ~/Scores --dry-run
            Exit codes: 0 every file taken whole; 1 a file could not be read or written, or rows of a CSV were \
            skipped (the others are taken); 64 a file of a kind Folio does not take, malformed or past a limit; 69 \
            LibreOffice is needed and not installed.
            """)

    @Argument(help: "The files to take in.") var files: [String]
    @OptionGroup var location: LibraryLocation
    @Option(help: "The score (relative to the library) a CSV index's bookmarks or a dictionary's details go to.")
    var score: String?
    @Flag(help: "Say what would become of each file; write nothing.") var dryRun = false
    @Flag(help: "One JSON object per file.") var json = false

    func run() throws {
        guard !files.isEmpty else { throw ValidationError("give the files to add") }
        let catalog = try LibraryCommand.run("add", program: "add") { try location.catalog(scanning: true) }
        var options = LibraryIntake.Options()
        options.author = EditAuthor.current()
        options.dryRun = dryRun
        options.score = try LibraryCommand.run("add", program: "add") { try score.map { try LibraryLocation.libraryPath($0, in: catalog) } }
        var failure: ExitCode?
        LibraryIntake.addAll(files: files, catalog: catalog, options: options) { file, outcome in
            switch outcome {
            case .success(let result):
                print(result, file: file)
                // Partial application is not success: rows skipped make the exit 1.
                if !result.complete, failure == nil { failure = ExitCode(1) }
            case .failure(let error):
                // Every message names its file: several are taken at once.
                let code = CommandError.exitCode(for: error)
                printError("folio add: \(file): \(CommandError.describe(error))")
                // A usage error (a kind not taken, a malformed file) wins over a failed write; 69 over both.
                if code == ExitCode(69) || failure == nil || (failure == ExitCode(1) && code == CommandError.usage) { failure = code }
            }
        }
        if let failure { throw failure }
    }

    private func print(_ result: LibraryIntake.Result, file: String) {
        if json {
            let fields: [(String, JSONValue)] = [
                ("file", .string(file)), ("kind", .string(result.kind.rawValue)), ("applied", .bool(result.applied)),
                ("summary", .string(result.summary)), ("scores", .array(result.scores.map(JSONValue.string))),
                ("changed", .array(result.changed.map(JSONValue.string))), ("setlists", .array(result.setlists.map(JSONValue.string))),
                ("lines", .array(result.lines.map(JSONValue.string))), ("warnings", .array(result.warnings.map(JSONValue.string))),
            ]
            Swift.print(JSONValue.object(fields) as String)
            return
        }
        Swift.print(result.summary)
        for line in result.lines { Swift.print("  \(line)") }
        for warning in result.warnings { printError("folio add: \(file): warning: \(warning)") }
    }
}
