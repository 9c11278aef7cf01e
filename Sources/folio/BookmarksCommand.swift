import ArgumentParser
import FolioPDF
import FolioScore
import Foundation

/// `folio bookmarks`: page-range bookmarks.
struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "Page-range bookmarks, as forScore makes them from a table of contents.",
        subcommands: [BookmarksListCommand.self, BookmarksAddCommand.self, BookmarksRemoveCommand.self,
                      BookmarksRenameCommand.self, BookmarksFromTocCommand.self, BookmarksImportCommand.self,
                      BookmarksExportCommand.self]
    )

    /// Applies `change` to the XMP bookmarks of `file` and saves incrementally (in place
    /// under the lock, or to `output`). Errors are printed; the exit code is thrown.
    static func update(_ command: String, file: String, output: String?, password: String?,
                       change: (inout XMPBookmarkProvider, PDFDocument) throws -> Void) throws {
        func edit(_ document: PDFDocument) throws {
            var provider = XMPBookmarkProvider(document: document)
            try change(&provider, document)
            try provider.write(to: document)
        }
        do {
            try PDFSaver.update(path: file, output: output, password: password, edit: edit)
        } catch let error as ValidationError {
            printError("folio bookmarks \(command): \(error.message)")
            throw ExitCode.validationFailure
        } catch {
            printError("folio bookmarks \(command): \(file): \(ScoreUpdate.describe(error))")
            throw ExitCode(1)
        }
    }
}

/// `folio bookmarks list`.
struct BookmarksListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the bookmarks stored in PDFs (Apple Preview's, Nutrient's and Folio's XMP).",
        discussion: """
            With --json, one object per file: {"path","bookmarks":[{"id","name","page","start","end","url","composers",
            "genres","key"}]}, pages 1-based or null. Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Option(help: "custom (sort key) or page.") var order: BookmarkOrder = .pageBased
    @Option(help: "Password for encrypted files.") var password: String?
    @Argument(help: "PDF files.") var files: [String]

    func run() throws {
        let (json, password, order) = (self.json, self.password, self.order)
        let succeeded = FileBatch.run(files, json: json) { index, path in
            let provider = XMPBookmarkProvider(document: try PDFDocument(path: path, password: password))
            let bookmarks = order.sorted(provider.bookmarks)
            if json {
                let items: [JSONValue] = bookmarks.map { bookmark in
                    var url: String?
                    if case .url(let value) = bookmark.action { url = value }
                    let key: JSONValue = bookmark.metadata.key.map { .string($0.name) } ?? .null
                    return .object([
                        ("id", .string(bookmark.id)), ("name", .optional(bookmark.name)),
                        ("page", .optional(bookmark.pageIndex.map { $0 + 1 })),
                        ("start", .optional(bookmark.pages?.lowerBound)), ("end", .optional(bookmark.pages?.upperBound)),
                        ("url", .optional(url)), ("composers", .strings(bookmark.metadata.composers)),
                        ("genres", .strings(bookmark.metadata.genres)), ("key", key),
                    ])
                }
                return JSONValue.object([("path", .string(path)), ("bookmarks", .array(items))]) + "\n"
            }
            var text = (index > 0 ? "\n" : "") + "File: \(path)\n"
            for bookmark in bookmarks {
                let place = bookmark.pages.map { "pages \($0.lowerBound)–\($0.upperBound)" }
                    ?? bookmark.pageIndex.map { "page \($0 + 1)" } ?? "(no page)"
                text += "  \(bookmark.name ?? "(unnamed)")  —  \(place)  [\(bookmark.id)]\n"
            }
            return text
        }
        if !succeeded { throw ExitCode(1) }
    }
}

/// `folio bookmarks add`.
struct BookmarksAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a page-range bookmark (written for Apple Preview, Nutrient and forScore-style ranges).",
        discussion: """
            Example: folio bookmarks add book.pdf --name "Sonata No. 2" --page 5 --end 9 --composer "Muzio Clementi"
            Prints the new bookmark's id. Exit codes: 0 saved; 1 the file failed (untouched); 64 invalid value.
            """
    )

    @Option(help: "The bookmark's name.") var name: String
    @Option(help: "First page, 1-based.") var page: Int
    @Option(help: "Last page, 1-based (default: the first).") var end: Int?
    @Option(name: .customLong("composer"), help: "A composer of the piece (repeatable).") var composers: [String] = []
    @Option(name: .customLong("genre"), help: "A genre of the piece (repeatable).") var genres: [String] = []
    @Option(help: "The piece's key, e.g. \"F# minor\".") var key: String?
    @OptionGroup var options: EditFileOptions

    func run() throws {
        let id = UUID().uuidString
        try BookmarksCommand.update("add", file: options.file, output: options.output, password: options.password) {
            provider, document in
            let count = document.pageCount
            let last = end ?? page
            guard (1...max(count, 1)).contains(page), (page...max(count, page)).contains(last), last <= count else {
                throw ValidationError("pages \(page)–\(last) are out of range (valid: 1 to \(count), end not before start)")
            }
            var metadata = ScoreMetadata(composers: composers, genres: genres)
            do {
                metadata.key = try key.map { try MusicalKey(parsing: $0) }
            } catch let error as ScoreError {
                throw ValidationError(error.message)
            }
            _ = provider.add(Bookmark(id: id, name: name, action: .page(index: page - 1), pages: page...last,
                                      metadata: metadata))
        }
        print(id)
    }
}

/// `folio bookmarks remove`.
struct BookmarksRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a bookmark by id.",
        discussion: "Exit codes: 0 saved; 1 the file failed (untouched); 64 no bookmark with that id.")

    @Option(help: "The bookmark's id (see `folio bookmarks list`).") var id: String
    @OptionGroup var options: EditFileOptions

    func run() throws {
        try BookmarksCommand.update("remove", file: options.file, output: options.output, password: options.password) {
            provider, _ in
            guard provider.remove(id: id) else { throw ValidationError("no bookmark with id \(id)") }
        }
    }
}

/// `folio bookmarks rename`.
struct BookmarksRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename a bookmark by id.",
        discussion: "Exit codes: 0 saved; 1 the file failed (untouched); 64 no bookmark with that id.")

    @Option(help: "The bookmark's id (see `folio bookmarks list`).") var id: String
    @Option(help: "The new name.") var name: String
    @OptionGroup var options: EditFileOptions

    func run() throws {
        try BookmarksCommand.update("rename", file: options.file, output: options.output, password: options.password) {
            provider, _ in
            guard var bookmark = provider.bookmarks.first(where: { $0.id == id }) else {
                throw ValidationError("no bookmark with id \(id)")
            }
            bookmark.name = name
            _ = provider.add(bookmark)
        }
    }
}

/// `folio bookmarks import`.
struct BookmarksImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add page-range bookmarks from a CSV/TSV index.",
        discussion: """
            Columns are found by header name (title, start/page, end, composers, genres, tags, labels, rating,
            difficulty, minutes, seconds, duration, keysf, keymi, key; forScore's own header names too), by
            forScore's column order when there are 15 or more columns without a header, else title, start, end
            by position; --map FIELD=N (1-based) or FIELD=NAME overrides. Pages are 1-based plus --page-offset; a
            missing end is the next start - 1. Rows that cannot be read are reported with their line and skipped;
            --strict refuses the index instead. Example:
              folio bookmarks import realbook.pdf --from index.csv --page-offset 3 --map title=1 --map start=3
            Exit codes: 0 saved; 1 the PDF failed (untouched); 64 invalid index or options (untouched).
            """
    )

    @Option(help: "The index (CSV or TSV).") var from: String
    @Option(help: "A column for a field, FIELD=POSITION (1-based) or FIELD=HEADER (repeatable).") var map: [String] = []
    @Option(help: "Rows before the first entry (default: 1 if the first row is a header, else 0).") var headerRows: Int?
    @Option(help: "Added to every page of the index (book pages to PDF pages).") var pageOffset: Int = 0
    @Flag(help: "Refuse the index when a row cannot be read.") var strict = false
    @Flag(help: "Replace the stored bookmarks instead of adding to them.") var replace = false
    @OptionGroup var options: EditFileOptions

    func run() throws {
        var mapping: [CSVIndex.Field: CSVIndex.Column] = [:]
        for item in map {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let field = CSVIndex.Field(rawValue: parts[0].lowercased()) else {
                printError("folio bookmarks import: --map takes FIELD=COLUMN with FIELD one of "
                    + CSVIndex.Field.allCases.map(\.rawValue).joined(separator: ", ") + "; got '\(item)'")
                throw ExitCode.validationFailure
            }
            mapping[field] = Int(parts[1]).map { .position($0) } ?? .name(parts[1])
        }
        let text: String
        do {
            text = try String(contentsOfFile: from, encoding: .utf8)
        } catch {
            printError("folio bookmarks import: \(from): not readable as UTF-8 text (\(error.localizedDescription))")
            throw ExitCode.validationFailure
        }
        let indexOptions = CSVIndex.Options(mapping: mapping, headerRows: headerRows, pageOffset: pageOffset, strict: strict)
        try BookmarksCommand.update("import", file: options.file, output: options.output, password: options.password) {
            provider, document in
            let contents: CSVIndex.Contents
            do {
                contents = try CSVIndex.read(text, options: indexOptions, pageCount: document.pageCount)
            } catch let error as ScoreError {
                throw ValidationError("\(from): \(error.message)")
            }
            for problem in contents.problems { printError("folio bookmarks import: \(from): \(problem); skipped") }
            if replace { for bookmark in provider.bookmarks { _ = provider.remove(id: bookmark.id) } }
            for bookmark in contents.bookmarks { _ = provider.add(bookmark) }
        }
    }
}

/// `folio bookmarks export`.
struct BookmarksExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a PDF's metadata and bookmarks as a CSV index in forScore's library layout.",
        discussion: """
            Columns: Filename,Title,Start Page (Bookmark),End Page (Bookmark),Composers,Genres,Tags,Labels,
            Reference,Rating,Difficulty,Minutes,Seconds,keysf,keymi; a row for the score, one per bookmark. Cells a
            spreadsheet would run as formulas are prefixed with '. `bookmarks import` reads it back.
            Exit codes: 0 written; 1 the file could not be read.
            """
    )

    @Flag(help: "Tab-separated instead of comma-separated.") var tsv = false
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDF.") var file: String

    func run() throws {
        do {
            let document = try PDFDocument(path: file, password: password)
            let (score, _) = ScoreMetadata.read(from: document)
            let bookmarks = XMPBookmarkProvider(document: document).bookmarks
            let name = URL(fileURLWithPath: file).lastPathComponent
            FileHandle.standardOutput.write(Data(CSVIndex.export(fileName: name, score: score, bookmarks: bookmarks,
                                                                 tabs: tsv).utf8))
        } catch {
            printError("folio bookmarks export: \(file): \(ScoreUpdate.describe(error))")
            throw ExitCode(1)
        }
    }
}

extension BookmarkOrder: ExpressibleByArgument {}

/// `folio bookmarks from-toc`.
struct BookmarksFromTocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-toc",
        abstract: "Show the bookmarks forScore imports from each file's table of contents.",
        discussion: """
            Entries with a page of the file, in page order; each ends one page before the next one starts (never
            before its own start), the last at the last page; URL and remote-file entries are left out.
            --save stores them as bookmarks in the PDF's XMP (incremental update) before printing them.
            With --json, one object per file: {"path","bookmarks":[{"title","start","end"}]}, pages 1-based.
            Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Flag(help: "Also store the bookmarks in each PDF (XMP), skipping ones already there with the same name and pages.")
    var save = false
    @Option(help: "Password for encrypted files.") var password: String?
    @Argument(help: "PDF files.") var files: [String]

    func run() throws {
        let (json, password) = (self.json, self.password)
        if save {
            for file in files {
                try BookmarksCommand.update("from-toc", file: file, output: nil, password: password) { provider, document in
                    let existing = Set(provider.bookmarks.map { "\($0.name ?? "")|\($0.pages?.lowerBound ?? 0)|\($0.pages?.upperBound ?? 0)" })
                    for piece in TableOfContents.bookmarks(from: document.outline(), pageCount: document.pageCount)
                    where !existing.contains("\(piece.title)|\(piece.start)|\(piece.end)") {
                        _ = provider.add(Bookmark(name: piece.title, action: .page(index: piece.start - 1),
                                                  pages: piece.start...piece.end))
                    }
                }
            }
        }
        let succeeded = FileBatch.run(files, json: json) { index, path in
            let document = try PDFDocument(path: path, password: password)
            let bookmarks = TableOfContents.bookmarks(from: document.outline(), pageCount: document.pageCount)
            if json {
                let items: [JSONValue] = bookmarks.map {
                    .object([("title", .string($0.title)), ("start", .int($0.start)), ("end", .int($0.end))])
                }
                return JSONValue.object([("path", .string(path)), ("bookmarks", .array(items))]) + "\n"
            }
            var text = (index > 0 ? "\n" : "") + "File: \(path)\n"
            for bookmark in bookmarks {
                let pages = bookmark.start == bookmark.end ? "page \(bookmark.start)" : "pages \(bookmark.start)–\(bookmark.end)"
                text += "  \(bookmark.title)  —  \(pages)\n"
            }
            return text
        }
        if !succeeded { throw ExitCode(1) }
    }
}
