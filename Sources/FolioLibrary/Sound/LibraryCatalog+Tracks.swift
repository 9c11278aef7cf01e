import FolioPDF
import FolioScore
import Foundation

/// Tracks: scores and their bookmarks linked to the library's audio files. Each operation
/// here is the one both `folio tracks` and the server call.
extension LibraryCatalog {
    /// Every catalogued audio file, by path.
    public func audioFiles() throws -> [AudioFile] {
        try storeRead { db in try db.rows("SELECT * FROM audio ORDER BY \(db.binary("path"))").compactMap(Self.audioFile) }
    }

    /// The catalogued audio file `id`; `.notFound` when there is none.
    public func audioFile(id: Int64) throws -> AudioFile {
        let found = try storeRead { db in try db.row("SELECT * FROM audio WHERE id = ?", [id]).flatMap(Self.audioFile) }
        guard let found else { throw LibraryError(.notFound, "no audio file \(id) in the catalog") }
        return found
    }

    /// The tracks of the score `score` (a path relative to the library, or a file name only
    /// one catalogued file has): the whole score's first, then each bookmark's, each in the
    /// order linked. Every score's, by path, when `score` is nil.
    public func tracks(of score: String? = nil) throws -> [ScoreTrack] {
        try storeRead { db in
            guard let score else {
                return try db.rows(Self.trackQuery + " ORDER BY \(db.binary("s.path")), t.bookmark IS NOT NULL, t.id").map(Self.track)
            }
            return try Self.tracks(ofScore: try Self.score(score, in: db).0, in: db)
        }
    }

    /// Links an audio file to a score or one of its bookmarks. Refuses a file outside the
    /// library, one that is not audio by its content, a bookmark the score lacks, values
    /// out of range, a link that exists already, and more than `AudioTrackLink.maxTracks`
    /// per score.
    @discardableResult
    public func linkTrack(_ link: TrackLink) throws -> ScoreTrack {
        try storeWrite { db in
            let (scoreID, scorePath, _) = try Self.score(link.score, in: db)
            let audio = try audioRow(link.audio, in: db)
            try Self.check(file: audio.path, loopStart: link.loopStart, loopEnd: link.loopEnd, offset: link.offset)
            let title = try Self.checkedTitle(link.title)
            let bookmark: String? = try link.bookmark.map { try Self.bookmark($0, of: scoreID, path: scorePath, in: db).value("title") }
            let same = db.dialect == .sqlite ? "IS" : "IS NOT DISTINCT FROM"
            if let existing: Int64 = try db.scalar("""
                SELECT id FROM track WHERE scoreId = ? AND audioId = ? AND bookmark \(same) ?
                """, [scoreID, audio.id, bookmark]) {
                throw LibraryError(.invalidArgument, "\(audio.path) is linked to \(bookmark.map { "\(scorePath) › \($0)" } ?? scorePath) already (track \(existing))")
            }
            try Self.checkRoom(scoreID, path: scorePath, in: db)
            let id = try Self.insertTrack(score: scoreID, bookmark: bookmark, audio: audio.id, file: audio.path, title: title,
                                          loopStart: link.loopStart, loopEnd: link.loopEnd, offset: link.offset, in: db)
            return try Self.track(id, ofScore: scoreID, in: db)
        }
    }

    /// Removes the track `id` of `score`; returns it as it was. With `dryRun`, only finds it.
    @discardableResult
    public func unlinkTrack(id: Int64, of score: String, dryRun: Bool = false) throws -> ScoreTrack {
        try storeWrite(rollingBack: dryRun) { db in
            let (scoreID, _, _) = try Self.score(score, in: db)
            let track = try Self.track(id, ofScore: scoreID, in: db)
            try db.execute("DELETE FROM track WHERE id = ?", [id])
            return track
        }
    }

    /// Changes the track `id` of `score` — its title, A–B loop or offset — checked as a whole
    /// (the loop's end after its start); returns it as changed. With `dryRun`, checks all the
    /// same and changes nothing.
    @discardableResult
    public func changeTrack(id: Int64, of score: String, _ change: TrackChange, dryRun: Bool = false) throws -> ScoreTrack {
        try storeWrite(rollingBack: dryRun) { db in
            let (scoreID, _, _) = try Self.score(score, in: db)
            var track = try Self.track(id, ofScore: scoreID, in: db)
            if let title = change.title { track.title = try Self.checkedTitle(title) }
            if let value = change.loopStart { track.loopStart = value }
            if let value = change.loopEnd { track.loopEnd = value }
            if let value = change.offset { track.offset = value }
            try Self.check(file: track.file, loopStart: track.loopStart, loopEnd: track.loopEnd, offset: track.offset)
            try db.execute("UPDATE track SET title = ?, loopStart = ?, loopEnd = ?, \"offset\" = ? WHERE id = ?",
                           [track.title, track.loopStart, track.loopEnd, track.offset, id])
            return track
        }
    }

    /// The track a piece opens with: for a bookmark, its own first track; for a whole score,
    /// its first track of the whole score, else its first one of any bookmark. Missing
    /// files are passed over. Nil when there is none.
    public func queuedTrack(score: String, bookmark: String? = nil) throws -> ScoreTrack? {
        try storeRead { db in
            let tracks = try Self.tracks(ofScore: try Self.score(score, in: db).0, in: db).filter { !$0.missing }
            guard let bookmark else { return tracks.first { $0.bookmark == nil } ?? tracks.first }
            return tracks.first { $0.bookmark == bookmark }
        }
    }

    /// What each entry of the setlist `name` sounds with, in the setlist's order: the track it
    /// opens with (``queuedTrack(score:bookmark:)``), and the tempo and time signature in
    /// effect (a bookmark's own, else its score's) for the metronome.
    public func setlistSound(_ name: String) throws -> [PieceSound] {
        try setlist(named: name).entries.map { entry in
            guard let path = entry.path else { return PieceSound(title: entry.title) }
            let bookmark = entry.kind == .bookmark ? entry.title : nil
            let entries = try show(path)
            let shown = entries.first { $0.bookmark?.title == bookmark }
            let fields = shown?.metadata
            return PieceSound(title: entry.title, score: entries.first?.id,
                              track: try queuedTrack(score: path, bookmark: bookmark),
                              tempo: fields?.tempo, timeSignature: fields?.timeSignature,
                              firstPage: bookmark == nil ? 1 : shown?.bookmark?.start)
        }
    }

    // MARK: Helpers

    static func audioFile(_ row: CatalogRow) throws -> AudioFile? {
        guard let kind = AudioKind(rawValue: try row.value("kind")) else { return nil }
        return AudioFile(id: try row.value("id"), path: try row.value("path"), kind: kind, size: try row.value("size"))
    }

    static func tracks(ofScore scoreID: Int64, in db: any CatalogStatements) throws -> [ScoreTrack] {
        try db.rows(trackQuery + " WHERE t.scoreId = ? ORDER BY t.bookmark IS NOT NULL, t.id", [scoreID]).map(track)
    }

    private static let trackQuery = """
        SELECT t.*, s.path AS scorePath, a.path AS audioPath, a.kind FROM track t
        JOIN score s ON s.id = t.scoreId LEFT JOIN audio a ON a.id = t.audioId
        """

    private static func track(_ id: Int64, ofScore scoreID: Int64, in db: any CatalogStatements) throws -> ScoreTrack {
        guard let row = try db.row(trackQuery + " WHERE t.id = ? AND t.scoreId = ?", [id, scoreID]) else {
            let ids = try db.rows("SELECT id FROM track WHERE scoreId = ? ORDER BY id", [scoreID]).map { try $0.value(at: 0) as Int64 }
            throw LibraryError(.notFound, "no track \(id) on this score"
                + (ids.isEmpty ? " (it has no tracks)" : " (its tracks: \(ids.map(String.init).joined(separator: ", ")))"))
        }
        return try track(row)
    }

    private static func track(_ row: CatalogRow) throws -> ScoreTrack {
        let audio: Int64? = row.optional("audioId")
        return ScoreTrack(id: try row.value("id"), score: try row.value("scorePath"), bookmark: row.optional("bookmark"),
                          file: try row.optional("audioPath") ?? row.value("file"), audio: audio,
                          kind: (row.optional("kind") as String?).flatMap(AudioKind.init(rawValue:)), title: row.optional("title"),
                          loopStart: row.optional("loopStart"), loopEnd: row.optional("loopEnd"), offset: row.optional("offset"),
                          missing: audio == nil)
    }

    /// The catalogued audio file `name` names: a path relative to the library, or a file name
    /// only one audio file has. A path that leaves the library, or a file that is there but
    /// not audio by its content, is refused with why.
    private func audioRow(_ name: String, in db: any CatalogStatements) throws -> AudioFile {
        if let row = try db.row("SELECT * FROM audio WHERE pathKey = ?", [CatalogPath.key(name)]),
           let audio = try Self.audioFile(row) {
            return audio
        }
        guard !PathName.isAbsolute(name, windows: true), !PathName.climbs(name, separators: "/\\") else {
            throw LibraryError(.invalidArgument, "\(name) lies outside the library (valid: a path inside it)")
        }
        if !name.contains("/") {
            let named = try Self.audioFiles(named: name, in: db)
            if named.count == 1 { return named[0] }
            if named.count > 1 {
                throw LibraryError(.invalidArgument, "\(name) names \(named.count) audio files (\(named.prefix(3).map(\.path).joined(separator: ", "))); give the path relative to the library")
            }
        }
        if let absolute = files.resolve(name) {
            if (try? AudioKind.sniff(fileAt: absolute)) == nil {
                throw LibraryError(.invalidArgument, "\(name) is not audio by its content (valid: \(AudioKind.described))")
            }
            throw LibraryError(.notFound, "\(name) is not catalogued yet (run `folio library scan`)")
        }
        throw LibraryError(.notFound, "no audio file \(name) in the library")
    }

    /// The loop and offset checks of `AudioTrackLink` (one place for the ranges).
    private static func check(file: String, loopStart: Double?, loopEnd: Double?, offset: Double?) throws {
        let link = AudioTrackLink(file: file, loopStart: loopStart, loopEnd: loopEnd, offset: offset)
        if let refusal = link.refusal { throw LibraryError(.invalidArgument, refusal) }
    }

    private static func checkedTitle(_ title: String?) throws -> String? {
        guard let title = title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty else { return nil }
        guard title.count <= 500, !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw LibraryError(.invalidArgument, "a track's title must be 1 to 500 characters without control characters")
        }
        return title
    }

    /// The audio files whose file name (without folders) is `name`, by path.
    static func audioFiles(named name: String, in statements: any CatalogStatements) throws -> [AudioFile] {
        try statements.rows("SELECT * FROM audio ORDER BY \(statements.binary("path"))").compactMap(audioFile)
            .filter { ($0.path as NSString).lastPathComponent == name }
    }

    /// Stores a link; `audio` nil while the file at `file` (relative to the library) is missing.
    @discardableResult
    static func insertTrack(score: Int64, bookmark: String?, audio: Int64?, file: String, title: String?,
                            loopStart: Double?, loopEnd: Double?, offset: Double?, in statements: any CatalogStatements) throws -> Int64 {
        try statements.insertRow("""
            INSERT INTO track (scoreId, bookmark, audioId, file, fileKey, title, loopStart, loopEnd, "offset", added)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [score, bookmark, audio, file, CatalogPath.key(file), title, loopStart, loopEnd, offset,
                  Date().timeIntervalSince1970])
    }

    static func checkRoom(_ scoreID: Int64, path: String, in db: any CatalogStatements) throws {
        let count: Int = try db.scalar("SELECT count(*) FROM track WHERE scoreId = ?", [scoreID]) ?? 0
        guard count < AudioTrackLink.maxTracks else {
            throw LibraryError(.invalidArgument, "\(path) has \(count) tracks (valid: up to \(AudioTrackLink.maxTracks) per score); unlink one first")
        }
    }
}
