import Foundation

/// One line of text a page shows, as a reader sees it: the glyphs of one baseline drawn one
/// after another, joined into a string with a space where the gap between two glyphs is a
/// word's (notation programs such as MuseScore place every glyph on its own and draw no
/// spaces). Positions are in default user space (points, origin at the lower left of the
/// media box): `x` and `y` where the baseline starts, `width` its length, `size` the font's
/// size as drawn. Invisible text (an OCR layer's render mode 3) is left out.
///
/// ```swift
/// for line in try document.textLines(ofPage: 0) where line.size > 20 {
///     print(line.text)   // "Ноктюрн – Nocturne"
/// }
/// ```
public struct PDFTextLine: Sendable, Equatable {
    public var text: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var size: Double

    public init(text: String, x: Double, y: Double, width: Double, size: Double) {
        (self.text, self.x, self.y, self.width, self.size) = (text, x, y, width, size)
    }

    /// Where the line ends.
    public var maxX: Double { x + width }
}

/// One glyph as drawn: its text (from the font's ToUnicode map, else its encoding), where it
/// starts and ends on the baseline, and the font's size, in default user space.
struct PDFGlyph: Sendable, Equatable {
    var text: String
    var x0: Double
    var x1: Double
    var y: Double
    var size: Double
}

extension PDFDocument {
    /// The most lines one page gives: a page of tens of thousands of glyphs is not music's heading.
    public static let maxTextLines = 20_000

    /// The lines of text page `index` (0-based) shows, in the order drawn. Text too rotated to
    /// be read along the page (more than about 10° from horizontal) is left out.
    public func textLines(ofPage index: Int) throws -> [PDFTextLine] {
        let page = try page(at: index)
        var walker = ContentBoundsWalker(document: self)
        walker.glyphs = []
        let data = try contentData(page.dictionary["Contents"])
        try walker.walk(data, resources: dictionary(page.resources), matrix: PDFMatrix(1, 0, 0, 1, 0, 0), depth: 0)
        return Self.lines(of: walker.glyphs ?? [])
    }

    /// Glyphs joined into lines: one line while the baseline stays (within a quarter of the
    /// font's size) and the next glyph starts near where the last ended — or, for text drawn
    /// right to left in reading order (as Qt draws Arabic), ends near where the last began; a
    /// space where the gap is more than 0.15 of the size; a new line after a gap of more than
    /// 1.5 sizes. A line drawn left to right whose letters are mostly right-to-left is read
    /// from its right end (``logicalOrder(_:)``).
    static func lines(of glyphs: [PDFGlyph]) -> [PDFTextLine] {
        var lines: [(line: PDFTextLine, leftward: Bool)] = []
        var current: (line: PDFTextLine, leftward: Bool?)?
        func close() {
            guard let (line, leftward) = current else { return }
            lines.append((line, leftward ?? false))
            current = nil
        }
        for glyph in glyphs where glyph.size > 0 {
            let text = shownText(glyph.text)
            guard !text.isEmpty else { continue }
            if var (line, leftward) = current {
                let size = max(line.size, glyph.size)
                let forward = glyph.x0 - line.maxX, backward = line.x - glyph.x1
                let sameLine = abs(glyph.y - line.y) <= size / 4
                if sameLine, leftward != true, forward > -size / 2, forward <= size * 1.5 {
                    extend(&line, with: text, gap: forward, spaceOver: size * 0.15)
                    line.width = max(line.width, glyph.x1 - line.x)
                    line.size = size
                    current = (line, leftward == nil && glyph.x1 - glyph.x0 > 0 ? false : leftward)
                    continue
                }
                if sameLine, leftward != false, backward > -size / 2, backward <= size * 1.5, glyph.x0 < line.x {
                    extend(&line, with: text, gap: backward, spaceOver: size * 0.15)
                    line.width = line.maxX - glyph.x0
                    line.x = glyph.x0
                    line.size = size
                    current = (line, true)
                    continue
                }
                close()
                if lines.count >= maxTextLines { break }
            }
            current = (PDFTextLine(text: text, x: glyph.x0, y: glyph.y, width: glyph.x1 - glyph.x0, size: glyph.size), nil)
        }
        close()
        return joined(lines).compactMap { line, leftward in
            var line = line
            let trimmed = line.text.trimmingCharacters(in: .whitespaces)
            line.text = plainForms(leftward ? trimmed : logicalOrder(trimmed))
            return line.text.isEmpty ? nil : line
        }
    }

    /// Pieces of one line drawn apart (a font change: LilyPond draws a title's Cyrillic after
    /// its Latin) joined: left-to-right pieces on one baseline, of about one size, that meet;
    /// a space between them unless they touch.
    /// The lines come out top to bottom, left to right on a baseline.
    private static func joined(_ lines: [(line: PDFTextLine, leftward: Bool)]) -> [(line: PDFTextLine, leftward: Bool)] {
        let ordered = lines.sorted { $0.line.y > $1.line.y }
        var result: [(line: PDFTextLine, leftward: Bool)] = []
        var band: [(line: PDFTextLine, leftward: Bool)] = []
        func flush() {
            for piece in band.sorted(by: { $0.line.x < $1.line.x }) {
                if var last = result.last, !last.leftward, !piece.leftward, abs(last.line.y - piece.line.y) <= last.line.size / 4,
                   abs(last.line.size - piece.line.size) <= 0.2 * max(last.line.size, piece.line.size),
                   piece.line.x - last.line.maxX > -last.line.size / 2, piece.line.x - last.line.maxX <= last.line.size * 1.5 {
                    // Pieces drawn apart that do not touch are words apart (lyrics' syllables, hyphens drawn as lines).
                    extend(&last.line, with: piece.line.text, gap: piece.line.x - last.line.maxX, spaceOver: last.line.size * 0.05)
                    last.line.width = max(last.line.maxX, piece.line.maxX) - last.line.x
                    result[result.count - 1] = last
                } else {
                    result.append(piece)
                }
            }
            band.removeAll()
        }
        for piece in ordered {
            if let first = band.first, first.line.y - piece.line.y > max(first.line.size, piece.line.size) / 4 { flush() }
            band.append(piece)
        }
        flush()
        return result
    }

    /// `text` added to `line`, after a space when `gap` is over `spaceOver` and neither side
    /// has one already.
    private static func extend(_ line: inout PDFTextLine, with text: String, gap: Double, spaceOver: Double) {
        if gap > spaceOver, !line.text.hasSuffix(" "), !text.hasPrefix(" ") { line.text += " " }
        line.text += text
    }

    /// A glyph's text as a line shows it: white space as one space; control characters and
    /// the private use area (music fonts' symbols) left out.
    static func shownText(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                shown += " "
            } else if scalar.properties.generalCategory != .control, scalar.properties.generalCategory != .privateUse {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Ligatures and Arabic and Hebrew presentation forms (what some fonts map their glyphs to)
    /// as the letters they stand for, so the text is found by a search: "ﺭﻳﺎﺽ" → "رياض".
    static func plainForms(_ text: String) -> String {
        func presentationForm(_ value: UInt32) -> Bool { (0xFB00...0xFDFF).contains(value) || (0xFE70...0xFEFF).contains(value) }
        guard text.unicodeScalars.contains(where: { presentationForm($0.value) }) else { return text }
        var result = ""
        for character in text {
            if presentationForm(character.unicodeScalars.first?.value ?? 0) {
                result += String(character).precomposedStringWithCompatibilityMapping
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A line drawn left to right in reading order for right-to-left scripts: glyphs are
    /// placed as they show, so a line whose letters are mostly Arabic or Hebrew is read from
    /// its right end — reversed, with runs of left-to-right text (Latin words, numbers) kept
    /// in their own order.
    static func logicalOrder(_ text: String) -> String {
        func rightToLeft(_ character: Character) -> Bool {
            guard let value = character.unicodeScalars.first?.value else { return false }
            return (0x0590...0x08FF).contains(value) || (0xFB1D...0xFDFF).contains(value) || (0xFE70...0xFEFF).contains(value)
        }
        let letters = text.filter(\.isLetter)
        guard !letters.isEmpty, letters.filter(rightToLeft).count * 2 > letters.count else { return text }
        var result: [Character] = [], run: [Character] = []
        for character in text.reversed() {
            if character.isLetter || character.isNumber, !rightToLeft(character) {
                run.append(character)
            } else {
                result += run.reversed()
                run.removeAll()
                result.append(character)
            }
        }
        result += run.reversed()
        return String(result)
    }
}

/// A font's ToUnicode CMap: character codes to text, from `bfchar` and `bfrange` sections
/// (each destination UTF-16BE). Ranges are taken up to ``maxCodes`` codes in all.
///
/// ```swift
/// let map = ToUnicodeMap.parse(Array("1 beginbfchar <0001> <0048> endbfchar".utf8))
/// map[1]   // "H"
/// ```
enum ToUnicodeMap {
    static let maxCodes = 65_536

    static func parse(_ data: [UInt8]) -> [Int: String] {
        var map: [Int: String] = [:]
        data.withUnsafeBytes { buffer in
            var lexer = Lexer(bytes: buffer)
            var section = ""
            var operands: [PDFObject] = []
            var arrayItems: [PDFObject]?
            while map.count < maxCodes {
                switch lexer.next() {
                case .eof:
                    return
                case .string(let string):
                    if arrayItems != nil { arrayItems?.append(.string(string)) } else { operands.append(.string(string)) }
                case .arrayOpen:
                    arrayItems = []
                case .arrayClose:
                    operands.append(.array(arrayItems ?? []))
                    arrayItems = nil
                case .keyword(let word):
                    switch word {
                    case "beginbfchar", "beginbfrange": section = word
                    case "endbfchar", "endbfrange": section = ""
                    default: break
                    }
                    operands.removeAll()
                    continue
                default:
                    continue
                }
                if section == "beginbfchar", operands.count == 2 {
                    if case .string(let source) = operands[0], case .string(let target) = operands[1], let code = code(source.bytes) {
                        map[code] = text(target.bytes)
                    }
                    operands.removeAll()
                } else if section == "beginbfrange", operands.count == 3 {
                    if case .string(let low) = operands[0], case .string(let high) = operands[1],
                       let first = code(low.bytes), let last = code(high.bytes), last >= first, last - first < maxCodes - map.count {
                        switch operands[2] {
                        case .string(let target):
                            // Consecutive codes, the destination's last unit counting up.
                            var units = utf16(target.bytes)
                            for code in first...last {
                                map[code] = String(decoding: units, as: UTF16.self)
                                if let lastUnit = units.last { units[units.count - 1] = lastUnit &+ 1 }
                            }
                        case .array(let targets):
                            for (offset, target) in targets.prefix(last - first + 1).enumerated() {
                                if case .string(let string) = target { map[first + offset] = text(string.bytes) }
                            }
                        default:
                            break
                        }
                    }
                    operands.removeAll()
                }
            }
        }
        return map
    }

    /// A source code of one to four bytes, big-endian.
    private static func code(_ bytes: [UInt8]) -> Int? {
        guard (1...4).contains(bytes.count) else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    private static func utf16(_ bytes: [UInt8]) -> [UInt16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
    }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: utf16(bytes), as: UTF16.self)
    }
}

/// Text of a simple font's byte without a ToUnicode map: its /Differences glyph name where it
/// has one ("uni0416", "A", "space", "eacute"…), else Windows' Latin encoding (WinAnsi, which
/// is ISO Latin 1 but for 0x80–0x9F).
enum SimpleFontText {
    static func text(_ code: UInt8, differences: [Int: String]) -> String {
        if let name = differences[Int(code)], let text = glyphName(name) { return text }
        if (0x80...0x9F).contains(code) {
            let windows: [UInt8: String] = [0x80: "€", 0x82: "‚", 0x84: "„", 0x85: "…", 0x86: "†", 0x87: "‡", 0x88: "ˆ", 0x89: "‰",
                                            0x8A: "Š", 0x8B: "‹", 0x8C: "Œ", 0x8E: "Ž", 0x91: "‘", 0x92: "’", 0x93: "“", 0x94: "”",
                                            0x95: "•", 0x96: "–", 0x97: "—", 0x98: "˜", 0x99: "™", 0x9A: "š", 0x9B: "›", 0x9C: "œ",
                                            0x9E: "ž", 0x9F: "Ÿ"]
            return windows[code] ?? ""
        }
        if code < 0x20 { return "" }
        return String(UnicodeScalar(code))
    }

    /// A glyph name's text: "uniXXXX", "uXXXX[XX]", one letter or digit, the Adobe Glyph
    /// List's Cyrillic ("afii10017" А…) and Greek ("alpha") names, a Latin letter with its
    /// accent ("eacute", "scaron", "Aring"), or a punctuation or digit name; nil for others
    /// (music symbols' names).
    static func glyphName(_ name: String) -> String? {
        if name.count == 1 { return name }
        if let text = cyrillic(name) ?? greek[name] ?? accented(name) { return text }
        for prefix in ["uni", "u"] where name.hasPrefix(prefix) {
            let hex = name.dropFirst(prefix.count)
            if (4...6).contains(hex.count), let value = UInt32(hex, radix: 16), let scalar = UnicodeScalar(value) { return String(scalar) }
        }
        let names = ["space": " ", "period": ".", "comma": ",", "hyphen": "-", "colon": ":", "semicolon": ";",
                     "parenleft": "(", "parenright": ")", "quoteright": "’", "quoteleft": "‘", "quotesingle": "'",
                     "quotedbl": "\"", "endash": "–", "emdash": "—", "slash": "/", "ampersand": "&", "exclam": "!",
                     "question": "?", "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                     "six": "6", "seven": "7", "eight": "8", "nine": "9", "eacute": "é", "egrave": "è", "aacute": "á",
                     "agrave": "à", "oacute": "ó", "uacute": "ú", "iacute": "í", "ntilde": "ñ", "udieresis": "ü",
                     "odieresis": "ö", "adieresis": "ä", "germandbls": "ß", "ccedilla": "ç", "Eacute": "É"]
        return names[name]
    }

    /// The Adobe Glyph List's afii names of Cyrillic letters.
    private static func cyrillic(_ name: String) -> String? {
        guard name.hasPrefix("afii"), let number = Int(name.dropFirst(4)) else { return nil }
        let value: UInt32?
        switch number {
        case 10017...10022: value = UInt32(0x0410 + number - 10017)
        case 10023: value = 0x0401
        case 10024...10049: value = UInt32(0x0416 + number - 10024)
        case 10065...10070: value = UInt32(0x0430 + number - 10065)
        case 10071: value = 0x0451
        case 10072...10097: value = UInt32(0x0436 + number - 10072)
        case 10051...10061: value = UInt32(0x0402 + number - 10051)
        case 10062: value = 0x040E
        case 10145: value = 0x040F
        case 10099...10109: value = UInt32(0x0452 + number - 10099)
        case 10110: value = 0x045E
        case 10193: value = 0x045F
        case 10050: value = 0x0490
        case 10098: value = 0x0491
        default: value = nil
        }
        return value.flatMap(UnicodeScalar.init).map { String($0) }
    }

    private static let greek: [String: String] = {
        let names = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu",
                     "xi", "omicron", "pi", "rho", "sigma1", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"]
        var table: [String: String] = [:]
        for (offset, name) in names.enumerated() {
            guard let lower = UnicodeScalar(0x03B1 + UInt32(offset)) else { continue }
            table[name] = String(lower)
            if name != "sigma1", let upper = UnicodeScalar(0x0391 + UInt32(offset)) {
                table[name.prefix(1).uppercased() + name.dropFirst()] = String(upper)
            }
        }
        return table
    }()

    /// "eacute" → "é", "Scaron" → "Š": a Latin letter and its accent's name, composed.
    private static func accented(_ name: String) -> String? {
        let special = ["ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "oslash": "ø", "Oslash": "Ø", "lslash": "ł", "Lslash": "Ł",
                       "dotlessi": "ı", "eth": "ð", "Eth": "Ð", "thorn": "þ", "Thorn": "Þ", "dcroat": "đ", "Dcroat": "Đ"]
        if let text = special[name] { return text }
        let accents: [(String, UInt32)] = [("acute", 0x301), ("grave", 0x300), ("circumflex", 0x302), ("dieresis", 0x308),
                                           ("tilde", 0x303), ("ring", 0x30A), ("cedilla", 0x327), ("caron", 0x30C),
                                           ("macron", 0x304), ("breve", 0x306), ("ogonek", 0x328), ("dotaccent", 0x307),
                                           ("hungarumlaut", 0x30B), ("commaaccent", 0x326)]
        for (accent, mark) in accents where name.hasSuffix(accent) && name.count == accent.count + 1 {
            guard let base = name.first, base.isASCII, base.isLetter, let combining = UnicodeScalar(mark) else { return nil }
            return (String(base) + String(combining)).precomposedStringWithCanonicalMapping
        }
        return nil
    }
}
