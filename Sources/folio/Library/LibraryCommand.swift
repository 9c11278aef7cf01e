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
            The catalog is an SQLite database, by default .folio/library.sqlite inside the folder.
            Example: folio library scan ~/Scores && folio library search ~/Scores --text dvorak
            """,
        subcommands: [LibraryScanCommand.self, LibraryListCommand.self, LibrarySearchCommand.self,
                      LibraryShowCommand.self, LibraryFacetsCommand.self,
                      LibraryExportCSVCommand.self, LibraryImportCSVCommand.self, LibraryExportMobileSheetsCommand.self,
                      LibraryDuplicatesCommand.self,
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

/// Which library and which database: the folder (a positional DIR or --library, else the
/// current folder) and --db.
struct LibraryLocation: ParsableArguments {
    @Option(name: .customLong("library"), help: "The library folder (default: the current folder).")
    var library: String?
    @Option(help: "The catalog database (default: LIBRARY/.folio/library.sqlite).") var db: String?

    func catalog(folder: String? = nil, create: Bool) throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder ?? library ?? FileManager.default.currentDirectoryPath, databasePath: db,
                           create: create)
    }

    /// The catalog brought up to date by an incremental scan first (created when missing);
    /// without `scanning`, the catalog as it is.
    func catalog(folder: String? = nil, scanning: Bool) throws -> LibraryCatalog {
        let catalog = try catalog(folder: folder, create: scanning)
        if scanning { _ = try LibraryScanner(catalog: catalog).scan() }
        return catalog
    }
}

/// A library a command reads as it stands now: the folder (positional, else --library, else
/// the current folder), its database, and --no-scan to skip the incremental scan first.
struct ScannedLibrary: ParsableArguments {
    @Argument(help: "The library folder (default: --library, else the current folder).") var directory: String?
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Use the catalog as it is, without scanning first.") var noScan = false

    func catalog() throws -> LibraryCatalog {
        try location.catalog(folder: directory, scanning: !noScan)
    }
}
