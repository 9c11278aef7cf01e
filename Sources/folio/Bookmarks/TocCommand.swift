import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio toc`: the table of contents (outline).
struct TocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "toc",
        abstract: "Show, replace or edit the table of contents (outline) of PDFs.",
        subcommands: [TocShowCommand.self, TocSetCommand.self, TocAddCommand.self, TocEditCommand.self,
                      TocMoveCommand.self, TocNestCommand.self, TocUnnestCommand.self, TocDeleteCommand.self],
        defaultSubcommand: TocShowCommand.self
    )
}

/// `folio toc [show]`.
struct TocShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the table of contents (outline) of PDFs (the default of `folio toc`).",
        discussion: """
            Text output indents entries by level and gives each entry's path ("2.1": the first child of the second \
            top-level entry, as the edit commands take it), 1-based pages, URLs and remote files. \
            With --json, one object per file: {"path","entries":[{"title","level","page","uri","file","open"}]}, \
            entries flattened in document order, level 0 for the top level, page 1-based or null, open true when \
            the entry shows its children (so `toc set` keeps the state).
            Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Option(help: "Password for encrypted files.") var password: String?
    @Argument(help: "PDF files.") var files: [String]

    func run() throws {
        let (json, password) = (self.json, self.password)
        let succeeded = FileBatch.run(files, command: "toc", json: json) { index, path in
            let entries = TableOfContents.entries(of: try ScoreFile(path, password: password).open())
            return json ? TocFormat.json(path: path, entries) : TocFormat.text(path: path, entries, separator: index > 0)
        }
        if !succeeded { throw ExitCode(1) }
    }
}

/// `folio toc set`.
struct TocSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Replace a PDF's table of contents, saved as an incremental update.",
        discussion: """
            TOC.json is what `folio toc --json` prints (or its "entries" array alone): entries in order with \
            "title", "level" (0 for the top, one deeper than the entry before at most), and "page" (1-based), \
            "uri" or "file"; "open": true shows an entry's children. An empty list removes the outline. \
            A CSV/TSV index (title and start page columns, as `bookmarks import` reads them) gives one top-level \
            entry per row in page order.
            Example: folio toc set anthology.pdf --from toc.json \
            An index row that cannot be used (a page out of range, no title) leaves the file untouched and exits 64; \
            --skip-invalid saves the rows that can be used instead, naming the others on standard error. --dry-run \
            checks and prints the entries without saving.
            Exit codes: 0 saved (or, with --dry-run, valid); 1 the file could not be read or written (it is \
            untouched); 64 an invalid TOC or index row.
            """
    )

    @Flag(help: "Save the index rows that can be used and skip the others (named on standard error).") var skipInvalid = false
    @Flag(help: "Check the contents and print the entries; save nothing.") var dryRun = false

    @Option(help: "The table of contents (JSON, or a CSV/TSV index).") var from: String
    @Option(help: "Write to this file instead of updating FILE in place.") var output: String?
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDF.") var file: String
    @OptionGroup var saving: SaveFlags

    func run() throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: from))
        } catch {
            printError("folio toc set: \(from): \(error.localizedDescription)")
            throw ExitCode.validationFailure
        }
        do {
            if dryRun {
                let document = try ScoreFile(file, password: password).open()
                let problems = try TableOfContents.replace(in: document, with: data, skipInvalid: skipInvalid)
                for problem in problems { printError("folio toc set: \(from): \(problem)") }
                print(TocFormat.text(path: file, TableOfContents.entries(of: document), separator: false), terminator: "")
                return
            }
            // Through the library's edit path when FILE is catalogued (recorded for folio undo).
            var libraries = CatalogLocator()
            let problems = try libraries.update(file: file, output: output, password: password,
                                                save: saving.options(command: "toc set", file: file),
                                                change: "folio toc set", author: EditAuthor.current()) { document in
                try TableOfContents.replace(in: document, with: data, skipInvalid: skipInvalid)
            }
            for problem in problems { printError("folio toc set: \(from): \(problem)") }
        } catch let error as ScoreError {
            printError("folio toc set: \(from): \(error.message)")   // the contents file's fault
            throw CommandError.exitCode(for: error)
        } catch {
            throw CommandError.report(error, command: "toc set", file: file)
        }
    }
}

/// Renders a flattened outline.
enum TocFormat {
    static func json(path: String, _ entries: [TableOfContentsEntry]) -> String {
        let items: [JSONValue] = entries.map { entry in
            .object([("title", .string(entry.title)), ("level", .int(entry.level)), ("page", .optional(entry.page)),
                     ("uri", .optional(entry.uri)), ("file", .optional(entry.file)), ("open", .bool(entry.isOpen))])
        }
        return JSONValue.object([("path", .string(path)), ("entries", .array(items))]) + "\n"
    }

    static func text(path: String, _ entries: [TableOfContentsEntry], separator: Bool) -> String {
        var text = (separator ? "\n" : "") + "File: \(path)\n"
        var numbers: [Int] = []
        for entry in entries {
            let level = entry.level
            numbers = Array(numbers.prefix(level + 1))
            if numbers.count == level + 1 { numbers[level] += 1 } else { numbers.append(1) }
            text += String(repeating: "  ", count: level + 1) + numbers.map(String.init).joined(separator: ".") + "  "
                + entry.title + "  —  " + entry.destination + "\n"
        }
        return text
    }
}
