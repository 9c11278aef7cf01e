import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio import-4sb`.
struct Import4SBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-4sb", abstract: "Import a forScore backup or archive (.4sb) into a folder.",
        discussion: """
            An archive (<--4SBV03-->) brings its files: each PDF is written into DIR under a free name with its \
            metadata (Info and XMP), bookmarks (XMP), text boxes (FreeText annotations) and drawing layers (Stamp \
            annotations showing the PNG over the page) written into it; other files are copied. A backup \
            (<--4SBV02-->) has no files: its metadata and markings go into the PDFs already in DIR, matched by file \
            name (exact, case, diacritics). Setlists are stored in DIR's catalog. Keys Folio does not read are \
            listed, never guessed. Nothing in DIR changes unless everything could be read.
            Example: folio import-4sb "Archive 2026-06-07.4sb" ~/Scores --dry-run
            Exit codes: 0 imported; 1 a file could not be read or written; 64 a malformed 4SB.
            """)

    @Argument(help: "The .4sb file.") var file: String
    @Argument(help: "The folder to import into (created when missing).") var directory: String
    @Flag(help: "Print the plan; write nothing.") var dryRun = false

    func run() throws {
        try LibraryCommand.run("import-4sb", program: "import-4sb") {
            if !dryRun { try Import4SBCommand.makeFolder(directory) }
            let report = try ForScoreImport.importArchive(at: file, into: directory, dryRun: dryRun)
            for line in report.lines { print(line) }
            for key in report.unread { print("not read: \(key)") }
            print("\(dryRun ? "dry run: would import" : "imported") \(report.kind) \(file): \(report.files) files, \(report.setlists) setlists")
        }
    }

    static func makeFolder(_ path: String) throws {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw LibraryError(.io, "cannot create \(path): \(error.localizedDescription)")
        }
    }
}

/// `folio import-4sc`.
struct Import4SCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-4sc", abstract: "Unpack a forScore container (.4sc) into a folder as a marked PDF.",
        discussion: """
            The PDF is written under the container's file name (a free one: nothing is overwritten) with its \
            metadata, bookmarks, text boxes and drawing layers written in, as import-4sb does.
            Example: folio import-4sc "Clair de Lune.4sc" ~/Scores
            Exit codes: 0 imported; 1 a file could not be read or written; 64 a malformed 4SC.
            """)

    @Argument(help: "The .4sc file.") var file: String
    @Argument(help: "The folder to write the PDF into (created when missing).") var directory: String
    @Flag(help: "Print the plan; write nothing.") var dryRun = false

    func run() throws {
        try LibraryCommand.run("import-4sc", program: "import-4sc") {
            if !dryRun { try Import4SBCommand.makeFolder(directory) }
            let (target, lines) = try ForScoreImport.importContainer(at: file, into: directory, dryRun: dryRun)
            for line in lines { print(line) }
            print(dryRun ? "dry run: would write \(target)" : "wrote \(target)")
        }
    }
}

/// `folio export-4sc`.
struct Export4SCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-4sc", abstract: "Pack a PDF and its forScore metadata as a container (.4sc).",
        discussion: """
            The container holds the PDF unchanged in pdfData, and its title, composers, genres, tags, labels, \
            reference, rating, difficulty, duration, key and bookmarks under forScore's keys.
            Example: folio export-4sc "Clair de Lune.pdf" -o "Clair de Lune.4sc"
            """)

    @Argument(help: "The PDF.") var file: String
    @Option(name: [.short, .long], help: "The .4sc to write.") var output: String

    func run() throws {
        try LibraryCommand.run("export-4sc", program: "export-4sc") {
            let bytes: [UInt8]
            do {
                bytes = try ForScoreImport.exportContainer(pdf: file)
            } catch let failure as any Failure where !(failure is LibraryError || failure is ScoreError) {
                throw LibraryError(.io, "\(file): \(failure.description)")   // the PDF, named
            }
            try ExportFile.write(bytes, to: output)
            print("wrote \(output)")
        }
    }
}
