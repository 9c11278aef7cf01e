import Foundation

/// A font text is set in on a new page: one of the standard fonts (WinAnsiEncoding, not
/// embedded), a TrueType font embedded as a subset of the glyphs used, its glyphs addressed
/// by number (Identity-H) with a ToUnicode map so the text can be copied and searched, or a
/// chain of TrueType fonts tried in order for each character (DejaVu Sans for Latin, Greek
/// and Cyrillic, a CJK font for what it lacks; see ``SystemFonts``).
///
/// ```swift
/// let face = PDFTypeface.standard(.courier)
/// face.width(of: "Am   G", size: 10)        // 36 points
/// face.firstMissing(in: "Dvořák")          // "ř": Courier's WinAnsiEncoding lacks it
/// ```
public enum PDFTypeface: Sendable, Equatable {
    case standard(StandardFont)
    case trueType(TrueTypeFont)
    /// Fonts tried in order: each character (with its combining marks) is set in the first
    /// font that has it.
    case chain([TrueTypeFont])

    /// The name a page's resources give the font.
    var key: String {
        switch self {
        case .standard(let font): font.baseFont
        case .trueType(let font): "TT:" + font.postScriptName + ":\(font.data.count)"
        case .chain(let fonts): "CH:" + fonts.map { $0.postScriptName + ":\($0.data.count)" }.joined(separator: ",")
        }
    }

    /// The first character of `text` this face cannot show, nil when it shows them all.
    public func firstMissing(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            switch self {
            case .standard: StandardFont.winAnsiCode(scalar) == nil
            case .trueType(let font): font.glyph(for: scalar) == nil
            case .chain(let fonts): !fonts.contains { $0.glyph(for: scalar) != nil }
            }
        }
    }

    /// Whether every character advances the same (a typewriter face, for chord charts).
    public var isMonospaced: Bool {
        switch self {
        case .standard(let font): font == .courier || font == .courierBold
        case .trueType(let font): font.isFixedPitch
        case .chain(let fonts): fonts.first?.isFixedPitch ?? false
        }
    }

    /// `text` cut into pieces of one face each: itself for a single font; for a chain, runs of
    /// characters that the same font shows (a character goes to the first font with all its
    /// scalars, else to the first with its base, else to the first font; a space or
    /// punctuation mark stays with the piece before it when that font has it).
    ///
    /// ```swift
    /// PDFTypeface.chain([dejaVu, droid]).segments("Dvořák 新世界。")
    /// // [(.trueType(dejaVu), "Dvořák "), (.trueType(droid), "新世界。")]
    /// ```
    public func segments(_ text: String) -> [(face: PDFTypeface, text: String)] {
        guard case .chain(let fonts) = self, fonts.count > 1 else {
            if case .chain(let fonts) = self, let only = fonts.first { return [(.trueType(only), text)] }
            return [(self, text)]
        }
        var pieces: [(font: Int, text: String)] = []
        for character in text {
            let scalars = character.unicodeScalars
            // Spaces and punctuation stay in the font of the piece they follow when it has
            // them, so a line of Hebrew words is one piece (text extractors reverse a
            // right-to-left run piece by piece).
            if let last = pieces.last, character.isWhitespace || character.isPunctuation,
               scalars.allSatisfy({ fonts[last.font].glyph(for: $0) != nil }) {
                pieces[pieces.count - 1].text.append(character)
                continue
            }
            let font = fonts.firstIndex { font in scalars.allSatisfy { font.glyph(for: $0) != nil } }
                ?? scalars.first.flatMap { base in fonts.firstIndex { $0.glyph(for: base) != nil } } ?? 0
            if let last = pieces.last, last.font == font {
                pieces[pieces.count - 1].text.append(character)
            } else {
                pieces.append((font, String(character)))
            }
        }
        return pieces.map { (.trueType(fonts[$0.font]), $0.text) }
    }

    /// One line of a paragraph running in `direction` (nil: the line's own) as it is drawn,
    /// left to right: Arabic letters joined in the forms this face has
    /// (``ArabicShaping``), then put in visual order (``BidiText``). Text without
    /// right-to-left characters comes back as it is.
    ///
    /// ```swift
    /// PDFTypeface.chain([dejaVu]).visualLine("שלום 123", direction: .rightToLeft)   // "123 םולש"
    /// ```
    public func visualLine(_ line: String, direction: BidiText.Direction? = nil) -> String {
        let direction = direction ?? BidiText.direction(of: line) ?? .leftToRight
        guard direction == .rightToLeft || BidiText.needsReordering(line) else { return line }
        let shaped: String
        switch self {
        case .standard: shaped = line
        case .trueType(let font): shaped = ArabicShaping.shape(line) { font.glyph(for: $0) != nil }
        case .chain(let fonts): shaped = ArabicShaping.shape(line) { form in fonts.contains { $0.glyph(for: form) != nil } }
        }
        return BidiText.visualOrder(shaped, direction: direction)
    }

    /// The bytes a text-showing operator takes: WinAnsi codes, or two-byte glyph numbers.
    /// A character the face lacks is an ``PDFError/Code/invalidArgument`` error naming it; a
    /// chain is encoded piece by piece (``segments(_:)``), each in its own font.
    public func encode(_ text: String) throws -> [UInt8] {
        switch self {
        case .chain:
            throw PDFError(.invalidArgument, "a chain of fonts is shown piece by piece; encode each of its segments")
        case .standard(let font):
            return try font.encode(text)
        case .trueType(let font):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.unicodeScalars.count * 2)
            for scalar in text.unicodeScalars {
                guard let glyph = font.glyph(for: scalar) else {
                    throw PDFError(.invalidArgument,
                                   "the character \"\(scalar)\" (\(String(format: "U+%04X", scalar.value))) is not in the font \(font.postScriptName)")
                }
                bytes += [UInt8(glyph >> 8), UInt8(glyph & 0xFF)]
            }
            return bytes
        }
    }

    /// The width of `text` in points; characters the face lacks count as a space would
    /// (a bullet, in a standard font).
    public func width(of text: String, size: Double) -> Double {
        text.unicodeScalars.reduce(0.0) { $0 + advance(of: $1) } * size / 1000
    }

    /// How far one character moves the pen, in thousandths of the text size.
    func advance(of scalar: Unicode.Scalar) -> Double {
        switch self {
        case .standard(let font):
            return Double(font.glyphWidth(StandardFont.winAnsiCode(scalar) ?? 0x95))
        case .trueType(let font):
            if let glyph = font.glyph(for: scalar) { return font.advance(of: glyph) }
            return font.glyph(for: " ").map(font.advance(of:)) ?? 250
        case .chain(let fonts):
            for font in fonts { if let glyph = font.glyph(for: scalar) { return font.advance(of: glyph) } }
            return fonts.first.map { PDFTypeface.trueType($0).advance(of: " ") } ?? 250
        }
    }

    /// Breaks one line of text (no newlines) into pieces no wider than `maxWidth`, between
    /// words where it can — at spaces, and between Chinese and Japanese characters (which
    /// have no spaces), except before closing punctuation and small kana or after opening
    /// punctuation (the Japanese *kinsoku* rules); a word wider than a line is cut between
    /// characters. Leading spaces stay. Each character is measured once, so the work grows
    /// with the line's length, not its square.
    ///
    /// ```swift
    /// face.wrap("ゆっくり、そして静かに。", size: 12, maxWidth: 60)
    /// // ["ゆっくり、", "そして静か", "に。"]: no line starts with "、" or "。"
    /// ```
    public func wrap(_ line: String, size: Double, maxWidth: Double) -> [String] {
        let characters = Array(line)
        let scale = size / 1000
        let widths = characters.map { character in
            character.unicodeScalars.reduce(0.0) { $0 + advance(of: $1) } * scale
        }
        var total = 0.0
        for width in widths { total += width }
        guard total > maxWidth else { return [line] }
        let space = width(of: " ", size: size)
        var pieces: [String] = []
        // The piece being filled: characters[start..<end], its width, whether it holds more than spaces.
        var start = 0, end = 0, filled = 0.0, printable = false, open = false
        var wordStart = 0
        // What joins the word to the one before it: a space, or nothing between CJK characters.
        var joint = space
        while wordStart <= characters.count {
            var wordEnd = wordStart, wordWidth = 0.0
            while wordEnd < characters.count, characters[wordEnd] != " ",
                  wordEnd == wordStart || !LineBreaking.canBreak(characters[wordEnd - 1], characters[wordEnd]) {
                wordWidth += widths[wordEnd]
                wordEnd += 1
            }
            let candidate = open ? filled + joint + wordWidth : wordWidth
            if candidate <= maxWidth {
                if !open { start = wordStart }
                end = wordEnd
                filled = candidate
                printable = printable || wordEnd > wordStart
                open = true
            } else {
                if open, printable { pieces.append(String(characters[start..<end])) }
                // Cut the word between characters while it is wider than a line.
                var rest = wordStart, restWidth = wordWidth
                while restWidth > maxWidth, wordEnd - rest > 1 {
                    var cut = rest, taken = 0.0
                    while cut < wordEnd, taken + widths[cut] <= maxWidth || cut == rest {
                        taken += widths[cut]
                        cut += 1
                    }
                    pieces.append(String(characters[rest..<cut]))
                    rest = cut
                    restWidth -= taken
                }
                start = rest
                end = wordEnd
                filled = restWidth
                printable = wordEnd > rest
                open = true
            }
            if wordEnd < characters.count, characters[wordEnd] != " " {
                wordStart = wordEnd
                joint = 0
            } else {
                wordStart = wordEnd + 1
                joint = space
            }
        }
        if end > start || pieces.isEmpty { pieces.append(String(characters[start..<end])) }
        return pieces
    }
}

/// A piece of text on a new page: where its baseline starts, its face and size.
///
/// ```swift
/// PDFTextRun(text: "Amazing Grace", face: .standard(.helveticaBold), size: 16, x: 56, y: 780)
/// ```
public struct PDFTextRun: Sendable, Equatable {
    public var text: String
    public var face: PDFTypeface
    public var size: Double
    public var x: Double
    public var y: Double
    /// The direction of the paragraph the run belongs to, for putting right-to-left text
    /// in visual order; nil takes the run's own (its first strong character's).
    public var direction: BidiText.Direction?

    public init(text: String, face: PDFTypeface, size: Double, x: Double, y: Double, direction: BidiText.Direction? = nil) {
        self.text = text
        self.face = face
        self.size = size
        self.x = x
        self.y = y
        self.direction = direction
    }
}

extension PDFNewDocument {
    /// Adds a page of `width` × `height` points showing `runs`, each in visual order
    /// (``PDFTypeface/visualLine(_:direction:)``). Standard fonts go into the
    /// file as their dictionaries; a TrueType font is embedded once, on writing, with widths
    /// and a ToUnicode map for the glyphs all pages use.
    public mutating func addTextPage(width: Double, height: Double, runs: [PDFTextRun]) throws {
        var content: [UInt8] = []
        var resources = PDFDictionary()
        var current: (String, Double)?
        content += Array("BT\n".utf8)
        for run in runs where !run.text.isEmpty {
            // A chain of fonts: each piece in its font, starting where the one before ended.
            var x = run.x
            for (face, text) in run.face.segments(run.face.visualLine(run.text, direction: run.direction)) {
                let (name, reference) = fontResource(face)
                resources[name] = .reference(reference)
                let encoded = try face.encode(text)
                if case .trueType = face { noteGlyphs(encoded, of: face, text: text) }
                if current.map({ $0 != (name, run.size) }) ?? true {
                    content += Array("/\(name) \(PDFDrawing.number(run.size)) Tf\n".utf8)
                    current = (name, run.size)
                }
                content += Array("1 0 0 1 \(PDFDrawing.number(x)) \(PDFDrawing.number(run.y)) Tm ".utf8)
                PDFSerializer.writeLiteral(encoded, to: &content)
                content += Array(" Tj\n".utf8)
                x += face.width(of: text, size: run.size)
            }
        }
        content += Array("ET\n".utf8)
        try addPage(width: width, height: height, content: content,
                    resources: resources.isEmpty ? [:] : ["Font": .dictionary(resources)])
    }
}
