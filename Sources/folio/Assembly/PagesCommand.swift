import ArgumentParser
import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

/// `folio pages`: page tools.
struct PagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pages", abstract: "Rotate, delete, move, insert and extract pages.",
        discussion: """
            Every change but extract is an incremental update of FILE (or of --output): the original bytes stay a
            prefix. Page lists are 1-based: 3,5-7. Stored bookmarks follow their pages; outline entries that led to a
            deleted page lose it (removed, or kept as a heading when they have children), each reported.
            Example: folio pages rotate Scan.pdf --pages 2,4-5 --by 90
            Exit codes: 0 saved; 1 the file could not be read or written (untouched); 64 usage error or a page,
            position or angle out of range (untouched).
            """,
        subcommands: [PagesRotateCommand.self, PagesDeleteCommand.self, PagesMoveCommand.self, PagesInsertBlankCommand.self,
                      PagesExtractCommand.self])

    /// "3,5-7" as 1-based pages, checked against `count`.
    static func pages(_ text: String, count: Int) throws -> [Int] {
        try ScoreSplit.ranges(text, pageCount: count).flatMap { Array($0) }
    }

    static func report(_ warnings: [String]) {
        for warning in warnings { printError("warning: \(warning)") }
    }
}

struct PagesRotateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rotate", abstract: "Turn pages by a multiple of 90°.",
                                                    discussion: "Example: folio pages rotate Scan.pdf --pages 3 --by -90")
    @OptionGroup var file: EditFileOptions
    @Option(help: "The pages, as 3,5-7 (default: all).") var pages: String?
    @Option(help: "Degrees clockwise: 90, 180, 270 or negative.") var by: Int

    func run() throws {
        try file.update("pages rotate") { document in
            let list = try pages.map { try PagesCommand.pages($0, count: document.pageCount) } ?? Array(1...max(document.pageCount, 1))
            try ScorePages.rotate(document, pages: list, by: by)
            print("rotated \(list.count) page(s) by \(by)°")
        }
    }
}

struct PagesDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete pages.",
                                                    discussion: "Example: folio pages delete Scan.pdf --pages 1,12")
    @OptionGroup var file: EditFileOptions
    @Option(help: "The pages, as 3,5-7.") var pages: String

    func run() throws {
        try file.update("pages delete") { document in
            let list = try PagesCommand.pages(pages, count: document.pageCount)
            PagesCommand.report(try ScorePages.delete(document, pages: list))
            print("deleted \(Set(list).count) page(s); \(document.pageCount) left")
        }
    }
}

struct PagesMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move pages to a new position.",
                                                    discussion: "Example: folio pages move Book.pdf --pages 9-10 --to 1")
    @OptionGroup var file: EditFileOptions
    @Option(help: "The pages, as 3,5-7, in the order they should stand.") var pages: String
    @Option(help: "The page number the first of them gets.") var to: Int

    func run() throws {
        try file.update("pages move") { document in
            let list = try PagesCommand.pages(pages, count: document.pageCount)
            PagesCommand.report(try ScorePages.move(document, pages: list, to: to))
            print("moved \(list.count) page(s) to \(to)")
        }
    }
}

struct PagesInsertBlankCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "insert-blank", abstract: "Insert blank pages.",
                                                    discussion: "Example: folio pages insert-blank Part.pdf --at 5 --count 2")
    @OptionGroup var file: EditFileOptions
    @Option(help: "The page number the first blank page gets (page count + 1 appends).") var at: Int
    @Option(help: "How many.") var count = 1
    @Option(help: "The size: a4, letter, or WIDTHxHEIGHT in points (default: the neighbouring page's).") var size: String?

    func run() throws {
        try file.update("pages insert-blank") { document in
            let dimensions: (width: Double, height: Double)?
            switch size?.lowercased() {
            case nil: dimensions = nil
            case "a4": dimensions = (595.276, 841.89)
            case "letter": dimensions = (612, 792)
            case let text?:
                let parts = text.split(separator: "x").compactMap { Double($0) }
                guard parts.count == 2 else {
                    throw ValidationError("size '\(text)' is not a4, letter or WIDTHxHEIGHT in points (such as 612x792)")
                }
                dimensions = (parts[0], parts[1])
            }
            PagesCommand.report(try ScorePages.insertBlank(document, at: at, count: count, size: dimensions))
            print("inserted \(count) blank page(s) at \(at)")
        }
    }
}

struct PagesExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract", abstract: "Write some pages as a new PDF.",
        discussion: """
            The new file has the pages in the order given, their annotations, the outline entries and bookmarks that
            lead into them, and the score's metadata. It must not exist.
            Example: folio pages extract Book.pdf --pages 44-45 -o "Blue Bossa.pdf"
            """)
    @Argument(help: "The PDF.") var file: String
    @Option(help: "The pages, as 3,5-7.") var pages: String
    @Option(name: [.short, .long], help: "The PDF to create.") var output: String
    @Option(help: "Password for an encrypted file.") var password: String?
    @Flag(help: "Allow an encrypted file (the pages are written decrypted).") var decrypt = false

    func run() throws {
        try AssemblyCommand.run("pages extract") {
            try AssemblyCommand.checkFree(output)
            let document = try AssemblyCommand.open(file, password: password, decrypt: decrypt)
            let list = try PagesCommand.pages(pages, count: document.pageCount)
            let bytes = try ScorePages.extract(document, pages: list)
            do { try SafeFile.create(at: output, bytes: bytes) } catch {
                throw LibraryError(.io, "cannot write \(output): \(ScoreUpdate.describe(error))")
            }
            print("wrote \(output): \(list.count) page(s)")
        }
    }
}
