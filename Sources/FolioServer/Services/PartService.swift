import FolioLibrary
import FolioScore
import Foundation

/// Parts as the browser uses them, apart from HTTP: the piece a score belongs to with all
/// its files, the part labels the library knows (what a player picks), and a label set by hand.
///
/// ```swift
/// let parts = PartService(catalog: catalog)
/// let piece = try parts.piece(score: 7)
/// let set = try parts.set(score: 7, PartService.Label(label: "Trumpet in Bb", song: nil))
/// ```
public struct PartService: Sendable {
    public let catalog: LibraryCatalog

    public init(catalog: LibraryCatalog) {
        self.catalog = catalog
    }

    /// A part label to set: `label` and `song` as in `PartSetting` (null: as the name says).
    public struct Label: Codable, Sendable {
        public var label: String?
        public var song: String?

        public init(label: String?, song: String?) {
            self.label = label
            self.song = song
        }
    }

    /// What a player picks from: the labels the library's files carry, and every instrument
    /// Folio knows by name.
    public struct Instruments: Codable, Sendable {
        public var library: [PartLabel]
        public var known: [Instrument]
    }

    /// The piece the score `id` belongs to.
    public func piece(score id: Int64) throws -> PieceParts {
        try catalog.parts(ofScore: id)
    }

    /// "My parts": the part of every piece that has parts for a player of `instrument` (a part
    /// label), else for the member acting (`MemberContext`: their instrument), else the full
    /// scores.
    public func mine(instrument: String?) throws -> (instrument: String?, parts: [PlayerPart]) {
        let given = instrument?.trimmingCharacters(in: .whitespacesAndNewlines)
        let played = given.flatMap { $0.isEmpty ? nil : $0 } ?? MemberContext.current?.instrument
        let label = try played.map { text -> PartLabel in
            guard let label = PartLabel(text) else {
                throw LibraryError(.invalidArgument, "\(text.prefix(100)) is no part label (1 to \(PartLabel.maxLength) characters)")
            }
            return label
        }
        return (played, try catalog.parts(for: label))
    }

    public func instruments() throws -> Instruments {
        Instruments(library: try catalog.instruments(), known: Instrument.all)
    }

    /// Sets (or clears) the score `id`'s part label and piece.
    public func set(score id: Int64, _ label: Label) throws -> ScorePart {
        let path = try ScoreService.entry(id, in: catalog).path
        return try catalog.setPart(PartSetting(score: path, label: label.label, song: label.song))
    }
}
