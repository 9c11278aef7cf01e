import ArgumentParser
import FolioLibrary
import Foundation

/// `folio library migrate`.
struct LibraryMigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move a library's catalog to a PostgreSQL database (for several servers) or back to its SQLite file.",
        discussion: """
            Every row is copied in one transaction into an empty target, then every row of both is compared; \
            only then does the library use the copy. Moving to PostgreSQL writes its address (never the password) \
            to .folio/catalog, which every folio command and server then reads, and keeps the SQLite file as it \
            was in .folio/library.sqlite.before-postgresql. The password comes from the file \
            $FOLIO_CATALOG_PASSWORD_FILE (mode 600) or $FOLIO_CATALOG_PASSWORD, never from the command line.
            Example: FOLIO_CATALOG_PASSWORD_FILE=/etc/folio/db-password folio library migrate --to postgresql://folio@db.example.org/noty --library /srv/noty
            Example: folio library migrate --to sqlite --library /srv/noty --dry-run
            Exit codes: 0 moved and checked; 1 the copy was refused or differs (the library keeps its catalog); \
            64 usage error (an address Folio does not read, a target that is not empty); 69 PostgreSQL cannot be reached.
            """
    )

    @Option(help: ArgumentHelp("Where the catalog goes: postgresql://USER@HOST:PORT/DATABASE[?sslmode=…], sqlite, or sqlite:PATH.",
                               valueName: "catalog"))
    var to: String
    @Flag(help: "Copy and compare, then roll the copy back: the library, its catalog and the target stay as they were.")
    var dryRun = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        let summary = try LibraryCommand.run("migrate") {
            let target = try CatalogLocation(parsing: to)
            return try location.catalog().migrate(to: target, dryRun: dryRun)
        }
        let rows = summary.rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("\(dryRun ? "would move" : "moved") the catalog from \(summary.from) to \(summary.to), every row compared (\(rows))")
        if let kept = summary.kept { print("the SQLite catalog as it was is kept in \(kept)") }
    }
}
