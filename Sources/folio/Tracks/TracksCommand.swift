import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio tracks`: recordings linked to scores and bookmarks, with A–B loops and offsets.
struct TracksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracks",
        abstract: "Link scores and bookmarks to the library's audio files (MP3, AAC, M4A, WAV, FLAC, Ogg), with A–B loops.",
        discussion: """
            The links live in the library's catalog: they follow a score or a recording that is renamed or moved \
            (found again by its fingerprint), and a 4SB archive's Tracks are linked when it is imported. Audio files \
            are told by their content. Times are seconds (62.5) or minutes:seconds (1:02.5).
            """,
        subcommands: [TracksListCommand.self, TracksLinkCommand.self, TracksUnlinkCommand.self, TracksLoopCommand.self]
    )

    static func run<T>(_ command: String, _ body: () throws -> T) throws -> T {
        try LibraryCommand.run(command, program: "tracks \(command)", body)
    }

    static func line(_ track: ScoreTrack) -> String {
        var parts = ["\(track.id)", track.bookmark.map { "\(track.score) › \($0)" } ?? track.score, track.file,
                     track.missing ? "missing" : track.kind?.rawValue ?? ""]
        if track.loopStart != nil || track.loopEnd != nil {
            parts.append("loop \(TrackTime.text(track.loopStart ?? 0))–\(track.loopEnd.map(TrackTime.text) ?? "end")")
        }
        if let offset = track.offset { parts.append("from \(TrackTime.text(offset))") }
        if let title = track.title { parts.append(title) }
        return parts.joined(separator: "\t")
    }
}

/// Times as options: seconds or minutes:seconds.
struct TrackTimes: ParsableArguments {
    @Option(name: .customLong("a"), help: "The loop's start (A).") var loopStart: String?
    @Option(name: .customLong("b"), help: "The loop's end (B).") var loopEnd: String?
    @Option(help: "Where playback starts.") var offset: String?

    func seconds(_ text: String?) throws -> Double? {
        try text.map { try TrackTime.seconds(parsing: $0) }
    }
}

/// `folio tracks list`.
struct TracksListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List a score's tracks (every track without SCORE), or the library's audio files.",
        discussion: """
            One line per track: id, score (› bookmark), audio file, format (or "missing" while the file is not in the \
            library), loop, offset, title. --json prints one line per track (JSON Lines): \
            {"id","score","bookmark","file","audio","kind","title","loopStart","loopEnd","offset","missing"}, times in \
            seconds.
            Examples: folio tracks list "Smetana/Má vlast.pdf" --library ~/Scores
                      folio tracks list --audio --json
            """)

    @Argument(help: "The score: a path relative to the library, or a file name only one score has.") var score: String?
    @Flag(help: "List the library's audio files instead: id, path, format, size.") var audio = false
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try TracksCommand.run("list") {
            let catalog = try location.catalog(near: LibraryLocation.start(for: score), scanning: true)
            let score = try self.score.map { try LibraryLocation.libraryPath($0, in: catalog) }
            if audio {
                let files = try catalog.audioFiles()
                if json { return try printJSONLines(files) }
                for file in files { print("\(file.id)\t\(file.path)\t\(file.kind.rawValue)\t\(file.size)") }
                return
            }
            let tracks = try catalog.tracks(of: score)
            if json { return try printJSONLines(tracks) }
            if tracks.isEmpty { print(score.map { "\($0) has no tracks" } ?? "no tracks"); return }
            tracks.map(TracksCommand.line).forEach { print($0) }
        }
    }
}

/// `folio tracks link`.
struct TracksLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Link an audio file of the library to a score or one of its bookmarks.",
        discussion: """
            AUDIO is a path relative to the library (or a file name only one audio file has); a file outside the \
            library, or one that is not audio by its content, is refused. The catalog is brought up to date first.
            Examples: folio tracks link "Smetana/Má vlast.pdf" "Audio/Vltava.flac" --bookmark Vltava --a 1:02 --b 1:35.5
                      folio tracks link Rusalka.pdf "Měsíčku na nebi.m4a" --offset 12 --title "Renée Fleming"
            Exit codes: 0 linked; 1 not found or unreadable; 64 an invalid value (the valid range is named).
            """)

    @Argument(help: "The score.") var score: String
    @Argument(help: "The audio file.") var audio: String
    @Option(help: "Link it to the bookmark of this title instead of the whole score.") var bookmark: String?
    @Option(help: "A title for the track (the recording, the performer).") var title: String?
    @OptionGroup var times: TrackTimes
    @Flag(help: "Print the track as JSON.") var json = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try TracksCommand.run("link") {
            let catalog = try location.catalog(near: LibraryLocation.start(for: score), scanning: true)
            let link = TrackLink(score: try LibraryLocation.libraryPath(score, in: catalog), audio: try LibraryLocation.libraryPath(audio, in: catalog),
                                 bookmark: bookmark, title: title,
                                 loopStart: try times.seconds(times.loopStart), loopEnd: try times.seconds(times.loopEnd),
                                 offset: try times.seconds(times.offset))
            let track = try catalog.linkTrack(link)
            if json { return try printJSONLine(track) }
            print("linked " + TracksCommand.line(track))
        }
    }
}

/// `folio tracks unlink`.
struct TracksUnlinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink", abstract: "Remove a track from a score (the audio file stays).",
        discussion: "Example: folio tracks unlink Rusalka.pdf --track 3")

    @Argument(help: "The score.") var score: String
    @Option(parsing: .unconditional, help: "The track's id (see tracks list).") var track: Int64
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Say which track would be unlinked; change nothing.") var dryRun = false

    func run() throws {
        try TracksCommand.run("unlink") {
            let catalog = try location.catalog(near: LibraryLocation.start(for: score), scanning: !dryRun)
            let removed = try catalog.unlinkTrack(id: track, of: try LibraryLocation.libraryPath(score, in: catalog), dryRun: dryRun)
            print((dryRun ? "would unlink " : "unlinked ") + TracksCommand.line(removed))
        }
    }
}

/// `folio tracks loop`.
struct TracksLoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loop", abstract: "Set or clear a track's A–B loop and its offset.",
        discussion: """
            Only what is given changes; --clear removes the loop points (and the offset with --offset none).
            Examples: folio tracks loop Rusalka.pdf --track 3 --a 30 --b 1:12.5
                      folio tracks loop Rusalka.pdf --track 3 --clear
            Exit codes: 0 changed; 1 not found; 64 an invalid value (0 to 86400 seconds, B after A).
            """)

    @Argument(help: "The score.") var score: String
    @Option(parsing: .unconditional, help: "The track's id (see tracks list).") var track: Int64
    @OptionGroup var times: TrackTimes
    @Flag(help: "Remove the loop points.") var clear = false
    @Flag(help: "Print the track as JSON.") var json = false
    @OptionGroup var location: LibraryLocation
    @Flag(help: "Check the times and print the track as it would be; change nothing.") var dryRun = false

    func run() throws {
        try TracksCommand.run("loop") {
            var change = TrackChange()
            if clear { change.loopStart = .some(nil); change.loopEnd = .some(nil) }
            if let value = try times.seconds(times.loopStart) { change.loopStart = value }
            if let value = try times.seconds(times.loopEnd) { change.loopEnd = value }
            if times.offset == "none" { change.offset = .some(nil) } else if let value = try times.seconds(times.offset) { change.offset = value }
            guard change != TrackChange() else { throw ValidationError("give --a, --b, --offset or --clear") }
            let catalog = try location.catalog(near: LibraryLocation.start(for: score), scanning: !dryRun)
            let changed = try catalog.changeTrack(id: track, of: try LibraryLocation.libraryPath(score, in: catalog), change, dryRun: dryRun)
            if json { return try printJSONLine(changed) }
            print((dryRun ? "would be track " : "track ") + TracksCommand.line(changed))
        }
    }
}
