import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio setlist import`.
struct SetlistImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a forScore Open Setlist (.4ss) into the library.",
        discussion: """
            Scores are matched by path, bookmarks by path and title: exactly, then ignoring case, then ignoring case \
            and diacritics (file names in NFD or NFC alike). A score not found becomes a placeholder when it has a \
            title and is left out otherwise; a bookmark not found becomes a placeholder. A score's embedded PDF (data) \
            is written into the library under its file name — folders, .. and absolute paths are dropped, .pdf added, \
            an existing name never overwritten ("Name 2.pdf") — once Folio has opened it. DTDs and entities are refused. \
            Prints one line per element: what it matched and how (exact, case, diacritics), placeholders, omissions.
            Example: folio setlist import gig.4ss --library ~/Scores
            Exit codes: 0 imported; 1 a file could not be read or written; 64 a malformed 4SS or a name in use.
            """)

    @Argument(help: "The .4ss file.") var file: String
    @Option(name: .customLong("as"), help: "Store it under this name instead of the file's title.") var name: String?
    @Option(help: "The folder of setlists to file it in.") var folder: String?
    @Flag(help: "Replace a setlist of the same name.") var replace = false
    @Flag(help: "Print what would happen; write nothing.") var dryRun = false
    @Flag(help: "Match against the catalog as it is, without scanning first.") var noScan = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try SetlistCommand.run("import") {
            let setlist = try OpenSetlist(bytes: try SetlistImportCommand.read(file, limit: OpenSetlist.maxFileSize))
            let catalog = try location.catalog(scanning: !noScan)
            let plan = try SetlistImport.plan(setlist, catalog: catalog, name: name)
            // A name in use is refused before the plan is printed, naming the two ways on (a dry run says it too).
            if !replace, try catalog.hasSetlist(plan.name) {
                throw LibraryError(.taken, "a setlist named \(plan.name) already exists: --replace replaces it, "
                    + "--as NAME imports it under another name")
            }
            for line in plan.lines { print(line.summary) }
            if dryRun {
                print("dry run: setlist \(plan.name) not stored, nothing written")
                return
            }
            try plan.apply(to: catalog, folder: folder, replace: replace)
            let kept = plan.lines.filter { if case .omitted = $0.outcome { return false } else { return true } }.count
            print("imported setlist \(plan.name) (\(kept) of \(plan.lines.count) entries)")
        }
    }

    /// The file's bytes, refusing one larger than `limit` before reading it.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw LibraryError(.notFound, "cannot open \(path): no such file")
        }
        if let size = attributes[.size] as? Int, size > limit {
            throw LibraryError(.invalidArgument, "\(path) is \(size) bytes (valid: up to \(limit))")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw LibraryError(.io, "cannot read \(path)") }
        return Array(data)
    }
}

/// `folio setlist export`.
struct SetlistExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a setlist as a forScore Open Setlist (.4ss).",
        discussion: """
            Scores carry their path relative to the library and their title (the placeholder forScore shows when it \
            lacks the file); bookmarks their book's path and their title; placeholders their title. --embed puts the \
            PDF each entry needs in data (forScore 14.3 and later): a score's file, and for a bookmark (the format has \
            no data for bookmarks) its pages as a PDF of its own, "Book – Piece.pdf", with the piece's metadata. \
            What the file cannot carry as the library holds it is named on standard error, one line per entry: notes \
            (a 4SS has none) and bookmarks carried as their own PDF.
            Example: folio setlist export Friday --embed -o Friday.4ss
            Exit codes: 0 written (warnings included); 1 no such setlist, or a file could not be read or written \
            (nothing written); 64 a bad option.
            """)

    @Argument(help: "The setlist's name.") var name: String
    @Flag(help: "Embed each score's PDF.") var embed = false
    @Option(name: [.short, .long], help: "Write here (default: standard output).") var output: String?
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try SetlistCommand.run("export") {
            let export = try location.catalog(create: false).openSetlist(named: name, embed: embed)
            let xml = export.xml()
            for warning in export.warnings { printError("folio setlist export: warning: \(warning)") }
            guard let output else {
                FileHandle.standardOutput.write(Data(xml))
                return
            }
            try ExportFile.write(xml, to: output)
            print("wrote \(output)")
        }
    }
}

/// `folio setlist pdf`.
struct SetlistPDFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdf", abstract: "Merge a setlist's scores and bookmark pages into one PDF.",
        discussion: """
            Pieces in order, each with an outline entry titled as in the setlist; a bookmark contributes its pages. \
            Placeholders and unreadable files are skipped and listed. Annotations travel with their pages.
            Example: folio setlist pdf Friday -o gig.pdf
            """)

    @Argument(help: "The setlist's name.") var name: String
    @Option(name: [.short, .long], help: "The PDF to write.") var output: String
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try SetlistCommand.run("pdf") {
            let merged = try location.catalog(create: false).setlistPDF(named: name)
            try ExportFile.write(merged.bytes, to: output)
            for line in merged.skipped { print("skipped \(line)") }
            print("wrote \(output): \(merged.pieces) pieces, \(merged.pages) pages")
        }
    }
}
