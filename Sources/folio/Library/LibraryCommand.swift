import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio library`: the catalog of a folder of scores.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Catalog a folder of scores and search it.",
        discussion: """
            The catalog is an SQLite database, by default .folio/library.sqlite inside the folder, or a PostgreSQL database several servers share (folio library migrate).
            Example: folio library scan ~/Scores && folio library search ~/Scores --text dvorak
            """,
        subcommands: [LibraryScanCommand.self, LibraryListCommand.self, LibrarySearchCommand.self,
                      LibraryShowCommand.self, LibraryFacetsCommand.self,
                      LibraryExportCSVCommand.self, LibraryImportCSVCommand.self, LibraryExportMobileSheetsCommand.self,
                      LibraryDuplicatesCommand.self, LibraryBackupCommand.self, LibraryMigrateCommand.self,
                      LibraryBenchSearchCommand.self]
    )

    /// Runs `body`, turning the failures of every layer into messages and exit codes as
    /// ``CommandError`` maps them (64 for invalid values and malformed input files, 1 for
    /// anything else). `command` is the library subcommand; `program` the whole name when
    /// another command uses the catalog ("meta adopt").
    static func run<T>(_ command: String, program: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as any Failure {
            throw CommandError.report(failure, command: program ?? "library \(command)", file: nil)
        }
    }
}

/// Which library and which database. The folder is the one a command names (a positional DIR),
/// else --library, else `$FOLIO_LIBRARY`, else the nearest folder at or above the current one (or
/// the file a command names) that holds `.folio/` — as git finds its repository. Only `folio
/// library scan` makes a catalog; any other command that finds none says so and exits 1.
///
/// ```
/// cd ~/Scores/Chopin && folio setlist list          # ~/Scores, the library above
/// FOLIO_LIBRARY=~/Scores folio library search nocturne
/// ```
struct LibraryLocation: ParsableArguments {
    @Option(name: .customLong("library"), help: ArgumentHelp(
        "The library folder (default: $FOLIO_LIBRARY, else the nearest folder at or above the current one that holds .folio/).",
        valueName: "dir"))
    var library: String?
    @Option(help: "The catalog database (default: LIBRARY/.folio/library.sqlite).") var db: String?

    /// The environment variable that names the library when no folder is given.
    static let environment = "FOLIO_LIBRARY"

    /// The library folder: `named`, else --library, else `$FOLIO_LIBRARY`, else the nearest
    /// folder at or above `start` (default: the current folder) that holds a catalog. With
    /// --db alone, the current folder. `notFound` when there is none, naming how to make one.
    func folder(_ named: String? = nil, near start: String? = nil) throws -> String {
        try located(named, near: start).folder
    }

    /// The catalog of the library (see ``folder(_:near:)``); only with `create` is a missing
    /// one made (`folio library scan`). A library found above is opened once.
    func catalog(folder named: String? = nil, near start: String? = nil, create: Bool = false) throws -> LibraryCatalog {
        let place = try located(named, near: start)
        return try place.found ?? LibraryCatalog(folder: place.folder, databasePath: db, create: create)
    }

    /// The folder, and the catalog when it was found (and so opened) by looking above.
    private func located(_ named: String?, near start: String?) throws -> (folder: String, found: LibraryCatalog?) {
        let environment = ProcessInfo.processInfo.environment[Self.environment].flatMap { $0.isEmpty ? nil : $0 }
        if let given = named ?? library ?? environment { return (given, nil) }
        let here = FileManager.default.currentDirectoryPath
        if db != nil { return (here, nil) }
        var locator = CatalogLocator()
        if let found = locator.library(containing: start ?? here) { return (found.folder, found) }
        throw LibraryError(.notFound, "no library in \(start ?? here) or any folder above it (none holds a .folio catalog): "
            + "`folio library scan DIR` makes one; --library DIR or \(Self.environment)=DIR names one")
    }

    /// The catalog brought up to date by an incremental scan first; without `scanning`, the
    /// catalog as it is. Never made here.
    func catalog(folder named: String? = nil, near start: String? = nil, scanning: Bool) throws -> LibraryCatalog {
        let catalog = try catalog(folder: named, near: start, create: false)
        if scanning { _ = try LibraryScanner(catalog: catalog).scan() }
        return catalog
    }

    /// A file as the user typed it, as the library knows it
    /// (``LibraryCatalog/libraryName(of:from:)``): an existing file inside the library becomes
    /// its path there, one outside is refused; a path in the library, a bare file name or an id
    /// is passed on as it is, for the catalog to find.
    static func libraryPath(_ argument: String, in catalog: LibraryCatalog) throws -> String {
        try catalog.libraryName(of: argument, from: FileManager.default.currentDirectoryPath)
    }

    /// The catalog of the library the score `name` lies in (its own folder's when it is a file
    /// here, else --library, `$FOLIO_LIBRARY` or the library above the current folder) and the
    /// score's path there (``LibraryCatalog/scorePath(named:from:)``: a file by any path, a
    /// path in the library, a file name only one score has, or an id).
    func score(_ name: String, scanning: Bool = false) throws -> (catalog: LibraryCatalog, path: String) {
        let catalog = try catalog(near: Self.start(for: name), scanning: scanning)
        return (catalog, try catalog.scorePath(named: name, from: FileManager.default.currentDirectoryPath))
    }

    /// Where to look for the library of what the user named: a folder itself, a score's
    /// folder; nil when it is not here (a library path or a bare name).
    static func start(for argument: String?) -> String? {
        var isFolder: ObjCBool = false
        guard let argument, FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return argument }   // a folder named is where the search starts
        return (argument as NSString).deletingLastPathComponent.isEmpty ? "." : (argument as NSString).deletingLastPathComponent
    }
}

/// A library a command reads as it stands now: the folder (positional, else as
/// ``LibraryLocation`` finds it), its database, and --no-scan to skip the incremental scan first.
struct ScannedLibrary: ParsableArguments {
    @Argument(help: "The library folder (default: --library, $FOLIO_LIBRARY, else the nearest folder at or above the current one that holds .folio/).")
    var directory: String?
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Use the catalog as it is, without scanning first.") var noScan = false

    func catalog() throws -> LibraryCatalog {
        try location.catalog(folder: directory, scanning: !noScan)
    }
}
