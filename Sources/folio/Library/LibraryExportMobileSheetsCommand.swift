import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio library export-mobilesheets`.
struct LibraryExportMobileSheetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-mobilesheets",
        abstract: "Write the library's metadata and setlists for MobileSheets: mobilesheets.csv and mobilesheets.mss.",
        discussion: """
            mobilesheets.csv is MobileSheets' CSV import layout: header title;files;pages;composers;genres;keywords; \
            collections;keys;rating;difficulty;duration;notes, ';' between fields, '|' between values. A song per \
            score and one per bookmark (its page range in pages, empty fields taken from its score); tags go to \
            keywords, labels to collections, reference to notes, duration in seconds, keys as F#m or Bb. files is \
            the path from the CSV's folder, so MobileSheets' CSV import finds the PDFs. mobilesheets.mss holds every \
            setlist (Name, then Song with Title, FileName, FileType 1); placeholders have no file and are left out \
            and listed. The catalog is brought up to date first (--no-scan skips that).
            Example: folio library export-mobilesheets ~/Scores
            Exit codes: 0 written; 1 the catalog or an output could not be written; 64 usage error.
            """
    )

    @OptionGroup var library: ScannedLibrary
    @Option(help: "The folder to write mobilesheets.csv and mobilesheets.mss into (default: the library folder).")
    var outputDir: String?

    func run() throws {
        try LibraryCommand.run("export-mobilesheets") {
            let catalog = try library.catalog()
            let out = outputDir ?? catalog.folder
            let prefix = LibraryPaths.prefix(from: out, to: catalog.folder)
            var csv = ""
            let scores = try catalog.exportMobileSheetsCSV(filePrefix: prefix) { csv += $0 }
            let setlists = try catalog.mobileSheetsSetlists()
            for (name, bytes) in [("mobilesheets.csv", Array(csv.utf8)), ("mobilesheets.mss", setlists.xml())] {
                try ExportFile.write(bytes, to: (out as NSString).appendingPathComponent(name))
            }
            for (setlist, title) in setlists.omitted { print("left out of \(setlist): placeholder \(title) (no file)") }
            print("wrote \(scores) scores to mobilesheets.csv and \(setlists.setlists.count) setlists to mobilesheets.mss in \(out)")
        }
    }
}
