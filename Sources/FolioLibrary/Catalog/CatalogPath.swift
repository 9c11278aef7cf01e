import Foundation

/// How the catalog names a file. A file's path is stored as the folder holds it (so it opens
/// on every filesystem) and looked up by its key: the path in Unicode's composed form (NFC).
/// Macs and forScore write names decomposed (NFD), browsers and most Linux tools composed;
/// both spell one name, so both find the same score, and two files whose names differ only
/// so are never catalogued as one (a scan gives the second a free name, see
/// ``LibraryScanner``).
///
/// ```swift
/// CatalogPath.key("Dvor\u{030C}a\u{0301}k.pdf") == "Dvořák.pdf"   // true, and byte for byte
/// CatalogPath.refusal(ofFileName: "evil\u{202E}fdp.exe")         // "…a bidirectional override…"
/// ```
public enum CatalogPath {
    /// The lookup key of a relative path: its NFC form.
    public static func key(_ path: String) -> String {
        // ASCII is its own NFC form; Foundation's mapping took 5 % of a scan's writing thread.
        path.utf8.allSatisfy({ $0 < 0x80 }) ? path : path.precomposedStringWithCanonicalMapping
    }

    /// Whether two paths are the same name to a person (and to the catalog).
    public static func sameName(_ a: String, _ b: String) -> Bool {
        key(a).utf8.elementsEqual(key(b).utf8)
    }

    /// Characters that make a file name show something other than what it is: bidirectional
    /// overrides, embeddings and isolates, and the invisible direction marks.
    static let directionControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                 0x2066, 0x2067, 0x2068, 0x2069]

    /// Why a received file name cannot be used as it is (a control character such as a tab
    /// or a line end, a bidirectional override, or an invisible character such as U+200B that
    /// makes a name look like another), nil when it can. The joiners that scripts need (ZWNJ
    /// and ZWJ after Arabic, Indic and other joining letters, and in emoji sequences) are kept.
    public static func refusal(ofFileName name: String) -> String? {
        refusal(name, advice: "rename the file")
    }

    /// The same rule for a name given to something else (a member), `advice` saying what to do.
    static func refusal(_ name: String, advice: String) -> String? {
        let scalars = Array(name.unicodeScalars)
        for index in scalars.indices {
            let scalar = scalars[index]
            if scalar.properties.generalCategory == .control {
                return "the name holds a control character (\(String(format: "U+%04X", scalar.value))); \(advice)"
            }
            if directionControls.contains(scalar.value) {
                return "the name holds a bidirectional override (\(String(format: "U+%04X", scalar.value))), which can disguise a name; \(advice)"
            }
            if isInvisible(scalars, at: index) {
                return "the name holds an invisible character (\(String(format: "U+%04X", scalar.value))), which can make it look like another name; \(advice)"
            }
        }
        return nil
    }

    /// The first word of `name` that mixes letters of Latin, Greek and Cyrillic — the scripts
    /// whose letters look alike (Cyrillic "А" in "Аnna") — as browsers refuse such a label of
    /// a domain name (IDNA's mixed-script rule); nil when each word keeps to one of them.
    /// Words of different scripts side by side ("Пётр Smith") are fine.
    ///
    /// ```swift
    /// CatalogPath.mixedScriptWord("\u{0410}nna")   // "Аnna"
    /// CatalogPath.mixedScriptWord("Пётр Smith")     // nil
    /// ```
    public static func mixedScriptWord(_ name: String) -> String? {
        for word in name.split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "–" }) {
            var scripts = Set<Int>()
            for scalar in word.unicodeScalars {
                if let script = confusableScripts.firstIndex(where: { $0.contains { $0.contains(scalar.value) } }) { scripts.insert(script) }
            }
            if scripts.count > 1 { return String(word) }
        }
        return nil
    }

    /// Latin, Greek and Cyrillic letters, by block (combining marks belong to none).
    static let confusableScripts: [[ClosedRange<UInt32>]] = [
        [0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xFF21...0xFF3A, 0xFF41...0xFF5A],
        [0x370...0x3FF, 0x1F00...0x1FFF],
        [0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F],
    ]

    /// `name` without control characters, bidirectional overrides and invisible characters
    /// (for names Folio makes itself from what an archive or a setlist says).
    static func stripped(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        return String(String.UnicodeScalarView(scalars.indices.filter {
            scalars[$0].properties.generalCategory != .control && !directionControls.contains(scalars[$0].value) && !isInvisible(scalars, at: $0)
        }.map { scalars[$0] }))
    }

    /// Whether the format character at `index` shows nothing and changes nothing there: every
    /// one (zero-width space, word joiner, soft hyphen, BOM…) except ZWNJ and ZWJ between a
    /// letter of a script that joins or stacks (Arabic, Syriac, N'Ko, Mongolian, the Indic
    /// and Southeast Asian scripts) or an emoji and what follows, and emoji tag characters
    /// (the flags of England, Scotland, Wales) after an emoji.
    static func isInvisible(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let scalar = scalars[index]
        guard scalar.properties.generalCategory == .format, !directionControls.contains(scalar.value) else { return false }
        guard index > 0 else { return true }
        let before = scalars[index - 1]
        let emojiBefore = before.properties.isEmoji && before.value > 0x7F || before.value == 0xFE0F
            || (0x1F3FB...0x1F3FF).contains(before.value) || (0xE0020...0xE007F).contains(before.value)
        switch scalar.value {
        case 0x200C, 0x200D:
            guard index + 1 < scalars.count else { return true }
            return !(emojiBefore || joiningScripts.contains { $0.contains(before.value) })
        case 0xE0020...0xE007F:
            return !emojiBefore
        default:
            return true
        }
    }

    /// Scripts whose letters join or stack, where ZWNJ and ZWJ change how a word is drawn.
    static let joiningScripts: [ClosedRange<UInt32>] = [
        0x0600...0x08FF,   // Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, Arabic extended
        0x0900...0x0DFF,   // Devanagari to Sinhala
        0x0F00...0x109F,   // Tibetan, Myanmar
        0x1780...0x18AF,   // Khmer, Mongolian
        0xA840...0xA87F,   // Phags-pa
        0xFB50...0xFDFF,   // Arabic presentation forms A
        0xFE70...0xFEFF,   // Arabic presentation forms B
    ]
}
