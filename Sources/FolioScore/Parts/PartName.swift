import Foundation

/// A file name read as a piece and a part: `Song - Trumpet in Bb.pdf`,
/// `Song (Violin I).pdf`, `Song [Partitur].pdf`; a name with no part in it is the piece's
/// own (its full score, or a score that has no parts).
///
/// ```swift
/// let name = PartName(file: "Moldau - Horn in F 2.pdf")
/// name.song == "Moldau"; name.label?.instrument == "Horn"; name.label?.number == 2
/// PartName(file: "Čajkovskij – Labutí jezero (Housle II).pdf").label?.instrument == "Violin"
/// PartName(file: "Bach - Cello Suite 1.pdf").label == nil
/// ```
public struct PartName: Sendable, Hashable {
    /// The piece, as written (the name less its part).
    public var song: String
    /// The part the name ends with; nil when it names none.
    public var label: PartLabel?

    public init(song: String, label: PartLabel?) {
        self.song = song
        self.label = label
    }

    /// Reads a file name (a path's last component, with or without its extension).
    public init(file: String) {
        // By hand rather than NSString's path methods, which trap on some names (a NUL among
        // slashes, found by FuzzParts).
        var stem = Substring(file)
        while stem.hasSuffix("/") { stem = stem.dropLast() }
        if let slash = stem.lastIndex(of: "/") { stem = stem[stem.index(after: slash)...] }
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex {
            let ext = stem[stem.index(after: dot)...]
            if (1...4).contains(ext.count), ext.allSatisfy({ $0.isLetter || $0.isNumber }) { stem = stem[..<dot] }
        }
        self = Self.split(String(stem))
    }

    /// The key pieces are grouped by: the song folded for case, accents and width, its
    /// punctuation dropped (`Gabriel's Oboe` and `gabriels oboe` are one piece).
    public var songKey: String { Self.key(song) }

    /// `text` as grouping compares it (see ``songKey``).
    public static func key(_ text: String) -> String {
        let folded = fold(text)
        var kept = ""
        var space = false
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                if space, !kept.isEmpty { kept += " " }
                space = false
                kept.unicodeScalars.append(scalar)
            } else if CharacterSet.whitespaces.contains(scalar) || CharacterSet.punctuationCharacters.contains(scalar)
                        || CharacterSet.symbols.contains(scalar) {
                if scalar != "'" && scalar != "’" { space = true }
            }
        }
        return kept
    }

    /// Lower case without accents or width, `_` as a space, runs of spaces as one.
    static func fold(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "_", with: " ")
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private static func split(_ stem: String) -> PartName {
        let trimmed = stem.trimmingCharacters(in: .whitespaces)
        // "Song (Violin I)", "Song [Score]"
        for (open, close) in [("(", ")"), ("[", "]")] where trimmed.hasSuffix(close) {
            if let start = trimmed.range(of: open, options: .backwards) {
                let inner = String(trimmed[start.upperBound..<trimmed.index(before: trimmed.endIndex)])
                let song = tidy(String(trimmed[..<start.lowerBound]))
                if !song.isEmpty, let label = PartLabel(inner) { return PartName(song: song, label: label) }
            }
        }
        // "Song - Trumpet in Bb", with a hyphen, en or em dash between spaces, or "Song_-_Part"
        for separator in [" - ", " – ", " — ", "_-_", " -- "] {
            if let range = trimmed.range(of: separator, options: .backwards) {
                let song = tidy(String(trimmed[..<range.lowerBound]))
                if !song.isEmpty, let label = PartLabel(String(trimmed[range.upperBound...])) {
                    return PartName(song: song, label: label)
                }
            }
        }
        return PartName(song: trimmed, label: nil)
    }

    private static func tidy(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "-–—_,")))
    }
}
