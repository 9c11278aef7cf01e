import Foundation

/// A setlist pasted as text ("1. Autumn Leaves (Gm)\n2. Blue Bossa") matched against a
/// library's titles, bookmark titles and file names: numbering and bullets dropped, a key
/// in brackets read as a key, then fuzzy matching that ignores case, diacritics,
/// punctuation, word order and small typos, with a confidence from 0 to 1.
///
/// ```swift
/// let matcher = SetlistText(candidates: [.init(kind: .score, title: "Autumn Leaves", path: "AL.pdf")])
/// let line = matcher.match(SetlistText.parse("1. autum leaves (Gm)\n")[0])
/// line.best?.confidence   // about 0.93
/// ```
public struct SetlistText: Sendable {
    /// Something a line can match: a score (by title or file name) or a bookmark.
    ///
    /// ```swift
    /// let matcher = SetlistText(candidates: [.init(kind: .score, title: "Vltava", path: "Smetana/Vltava.pdf")])
    /// ```
    public struct Candidate: Sendable, Equatable {
        public var kind: SetlistEntry.Kind
        public var title: String
        public var path: String
        public var start: Int?
        public var end: Int?

        public init(kind: SetlistEntry.Kind, title: String, path: String, start: Int? = nil, end: Int? = nil) {
            self.kind = kind
            self.title = title
            self.path = path
            self.start = start
            self.end = end
        }

        public var entry: SetlistEntry { SetlistEntry(kind: kind, title: title, path: path, start: start, end: end) }
    }

    /// One line of the list, cleaned.
    ///
    /// ```swift
    /// SetlistText.parse("1. Vltava (E)\n2. Šárka").map(\.query)   // ["Vltava", "Šárka"]
    /// ```
    public struct Line: Sendable, Equatable {
        /// The line as written.
        public var text: String
        /// What is matched: the title without numbering or key.
        public var query: String
        /// A key given in brackets, as written ("Gm").
        public var key: String?
    }

    /// A candidate and how well it matches a line (0…1).
    ///
    /// ```swift
    /// matcher.match(line).alternatives.map { "\($0.candidate.title) \($0.confidence)" }
    /// ```
    public struct Scored: Sendable, Equatable {
        public var candidate: Candidate
        public var confidence: Double
    }

    /// A line and its best candidate (nil under the threshold) with the others in order.
    ///
    /// ```swift
    /// let match = matcher.match(SetlistText.parse("Vltava")[0])
    /// match.best?.candidate.path   // "Smetana/Vltava.pdf"
    /// ```
    public struct Match: Sendable, Equatable {
        public var line: Line
        /// The best candidate at or above the threshold, nil when none is.
        public var best: Scored?
        /// The next best (and the best below the threshold), for a person to choose.
        public var alternatives: [Scored]
    }

    /// The least confidence taken as a match.
    public var threshold: Double
    private let candidates: [Candidate]
    private let prepared: [Prepared]

    private struct Prepared: Sendable {
        var folded: String
        var tokens: [String]
    }

    public init(candidates: [Candidate], threshold: Double = 0.75) {
        self.candidates = candidates
        self.threshold = threshold
        prepared = candidates.map { candidate in
            let folded = SetlistText.fold(candidate.title)
            return Prepared(folded: folded, tokens: SetlistText.tokens(folded))
        }
    }

    /// The lines of `text` worth matching: blank lines and lines of only numbering skipped.
    public static func parse(_ text: String) -> [Line] {
        text.split(whereSeparator: \.isNewline).compactMap { raw in
            var line = String(raw).trimmingCharacters(in: .whitespaces)
            // Numbering and bullets: "1.", "1)", "#1", "01 -", "-", "*", "•".
            if let range = line.range(of: #"^(#?\d{1,3}\s*[.):\-–]?|[-*•·–])\s*"#, options: .regularExpression) {
                line.removeSubrange(range)
            }
            var key: String?
            // A key in brackets at the end: "(Gm)", "[Bb major]", "{F#}".
            if let range = line.range(of: #"\s*[(\[{]\s*([A-Ga-g][#b♯♭]?(m|min|minor|maj|major|-)?|[A-Ga-g][#b♯♭]?\s+(major|minor|dur|moll))\s*[)\]}]\s*$"#,
                                      options: .regularExpression) {
                key = line[range].trimmingCharacters(in: CharacterSet(charactersIn: " ()[]{}"))
                line.removeSubrange(range)
            }
            line = line.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, line.contains(where: \.isLetter) else { return nil }
            return Line(text: String(raw), query: line, key: key)
        }
    }

    /// The best candidates for `line`.
    public func match(_ line: Line) -> Match {
        let folded = SetlistText.fold(line.query)
        let tokens = SetlistText.tokens(folded)
        var scored: [Scored] = []
        for (index, candidate) in prepared.enumerated() {
            let confidence = SetlistText.similarity(folded, tokens, candidate.folded, candidate.tokens)
            if confidence >= 0.4 { scored.append(Scored(candidate: candidates[index], confidence: confidence)) }
        }
        // Best first; a score before its own bookmarks of the same name; then by path.
        scored.sort {
            if $0.confidence != $1.confidence { return $0.confidence > $1.confidence }
            if $0.candidate.kind != $1.candidate.kind { return $0.candidate.kind == .score }
            return $0.candidate.path < $1.candidate.path
        }
        // One line per piece: the same title in the same file counts once.
        var seen = Set<String>()
        scored = scored.filter { seen.insert("\($0.candidate.path)|\($0.candidate.title)|\($0.candidate.kind)").inserted }
        let best = scored.first.flatMap { $0.confidence >= threshold ? $0 : nil }
        let alternatives = Array(scored.dropFirst(best == nil ? 0 : 1).prefix(3))
        return Match(line: line, best: best, alternatives: alternatives)
    }

    // MARK: Similarity

    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "&", with: " and ")
            .replacingOccurrences(of: "ß", with: "ss")
        let scalars = folded.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : " " }
        return String(scalars).split(separator: " ").joined(separator: " ")
    }

    private static let stopWords: Set<String> = ["the", "a", "an", "and", "of", "der", "die", "das", "le", "la", "les", "il", "el"]

    static func tokens(_ folded: String) -> [String] {
        let all = folded.split(separator: " ").map(String.init)
        let kept = all.filter { !stopWords.contains($0) }
        return kept.isEmpty ? all : kept
    }

    /// The larger of the whole-string edit similarity and the share of words found in the
    /// other title (each word matched allowing a typo), scaled a little below a full match.
    static func similarity(_ a: String, _ aTokens: [String], _ b: String, _ bTokens: [String]) -> Double {
        if a == b { return 1 }
        if a.replacingOccurrences(of: " ", with: "") == b.replacingOccurrences(of: " ", with: "") { return 0.98 }
        let whole = ratio(a, b)
        guard !aTokens.isEmpty, !bTokens.isEmpty else { return whole }
        var used = Set<Int>()
        var matched = 0.0
        for token in aTokens {
            var bestIndex: Int?
            var bestScore = 0.0
            for (index, other) in bTokens.enumerated() where !used.contains(index) {
                let score = token == other ? 1 : ratio(token, other)
                if score > bestScore { bestScore = score; bestIndex = index }
            }
            if let bestIndex, bestScore >= 0.75 {
                used.insert(bestIndex)
                matched += bestScore
            }
        }
        let words = matched / Double(max(aTokens.count, bTokens.count)) * 0.95
        return max(whole, words)
    }

    /// 1 − Levenshtein distance / longer length.
    static func ratio(_ a: String, _ b: String) -> Double {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty || y.isEmpty { return x.count == y.count ? 1 : 0 }
        // Lengths too different cannot reach a useful ratio.
        if Double(min(x.count, y.count)) / Double(max(x.count, y.count)) < 0.4 { return 0 }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return 1 - Double(previous[y.count]) / Double(max(x.count, y.count))
    }
}
