import ArgumentParser
// The PDF's own outline, edited entry by entry with the engine's outline editor: a command
// about PDF internals.
import FolioPDF
import FolioScore
import Foundation

// Single-entry edits of the table of contents. Entries are named by their path, as
// `folio toc` shows it: "2" is the second top-level entry, "2.1" its first child.

extension PDFOutlinePath: ExpressibleByArgument {}

extension TocCommand {
    /// Opens `options.file`, lets `change` edit its outline and saves incrementally (in
    /// place under the lock, or to --output). Invalid paths, pages and positions exit 64
    /// with the file untouched; a file that cannot be read or written exits 1.
    static func edit<T>(_ command: String, _ options: EditFileOptions,
                        change: (inout PDFOutlineEditor) throws -> T) throws -> T {
        try options.update("toc \(command)") { document in try document.editOutline { try change(&$0) } }
    }
}

/// Where an entry leads: a page, a URL or another file.
struct TocTargetOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Target page, 1-based.") var page: Int?
    @Option(help: "Target URL (http, https, mailto, file, or an app's scheme such as forscore://).") var uri: String?
    @Option(help: "Target another PDF by file name (a GoToR action).") var remote: String?
    @Option(parsing: .unconditional, help: "Page of the --remote file, 1-based (default: 1).") var remotePage: Int?

    var isGiven: Bool { page != nil || uri != nil || remote != nil }

    /// The target the options name; nil when none is given.
    func target() throws -> PDFOutlineTarget? {
        guard [page != nil, uri != nil, remote != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("give one of --page, --uri and --remote")
        }
        if let remotePage {
            guard remote != nil else { throw ValidationError("--remote-page needs --remote") }
            guard remotePage >= 1 else { throw ValidationError("--remote-page \(remotePage) is out of range (valid: 1 or more)") }
        }
        if let page {
            guard page >= 1 else { throw ValidationError("--page: page \(page), out of range (valid: 1 or more)") }
            return .page(index: page - 1)
        }
        if let uri { return .uri(uri) }
        if let remote { return .remote(file: remote, page: remotePage.map { $0 - 1 }) }
        return nil
    }
}

/// Where an entry goes, named by entries as they are before the change.
struct TocPositionOptions: ParsableArguments {
    @Option(help: "Just before the entry at this path.") var before: PDFOutlinePath?
    @Option(help: "Just after the entry at this path.") var after: PDFOutlinePath?
    @Option(help: "The last child of the entry at this path.") var under: PDFOutlinePath?
    @Flag(help: "Last at the top level.") var top = false

    /// The position given, or `fallback` when none is (nil: one is required).
    func position(or fallback: PDFOutlinePosition?) throws -> PDFOutlinePosition {
        let given: [PDFOutlinePosition] = [before.map { .before($0) }, after.map { .after($0) },
                                           under.map { .lastChild(of: $0) }, top ? .lastChild(of: nil) : nil]
            .compactMap { $0 }
        guard given.count <= 1 else { throw ValidationError("give one of --before, --after, --under and --top") }
        guard let position = given.first ?? fallback else {
            throw ValidationError("say where: --before PATH, --after PATH, --under PATH or --top")
        }
        return position
    }
}

/// `folio toc add`.
struct TocAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an entry to a PDF's table of contents (incremental update).",
        discussion: """
            The entry goes last at the top level unless --before, --after or --under says otherwise; it leads to \
            --page, --uri or --remote, or nowhere (a heading). Prints the new entry's path.
            Example: folio toc add book.pdf --title "Coda" --page 12 --under 2
            Exit codes: 0 saved; 1 the file could not be read or written (it is untouched); 64 invalid path, page \
            or option (untouched).
            """
    )

    @OptionGroup var options: EditFileOptions
    @Option(help: "The entry's title.") var title: String
    @OptionGroup var target: TocTargetOptions
    @OptionGroup var position: TocPositionOptions
    @Flag(help: "Show the entry's children (for entries that get some later).") var open = false

    func run() throws {
        let item = PDFOutlineItem(title: title, target: try target.target(), isOpen: open)
        let where_ = try position.position(or: .lastChild(of: nil))
        let path = try TocCommand.edit("add", options) { try $0.insert(item, where_) }
        print(path)
    }
}

/// Whether an entry shows its children.
enum TocEntryState: String, EnumerableFlag {
    case open, closed
}

/// `folio toc edit` (or `rename`).
struct TocEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Rename an entry of a PDF's table of contents, change where it leads, open or close it.",
        discussion: """
            Keys Folio does not manage (structure elements, a destination's zoom when the target stays) are kept.
            Examples: folio toc rename book.pdf 2.1 --title "Largo"
                      folio toc edit book.pdf 3 --uri forscore://open?title=Etude --closed
            Exit codes: 0 saved; 1 the file could not be read or written (untouched); 64 invalid path or option.
            """,
        aliases: ["rename"]
    )

    @OptionGroup var options: EditFileOptions
    @Argument(help: "The entry's path, as `folio toc` shows it (\"2.1\").") var path: PDFOutlinePath
    @Option(help: "The new title.") var title: String?
    @OptionGroup var target: TocTargetOptions
    @Flag(help: "Leave the entry without a target.") var noTarget = false
    @Flag(help: "Show (--open) or hide (--closed) the entry's children.") var state: TocEntryState?

    func run() throws {
        guard title != nil || target.isGiven || noTarget || state != nil else {
            throw ValidationError("nothing to change: give --title, a target, --no-target, --open or --closed")
        }
        guard !(noTarget && target.isGiven) else { throw ValidationError("--no-target and a target exclude each other") }
        let newTarget = try target.target()
        try TocCommand.edit("edit", options) { outline in
            if let title { try outline.setTitle(title, at: path) }
            if target.isGiven || noTarget { try outline.setTarget(newTarget, at: path) }
            if let state { try outline.setOpen(state == .open, at: path) }
        }
    }
}

/// `folio toc move`.
struct TocMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move an entry (with its children) within a PDF's table of contents.",
        discussion: """
            Positions name entries as they are before the move. Prints the entry's new path.
            Example: folio toc move book.pdf 5 --under 2     (entry 5 becomes the last child of entry 2)
            Exit codes: 0 saved; 1 the file could not be read or written (untouched); 64 invalid path or position.
            """
    )

    @OptionGroup var options: EditFileOptions
    @Argument(help: "The entry's path (\"2.1\").") var path: PDFOutlinePath
    @OptionGroup var position: TocPositionOptions

    func run() throws {
        let where_ = try position.position(or: nil)
        print(try TocCommand.edit("move", options) { try $0.move(path, to: where_) })
    }
}

/// `folio toc nest`.
struct TocNestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nest",
        abstract: "Make an entry the last child of the entry before it.",
        discussion: "Prints the entry's new path. Exit codes: 0 saved; 1 the file failed (untouched); 64 invalid path.")

    @OptionGroup var options: EditFileOptions
    @Argument(help: "The entry's path (\"3\").") var path: PDFOutlinePath

    func run() throws {
        print(try TocCommand.edit("nest", options) { try $0.nest(at: path) })
    }
}

/// `folio toc unnest`.
struct TocUnnestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unnest",
        abstract: "Move an entry one level up, just after its parent.",
        discussion: "Prints the entry's new path. Exit codes: 0 saved; 1 the file failed (untouched); 64 invalid path.")

    @OptionGroup var options: EditFileOptions
    @Argument(help: "The entry's path (\"2.3\").") var path: PDFOutlinePath

    func run() throws {
        print(try TocCommand.edit("unnest", options) { try $0.unnest(at: path) })
    }
}

/// `folio toc delete`.
struct TocDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete entries (with their children) from a PDF's table of contents.",
        discussion: """
            Paths name entries as they are before the deletion. Prints each entry deleted ("deleted 2.3 Title", \
            with how many entries went with it); with --dry-run, "would delete …" and nothing is written.
            Example: folio toc delete book.pdf 2.3 4
            Exit codes: 0 saved; 1 the file failed (untouched); 64 invalid path (nothing deleted).
            """
    )

    @OptionGroup var options: EditFileOptions
    @Argument(help: "Paths of the entries (\"2.1\").") var paths: [PDFOutlinePath]

    func run() throws {
        let going = try TocCommand.edit("delete", options) { outline in
            // Named as they are before the deletion; an entry inside another that goes is not named twice.
            let named = try Set(paths).sorted { $0.indices.lexicographicallyPrecedes($1.indices) }
                .filter { path in !paths.contains { $0.isAncestor(of: path) } }
                .map { (path: $0, item: try outline.item(at: $0)) }
            try outline.remove(at: paths)
            return named
        }
        for (path, item) in going {
            let inside = Self.count(item.children)
            print("\(options.dryRun ? "would delete" : "deleted") \(path) \(item.title)"
                  + (inside > 0 ? " (with the \(inside) \(inside == 1 ? "entry" : "entries") inside it)" : ""))
        }
    }

    /// How many entries `items` hold, at every level.
    private static func count(_ items: [PDFOutlineItem]) -> Int {
        items.reduce(0) { $0 + 1 + count($1.children) }
    }
}
