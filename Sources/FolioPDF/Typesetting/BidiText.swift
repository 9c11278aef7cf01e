import Foundation

/// Text that mixes left-to-right and right-to-left scripts, put in the order a line is drawn
/// (left to right on the page) by the Unicode Bidirectional Algorithm (UAX #9): the
/// paragraph's direction from its first strong character (rules P2–P3), weak types, paired
/// brackets and neutrals resolved (W1–W7, BD16 and N0, N1–N2), levels (I1–I2), trailing spaces at the paragraph's level
/// (L1), runs reversed (L2) and brackets mirrored (L4). Explicit embeddings and isolates
/// (U+202A–U+202E, U+2066–U+2069) are not applied: they count as boundary neutrals; LRM
/// and RLM count as the strong characters they are. A combining mark stays with its base,
/// as each character (grapheme) moves whole.
///
/// PDF text has no direction: a line is drawn glyph after glyph from left to right, so a
/// Hebrew or Arabic line must be reversed before it is drawn, and its numbers and Latin
/// words must not be. `/Contents` keeps the text as typed (logical order); only what is drawn
/// is visual.
///
/// ```swift
/// BidiText.direction(of: "שלום, Dvořák")                 // .rightToLeft
/// BidiText.visualOrder("שלום 123", direction: .rightToLeft)
/// // "123 םולש": the number keeps its order, the Hebrew word reads from the right
/// ```
public enum BidiText {
    /// The direction a paragraph runs in.
    ///
    /// ```swift
    /// BidiText.direction(of: "Ελεγεία") == .leftToRight
    /// ```
    public enum Direction: Sendable, Equatable {
        case leftToRight, rightToLeft
    }

    /// The Bidi_Class values the algorithm resolves (UAX #9, table 4), without the explicit
    /// formatting ones.
    enum Kind: Equatable {
        case l, r, al, en, es, et, an, cs, nsm, bn, b, s, ws, on
    }

    /// The paragraph's direction from its first strong letter (rules P2–P3); nil when it has
    /// none (digits and punctuation only), which callers take as left to right.
    ///
    /// ```swift
    /// BidiText.direction(of: "123 — مرحبا")   // .rightToLeft: the Arabic word is the first strong one
    /// BidiText.direction(of: "123")           // nil
    /// ```
    public static func direction(of paragraph: String) -> Direction? {
        for scalar in paragraph.unicodeScalars {
            switch kind(of: scalar) {
            case .l: return .leftToRight
            case .r, .al: return .rightToLeft
            default: continue
            }
        }
        return nil
    }

    /// Whether `text` holds a character that the algorithm would move: a right-to-left
    /// letter or an Arabic-Indic digit.
    ///
    /// ```swift
    /// BidiText.needsReordering("Dvořák 12")   // false
    /// ```
    public static func needsReordering(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.value >= 0x0590 && [.r, .al, .an].contains(kind(of: scalar))
        }
    }

    /// One line of a paragraph that runs in `direction`, in the order its characters are
    /// drawn from left to right. Characters at right-to-left levels that have mirrored
    /// forms (parentheses, brackets, guillemets) are mirrored.
    ///
    /// ```swift
    /// BidiText.visualOrder("Allegro (אלגרו)", direction: .leftToRight)   // "Allegro (ורגלא)"
    /// ```
    public static func visualOrder(_ line: String, direction: Direction) -> String {
        let characters = Array(line)
        guard !characters.isEmpty else { return line }
        let paragraph = direction == .rightToLeft ? 1 : 0
        let original = characters.map { character in character.unicodeScalars.first.map(kind(of:)) ?? .on }
        let levels = resolveLevels(original, paragraph: paragraph, pairs: bracketPairs(characters, original))
        // L2: reverse every run at or above each level, from the highest to the lowest odd one.
        var order = Array(characters.indices)
        let highest = levels.max() ?? 0
        let lowestOdd = levels.filter { $0 % 2 == 1 }.min() ?? highest + 1
        if highest >= lowestOdd {
            for level in stride(from: highest, through: lowestOdd, by: -1) {
                var index = 0
                while index < order.count {
                    guard levels[order[index]] >= level else { index += 1; continue }
                    var end = index
                    while end < order.count, levels[order[end]] >= level { end += 1 }
                    order[index..<end].reverse()
                    index = end
                }
            }
        }
        var visual = ""
        visual.reserveCapacity(line.utf8.count)
        for index in order {
            let character = characters[index]
            if levels[index] % 2 == 1, let mirrored = mirror(character) {
                visual.append(mirrored)
            } else {
                visual.append(character)
            }
        }
        return visual
    }

    /// The paired brackets of a line (rule BD16): each opening bracket with the closing one
    /// that matches it, nesting kept, at most 63 open at once; in order of their openings.
    static func bracketPairs(_ characters: [Character], _ kinds: [Kind]) -> [(open: Int, close: Int)] {
        var stack: [(closing: Character, at: Int)] = []
        var pairs: [(open: Int, close: Int)] = []
        for (index, character) in characters.enumerated() where kinds[index] == .on {
            if let closing = pairedBrackets[character] {
                guard stack.count < 63 else { break }
                stack.append((closing, index))
            } else if pairedBrackets.values.contains(character),
                      let depth = stack.lastIndex(where: { $0.closing == character }) {
                pairs.append((stack[depth].at, index))
                stack.removeSubrange(depth...)
            }
        }
        return pairs.sorted { $0.open < $1.open }
    }

    /// Opening brackets and their closing ones (Bidi_Paired_Bracket).
    static let pairedBrackets: [Character: Character] = [
        "(": ")", "[": "]", "{": "}", "⁅": "⁆", "⁽": "⁾", "₍": "₎", "〈": "〉", "《": "》", "「": "」", "『": "』",
        "【": "】", "〔": "〕", "〖": "〗", "〘": "〙", "〚": "〛", "（": "）", "［": "］", "｛": "｝", "｟": "｠", "｢": "｣",
    ]

    /// The embedding level of each character of a line (rules W1–W7, N0–N2, I1–I2, L1).
    static func resolveLevels(_ original: [Kind], paragraph: Int, pairs: [(open: Int, close: Int)] = []) -> [Int] {
        let start: Kind = paragraph == 1 ? .r : .l
        var types = original
        let count = types.count
        // W1: a mark takes its base's type (the paragraph's at the start).
        for index in 0..<count where types[index] == .nsm || types[index] == .bn {
            types[index] = index == 0 ? start : types[index - 1]
        }
        // W2: European digits after Arabic letters are Arabic digits. W3: AL is R.
        var lastStrong = start
        for index in 0..<count {
            switch types[index] {
            case .l, .r, .al: lastStrong = types[index]
            case .en where lastStrong == .al: types[index] = .an
            default: break
            }
        }
        for index in 0..<count where types[index] == .al { types[index] = .r }
        // W4: one separator between two numbers of a kind joins them.
        if count >= 3 {
            for index in 1..<(count - 1) {
                let before = types[index - 1], after = types[index + 1]
                if types[index] == .es, before == .en, after == .en { types[index] = .en }
                if types[index] == .cs, before == after, before == .en || before == .an { types[index] = before }
            }
        }
        // W5: terminators (%, $, °) next to European digits are digits.
        var index = 0
        while index < count {
            guard types[index] == .et else { index += 1; continue }
            var end = index
            while end < count, types[end] == .et { end += 1 }
            if (index > 0 && types[index - 1] == .en) || (end < count && types[end] == .en) {
                for inner in index..<end { types[inner] = .en }
            }
            index = end
        }
        // W6: the separators left are neutral. W7: digits after a Latin letter are Latin.
        for index in 0..<count where [.es, .et, .cs].contains(types[index]) { types[index] = .on }
        lastStrong = start
        for index in 0..<count {
            switch types[index] {
            case .l, .r: lastStrong = types[index]
            case .en where lastStrong == .l: types[index] = .l
            default: break
            }
        }
        // N0: a pair of brackets takes the direction of the text inside it when that is the
        // paragraph's, else the other direction when the text before them has it too.
        func strong(_ kind: Kind) -> Kind { kind == .en || kind == .an ? .r : kind }
        for pair in pairs {
            let inside = types[(pair.open + 1)..<pair.close].lazy.map(strong).filter { $0 == .l || $0 == .r }
            guard let first = inside.first else { continue }
            var resolved = start
            if !inside.contains(start) {
                // Lazily: the scan stops at the nearest strong type (an earlier pair resolved is one).
                let before = types[..<pair.open].reversed().lazy.map(strong).first { $0 == .l || $0 == .r } ?? start
                resolved = before == first ? first : start
            }
            types[pair.open] = resolved
            types[pair.close] = resolved
        }
        // N1–N2: neutrals between two of a direction take it; else the paragraph's.
        let neutral: Set<Kind> = [.b, .s, .ws, .on, .bn, .nsm]
        index = 0
        while index < count {
            guard neutral.contains(types[index]) else { index += 1; continue }
            var end = index
            while end < count, neutral.contains(types[end]) { end += 1 }
            let before = index == 0 ? start : strong(types[index - 1])
            let after = end == count ? start : strong(types[end])
            let resolved = before == after ? before : start
            for inner in index..<end { types[inner] = resolved }
            index = end
        }
        // I1–I2.
        var levels = types.map { type -> Int in
            if paragraph % 2 == 0 {
                return switch type { case .r: paragraph + 1; case .an, .en: paragraph + 2; default: paragraph }
            }
            return switch type { case .l, .en, .an: paragraph + 1; default: paragraph }
        }
        // L1: separators, and the spaces before them and at the line's end, at the paragraph's level.
        var trailing = true
        for index in stride(from: count - 1, through: 0, by: -1) {
            switch original[index] {
            case .s, .b:
                levels[index] = paragraph
                trailing = true
            case .ws, .bn:
                if trailing { levels[index] = paragraph }
            default:
                trailing = false
            }
        }
        return levels
    }

    /// The character shown in place of `character` at a right-to-left level (Bidi_Mirrored
    /// pairs of the brackets and quotes used in text).
    static func mirror(_ character: Character) -> Character? {
        switch character {
        case "(": ")"
        case ")": "("
        case "[": "]"
        case "]": "["
        case "{": "}"
        case "}": "{"
        case "<": ">"
        case ">": "<"
        case "«": "»"
        case "»": "«"
        case "‹": "›"
        case "›": "‹"
        case "⁅": "⁆"
        case "⁆": "⁅"
        case "≤": "≥"
        case "≥": "≤"
        default: nil
        }
    }

    /// A character's Bidi_Class, from its block for the right-to-left scripts and its
    /// general category for the rest.
    static func kind(of scalar: Unicode.Scalar) -> Kind {
        let value = scalar.value
        switch value {
        case 0x0A, 0x0D, 0x1C...0x1E, 0x85, 0x2029: return .b
        case 0x09, 0x0B, 0x1F: return .s
        case 0x0C, 0x20, 0x1680, 0x2000...0x200A, 0x2028, 0x205F, 0x3000: return .ws
        case 0x30...0x39, 0xB2, 0xB3, 0xB9, 0x06F0...0x06F9, 0x2070, 0x2074...0x2079, 0x2080...0x2089,
             0x2488...0x249B, 0xFF10...0xFF19:
            return .en
        case 0x2B, 0x2D, 0x207A, 0x207B, 0x208A, 0x208B, 0x2212, 0xFB29, 0xFE62, 0xFE63, 0xFF0B, 0xFF0D: return .es
        case 0x23...0x25, 0xA2...0xA5, 0xB0, 0xB1, 0x0609, 0x060A, 0x066A, 0x09F2, 0x09F3, 0x0E3F, 0x2030...0x2034,
             0x20A0...0x20CF, 0x212E, 0x2213, 0xFE5F, 0xFE69, 0xFE6A, 0xFF03...0xFF05, 0xFFE0, 0xFFE1, 0xFFE5, 0xFFE6:
            return .et
        case 0x2C, 0x2E, 0x2F, 0x3A, 0xA0, 0x060C, 0x202F, 0x2044, 0xFE50, 0xFE52, 0xFE55, 0xFF0C, 0xFF0E, 0xFF0F, 0xFF1A:
            return .cs
        case 0x0600...0x0605, 0x0660...0x0669, 0x066B, 0x066C, 0x06DD, 0x0890, 0x0891, 0x08E2, 0x10E60...0x10E7E:
            return .an
        case 0x200E: return .l
        case 0x200F: return .r
        case 0x061C: return .al
        case 0xAD, 0x200B...0x200D, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: return .bn
        default: break
        }
        let category = scalar.properties.generalCategory
        if category == .nonspacingMark || category == .enclosingMark { return .nsm }
        switch value {
        case 0x0590...0x05FF, 0x07C0...0x085F, 0xFB1D...0xFB4F, 0x10800...0x10CFF, 0x10D40...0x10E5F,
             0x10E80...0x10EBF, 0x10F00...0x10F2F, 0x10F70...0x10FFF, 0x1E800...0x1EC6F, 0x1ED50...0x1EDFF:
            return .r
        case 0x0600...0x07BF, 0x0860...0x08FF, 0xFB50...0xFDCF, 0xFDF0...0xFDFF, 0xFE70...0xFEFF,
             0x10D00...0x10D3F, 0x10EC0...0x10EFF, 0x10F30...0x10F6F, 0x1EC70...0x1ECBF, 0x1ED00...0x1ED4F,
             0x1EE00...0x1EEFF:
            return .al
        default: break
        }
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .spacingMark, .decimalNumber, .letterNumber, .privateUse:
            return .l
        case .control, .format:
            return .bn
        default:
            return .on
        }
    }
}
