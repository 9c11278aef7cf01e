import ArgumentParser
import FolioLibrary
import Foundation

/// `folio library backup`.
struct LibraryBackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a library and its catalog into a new folder, safely while it is served.",
        discussion: """
            The catalog (setlists, members, the history of changes) is copied with SQLite's online backup, as it \
            stood at one moment, however busy the library is; then every file of the library. Pictures of pages \
            and covers are left out (they are made again). The copy appears under DEST only when complete. To \
            restore, serve the copy (folio serve DEST) or put it in the library's place.
            Example: folio library backup /mnt/usb/music-2026-11-28 --library /srv/music
            Exit codes: 0 copied; 1 the catalog or a file could not be read or written (nothing is left at DEST); \
            64 usage error (DEST exists or lies inside the library).
            """
    )

    @Argument(help: ArgumentHelp("The new folder to copy into (must not exist; its parent must).", valueName: "dest"))
    var destination: String
    @OptionGroup var location: LibraryLocation

    func run() throws {
        let summary = try LibraryCommand.run("backup") {
            try location.catalog().backup(to: destination)
        }
        let megabytes = Double(summary.bytes + summary.catalogBytes) / 1_048_576
        print("copied \(summary.files) file(s) and the catalog (\(String(format: "%.1f", megabytes)) MB) to \(summary.destination)")
    }
}
