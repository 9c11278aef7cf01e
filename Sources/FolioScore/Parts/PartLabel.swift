import Foundation

/// What a part is: one instrument's (with its desk number and transposition), a whole
/// section's, or the full score. Parsed from the end of a file name (see ``PartName``) or
/// from a label the user set.
///
/// ```swift
/// let label = PartLabel("Trumpet in Bb 2")
/// label?.instrument == "Trumpet"; label?.number == 2; label?.transposition == "Bb"
/// PartLabel("Violine II")?.instrument == "Violin"
/// PartLabel("Partitur")?.kind == .full
/// ```
public struct PartLabel: Sendable, Hashable, Codable {
    /// The longest label taken, in characters.
    public static let maxLength = 100

    public enum Kind: String, Sendable, Hashable, Codable {
        /// One instrument's part.
        case part
        /// A section's part (`Strings`, `Brass`).
        case section
        /// The full score (`Score`, `Conductor`, `Partitur`).
        case full
    }

    public var kind: Kind
    /// The instrument's English name (``Instrument/name``); for a label the user set with a
    /// name Folio does not know ("Kazoo"), that name as written. Nil for a section or the full score.
    public var instrument: String?
    /// The section the part belongs to or stands for; nil for the full score or an unknown instrument.
    public var section: Instrument.Section?
    /// The desk or chair: 2 for `Violin II`, `2nd Trumpet`, `Horn 2`.
    public var number: Int?
    /// The key the instrument is written in: "Bb" for `Trumpet in B♭`, "F" for `Horn in F`.
    public var transposition: String?
    /// The label as written.
    public var written: String

    public init(kind: Kind, instrument: String? = nil, section: Instrument.Section? = nil, number: Int? = nil,
                transposition: String? = nil, written: String) {
        self.kind = kind
        self.instrument = instrument
        self.section = section
        self.number = number
        self.transposition = transposition
        self.written = written
    }

    /// The label `text` names, or nil when it names no instrument, section or full score
    /// Folio knows (so `Suite 1` or `Nachtmusik` are not taken for parts).
    public init?(_ text: String) {
        let written = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !written.isEmpty, written.count <= Self.maxLength else { return nil }
        let folded = PartName.fold(written)
        if Self.fullScore.contains(folded) {
            self.init(kind: .full, written: written)
            return
        }
        var words = folded.split(separator: " ").map(String.init)
        var transposition: String?
        var number: Int?
        // "in Bb", "in F", "in Es"
        if let index = words.firstIndex(of: "in"), index + 1 < words.count, let key = Self.key(words[index + 1], alone: true) {
            transposition = key
            words.removeSubrange(index...(index + 1))
        }
        // "Bb Trumpet", "Trumpet Eb": a key with its accidental anywhere
        if transposition == nil, let index = words.firstIndex(where: { Self.key($0, alone: false) != nil }), words.count > 1 {
            transposition = Self.key(words[index], alone: false)
            words.remove(at: index)
        }
        if let index = words.lastIndex(where: { Self.number($0) != nil }), words.count > 1 {
            number = Self.number(words[index])
            words.remove(at: index)
        }
        let name = words.joined(separator: " ")
        if let instrument = Instrument.named(name) {
            self.init(kind: .part, instrument: instrument.name, section: instrument.section, number: number,
                      transposition: transposition, written: written)
        } else if let section = Instrument.section(named: name), transposition == nil {
            self.init(kind: .section, section: section, number: number, written: written)
        } else {
            return nil
        }
    }

    /// A label the user set: one Folio can read (``init(_:)``), else an instrument of its
    /// own by that name. Nil when `text` is empty or longer than ``maxLength``.
    ///
    /// ```swift
    /// PartLabel(userLabel: "Kazoo")?.instrument == "Kazoo"
    /// ```
    public init?(userLabel text: String) {
        if let known = PartLabel(text) { self = known; return }
        let written = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !written.isEmpty, written.count <= Self.maxLength,
              !written.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else { return nil }
        self.init(kind: .part, instrument: written, written: written)
    }

    /// How well a part with this label serves a player who plays `player`: `.part` for their
    /// own (same instrument, desk and key as far as both say), `.instrument` for another
    /// desk or key of their instrument, `.section` for their section's part, `.full` for the
    /// full score; nil when it is somebody else's.
    ///
    /// ```swift
    /// PartLabel("Violin I")?.serves(PartLabel("Violin")!) == .instrument
    /// ```
    public func serves(_ player: PartLabel) -> PartFit? {
        switch kind {
        case .full: return .full
        case .section: return player.section != nil && player.section == section ? .section : nil
        case .part:
            guard let instrument, let wanted = player.instrument,
                  PartName.fold(instrument) == PartName.fold(wanted) else { return nil }
            let sameNumber = number == player.number
            let sameKey = transposition == nil || player.transposition == nil || transposition == player.transposition
            if sameNumber && sameKey { return .part }
            // Another desk is somebody else's part when both name theirs.
            if let number, let desk = player.number, number != desk { return nil }
            return .instrument
        }
    }

    // "Partitur", "Score", "Conductor"…
    private static let fullScore: Set<String> = Set([
        "score", "full score", "conductor", "conductor score", "conductors score", "conductor's score", "full", "partitur",
        "dirigierpartitur", "partition", "conducteur", "partitura", "partitura completa", "партитура", "παρτιτούρα",
        "スコア", "総譜", "总谱",
    ].map(PartName.fold))

    // A key: "bb", "eb", "f#", "es", "b"… (alone: after "in", where a bare letter is a key too).
    private static func key(_ word: String, alone: Bool) -> String? {
        let letters = Array(word)
        guard let first = letters.first, "abcdefgh".contains(first) else { return nil }
        let rest = String(letters.dropFirst())
        let name = first.uppercased()
        switch rest {
        case "": return alone ? name : nil
        case "b", "♭": return name + "b"
        case "#", "♯": return name + "#"
        case "es", "s": return alone ? name + "b" : nil
        case "is": return alone ? name + "#" : nil
        default: return nil
        }
    }

    // A desk: "1"…"9", "I"…"IV", "1st", "2nd", "3rd", "4th", "1.".
    private static func number(_ word: String) -> Int? {
        let romans = ["i": 1, "ii": 2, "iii": 3, "iv": 4]
        if let roman = romans[word] { return roman }
        var digits = word
        for suffix in ["st", "nd", "rd", "th", "."] where digits.hasSuffix(suffix) {
            digits.removeLast(suffix.count)
            break
        }
        guard let value = Int(digits), (1...9).contains(value) else { return nil }
        return value
    }
}

/// How well a file serves a player (see ``PartLabel/serves(_:)``), best first.
///
/// ```swift
/// PartFit.part < PartFit.full
/// ```
public enum PartFit: String, Sendable, Hashable, Codable, Comparable {
    /// The player's own part.
    case part
    /// Another desk or key of the player's instrument.
    case instrument
    /// The player's section's part.
    case section
    /// The full score: the player has no part of this piece.
    case full

    private var rank: Int {
        switch self {
        case .part: 0
        case .instrument: 1
        case .section: 2
        case .full: 3
        }
    }

    public static func < (lhs: PartFit, rhs: PartFit) -> Bool { lhs.rank < rhs.rank }
}
