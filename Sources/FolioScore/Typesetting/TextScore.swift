import FolioPDF
import Foundation

/// New scores made from text, as forScore converts text files on import: plain text (lyrics,
/// chord charts, notes) set line by line, and ChordPro song sheets (see ``ChordProSong``).
///
/// ```swift
/// var options = TextScore.Options()
/// options.paper = .letter
/// let made = try TextScore.pdf([("Amazing Grace.txt", bytes)], options: options)
/// ```
public enum TextScore {
    /// The standard fonts text can be set in.
    ///
    /// ```swift
    /// var options = TextScore.Options()
    /// options.font = .times
    /// ```
    public enum Font: String, Sendable, CaseIterable {
        case helvetica, times, courier

        var regular: StandardFont {
            switch self {
            case .helvetica: .helvetica
            case .times: .timesRoman
            case .courier: .courier
            }
        }

        var bold: StandardFont {
            switch self {
            case .helvetica: .helveticaBold
            case .times: .timesBold
            case .courier: .courierBold
            }
        }

        var italic: StandardFont {
            switch self {
            case .helvetica: .helveticaOblique
            case .times: .timesItalic
            case .courier: .courierOblique
            }
        }
    }

    /// How text is set.
    ///
    /// ```swift
    /// var options = TextScore.Options()
    /// options.paper = .letter
    /// options.size = 12
    /// let made = try TextScore.pdf([("Písně.txt", bytes)], options: options)
    /// ```
    public struct Options: Sendable {
        public var paper: ScoreMake.Paper = .a4
        /// nil: Courier for a chord chart (chords stay over their syllables), else Helvetica.
        public var font: Font?
        /// A TrueType font to embed instead of a standard font; characters it lacks come from
        /// the installed fonts (FolioPDF's `SystemFonts`).
        public var fontFile: TrueTypeFont?
        /// The fonts each style is set in when the text needs more than the standard fonts'
        /// characters (or a font file is given): settled by ``TextScore/pdf(_:options:title:date:)``.
        var chains: [SystemFonts.Style: [TrueTypeFont]] = [:]
        /// The text size in points (valid: 4 to 72).
        public var size = 11.0
        /// The margin on every side in points (valid: 0 to a third of the paper's width).
        public var margin = 50.0
        /// The most characters typeset from all files together (a lyric sheet or a chord
        /// chart has thousands; this bounds the pages one request can make).
        public var maxCharacters = 4 << 20
        /// The most characters in one line (one paragraph of prose; wrapped onto many lines).
        public var maxLineCharacters = 1 << 20

        public init() {}

        /// Embeds the TrueType font in `bytes` (a file called `name`) instead of a standard
        /// font; bytes that are not a font Folio can embed are an invalid value naming the file.
        ///
        /// ```swift
        /// var options = TextScore.Options()
        /// try options.useFontFile(Array(try Data(contentsOf: dejaVu)), name: "DejaVuSans.ttf")
        /// ```
        public mutating func useFontFile(_ bytes: [UInt8], name: String) throws {
            fontFile = try TextFont(bytes: bytes, fileName: name).font
        }

        /// Refuses a text past ``maxCharacters`` (with `before` already typeset) or with a
        /// line past ``maxLineCharacters``, naming the limit; one pass over the text.
        func checkLength(_ text: String, fileName: String, before: inout Int) throws {
            var line = 0, number = 1
            for scalar in text.unicodeScalars {
                before += 1
                if scalar == "\n" {
                    line = 0
                    number += 1
                } else {
                    line += 1
                }
                if before > maxCharacters {
                    throw ScoreError(.limitExceeded, "\(fileName): more than \(maxCharacters) characters of text; at most \(maxCharacters) are typeset in one file")
                }
                if line > maxLineCharacters {
                    throw ScoreError(.limitExceeded, "\(fileName), line \(number): more than \(maxLineCharacters) characters in one line (valid: up to \(maxLineCharacters))")
                }
            }
        }

        func validate() throws {
            guard (4...72).contains(size) else { throw ScoreError(.outOfRange, "text size \(size) is out of range (valid: 4 to 72 pt)") }
            let most = paper.size.width / 3
            guard (0...most).contains(margin) else {
                throw ScoreError(.outOfRange, "margin \(margin) is out of range (valid: 0 to \(Int(most)) pt on \(paper.rawValue))")
            }
        }
    }

    /// What kind of text a file holds: ChordPro by its extension (.cho, .chordpro, .chopro,
    /// .crd) or a `{title: …}` directive on a line of its own, else plain text.
    public static func isChordPro(fileName: String, text: String) -> Bool {
        let ext = (fileName as NSString).pathExtension.lowercased()
        if ["cho", "chordpro", "chopro", "crd"].contains(ext) { return true }
        return text.split(separator: "\n", maxSplits: 200, omittingEmptySubsequences: true).prefix(200).contains { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces).lowercased()
            return trimmed.hasPrefix("{title:") || trimmed.hasPrefix("{t:")
        }
    }

    /// A PDF of text files (name, bytes) in order, each starting on a new page; several get an
    /// outline entry each. `title` names the whole file; by default the one file's own title —
    /// its first line when that is short and not chords, else its file name. Returns the
    /// file's bytes, what was noticed on the way, and how many pages it has.
    public static func pdf(_ files: [(name: String, bytes: [UInt8])], options: Options = Options(), title: String? = nil,
                           date: Date = Date()) throws -> (bytes: [UInt8], warnings: [String], pages: Int) {
        guard !files.isEmpty else { throw ScoreError(.invalidValue, "no text files given") }
        try options.validate()
        var flow = TextPageFlow(paper: options.paper, margin: options.margin)
        var outline: [PDFOutlineItem] = []
        var edit = ScoreEdit()
        var composers: [String] = []
        var warnings: [String] = []
        var characters = 0
        var texts: [(name: String, text: String)] = []
        for (name, bytes) in files {
            let (text, _) = try TextDecoding.decode(bytes)
            try options.checkLength(text, fileName: name, before: &characters)
            texts.append((name, text))
        }
        // The standard fonts for text they can show (the smallest files); else the user's font
        // and the installed ones, each embedded as a subset of the glyphs used.
        var options = options
        let all = String(String.UnicodeScalarView(texts.map(\.text).joined(separator: "\n").unicodeScalars.filter {
            $0.properties.generalCategory != .control   // line breaks, tabs, form feeds: never drawn
        }))
        if options.fontFile != nil || PDFTypeface.standard(.helvetica).firstMissing(in: all) != nil {
            var read: [String: TrueTypeFont?] = [:]   // each file read once for all the styles
            for style in SystemFonts.Style.allCases {
                options.chains[style] = SystemFonts.chain(for: all, style: style, first: options.fontFile) { path in
                    if let font = read[path] { return font }
                    let font = SystemFonts.read(path)
                    read[path] = font
                    return font
                }
            }
        }
        for (name, text) in texts {
            let first = flow.pageCount
            let fileEdit: ScoreEdit
            if isChordPro(fileName: name, text: text) {
                let song = ChordProSong(parsing: text)
                try ChordProLayout(options: options, fileName: name).set(song, into: &flow)
                let made = song.edit(fallbackTitle: ScoreMetadata.title(forFile: name))
                fileEdit = made.edit
                warnings += (song.warnings + made.warnings).map { "\(name): \($0)" }
            } else {
                try setPlain(text, fileName: name, options: options, into: &flow)
                fileEdit = ScoreEdit(title: plainTitle(text) ?? ScoreMetadata.title(forFile: name))
            }
            try flow.finishPage()
            composers += (fileEdit.composers ?? []).filter { !composers.contains($0) }
            outline.append(PDFOutlineItem(title: fileEdit.title ?? ScoreMetadata.title(forFile: name), target: .page(index: first)))
            if files.count == 1 { edit = fileEdit }
        }
        if files.count > 1, !composers.isEmpty { edit.composers = composers }
        if let title { edit.title = title }
        var pdf = flow.pdf
        if files.count > 1 { pdf.outline = outline }
        let finished = try NewScoreFile.finish(try pdf.bytes(), edit: edit, date: date)
        return (finished.bytes, warnings + finished.warnings, flow.pageCount)
    }

    /// The first line as a title: when it is short, has letters and is not a line of chords.
    static func plainTitle(_ text: String) -> String? {
        guard let line = text.split(separator: "\n").first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 100, trimmed.contains(where: \.isLetter), !ChordSymbol.isChordLine(trimmed) else { return nil }
        return trimmed
    }

    /// The face text is set in: the fonts the text needs (a font file first), the chosen
    /// standard font, or by what the text is.
    static func face(_ options: Options, style: Style = .regular, chart: Bool) -> PDFTypeface {
        let font = options.font ?? (chart ? .courier : .helvetica)
        // Installed fonts of the chosen standard font's kind: Times → DejaVu Serif, Courier → Mono.
        let system: SystemFonts.Style = switch (font, style) {
        case (.courier, _): .monospaced
        case (.times, .bold): .serifBold
        case (.times, .italic): .serifItalic
        case (.times, .regular): .serif
        case (_, .bold): .bold
        case (_, .italic): .italic
        case (_, .regular): .regular
        }
        if let fonts = options.chains[system] { return .chain(fonts) }
        return .standard(style == .bold ? font.bold : style == .italic ? font.italic : font.regular)
    }

    enum Style { case regular, bold, italic }

    /// The first character `face` cannot show, as an error naming it and its line.
    static func checkCharacters(_ line: String, number: Int, fileName: String, face: PDFTypeface) throws {
        guard let missing = face.firstMissing(in: line) else { return }
        let code = String(format: "U+%04X", missing.value)
        let reason: String = switch face {
        case .standard(let font):
            "the character \"\(missing)\" (\(code)) cannot be written: \(font.baseFont) has only WinAnsiEncoding's characters (Latin-1, € and typographic quotes); give a TrueType font that has it (--font-file)"
        case .trueType(let font): SystemFonts.advice(for: missing, fonts: [font])
        case .chain(let fonts): SystemFonts.advice(for: missing, fonts: fonts)
        }
        throw ScoreError(.invalidValue, "\(fileName), line \(number): \(reason)")
    }

    /// Plain text, one line after another; a form feed starts a page. In a chord chart set
    /// in a fixed-pitch face, a chord line and the lyric line under it wrap at the same column.
    static func setPlain(_ text: String, fileName: String, options: Options, into flow: inout TextPageFlow) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
        let chart = ChordSymbol.looksLikeChordChart(lines)
        let face = face(options, chart: chart)
        let size = options.size, leading = size * 1.25
        let monospaced = face.isMonospaced
        let columns = monospaced ? max(1, Int(flow.lineWidth / face.width(of: "0", size: size))) : 0
        // A Hebrew or Arabic line runs from the right margin, its pieces in the line's direction.
        func put(_ piece: String, keep: Double = 0, direction: BidiText.Direction? = nil) throws {
            let top = try flow.take(leading, keep: keep)
            let x = direction == .rightToLeft
                ? flow.left + max(0, flow.lineWidth - face.width(of: face.visualLine(piece, direction: direction), size: size))
                : flow.left
            flow.add(PDFTextRun(text: piece, face: face, size: size, x: x, y: top - size, direction: direction))
        }
        var index = 0
        while index < lines.count {
            var line = lines[index]
            try checkCharacters(line, number: index + 1, fileName: fileName, face: face)
            if line.hasPrefix("\u{0C}") {
                try flow.newPage()
                line.removeFirst()
            }
            if monospaced, chart, ChordSymbol.isChordLine(line), index + 1 < lines.count, !ChordSymbol.isChordLine(lines[index + 1]),
               max(line.count, lines[index + 1].count) > columns {
                try checkCharacters(lines[index + 1], number: index + 2, fileName: fileName, face: face)
                for (chords, words) in wrapPair(line, lines[index + 1], columns: columns) {
                    try put(chords, keep: leading)
                    try put(words)
                }
                index += 2
                continue
            }
            let direction = BidiText.direction(of: line)
            for piece in face.wrap(line, size: size, maxWidth: flow.lineWidth) { try put(piece, direction: direction) }
            index += 1
        }
    }

    /// A chord line and its lyric line cut at the same columns, at spaces of the lyrics where
    /// there are any, so each chord stays over its syllable.
    static func wrapPair(_ chords: String, _ words: String, columns: Int) -> [(String, String)] {
        let chords = Array(chords), words = Array(words)
        // Where the rest of each line starts: both advance together, so no line is copied per piece.
        var c = 0, w = 0
        var pairs: [(String, String)] = []
        func piece(_ line: [Character], from start: Int, count: Int) -> String {
            start >= line.count ? "" : String(line[start..<min(line.count, start + count)])
        }
        while max(chords.count - c, words.count - w) > columns {
            var cut = columns
            // The last space of the lyrics within the line, where no chord is cut in two.
            if let space = (1...columns).reversed().first(where: { column in
                (w + column >= words.count || words[w + column] == " ")
                    && (c + column >= chords.count || chords[c + column] == " " || chords[c + column - 1] == " ")
            }) { cut = space }
            pairs.append((piece(chords, from: c, count: cut), piece(words, from: w, count: cut)))
            c = min(chords.count, c + cut)
            w = min(words.count, w + cut)
            // Both lines lose the same number of leading spaces, so the columns stay aligned.
            var blank = 0
            while c + blank < chords.count, w + blank < words.count, chords[c + blank] == " ", words[w + blank] == " " { blank += 1 }
            c += blank
            w += blank
        }
        pairs.append((piece(chords, from: c, count: chords.count), piece(words, from: w, count: words.count)))
        return pairs
    }
}
