import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio bookmarks add`.
struct BookmarksAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a page-range bookmark (written for Apple Preview, Nutrient and forScore-style ranges).",
        discussion: """
            Example: folio bookmarks add book.pdf --name "Sonata No. 2" --page 5 --end 9 --composer "Muzio Clementi" \
            Prints the new bookmark's id. Exit codes: 0 saved; 1 the file failed (untouched); 64 invalid value.
            """
    )

    @Option(help: "The bookmark's name.") var name: String
    @Option(parsing: .unconditional, help: "First page, 1-based.") var page: Int
    @Option(parsing: .unconditional, help: "Last page, 1-based (default: the first).") var end: Int?
    @Option(name: .customLong("composer"), help: "A composer of the piece (repeatable).") var composers: [String] = []
    @Option(name: .customLong("genre"), help: "A genre of the piece (repeatable).") var genres: [String] = []
    @Option(help: "The piece's key, e.g. \"F# minor\".") var key: String?
    @Option(help: "forScore's free-text reference of the piece.") var reference: String?
    @OptionGroup var options: EditFileOptions
    @OptionGroup var store: BookmarkStoreOptions

    func run() throws {
        let id = try BookmarksCommand.update("add", options, store) { manager, document in
            var metadata = ScoreMetadata(composers: composers, genres: genres, reference: reference)
            metadata.key = try key.map { try MusicalKey(parsing: $0) }
            return try BookmarkEdit.add(name: name, first: page, last: end, metadata: metadata, to: &manager, in: document)
        }
        print(id)
    }
}

/// `folio bookmarks remove`.
struct BookmarksRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a bookmark by id.",
        discussion: "Exit codes: 0 saved; 1 no bookmark with that id, or the file failed (untouched); 64 usage error.")

    @Option(help: "The bookmark's id (see `folio bookmarks list`).") var id: String
    @OptionGroup var options: EditFileOptions
    @OptionGroup var store: BookmarkStoreOptions

    func run() throws {
        try BookmarksCommand.update("remove", options, store) { manager, _ in try BookmarkEdit.remove(id: id, from: &manager) }
    }
}

/// `folio bookmarks rename`.
struct BookmarksRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename a bookmark by id.",
        discussion: "Exit codes: 0 saved; 1 no bookmark with that id, or the file failed (untouched); 64 usage error.")

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
            Example: folio bookmarks move score.pdf --id 5E0C… --before 9A11… \
            `folio bookmarks list --order custom` lists them in that order.
            Exit codes: 0 saved; 1 no bookmark with that id, or the file failed (untouched); 64 usage error.
            """)

    @Option(help: "The bookmark to move (see `folio bookmarks list`).") var id: String
    @Option(help: "The bookmark it goes before (default: it goes last).") var before: String?
    @OptionGroup var options: EditFileOptions
    @OptionGroup var store: BookmarkStoreOptions

    func run() throws {
        try BookmarksCommand.update("move", options, store) { manager, _ in try BookmarkEdit.move(id: id, before: before, in: &manager) }
    }
}
