import FolioScore
import Foundation

/// A catalogued file as a part of a piece: the piece it belongs to and the part it is, by its
/// name or as the user set (``LibraryCatalog/setPart(_:dryRun:)``).
///
/// ```swift
/// for part in try catalog.parts(of: "Moldau - Horn in F.pdf").parts {
///     print(part.path, part.label?.written ?? "full score")
/// }
/// ```
public struct ScorePart: Sendable, Equatable, Codable {
    /// The score's catalog id.
    public var id: Int64
    /// Relative to the library.
    public var path: String
    public var pages: Int?
    /// The piece it belongs to, as written.
    public var song: String
    /// The part it is; nil for the piece's own score (a file whose name names no part).
    public var label: PartLabel?
    /// Whether the user set the label or the piece (rather than the file name telling them).
    public var set: Bool
}

/// A piece's files: its parts and its scores, grouped by song (see `PartName/songKey`).
///
/// ```swift
/// let piece = try catalog.parts(of: "Moldau.pdf")
/// piece.parts.filter { $0.label?.section == .brass }
/// ```
public struct PieceParts: Sendable, Equatable, Codable {
    /// The piece, as its first file writes it.
    public var song: String
    /// Its files, by path.
    public var parts: [ScorePart]

    /// The file that serves a player of `player` best, and how well (see
    /// `PartLabel/serves(_:)`): their part, another desk of their instrument, their
    /// section's, else the full score — a file labelled as one, else the piece's own score
    /// (a file without a part label), else `fallback`. Nil when none is found and no
    /// fallback is given.
    ///
    /// ```swift
    /// let choice = piece.part(for: PartLabel("Trumpet in Bb")!, fallback: leaderScore)
    /// choice?.fit   // .part, .instrument, .section or .full
    /// ```
    public func part(for player: PartLabel?, fallback: ScorePart? = nil) -> PartChoice? {
        // Within one fit: a file labelled as the full score before one that merely names no
        // part; the lower desk first; then by path.
        let ranked = parts.compactMap { part -> (ScorePart, PartFit, Int)? in
            guard let label = part.label else { return (part, .full, 1) }
            if label.kind == .full { return (part, .full, 0) }
            guard let player, let fit = label.serves(player) else { return nil }
            return (part, fit, label.number ?? 0)
        }
        if let best = ranked.min(by: { ($0.1, $0.2) < ($1.1, $1.2) }) { return PartChoice(part: best.0, fit: best.1) }
        return fallback.map { PartChoice(part: $0, fit: .full) }
    }
}

/// The file a player is shown for a piece, and how well it serves them.
///
/// ```swift
/// if choice.fit == .full { print("no part for this player") }
/// ```
public struct PartChoice: Sendable, Equatable, Codable {
    public var part: ScorePart
    public var fit: PartFit
}

/// A piece and the part a player is shown of it (``LibraryCatalog/parts(for:)``).
public struct PlayerPart: Sendable, Equatable, Codable {
    public var song: String
    public var choice: PartChoice
}

/// A part label to set on a file (`folio parts set`, `PUT /api/scores/ID/part`): a label
/// (any instrument, section or `Score`; up to `PartLabel/maxLength` characters), the piece
/// it belongs to when its name does not say, or both cleared back to what the name says.
///
/// ```swift
/// try catalog.setPart(PartSetting(score: "scan 12.pdf", label: "Trompete in B", song: "Moldau"))
/// ```
public struct PartSetting: Sendable, Equatable {
    /// The score: a path relative to the library, or a file name only one catalogued file has.
    public var score: String
    /// The part; nil leaves the file's name to tell (or no part).
    public var label: String?
    /// The piece; nil leaves the file's name to tell.
    public var song: String?

    public init(score: String, label: String? = nil, song: String? = nil) {
        self.score = score
        self.label = label
        self.song = song
    }
}
