import FolioPDF

/// A ChordPro song set on pages: title, subtitles, people and a line of key, tempo, time and
/// capo at the top; each lyric line with its chords (bold, smaller) above the syllables they
/// fall on; choruses and bridges indented under a label; tab and grid sections in Courier.
struct ChordProLayout {
    let options: TextScore.Options
    let fileName: String

    private var size: Double { options.size }
    private var lyrics: PDFTypeface { TextScore.face(options, chart: false) }
    /// Chords, section labels and the title.
    private var bold: PDFTypeface { TextScore.face(options, style: .bold, chart: false) }
    private var comments: PDFTypeface { TextScore.face(options, style: .italic, chart: false) }
    private var fixed: PDFTypeface { options.fontFile.map { .trueType($0) } ?? .standard(.courier) }
    private var chordSize: Double { size * 0.9 }

    func set(_ song: ChordProSong, into flow: inout TextPageFlow) throws {
        try heading(song, into: &flow)
        var indent = 0.0
        for line in song.lines {
            switch line.kind {
            case .blank:
                flow.skip(size * 0.75)
            case .newPage:
                try flow.newPage()
            case .comment(let comment):
                try text(comment, face: comments, size: size, x: indent, number: line.number, into: &flow)
            case .sectionStart(let section, let label):
                let shown = label ?? (section == .chorus ? "Chorus" : section == .bridge ? "Bridge" : nil)
                indent = section == .chorus || section == .bridge ? 18 : 0
                if let shown { try text(shown, face: bold, size: size, x: 0, number: line.number, into: &flow, keep: size * 2.5) }
            case .sectionEnd:
                indent = 0
            case .chorusAgain(let label):
                try text(label ?? "Chorus", face: bold, size: size, x: 18, number: line.number, into: &flow)
            case .verbatim(let verbatim):
                try text(verbatim, face: fixed, size: size * 0.9, x: indent, number: line.number, into: &flow, wrap: false)
            case .lyrics(let segments):
                try lyricLine(segments, x: indent, number: line.number, into: &flow)
            }
        }
    }

    private func heading(_ song: ChordProSong, into flow: inout TextPageFlow) throws {
        let title = song.title ?? ScoreMetadata.title(forFile: fileName)
        try text(title, face: bold, size: size * 1.6, x: 0, number: 1, into: &flow)
        for subtitle in song.subtitles { try text(subtitle, face: lyrics, size: size * 1.15, x: 0, number: 1, into: &flow) }
        let people = (song.artists + song.composers + song.lyricists.map { "Words: \($0)" }).joined(separator: ", ")
        if !people.isEmpty { try text(people, face: lyrics, size: size, x: 0, number: 1, into: &flow) }
        let facts = [("Key", song.key), ("Tempo", song.tempo), ("Time", song.time), ("Capo", song.capo), ("Duration", song.duration)]
            .compactMap { name, value in value.flatMap { $0.isEmpty ? nil : "\(name): \($0)" } }
        if !facts.isEmpty { try text(facts.joined(separator: "    "), face: comments, size: size * 0.9, x: 0, number: 1, into: &flow) }
        flow.skip(size)
    }

    /// A line of text, wrapped to the width left of `x`.
    private func text(_ text: String, face: PDFTypeface, size: Double, x: Double, number: Int,
                      into flow: inout TextPageFlow, keep: Double = 0, wrap: Bool = true) throws {
        try TextScore.checkCharacters(text, number: number, fileName: fileName, face: face)
        let pieces = wrap ? face.wrap(text, size: size, maxWidth: flow.lineWidth - x) : [text]
        for piece in pieces {
            let top = try flow.take(size * 1.25, keep: keep)
            flow.add(PDFTextRun(text: piece, face: face, size: size, x: flow.left + x, y: top - size))
        }
    }

    /// A piece of a lyric line that may start a new line: a word with the chords inside it.
    private struct Atom {
        var chord: String?
        var text: String
        /// A line may break before this atom (it starts a word).
        var breaksBefore: Bool
        /// Measured once, when the atom is made.
        var chordWidth: Double
        var textWidth: Double
    }

    /// Where a lyric line has got to: the next syllable's start, and where the last chord
    /// (with a space after it) ends.
    private struct Pen {
        var cursor: Double
        var chordEnd = -Double.infinity

        /// Places `atom`; returns where its chord starts (when it has one) and its text starts.
        mutating func place(_ atom: Atom, gap: Double) -> (chord: Double?, text: Double) {
            var chordAt: Double?
            if let chord = atom.chord, !chord.isEmpty {
                cursor = max(cursor, chordEnd)
                chordAt = cursor
                chordEnd = cursor + atom.chordWidth + gap
            }
            let textAt = cursor
            cursor += atom.textWidth
            return (chordAt, textAt)
        }

        func end(gap: Double) -> Double { max(cursor, chordEnd - gap) }
    }

    /// The chords over a lyric line: each chord starts where its syllable starts, pushed right
    /// (and its syllable with it) when the chord before would overlap it.
    private func place(_ atoms: [Atom], x: Double) -> (chords: [(String, Double)], words: [(String, Double)], end: Double) {
        var placedChords: [(String, Double)] = [], placedWords: [(String, Double)] = []
        var pen = Pen(cursor: x)
        let gap = bold.width(of: " ", size: chordSize)
        for atom in atoms {
            let at = pen.place(atom, gap: gap)
            if let chord = atom.chord, let start = at.chord { placedChords.append((chord, start)) }
            if !atom.text.isEmpty { placedWords.append((atom.text, at.text)) }
        }
        return (placedChords, placedWords, pen.end(gap: gap))
    }

    private func lyricLine(_ segments: [ChordProSong.Segment], x: Double, number: Int, into flow: inout TextPageFlow) throws {
        var atoms: [Atom] = []
        for segment in segments {
            try TextScore.checkCharacters(segment.text, number: number, fileName: fileName, face: lyrics)
            if let chord = segment.chord { try TextScore.checkCharacters(chord, number: number, fileName: fileName, face: bold) }
            // Words keep the space after them; the chord goes with the segment's first piece.
            var pieces: [String] = []
            var current = ""
            for character in segment.text {
                if character != " ", current.last == " " {
                    pieces.append(current)
                    current = ""
                }
                current.append(character)
            }
            pieces.append(current)
            for (index, piece) in pieces.enumerated() {
                let startsWord = index > 0 || atoms.last.map { $0.text.hasSuffix(" ") } ?? true
                let chord = index == 0 ? segment.chord : nil
                atoms.append(Atom(chord: chord, text: piece, breaksBefore: startsWord,
                                  chordWidth: chord.map { bold.width(of: $0, size: chordSize) } ?? 0,
                                  textWidth: lyrics.width(of: piece, size: size)))
            }
        }
        let width = flow.lineWidth - x
        var line: [Atom] = []
        func emit(_ atoms: [Atom], into flow: inout TextPageFlow) throws {
            let placed = place(atoms, x: flow.left + x)
            let hasChords = !placed.chords.isEmpty
            let height = (hasChords ? chordSize * 1.15 : 0) + size * 1.25
            let top = try flow.take(height)
            for (chord, at) in placed.chords {
                flow.add(PDFTextRun(text: chord, face: bold, size: chordSize, x: at, y: top - chordSize))
            }
            for (word, at) in placed.words {
                flow.add(PDFTextRun(text: word, face: lyrics, size: size, x: at, y: top - height + size * 0.25))
            }
        }
        let gap = bold.width(of: " ", size: chordSize)
        var pen = Pen(cursor: 0)   // where `line` has got to, kept as atoms are added
        for atom in atoms {
            line.append(atom)
            _ = pen.place(atom, gap: gap)
            guard pen.end(gap: gap) > width, line.count > 1 else { continue }
            // Break before the last word start on this line; a word longer than the line is
            // broken before its last piece, so a line never grows past one width (and laying it
            // out again per piece stays cheap).
            let cut = line.indices.dropFirst().last(where: { line[$0].breaksBefore }) ?? line.count - 1
            try emit(Array(line[..<cut]), into: &flow)
            line = Array(line[cut...])
            pen = Pen(cursor: 0)
            for rest in line { _ = pen.place(rest, gap: gap) }
        }
        if !line.isEmpty { try emit(line, into: &flow) }
    }
}
