import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio setlist`: named, ordered lists of scores, bookmarks and placeholders.
struct SetlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setlist",
        abstract: "Keep setlists in the library catalog; import and export forScore's 4SS.",
        discussion: """
            A setlist lives in the catalog of a library folder (--library, default the current folder). Its entries \
            are scores, bookmarks (a page range of a score) and placeholders (a title with no file yet). Positions \
            are 1-based.
            Example: folio setlist create Friday && folio setlist add Friday "Real Book.pdf" --bookmark "Blue Bossa"
            Exit codes: 0 done; 1 a file or the catalog could not be read or written, or no such score, bookmark or setlist; 64 an invalid value, a name in use, or a usage error.
            """,
        subcommands: [SetlistListCommand.self, SetlistShowCommand.self, SetlistCreateCommand.self,
                      SetlistRenameCommand.self, SetlistDeleteCommand.self, SetlistAddCommand.self,
                      SetlistRemoveCommand.self, SetlistMoveCommand.self, SetlistNoteCommand.self, SetlistImportCommand.self,
                      SetlistExportCommand.self, SetlistFromTextCommand.self, SetlistPDFCommand.self]
    )

    /// Runs a setlist subcommand with the library's error handling; engine errors (a PDF
    /// that cannot be read while merging) exit 1 with their message.
    static func run<T>(_ command: String, _ body: () throws -> T) throws -> T {
        try LibraryCommand.run(command, program: "setlist \(command)", body)
    }

    static func line(_ entry: SetlistEntry, position: Int) -> String {
        let note = entry.note.map { " [\($0)]" } ?? ""
        switch entry.kind {
        case .score: return "\(position). \(entry.title) — \(entry.path ?? "")\(note)"
        case .bookmark: return "\(position). \(entry.title) — \(entry.path ?? ""), pages \(entry.start ?? 0)–\(entry.end ?? 0)\(note)"
        case .placeholder: return "\(position). \(entry.title) (placeholder)\(note)"
        }
    }
}

/// `folio setlist list`.
struct SetlistListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the setlists, by folder, with their entry counts.",
        discussion: "Example: folio setlist list --library ~/Scores --json")

    @OptionGroup var location: LibraryLocation
    @Flag(help: "Print one JSON object per setlist (JSON Lines): {\"name\",\"folder\",\"count\"}.") var json = false

    func run() throws {
        try SetlistCommand.run("list") {
            let lists = try location.catalog().setlists()
            if json {
                struct Item: Encodable { let name: String; let folder: String?; let count: Int }
                try printJSONLines(lists.map { Item(name: $0.name, folder: $0.folder, count: $0.count) })
                return
            }
            if lists.isEmpty { print("no setlists"); return }
            for list in lists {
                print("\(list.folder.map { $0 + "/" } ?? "")\(list.name) (\(list.count) \(list.count == 1 ? "entry" : "entries"))")
            }
        }
    }
}

/// `folio setlist show`.
struct SetlistShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print a setlist's entries.",
        discussion: """
            --json prints one line {"title","folder","entries":[{"kind","title","path","start","end","note"}]}: kind is score, \
            bookmark or placeholder; path is relative to the library (null for a placeholder); start and end are a \
            bookmark's 1-based pages (null otherwise); note is the entry's note (null when it has none). An entry whose score was deleted shows as a placeholder with its title.
            Example: folio setlist show Friday --json
            """)

    @Argument(help: "The setlist's name.") var name: String
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try SetlistCommand.run("show") {
            let setlist = try location.catalog(create: false).setlist(named: name)
            if json {
                struct Shown: Encodable { let title: String; let folder: String?; let entries: [SetlistEntry] }
                try printJSONLine(Shown(title: setlist.title, folder: setlist.folder, entries: setlist.entries))
                return
            }
            print("\(setlist.folder.map { $0 + "/" } ?? "")\(setlist.title)")
            for (index, entry) in setlist.entries.enumerated() { print(SetlistCommand.line(entry, position: index + 1)) }
        }
    }
}
