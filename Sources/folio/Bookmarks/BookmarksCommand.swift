import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio bookmarks`: page-range bookmarks.
struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "Page-range bookmarks, as forScore makes them from a table of contents.",
        subcommands: [BookmarksListCommand.self, BookmarksAddCommand.self, BookmarksRemoveCommand.self,
                      BookmarksRenameCommand.self, BookmarksMoveCommand.self, BookmarksFromTocCommand.self, BookmarksImportCommand.self,
                      BookmarksExportCommand.self, BookmarksDedupeCommand.self]
    )

    /// Applies `change` to the bookmarks of `options.file` (and of its index with
    /// `--store csv`) and saves what changed, through ``BookmarkChain/update(_:index:output:saving:problem:change:)``.
    /// Errors are printed; the exit code is thrown.
    @discardableResult
    static func update<T>(_ command: String, _ options: EditFileOptions, _ store: BookmarkStoreOptions,
                          change: (inout BookmarkManager, ScoreFile.Document) throws -> T) throws -> T {
        try update(command, file: options.file, output: options.output, password: options.password, store: store,
                   saving: options.saving, change: change)
    }

    @discardableResult
    static func update<T>(_ command: String, file: String, output: String?, password: String?, store: BookmarkStoreOptions,
                          saving: SaveFlags, change: (inout BookmarkManager, ScoreFile.Document) throws -> T) throws -> T {
        do {
            var libraries = CatalogLocator()
            return try BookmarkChain.update(ScoreFile(file, password: password), index: store.indexPath(for: file), saving: { edit in
                try libraries.update(file: file, output: output, password: password,
                                     save: saving.options(command: "bookmarks \(command)", file: file),
                                     change: "folio bookmarks \(command)", author: EditAuthor.current(), edit)
            }, problem: { printError("folio bookmarks \(command): \($0)") }, change: change)
        } catch {
            throw CommandError.report(error, command: "bookmarks \(command)", file: file)
        }
    }
}

/// Where bookmarks are kept.
enum BookmarkStore: String, ExpressibleByArgument, CaseIterable {
    /// The PDF's XMP only.
    case pdf
    /// A CSV index beside the PDF for page-range bookmarks, the PDF's XMP for the rest.
    case csv
}

/// `--store` and `--index`, taken by every bookmark command.
struct BookmarkStoreOptions: ParsableArguments {
    @Option(help: "pdf: the PDF's XMP; csv: a CSV index beside the PDF (forScore's layout) for page ranges, the PDF for the rest.")
    var store: BookmarkStore = .pdf
    @Option(help: "The index for --store csv (default: the PDF's name with .csv; .tsv is written with tabs).")
    var index: String?

    func validate() throws {
        if index != nil, store != .csv { throw ValidationError("--index needs --store csv") }
    }

    /// An index named with --index belongs to one PDF only.
    func validate(files: [String]) throws {
        if index != nil, files.count != 1 { throw ValidationError("--index takes exactly one FILE") }
    }

    /// The index file of `pdf`, or nil when bookmarks live in the PDF only.
    func indexPath(for pdf: String) -> String? {
        store == .csv ? index ?? CSVBookmarkProvider.path(besidePDF: pdf) : nil
    }
}

/// `folio bookmarks list`.
struct BookmarksListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the bookmarks stored in PDFs (Apple Preview's, Nutrient's and Folio's XMP; with --store csv the index's too).",
        discussion: """
            With --json, one object per file: {"path","bookmarks":[{"id","name","page","start","end","url","composers",
            "genres","key","reference"}]}, pages 1-based or null. Bookmarks of an index have identifiers derived from
            their title and pages, the same on every read while the row is unchanged.
            Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Option(help: "custom (sort key) or page.") var order: BookmarkOrder = .pageBased
    @Option(help: "Password for encrypted files.") var password: String?
    @OptionGroup var store: BookmarkStoreOptions
    @Argument(help: "PDF files.") var files: [String]

    func validate() throws {
        try store.validate(files: files)
    }

    func run() throws {
        let (json, password, order, store) = (self.json, self.password, self.order, self.store)
        let succeeded = FileBatch.run(files, json: json) { index, path in
            let (chain, _) = try BookmarkChain.read(ScoreFile(path, password: password), index: store.indexPath(for: path))
            for problem in chain.problems { printError("folio bookmarks list: \(problem)") }
            let bookmarks = chain.manager.bookmarks(in: order)
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
                        ("reference", .optional(bookmark.metadata.reference)),
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
    @Option(help: "forScore's free-text reference of the piece.") var reference: String?
    @OptionGroup var options: EditFileOptions
    @OptionGroup var store: BookmarkStoreOptions

    func run() throws {
        let id = try BookmarksCommand.update("add", options, store) { manager, document in
            let pages = try BookmarkEdit.pages(first: page, last: end, pageCount: document.pageCount)
            var metadata = ScoreMetadata(composers: composers, genres: genres, reference: reference)
            metadata.key = try key.map { try MusicalKey(parsing: $0) }
            return try BookmarkEdit.add(name: name, pages: pages, metadata: metadata, to: &manager, pageCount: document.pageCount)
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
    @OptionGroup var store: BookmarkStoreOptions

    func run() throws {
        try BookmarksCommand.update("remove", options, store) { manager, _ in try BookmarkEdit.remove(id: id, from: &manager) }
    }
}

/// `folio bookmarks dedupe`.
struct BookmarksDedupeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dedupe", abstract: "Remove bookmarks that copy another (same name, pages and fields), as iCloud sync makes them.",
        discussion: "Each FILE is saved only when it had copies. Exit codes: 0 every file done; 1 a file failed (untouched).")

    @Argument(help: "PDF files.") var files: [String]
    @OptionGroup var saving: SaveFlags
    @Option(help: "Password of encrypted files.") var password: String?
    @OptionGroup var store: BookmarkStoreOptions

    func validate() throws {
        try store.validate(files: files)
    }

    func run() throws {
        var failed = false
        for file in files {
            do {
                let removed = try BookmarksCommand.update("dedupe", file: file, output: nil, password: password, store: store,
                                                          saving: saving) { manager, _ in manager.removeDuplicates() }
                print("\(file): \(removed) duplicate bookmark\(removed == 1 ? "" : "s") removed")
            } catch {
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
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
    @OptionGroup var store: BookmarkStoreOptions

    func run() throws {
        try BookmarksCommand.update("rename", options, store) { manager, _ in try BookmarkEdit.rename(id: id, to: name, in: &manager) }
    }
}

/// `folio bookmarks move`.
struct BookmarksMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move a bookmark in the custom order (Nutrient's sort keys), before another or to the end.",
        discussion: """
            Example: folio bookmarks move score.pdf --id 5E0C… --before 9A11…
            `folio bookmarks list --order custom` lists them in that order.
            Exit codes: 0 saved; 1 the file failed (untouched); 64 no bookmark with that id.
            """)

    @Option(help: "The bookmark to move (see `folio bookmarks list`).") var id: String
    @Option(help: "The bookmark it goes before (default: it goes last).") var before: String?
    @OptionGroup var options: EditFileOptions
    @OptionGroup var store: BookmarkStoreOptions

    func run() throws {
        try BookmarksCommand.update("move", options, store) { manager, _ in try BookmarkEdit.move(id: id, before: before, in: &manager) }
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
            --strict refuses the index instead. Identifiers are derived from each row's title and pages, so importing
            the same index again replaces its bookmarks instead of doubling them. --score also applies the index's
            score row (forScore's layout: a file name and no pages) to the PDF's metadata, reference included.
            Example:
              folio bookmarks import realbook.pdf --from index.csv --page-offset 3 --map title=1 --map start=3
            Exit codes: 0 saved; 1 the PDF failed (untouched); 64 invalid index or options (untouched).
            """
    )

    @Option(help: "The index (CSV or TSV).") var from: String
    @Option(help: "A column for a field, FIELD=POSITION (1-based) or FIELD=HEADER (repeatable).") var map: [String] = []
    @Option(help: "Rows before the first entry (default: 1 if the first row is a header, else 0).") var headerRows: Int?
    @Option(help: "Added to every page of the index (book pages to PDF pages).") var pageOffset: Int = 0
    @Flag(help: "Refuse the index when a row cannot be read.") var strict = false
    @Flag(help: "Replace the bookmarks of the store written to instead of adding to them.") var replace = false
    @Flag(help: "Also apply the index's score row to the PDF's metadata.") var score = false
    @OptionGroup var options: EditFileOptions
    @OptionGroup var store: BookmarkStoreOptions

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
            guard let read = try BookmarkChain.readIndex(from) else { throw ValidationError("\(from): no such file") }
            text = read
        } catch {
            printError("folio bookmarks import: \(CommandError.describe(error))")
            throw ExitCode.validationFailure
        }
        let applyScore = score
        let indexOptions = CSVIndex.Options(mapping: mapping, headerRows: headerRows, pageOffset: pageOffset, strict: strict)
        try BookmarksCommand.update("import", options, store) { manager, document in
            let contents: CSVIndex.Contents
            do {
                contents = try CSVIndex.read(text, options: indexOptions, pageCount: document.pageCount)
            } catch let error as ScoreError {
                throw ValidationError("\(from): \(error.message)")
            }
            for problem in contents.problems { printError("folio bookmarks import: \(from): \(problem); skipped") }
            if applyScore, let row = contents.score, !ScoreEdit(setting: row).isEmpty {
                do {
                    for warning in try ScoreWriter.write(ScoreEdit(setting: row), to: document, options: .init(allowComma: true)) {
                        printError("folio bookmarks import: \(options.file): \(warning)")
                    }
                } catch let error as ScoreError {
                    throw ValidationError("\(from): the score row: \(error.message)")
                }
            }
            if replace, let target = manager.providers.first {
                for bookmark in target.bookmarks { manager.remove(id: bookmark.id) }
            }
            for bookmark in contents.bookmarks { manager.add(bookmark) }
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
            spreadsheet would run as formulas are prefixed with '. `bookmarks import` reads it back. With --store csv,
            the bookmarks of the index beside the PDF are included.
            Exit codes: 0 written; 1 the file could not be read.
            """
    )

    @Flag(help: "Tab-separated instead of comma-separated.") var tsv = false
    @Option(help: "Password for an encrypted file.") var password: String?
    @OptionGroup var store: BookmarkStoreOptions
    @Argument(help: "The PDF.") var file: String

    func run() throws {
        do {
            let (chain, document) = try BookmarkChain.read(ScoreFile(file, password: password), index: store.indexPath(for: file))
            let (score, _) = ScoreMetadata.read(from: document)
            for problem in chain.problems { printError("folio bookmarks export: \(problem)") }
            let bookmarks = chain.manager.bookmarks
            let name = URL(fileURLWithPath: file).lastPathComponent
            FileHandle.standardOutput.write(Data(CSVIndex.export(fileName: name, score: score, bookmarks: bookmarks,
                                                                 tabs: tsv).utf8))
        } catch {
            printError("folio bookmarks export: \(file): \(CommandError.describe(error))")
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
            --save stores them as bookmarks in the PDF's XMP (incremental update), or with --store csv in the index
            beside each PDF, before printing them.
            With --json, one object per file: {"path","bookmarks":[{"title","start","end"}]}, pages 1-based.
            Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Flag(help: "Also store the bookmarks in each PDF (XMP), skipping ones already there with the same name and pages.")
    var save = false
    @Option(help: "Password for encrypted files.") var password: String?
    @OptionGroup var store: BookmarkStoreOptions
    @OptionGroup var saving: SaveFlags
    @Argument(help: "PDF files.") var files: [String]

    func validate() throws {
        try store.validate(files: files)
    }

    func run() throws {
        let (json, password) = (self.json, self.password)
        if save {
            for file in files {
                try BookmarksCommand.update("from-toc", file: file, output: nil, password: password, store: store,
                                                 saving: saving) {
                    manager, document in BookmarkEdit.addFromContents(of: document, to: &manager)
                }
            }
        }
        let succeeded = FileBatch.run(files, json: json) { index, path in
            let bookmarks = TableOfContents.bookmarks(of: try ScoreFile(path, password: password).open())
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
