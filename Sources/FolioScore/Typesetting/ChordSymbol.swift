/// Chord symbols as song sheets write them ("C", "F#m7", "Bbmaj7/D", "Gsus4", "N.C."), and
/// the test that tells a chord chart — chord lines above lyric lines — from other text.
///
/// ```swift
/// ChordSymbol.isChord("Bbmaj7/D")                 // true
/// ChordSymbol.isChordLine("  G      D/F#   Em")    // true
/// ChordSymbol.isChordLine("Go tell it on the")     // false
/// ```
public enum ChordSymbol {
    /// Whether `token` is one chord symbol.
    public static func isChord(_ token: Substring) -> Bool {
        if ["N.C.", "NC", "N.C", "%", "|", "||", "/", "-", "x2", "x3", "x4"].contains(token) { return true }
        var rest = token[...]
        guard let root = rest.first, "ABCDEFG".contains(root) else { return false }
        rest = rest.dropFirst()
        if let sign = rest.first, "#b♯♭".contains(sign) { rest = rest.dropFirst() }
        if let slash = rest.lastIndex(of: "/") {
            let bass = rest[rest.index(after: slash)...]
            guard let note = bass.first, "ABCDEFG".contains(note), bass.count <= 2,
                  bass.count == 1 || "#b♯♭".contains(bass.last ?? " ") else { return false }
            rest = rest[..<slash]
        }
        // What may follow the root: qualities, extensions and alterations, in any order.
        let words = ["maj", "min", "dim", "aug", "sus", "add", "m", "M", "°", "ø", "+", "-", "#", "b", "♯", "♭", "(", ")", ","]
        while !rest.isEmpty {
            if let digit = rest.first, digit.isASCII, digit.isNumber {
                rest = rest.dropFirst()
                continue
            }
            guard let word = words.first(where: { rest.hasPrefix($0) }) else { return false }
            rest = rest.dropFirst(word.count)
        }
        return true
    }

    /// A line holding only chord symbols (and bar lines), at least one of them a chord.
    public static func isChordLine(_ line: String) -> Bool {
        let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return tokens.contains { $0.first.map { "ABCDEFG".contains($0) } ?? false } && tokens.allSatisfy(isChord)
    }

    /// Whether text is a chord chart: at least two chord lines, and a chord line right above
    /// a line of words in at least two places (a list of chord names alone is not a chart).
    public static func looksLikeChordChart(_ lines: [String]) -> Bool {
        var chordLines = 0, overLyrics = 0
        for (index, line) in lines.enumerated() where isChordLine(line) {
            chordLines += 1
            if index + 1 < lines.count, !isChordLine(lines[index + 1]),
               lines[index + 1].contains(where: { $0.isLetter }) { overLyrics += 1 }
        }
        return chordLines >= 2 && overLyrics >= 2
    }
}
