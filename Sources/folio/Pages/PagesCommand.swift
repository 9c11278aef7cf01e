import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio pages`: page tools.
struct PagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pages", abstract: "Rotate, delete, move, insert, extract and crop pages; read and set page labels.",
        discussion: """
            Every change but extract is an incremental update of FILE (or of --output): the original bytes stay a \
            prefix. Page lists are 1-based: 3,5-7. Stored bookmarks follow their pages; outline entries that led to a \
            deleted page lose it (removed, or kept as a heading when they have children), and links that led to it are \
            removed, each reported. Page labels \
            stay consecutive: ranges keep their pages when pages are deleted or inserted, and their positions when pages move.
            Example: folio pages rotate Scan.pdf --pages 2,4-5 --by 90
            Exit codes: 0 saved; 1 the file could not be read or written (untouched); 64 usage error or a page, \
            position or angle out of range (untouched).
            """,
        subcommands: [PagesRotateCommand.self, PagesDeleteCommand.self, PagesMoveCommand.self, PagesInsertBlankCommand.self,
                      PagesExtractCommand.self, PagesCropCommand.self, PagesHalfTurnCommand.self, PagesLabelsCommand.self])

    static func report(_ warnings: [String]) {
        for warning in warnings { printError("warning: \(warning)") }
    }

    /// Runs `tool` on the file (FolioScore's `PageTool`, as the server's page tools) and
    /// prints its warnings; `done` says what was done.
    /// Applies `tool` and prints what it did, or with --dry-run what it would do: `said(result,
    /// would)` words it (`would` false: "deleted 1 page(s)"; true: "would delete 1 page(s)").
    static func run(_ command: String, _ file: EditFileOptions, _ tool: PageTool, said: (PageTool.Result, Bool) -> String) throws {
        do { try tool.validate() } catch let error as ScoreError { throw ValidationError(error.message) }
        let result = try file.update("pages \(command)") { try tool.apply(to: $0) }
        report(result.warnings)
        print(said(result, file.dryRun))
    }
}

struct PagesRotateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rotate", abstract: "Turn pages by a multiple of 90°.",
                                                    discussion: "Example: folio pages rotate Scan.pdf --pages 3 --by -90")
    @OptionGroup var file: EditFileOptions
    @Option(help: "The pages, as 3,5-7 (default: all).") var pages: String?
    @Option(parsing: .unconditional, help: "Degrees clockwise: 90, 180, 270 or negative.") var by: Int

    func run() throws {
        try PagesCommand.run("rotate", file, PageTool(action: "rotate", pages: pages, by: by)) {
            "\($1 ? "would rotate" : "rotated") \($0.changed) page(s)\(pages.map { " (\($0))" } ?? "") by \(by)°"
        }
    }
}

struct PagesDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete pages.",
                                                    discussion: "Example: folio pages delete Scan.pdf --pages 1,12")
    @OptionGroup var file: EditFileOptions
    @Option(help: "The pages, as 3,5-7.") var pages: String

    func run() throws {
        try PagesCommand.run("delete", file, PageTool(action: "delete", pages: pages)) {
            $1 ? "would delete \($0.changed) page(s) (\(pages)), leaving \($0.pages)" : "deleted \($0.changed) page(s) (\(pages)); \($0.pages) left"
        }
    }
}

struct PagesMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move pages to a new position.",
                                                    discussion: "Example: folio pages move Book.pdf --pages 9-10 --to 1")
    @OptionGroup var file: EditFileOptions
    @Option(help: "The pages, as 3,5-7, in the order they should stand.") var pages: String
    @Option(parsing: .unconditional, help: "The page number the first of them gets.") var to: Int

    func run() throws {
        try PagesCommand.run("move", file, PageTool(action: "move", pages: pages, to: to)) {
            "\($1 ? "would move" : "moved") \($0.changed) page(s) (\(pages)) to \(to)"
        }
    }
}

struct PagesInsertBlankCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "insert-blank", abstract: "Insert blank pages.",
                                                    discussion: "Example: folio pages insert-blank Part.pdf --at 5 --count 2")
    @OptionGroup var file: EditFileOptions
    @Option(parsing: .unconditional, help: "The page number the first blank page gets (page count + 1 appends).") var at: Int
    @Option(parsing: .unconditional, help: "How many, 1 to \(PageTool.maxBlankPages) (default 1).") var count: Int?
    @Option(help: "The size: a4, letter, or WIDTHxHEIGHT in points (default: the neighbouring page's).") var size: String?

    func run() throws {
        try PagesCommand.run("insert-blank", file, PageTool(action: "insert-blank", at: at, count: count, size: size)) {
            "\($1 ? "would insert" : "inserted") \($0.changed) blank page(s) at \(at)"
        }
    }
}

struct PagesExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract", abstract: "Write some pages as a new PDF.",
        discussion: """
            The new file has the pages in the order given, their annotations, the outline entries and bookmarks that \
            lead into them, and the score's metadata. It must not exist.
            Example: folio pages extract Book.pdf --pages 44-45 -o "Blue Bossa.pdf"
            """)
    @Argument(help: "The PDF.") var file: String
    @Option(help: "The pages, as 3,5-7.") var pages: String
    @Option(name: [.short, .long], help: "The PDF to create.") var output: String
    @Option(help: "Password for an encrypted file.") var password: String?
    @Flag(help: "Allow an encrypted file (the pages are written decrypted).") var decrypt = false

    func run() throws {
        try PageCommands.run("pages extract") {
            try PageCommands.checkFree(output)
            let document = try ScoreFile(file, password: password).openAsSource(decrypt: decrypt)
            let list = try ScoreSplit.pages(pages, pageCount: ScorePages.count(of: document))
            let bytes = try ScorePages.extract(document, pages: list)
            try PageCommands.create(output, bytes: bytes)
            print("wrote \(output): \(list.count) page(s)")
        }
    }
}

struct PagesCropCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crop", abstract: "Crop pages to a box, or to what they draw.",
        discussion: """
            Sets each page's crop box, which viewers, forScore and printers show; the page's content is kept, so \
            --reset brings the whole page back. --box x,y,w,h is in points from the lower left corner of the page's \
            media box (before any rotation). --auto crops to the bounding box of what the page draws — paths, text, \
            images, forms; white marks count as paper, invisible (OCR) text as nothing — grown by --margin.
            Example: folio pages crop Scan.pdf --auto --margin 12
            """)
    @OptionGroup var file: EditFileOptions
    @Option(help: "The pages, as 3,5-7 (default: all).") var pages: String?
    @Option(help: "The box as x,y,width,height in points.") var box: String?
    @Flag(help: "Crop to what each page draws.") var auto = false
    @Option(parsing: .unconditional, help: "With --auto: points kept around what is drawn, 0 to 200 (default \(Int(PageTool.defaultMargin))).") var margin: Double?
    @Flag(help: "Remove the crop: show whole pages again.") var reset = false

    func run() throws {
        let chosen = [box != nil, auto, reset].filter { $0 }.count
        guard chosen == 1 else { throw ValidationError("give one of --box x,y,w,h, --auto or --reset") }
        if margin != nil, !auto { throw ValidationError("--margin goes with --auto") }
        var values: [Double]?
        if let box {
            let numbers = box.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 4, box.split(separator: ",").count == 4 else {
                throw ValidationError("--box '\(box)' is not x,y,width,height in points (such as 36,36,523,770)")
            }
            values = numbers
        }
        // An automatic crop is the tool's default: neither a box nor reset.
        let tool = PageTool(action: "crop", pages: pages, box: values, margin: margin, reset: reset ? true : nil)
        try PagesCommand.run("crop", file, tool) { result, would in
            "\(would ? (reset ? "would uncrop" : "would crop") : (reset ? "uncropped" : "cropped")) \(result.changed) page(s)"
        }
    }
}

struct PagesHalfTurnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "half-turn", abstract: "Show or move where half-page turns cut pages.",
        discussion: """
            A half-page turn shows the top of the next page above the rest of the page being finished. Folio's viewer \
            cuts both at the gap between systems nearest the middle; --split keeps a cut of your own for the pages \
            given, as a fraction of the page's height from the top (0.05 to 0.95), in the file (forScore's half-turn \
            splits are kept the same way). --reset gives the pages back to the viewer's gap. Without either, prints \
            each page that has a split of its own.
            Examples: folio pages half-turn Part.pdf --pages 3 --split 0.42
                      folio pages half-turn Part.pdf --pages 3 --reset
            """)
    @OptionGroup var file: EditFileOptions
    @Option(help: "The pages, as 3,5-7.") var pages: String?
    @Option(parsing: .unconditional, help: "Where the half turn cuts: 0.05 to 0.95 of the page's height, from the top.") var split: Double?
    @Flag(help: "Cut the pages at the gap between systems again.") var reset = false
    @Flag(help: "Print the splits as JSON Lines: {\"page\": 3, \"split\": 0.42}.") var json = false

    func run() throws {
        guard split != nil || reset else {
            guard pages == nil else { throw ValidationError("give --split FRACTION or --reset with --pages") }
            return try show()
        }
        guard pages != nil else { throw ValidationError("--pages is missing: the pages, as 3,5-7") }
        let tool = PageTool(action: "half-turn", pages: pages, reset: reset ? true : nil, split: split)
        try PagesCommand.run("half-turn", file, tool) { result, would in
            reset ? "\(would ? "would reset" : "reset") the half-turn split of \(result.changed) page(s)"
                : "half turns \(would ? "would cut" : "cut") \(result.changed) page(s) at \(split.map { String(format: "%.3f", $0) } ?? "")"
        }
    }

    private func show() throws {
        let splits: [Int: Double]
        do { splits = HalfTurns.splits(of: try ScoreFile(file.file, password: file.password).open()) } catch {
            printError("folio pages half-turn: \(file.file): \(CommandError.describe(error))")
            throw ExitCode(1)
        }
        for (page, split) in splits.sorted(by: { $0.key < $1.key }) {
            if json {
                print(try JSONCoding.text(object: ["page": page, "split": split]))
            } else {
                print("\(page)\t\(String(format: "%.3f", split))")
            }
        }
    }
}

struct PagesLabelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "labels", abstract: "Show or set page labels (the page numbers viewers show).",
        discussion: """
            Without --set, prints each page's number and label. --set takes ranges in page order: "i-iv,1-" labels \
            four pages i to iv, then the rest from 1; styles are 1, i, I, a and A; a decimal label may have a prefix \
            ("A-1-A-12"); the last range runs to the end. --clear removes the labels.
            Examples: folio pages labels Book.pdf --set "i-iv,1-"
                      folio pages labels Book.pdf --json
            """)
    @OptionGroup var file: EditFileOptions
    @Option(name: [.customLong("set"), .customLong("labels")], help: "The labels, as i-iv,1-.") var set: String?
    @Flag(help: "Remove the page labels.") var clear = false
    @Flag(help: "Print the labels as a JSON array, one per page.") var json = false

    func run() throws {
        guard set == nil || !clear else { throw ValidationError("give --set or --clear, not both") }
        guard set != nil || clear else { return try show() }
        try file.update("pages labels") { document in
            try ScorePages.setLabels(set, in: document)
            print(clear ? "removed the page labels" : "labelled \(ScorePages.count(of: document)) page(s)")
        }
    }

    private func show() throws {
        let all: [String]
        do { all = ScorePages.labels(of: try ScoreFile(file.file, password: file.password).open()) } catch {
            printError("folio pages labels: \(file.file): \(CommandError.describe(error))")
            throw ExitCode(1)
        }
        if json {
            print(try JSONCoding.text(all))
        } else {
            for (index, label) in all.enumerated() { print("\(index + 1)\t\(label)") }
        }
    }
}
