import FolioScore
import Foundation

/// An audio file of the library as the catalog knows it: where it is, what it is (told by
/// content), how big.
///
/// ```swift
/// for audio in try catalog.audioFiles() { print(audio.id, audio.path, audio.kind.mimeType) }
/// ```
public struct AudioFile: Sendable, Equatable, Codable {
    public var id: Int64
    /// Relative to the library folder.
    public var path: String
    public var kind: AudioKind
    public var size: Int64
}

/// A score's (or one of its bookmarks') link to a recording: which file, its A–B loop and
/// where playback starts. `audio` is the catalogued file's id; nil while the file the link
/// names is missing (it is linked again when a file appears at `file`).
///
/// ```swift
/// let track = try catalog.linkTrack(score: "Smetana/Má vlast.pdf", audio: "Audio/Vltava.flac",
///                                   bookmark: "Vltava", loopStart: 62, loopEnd: 95.5)
/// track.kind   // .flac
/// ```
public struct ScoreTrack: Sendable, Equatable, Codable {
    public var id: Int64
    /// The score's path, relative to the library.
    public var score: String
    /// The bookmark (by title) the track belongs to; nil for the whole score.
    public var bookmark: String?
    /// The audio file's path, relative to the library (its last known one when missing).
    public var file: String
    public var audio: Int64?
    public var kind: AudioKind?
    public var title: String?
    /// The loop's start (A) and end (B), in seconds.
    public var loopStart: Double?
    public var loopEnd: Double?
    /// Where playback starts, in seconds.
    public var offset: Double?
    /// The file is not in the library (moved away, deleted, or not there yet).
    public var missing: Bool
}

/// A new link: the score and the audio file by path relative to the library (or a file name
/// only one catalogued file has), optionally one of the score's bookmarks by title, a title,
/// loop points and an offset in seconds (0 to 86 400; the loop's end after its start).
///
/// ```swift
/// var link = TrackLink(score: "Dvořák/Rusalka.pdf", audio: "Audio/Měsíčku na nebi.m4a")
/// link.loopStart = 30
/// let track = try catalog.linkTrack(link)
/// ```
public struct TrackLink: Sendable, Equatable {
    public var score: String
    public var audio: String
    public var bookmark: String?
    public var title: String?
    public var loopStart: Double?
    public var loopEnd: Double?
    public var offset: Double?

    public init(score: String, audio: String, bookmark: String? = nil, title: String? = nil,
                loopStart: Double? = nil, loopEnd: Double? = nil, offset: Double? = nil) {
        self.score = score
        self.audio = audio
        self.bookmark = bookmark
        self.title = title
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.offset = offset
    }
}

/// A change to a link: each field set is changed, `.some(nil)` clears it, nil leaves it.
///
/// ```swift
/// var change = TrackChange()
/// change.loopStart = 12.5
/// change.loopEnd = .some(nil)   // the loop runs to the end
/// try catalog.changeTrack(id: 3, of: "Rusalka.pdf", change)
/// ```
public struct TrackChange: Sendable, Equatable {
    public var title: String??
    public var loopStart: Double??
    public var loopEnd: Double??
    public var offset: Double??

    public init(title: String?? = nil, loopStart: Double?? = nil, loopEnd: Double?? = nil, offset: Double?? = nil) {
        self.title = title
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.offset = offset
    }
}

/// What a setlist piece sounds with: the track queued when it opens, and the tempo and time
/// signature its metronome starts from.
///
/// ```swift
/// for piece in try catalog.setlistSound("Koncert – Brno") {
///     print(piece.title, piece.track?.file ?? "no track", piece.tempo ?? 0)
/// }
/// ```
public struct PieceSound: Sendable, Equatable, Codable {
    public var title: String
    /// The score's id; nil for a placeholder.
    public var score: Int64?
    public var track: ScoreTrack?
    public var tempo: Int?
    public var timeSignature: String?
    /// The page of the score the piece starts on (a bookmark's first page; 1 for a whole score).
    public var firstPage: Int?

    public init(title: String, score: Int64? = nil, track: ScoreTrack? = nil, tempo: Int? = nil, timeSignature: String? = nil,
                firstPage: Int? = nil) {
        self.title = title
        self.score = score
        self.track = track
        self.tempo = tempo
        self.timeSignature = timeSignature
        self.firstPage = firstPage
    }
}
