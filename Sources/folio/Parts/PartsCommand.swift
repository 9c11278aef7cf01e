import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio parts`: a piece's parts, grouped by song and instrument from file names or set by hand.
struct PartsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parts",
        abstract: "List the library's pieces and their parts (Song - Trumpet in Bb.pdf, Song (Violin I).pdf), or label a part.",
        discussion: """
            Files are grouped by song: a name ending in " - PART", "(PART)" or "[PART]" whose PART names an instrument \
            (in English, German, French, Italian, Spanish, Czech, Russian, Greek or Japanese, with a desk number and a \
            key: "Horn in F 2", "Violine II", "Труба"), a section ("Strings", "Blech") or the full score ("Score", \
            "Partitur") is that part of the song; any other file is the song's own score. In a rehearsal each player \
            is shown their part, else their instrument's or section's, else the full score.
            """,
        subcommands: [PartsListCommand.self, PartsSetCommand.self]
    )

    static func run<T>(_ command: String, _ body: () throws -> T) throws -> T {
        try LibraryCommand.run(command, program: "parts \(command)", body)
    }

    static func line(_ part: ScorePart) -> String {
        let label = part.label.map { label in
            switch label.kind {
            case .full: "full score (\(label.written))"
            case .section: "\(label.section?.rawValue ?? "") section (\(label.written))"
            case .part: label.written
            }
        } ?? "score"
        return "\(part.id)\t\(part.path)\t\(label)\(part.set ? "\tset" : "")"
    }
}

/// `folio parts list`.
struct PartsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List every piece that has parts, or the piece SCORE belongs to.",
        discussion: """
            A piece per paragraph: its song, then one line per file: id, path, part ("score" for the piece's own score; \
            "set" when labelled by hand). --json prints one line per piece (JSON Lines): {"song","parts":[{"id","path","pages","song", \
            "label":{"kind","instrument","section","number","transposition","written"},"set"}]}; --instruments lists the part labels \
            the library's files carry.
            Examples: folio parts list --library ~/Scores
                      folio parts list "Moldau - Horn in F.pdf" --json
            """)

    @Argument(help: "A score: a path relative to the library, or a file name only one score has.") var score: String?
    @Flag(help: "List the part labels the library's files carry instead, one a line.") var instruments = false
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try PartsCommand.run("list") {
            let catalog = try location.catalog(near: LibraryLocation.start(for: score), scanning: true)
            let score = try self.score.map { try LibraryLocation.libraryPath($0, in: catalog) }
            if instruments {
                let labels = try catalog.instruments()
                if json { return try printJSONLines(labels) }
                for label in labels { print([label.written, label.instrument ?? "", label.section?.rawValue ?? ""].joined(separator: "\t")) }
                return
            }
            let pieces = try score.map { [try catalog.parts(of: $0)] } ?? catalog.pieces()
            if json { return try printJSONLines(pieces) }
            if pieces.isEmpty { print("no pieces with parts (name files \"Song - Trumpet.pdf\", or label them with folio parts set)") }
            for (index, piece) in pieces.enumerated() {
                if index > 0 { print("") }
                print(piece.song)
                piece.parts.map(PartsCommand.line).forEach { print("  " + $0) }
            }
        }
    }
}

/// `folio parts set`.
struct PartsSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Label a file as a part (an instrument, a section or Score) and the piece it belongs to.",
        discussion: """
            For files whose names do not say: LABEL is any instrument ("Trumpet in Bb 2", "Kazoo"), section ("Brass") \
            or "Score"; --song names the piece. --clear goes back to what the file's name says. The labels live in the \
            library's catalog.
            Examples: folio parts set "scan 0012.pdf" "Trompete in B" --song "Moldau"
                      folio parts set "Moldau.pdf" --clear
            """)

    @Argument(help: "The score: a path relative to the library, or a file name only one score has.") var score: String
    @Argument(help: "The part label (1 to 100 characters).") var label: String?
    @Option(help: "The piece the file belongs to (1 to 200 characters).") var song: String?
    @Flag(help: "Clear the label and piece: the file's name tells again.") var clear = false
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Print the part as it would read; change nothing.") var dryRun = false

    func validate() throws {
        if clear && (label != nil || song != nil) { throw ValidationError("--clear takes neither a label nor --song") }
        if !clear && label == nil && song == nil { throw ValidationError("give a LABEL, --song, or --clear") }
    }

    func run() throws {
        try PartsCommand.run("set") {
            let catalog = try location.catalog(near: LibraryLocation.start(for: score), scanning: !dryRun)
            let score = try LibraryLocation.libraryPath(self.score, in: catalog)
            let part = try catalog.setPart(PartSetting(score: score, label: clear ? nil : label, song: clear ? nil : song), dryRun: dryRun)
            print((dryRun ? "would read: " : "") + "\(part.song)\t" + PartsCommand.line(part))
        }
    }
}
