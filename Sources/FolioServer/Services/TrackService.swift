import FolioLibrary
import FolioScore
import Foundation

/// Sound as the browser uses it, apart from HTTP: the library's audio files, a score's
/// tracks (linked, changed, unlinked, each change checked against the version of the
/// score's track list the client saw: 409 when it is stale), the track each setlist piece
/// opens with, and the metronome's sample.
///
/// ```swift
/// let tracks = TrackService(catalog: catalog)
/// let (tag, _) = try tracks.list(score: 7)
/// let new = try JSONDecoder().decode(TrackService.NewTrack.self, from: Data(#"{"file":"Audio/Vltava.flac","loopStart":62}"#.utf8))
/// _ = try tracks.link(score: 7, expected: tag, new)
/// ```
public struct TrackService: Sendable {
    public let catalog: LibraryCatalog
    private let lock = ChangeLock()

    public init(catalog: LibraryCatalog) {
        self.catalog = catalog
    }

    /// A new track: the audio file by its id (`audio`) or its path in the library (`file`),
    /// optionally a bookmark's title, a title, loop points and an offset in seconds.
    ///
    /// ```swift
    /// let new = try JSONDecoder().decode(TrackService.NewTrack.self, from: Data(#"{"audio":3,"bookmark":"Vltava"}"#.utf8))
    /// ```
    public struct NewTrack: Codable, Sendable {
        public var audio: Int64?
        public var file: String?
        public var bookmark: String?
        public var title: String?
        public var loopStart: Double?
        public var loopEnd: Double?
        public var offset: Double?
    }

    /// A change to a track: a field sent with a value sets it, sent as null clears it, left
    /// out keeps it.
    ///
    /// ```swift
    /// let change = try JSONDecoder().decode(TrackService.TrackEdit.self, from: Data(#"{"loopStart":12,"loopEnd":null}"#.utf8))
    /// change.change.loopEnd   // .some(nil): cleared
    /// ```
    public struct TrackEdit: Decodable, Sendable {
        public var change = TrackChange()

        private enum Keys: String, CodingKey { case title, loopStart, loopEnd, offset }

        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: Keys.self)
            func number(_ key: Keys) throws -> Double?? {
                guard values.contains(key) else { return nil }
                return try values.decodeNil(forKey: key) ? .some(nil) : .some(try values.decode(Double.self, forKey: key))
            }
            if values.contains(.title) {
                change.title = try values.decodeNil(forKey: .title) ? .some(nil) : .some(try values.decode(String.self, forKey: .title))
            }
            change.loopStart = try number(.loopStart)
            change.loopEnd = try number(.loopEnd)
            change.offset = try number(.offset)
        }
    }

    /// A score's tracks as the API shows them, with the list's version.
    public struct Tracks: Codable, Sendable, Equatable {
        public var tracks: [ScoreTrack]
    }

    public func audioFiles() throws -> [AudioFile] {
        try catalog.audioFiles()
    }

    /// The audio file `id`: its real path inside the library and its format; 404 when it is
    /// not catalogued or no longer inside the library.
    public func audio(_ id: Int64) throws -> (path: String, kind: AudioKind) {
        let file = try catalog.audioFile(id: id)
        guard let path = catalog.files.resolve(file.path) else { throw LibraryError(.notFound, "no audio file \(id)") }
        return (path, file.kind)
    }

    public func list(score id: Int64) throws -> (tag: String, tracks: Tracks) {
        let tracks = try catalog.tracks(of: try path(of: id))
        return (Self.version(of: tracks), Tracks(tracks: tracks))
    }

    /// Links a file; returns the list with the new track, and the new track.
    public func link(score id: Int64, expected: String?, _ new: NewTrack) throws -> (tag: String, tracks: Tracks, track: ScoreTrack) {
        var added: ScoreTrack?
        let (tag, tracks) = try change(score: id, expected: expected) { path in
            let audio: String
            switch (new.audio, new.file) {
            case (let id?, nil): audio = try catalog.audioFile(id: id).path
            case (nil, let file?): audio = file
            default: throw LibraryError(.invalidArgument, "give the audio file's id (audio) or its path in the library (file), one of them")
            }
            added = try catalog.linkTrack(TrackLink(score: path, audio: audio, bookmark: new.bookmark, title: new.title,
                                                    loopStart: new.loopStart, loopEnd: new.loopEnd, offset: new.offset))
        }
        guard let added else { throw LibraryError(.internal, "the track was not linked") }
        return (tag, tracks, added)
    }

    public func edit(score id: Int64, track: Int64, expected: String?, _ edit: TrackEdit) throws -> (tag: String, tracks: Tracks) {
        try change(score: id, expected: expected) { path in _ = try catalog.changeTrack(id: track, of: path, edit.change) }
    }

    public func unlink(score id: Int64, track: Int64, expected: String?) throws -> (tag: String, tracks: Tracks) {
        try change(score: id, expected: expected) { path in _ = try catalog.unlinkTrack(id: track, of: path) }
    }

    /// What each entry of a setlist sounds with, in order (see `LibraryCatalog.setlistSound`).
    public func setlistSound(_ name: String) throws -> [PieceSound] {
        try catalog.setlistSound(name)
    }

    /// The metronome's sample, kept beside the catalog.
    public var sample: MetronomeSample { MetronomeSample(folder: catalog.folder) }

    /// Keeps a WAV as the metronome's sample: `bytes` uploaded, or the library's file `file`.
    public func setSample(bytes: [UInt8]?, file: String?) throws -> WAVFormat {
        switch (bytes, file) {
        case (let bytes?, nil): return try sample.set(bytes: bytes)
        case (nil, let file?): return try sample.set(fromLibrary: file, paths: catalog.files)
        default: throw LibraryError(.invalidArgument, "send the WAV as the body, or name a WAV in the library (file), one of them")
        }
    }

    private func path(of id: Int64) throws -> String {
        try ScoreService.entry(id, in: catalog).path
    }

    private func change(score id: Int64, expected: String?, _ body: (String) throws -> Void) throws -> (tag: String, tracks: Tracks) {
        guard let expected else {
            throw LibraryError(.versionRequired, "send the version of the track list you edit in If-Match (the ETag of GET)")
        }
        return try lock.run {
            let path = try path(of: id)
            guard Self.version(of: try catalog.tracks(of: path)) == expected else {
                throw LibraryError(.conflict, "the score's tracks changed since you loaded them; reload and try again")
            }
            try body(path)
            let tracks = try catalog.tracks(of: path)
            return (Self.version(of: tracks), Tracks(tracks: tracks))
        }
    }

    /// A track list's version: a digest of its JSON, quoted as an entity tag.
    static func version(of tracks: [ScoreTrack]) -> String {
        Digest.entityTag(of: tracks, kind: "t")
    }
}
