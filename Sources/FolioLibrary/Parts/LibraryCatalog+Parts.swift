import FolioScore
import Foundation

/// Parts: the library's files grouped into pieces by their names (`Song - Trumpet in Bb.pdf`,
/// `Song (Violin I).pdf`) or by the labels a user set. Each operation here is the one both
/// `folio parts` and the server (rehearsals, `/api/scores/ID/parts`) call.
extension LibraryCatalog {
    /// Every piece that has parts (a file labelled as an instrument's or a section's), by song.
    public func pieces() throws -> [PieceParts] {
        let all = try storeRead { db in try Self.scoreParts(in: db) }
        let grouped = Dictionary(grouping: all) { PartName.key($0.song) }
        return grouped.values
            .filter { $0.contains { $0.label?.kind == .part || $0.label?.kind == .section } }
            .map { Self.piece($0) }
            .sorted { $0.song.localizedStandardCompare($1.song) == .orderedAscending }
    }

    /// The piece the score `score` belongs to, with all its files (the score alone when it
    /// has no parts). `score`: a path relative to the library, or a file name only one
    /// catalogued file has.
    public func parts(of score: String) throws -> PieceParts {
        try storeRead { db in
            let (id, _, _) = try Self.score(score, in: db)
            return try Self.piece(ofScore: id, in: db)
        }
    }

    /// The piece the score with catalog id `id` belongs to; `.notFound` when there is none.
    public func parts(ofScore id: Int64) throws -> PieceParts {
        try storeRead { db in try Self.piece(ofScore: id, in: db) }
    }

    /// What a player of `player` is shown when the score `id` is opened (see
    /// ``PieceParts/part(for:fallback:)``): their part of its piece, else their
    /// instrument's or section's, else the full score — the score `id` itself when it is one.
    /// Without a player (a conductor), the full score.
    ///
    /// ```swift
    /// let choice = try catalog.part(forScore: 12, player: PartLabel("Violin II"))
    /// ```
    public func part(forScore id: Int64, player: PartLabel?) throws -> PartChoice {
        let piece = try parts(ofScore: id)
        let opened = piece.parts.first { $0.id == id }
        guard let choice = piece.part(for: player, fallback: opened) else {
            throw LibraryError(.notFound, "no score \(id) in the catalog")
        }
        // When only a full score serves them (or they play none: a conductor), the score opened
        // is shown if it is a full score itself (the leader's choice among the piece's scores).
        if let opened, choice.fit == .full, opened.label == nil || opened.label?.kind == .full {
            return PartChoice(part: opened, fit: .full)
        }
        return choice
    }

    /// A player's part of every piece that has parts: their own, else another desk of their
    /// instrument, else their section's, else the full score (`player` nil: the full score of
    /// each, for a conductor). Pieces with nothing for them are left out.
    ///
    /// ```swift
    /// for mine in try catalog.parts(for: PartLabel("Violin II")) { print(mine.song, mine.choice.part.path) }
    /// ```
    public func parts(for player: PartLabel?) throws -> [PlayerPart] {
        try pieces().compactMap { piece in
            piece.part(for: player).map { PlayerPart(song: piece.song, choice: $0) }
        }
    }

    /// The part labels the library's files carry, one per instrument, desk and key, sorted
    /// by section then name (what a player picks from).
    public func instruments() throws -> [PartLabel] {
        let labels = try storeRead { db in try Self.scoreParts(in: db) }.compactMap(\.label).filter { $0.kind != .full }
        var seen = Set<String>()
        let unique = labels.filter { seen.insert(PartName.key($0.written)).inserted }
        let order = Instrument.Section.allCases
        return unique.sorted {
            let left = ($0.section.flatMap { order.firstIndex(of: $0) } ?? order.count, $0.written)
            let right = ($1.section.flatMap { order.firstIndex(of: $0) } ?? order.count, $1.written)
            return left.0 != right.0 ? left.0 < right.0 : left.1.localizedStandardCompare(right.1) == .orderedAscending
        }
    }

    /// Sets (or clears) the part label and piece of a score; returns it as the catalog now
    /// reads it. Refuses a label longer than `PartLabel/maxLength` or holding control
    /// characters, and an empty or overlong piece name. With `dryRun`, returns the score as
    /// it would read and changes nothing.
    @discardableResult
    public func setPart(_ setting: PartSetting, dryRun: Bool = false) throws -> ScorePart {
        let label = try setting.label.map { text -> String in
            guard let parsed = PartLabel(userLabel: text) else {
                throw LibraryError(.invalidArgument, "part label '\(text)' must be 1 to \(PartLabel.maxLength) characters without control characters")
            }
            return parsed.written
        }
        let song = try setting.song.map { text -> String in
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...200).contains(trimmed.count), PartName.key(trimmed).isEmpty == false,
                  !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
                throw LibraryError(.invalidArgument, "piece name '\(text)' must be 1 to 200 characters, with a letter or digit, without control characters")
            }
            return trimmed
        }
        return try storeWrite(rollingBack: dryRun) { db in
            let (id, _, _) = try Self.score(setting.score, in: db)
            try db.execute("UPDATE score SET partLabel = ?, partSong = ? WHERE id = ?", [label, song, id])
            guard let part = try Self.scoreParts(in: db, id: id).first else { throw LibraryError(.notFound, "no score \(id) in the catalog") }
            return part
        }
    }

    static func piece(ofScore id: Int64, in db: any CatalogStatements) throws -> PieceParts {
        let all = try scoreParts(in: db)
        guard let opened = all.first(where: { $0.id == id }) else { throw LibraryError(.notFound, "no score \(id) in the catalog") }
        let key = PartName.key(opened.song)
        return piece(all.filter { PartName.key($0.song) == key })
    }

    static func piece(_ members: [ScorePart]) -> PieceParts {
        let sorted = members.sorted { $0.path.localizedStandardCompare($1.path) == .orderedAscending }
        let song = (sorted.first { $0.label == nil } ?? sorted.first)?.song ?? ""
        return PieceParts(song: song, parts: sorted)
    }

    /// Every catalogued score (or the one `id`) read as a part.
    static func scoreParts(in db: any CatalogStatements, id: Int64? = nil) throws -> [ScorePart] {
        let sql = "SELECT id, path, pages, partLabel, partSong FROM score" + (id == nil ? "" : " WHERE id = ?")
        return try db.rows(sql, id.map { [$0] } ?? []).map { row in
            let path: String = try row.value("path")
            let named = PartName(file: path)
            let setLabel: String? = row.optional("partLabel")
            let setSong: String? = row.optional("partSong")
            let label = setLabel.flatMap { PartLabel(userLabel: $0) } ?? named.label
            // A label set on a file whose name says no part: the piece is still the name's.
            return ScorePart(id: try row.value("id"), path: path, pages: row.optional("pages"), song: setSong ?? named.song, label: label,
                             set: setLabel != nil || setSong != nil)
        }
    }
}
