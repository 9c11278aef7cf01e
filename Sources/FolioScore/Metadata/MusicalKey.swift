/// A key as forScore stores it: the MIDI pair keysf (sharps > 0, flats < 0, −7…7) and
/// keymi (0 major, 1 minor).
///
/// ```swift
/// let key = try MusicalKey(parsing: "f#m")
/// key.name                 // "F♯ minor"
/// (key.keysf, key.keymi)   // (3, 1)
/// try MusicalKey(keysf: -2, keymi: 0).name   // "B♭ major"
/// ```
public struct MusicalKey: Sendable, Hashable, CustomStringConvertible {
    /// Number of sharps (positive) or flats (negative) in the key signature, −7…7.
    public let keysf: Int
    /// 0 for major, 1 for minor.
    public let keymi: Int

    public var isMinor: Bool { keymi == 1 }

    public init(keysf: Int, keymi: Int) throws {
        guard (-7...7).contains(keysf) else {
            throw ScoreError(.outOfRange, "keysf \(keysf) is out of range (valid: -7 to 7)")
        }
        guard keymi == 0 || keymi == 1 else {
            throw ScoreError(.outOfRange, "keymi \(keymi) is out of range (valid: 0 for major, 1 for minor)")
        }
        self.keysf = keysf
        self.keymi = keymi
    }

    /// Tonics by keysf + 7, as in forScore's table.
    static let majorTonics = ["C♭", "G♭", "D♭", "A♭", "E♭", "B♭", "F", "C", "G", "D", "A", "E", "B", "F♯", "C♯"]
    static let minorTonics = ["A♭", "E♭", "B♭", "F", "C", "G", "D", "A", "E", "B", "F♯", "C♯", "G♯", "D♯", "A♯"]

    /// The name as forScore's table writes it ("F♯ minor", "B♭ major").
    public var name: String {
        (isMinor ? MusicalKey.minorTonics : MusicalKey.majorTonics)[keysf + 7] + (isMinor ? " minor" : " major")
    }

    public var description: String { name }

    /// Every key, in table order (major then minor, from seven flats to seven sharps).
    public static var all: [MusicalKey] {
        (0...1).flatMap { mode in (-7...7).compactMap { try? MusicalKey(keysf: $0, keymi: mode) } }
    }

    static let validForms = "a tonic A–G with ♯/# or ♭/b, then major/maj/M or minor/min/m "
        + "(\"F♯ minor\", \"F# minor\", \"Bb\", \"bb minor\", \"f#m\"); a lower-case tonic alone means minor"

    /// Parses forScore's names and the usual ASCII spellings.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var rest = Substring(trimmed)
        guard let letter = rest.first, "ABCDEFGabcdefg".contains(letter) else {
            throw ScoreError(.invalidKey, "unknown key '\(text)'; valid forms: \(MusicalKey.validForms)")
        }
        rest = rest.dropFirst()
        var accidental = ""
        for (spelling, sign) in [("♯", "♯"), ("#", "♯"), ("-sharp", "♯"), (" sharp", "♯"), ("♭", "♭"),
                                 ("-flat", "♭"), (" flat", "♭"), ("b", "♭")] where accidental.isEmpty {
            // "b" is a flat only when a mode or the end follows ("Bb", "bb minor"), not in "Bm".
            if rest.lowercased().hasPrefix(spelling) {
                accidental = sign
                rest = rest.dropFirst(spelling.count)
            }
        }
        let mode = rest.trimmingCharacters(in: .whitespaces)
        let minor: Bool
        switch mode {
        case "": minor = letter.isLowercase
        case "m", "min", "minor", "Minor", "MINOR", "moll": minor = true
        case "M", "maj", "major", "Major", "MAJOR", "dur", "Dur": minor = false
        default:
            throw ScoreError(.invalidKey, "unknown key '\(text)'; valid forms: \(MusicalKey.validForms)")
        }
        let tonic = letter.uppercased() + accidental
        let table = minor ? MusicalKey.minorTonics : MusicalKey.majorTonics
        guard let index = table.firstIndex(of: tonic) else {
            throw ScoreError(.invalidKey, "'\(text)' (\(tonic) \(minor ? "minor" : "major")) has no key signature of "
                + "at most 7 sharps or flats; valid \(minor ? "minor" : "major") keys: \(table.joined(separator: ", "))")
        }
        try self.init(keysf: index - 7, keymi: minor ? 1 : 0)
    }
}
