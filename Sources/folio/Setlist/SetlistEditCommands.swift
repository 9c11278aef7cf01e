import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio setlist create`.
struct SetlistCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create an empty setlist.",
        discussion: "Example: folio setlist create \"Friday at Blue Note\" --folder Gigs/2026")

    @Argument(help: "The setlist's name (unique in the library).") var name: String
    @Option(help: "The folder of setlists to file it in, e.g. Gigs/2026.") var folder: String?
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try SetlistCommand.run("create") {
            try location.catalog().createSetlist(name, folder: folder)
            print("created setlist \(name)")
        }
    }
}

/// `folio setlist rename`.
struct SetlistRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename a setlist, or file it in another folder.",
        discussion: "Example: folio setlist rename Friday \"Friday (late set)\" --folder Gigs   (--folder \"\" for the top)")

    @Argument(help: "The setlist's name.") var name: String
    @Argument(help: "Its new name.") var newName: String?
    @Option(help: "The folder to file it in (\"\" for the top level).") var folder: String?
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Check the new name and say what it would be; change nothing.") var dryRun = false

    func run() throws {
        try SetlistCommand.run("rename") {
            guard newName != nil || folder != nil else {
                throw LibraryError(.invalidArgument, "give a new name, --folder, or both")
            }
            try location.catalog(create: false).renameSetlist(name, to: newName, folder: folder, dryRun: dryRun)
            print("\(dryRun ? "would become " : "")setlist \(newName ?? name)\(folder.map { $0.isEmpty ? " (top level)" : " in \($0)" } ?? "")")
        }
    }
}

/// `folio setlist delete`.
struct SetlistDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a setlist (the scores stay).",
        discussion: "Example: folio setlist delete Friday")

    @Argument(help: "The setlist's name.") var name: String
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Say what would be deleted; delete nothing.") var dryRun = false

    func run() throws {
        try SetlistCommand.run("delete") {
            let catalog = try location.catalog(create: false)
            if dryRun {
                let setlist = try catalog.setlist(named: name)
                let count = setlist.entries.count
                print("would delete setlist \(setlist.title) (\(count) \(count == 1 ? "entry" : "entries"); the scores stay)")
                return
            }
            try catalog.deleteSetlist(name)
            print("deleted setlist \(name)")
        }
    }
}

/// `folio setlist add`.
struct SetlistAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a score, a bookmark of a score, or a placeholder.",
        discussion: """
            PATH is relative to the library, or a file name only one catalogued file has. The catalog is brought up \
            to date first.
            Examples: folio setlist add Friday "Jazz/Autumn Leaves.pdf"
                      folio setlist add Friday "Real Book.pdf" --bookmark "Blue Bossa" --at 1
                      folio setlist add Friday --placeholder "Encore (TBD)"
            """)

    @Argument(help: "The setlist's name.") var name: String
    @Argument(help: "The score: a path relative to the library.") var path: String?
    @Option(help: "Add the bookmark of this title in PATH instead of the whole score.") var bookmark: String?
    @Option(help: "Add a placeholder with this title (no PATH).") var placeholder: String?
    @Option(parsing: .unconditional, help: "The 1-based position to insert at (default: the end).") var at: Int?
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try SetlistCommand.run("add") {
            let catalog = try location.catalog(near: LibraryLocation.start(for: path), scanning: placeholder == nil)
            let path = try self.path.map { try LibraryLocation.libraryPath($0, in: catalog) }
            let target: SetlistTarget
            switch (path, bookmark, placeholder) {
            case (nil, nil, let title?): target = .placeholder(title: title)
            case (let path?, nil, nil): target = .score(path: path)
            case (let path?, let title?, nil): target = .bookmark(path: path, title: title)
            default: throw LibraryError(.invalidArgument, "give PATH (with --bookmark for a bookmark), or --placeholder alone")
            }
            let entry = try catalog.addToSetlist(name, target, at: at)
            let count = try catalog.setlist(named: name).entries.count
            print("added " + SetlistCommand.line(entry, position: at ?? count))
        }
    }
}

/// `folio setlist remove`.
struct SetlistRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove the entry at a position.",
        discussion: "Example: folio setlist remove Friday 3")

    @Argument(help: "The setlist's name.") var name: String
    @Argument(help: "The 1-based position.") var position: Int
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Say which entry would be removed; remove nothing.") var dryRun = false

    func run() throws {
        try SetlistCommand.run("remove") {
            let title = try location.catalog(create: false).removeFromSetlist(name, at: position, dryRun: dryRun)
            print("\(dryRun ? "would remove" : "removed") \(position). \(title)")
        }
    }
}

/// `folio setlist note`.
struct SetlistNoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note", abstract: "Give an entry a note for the set (attacca, capo 2, from bar 17).",
        discussion: """
            The note is shown beside the entry in setlist show, the setlist page and performance mode. One line, up to \
            \(SetlistEntry.maxNote) characters; --clear (or an empty NOTE) removes it.
            Examples: folio setlist note Friday 3 "attacca"
                      folio setlist note Friday 3 --clear
            """)

    @Argument(help: "The setlist's name.") var name: String
    @Argument(help: "The entry's 1-based position.") var position: Int
    @Argument(help: "The note.") var note: String?
    @Flag(help: "Remove the entry's note.") var clear = false
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Check the entry and the note and say what would change; change nothing.") var dryRun = false

    func run() throws {
        try SetlistCommand.run("note") {
            guard (note != nil) != clear else { throw LibraryError(.invalidArgument, "give NOTE or --clear") }
            let (title, kept) = try location.catalog(create: false).noteSetlistEntry(name, at: position, note: note, dryRun: dryRun)
            let done = kept.map { "\(position). \(title): \($0)" } ?? "\(position). \(title): no note"
            print(dryRun ? "would note \(done)" : "noted \(done)")
        }
    }
}

/// `folio setlist move`.
struct SetlistMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move an entry to another position.",
        discussion: "Example: folio setlist move Friday 5 1   (the fifth entry opens the set)")

    @Argument(help: "The setlist's name.") var name: String
    @Argument(help: "The entry's 1-based position.") var from: Int
    @Argument(help: "Its new 1-based position.") var to: Int
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Check both positions and say what would move; change nothing.") var dryRun = false

    func run() throws {
        try SetlistCommand.run("move") {
            let title = try location.catalog(create: false).moveInSetlist(name, from: from, to: to, dryRun: dryRun)
            print("\(dryRun ? "would move" : "moved") \(from). \(title) to \(to)")
        }
    }
}
