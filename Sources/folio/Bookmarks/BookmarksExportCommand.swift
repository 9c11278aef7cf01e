import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio bookmarks export`.
struct BookmarksExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a PDF's metadata and bookmarks as a CSV index in forScore's library layout.",
        discussion: """
            Columns: Filename,Title,Start Page (Bookmark),End Page (Bookmark),Composers,Genres,Tags,Labels, \
            Reference,Rating,Difficulty,Minutes,Seconds,keysf,keymi; a row for the score, one per bookmark. Cells a \
            spreadsheet would run as formulas are prefixed with '. `bookmarks import` reads it back. With --store csv, \
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
