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
                   saving: options.saving, dryRun: options.dryRun, change: change)
    }

    @discardableResult
    static func update<T>(_ command: String, file: String, output: String?, password: String?, store: BookmarkStoreOptions,
                          saving: SaveFlags, dryRun: Bool = false,
                          change: (inout BookmarkManager, ScoreFile.Document) throws -> T) throws -> T {
        do {
            var libraries = CatalogLocator()
            let score = ScoreFile(file, password: password)
            let result = try BookmarkChain.update(score, index: store.indexPath(for: file), saving: { edit in
                if dryRun { return try edit(try score.open()) }
                return try libraries.update(file: file, output: output, password: password,
                                            save: saving.options(command: "bookmarks \(command)", file: file),
                                            change: "folio bookmarks \(command)", author: EditAuthor.current(), edit)
            }, dryRun: dryRun, problem: { printError("folio bookmarks \(command): \($0)") }, change: change)
            if dryRun { printError("folio bookmarks \(command): \(file): dry run, nothing written") }
            return result
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

/// `--order custom|page`.
extension BookmarkOrder: ExpressibleByArgument {}
