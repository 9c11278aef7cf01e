import Foundation

/// Arabic letters joined as handwriting joins them: each letter replaced by its isolated,
/// final, initial or medial presentation form (Unicode's Arabic Presentation Forms-A and -B)
/// from its neighbours' joining types (ArabicShaping.txt: dual-joining, right-joining,
/// join-causing, transparent marks skipped), and lam followed by alef drawn as the lam-alef
/// ligature. Folio embeds fonts without running their OpenType tables, so joining is done by
/// choosing the glyphs a font maps those presentation characters to (DejaVu Sans has all of
/// Forms-B); a form the font lacks leaves the letter as typed.
///
/// Shaping is done on the text in logical order, before ``BidiText`` puts it in visual order,
/// and only for drawing: `/Contents` keeps what was typed, and the font's ToUnicode map gives
/// each presentation form back as the letter(s) it stands for (``logicalText(of:)``), so
/// copied or extracted text is the letters typed.
///
/// ```swift
/// let shaped = ArabicShaping.shape("سلام") { _ in true }
/// // "ﺳﻼﻡ": seen initial, the lam-alef ligature (final), meem isolated
/// ArabicShaping.logicalText(of: "\u{FEFC}")   // "\u{0627}\u{0644}": alef, lam (see the function)
/// ```
public enum ArabicShaping {
    /// How a letter joins its neighbours.
    enum Joining {
        /// Joins on both sides (beh, seen, lam…): four forms.
        case dual
        /// Joins only the letter before it (alef, dal, reh, waw…): isolated and final forms.
        case right
        /// Joins both sides without changing (tatweel, zero-width joiner).
        case causing
        /// Joins neither side (hamza): one form.
        case none
    }

    /// A letter's presentation forms: isolated, final, then initial and medial for a
    /// dual-joining one.
    struct Forms {
        var joining: Joining
        var forms: [Unicode.Scalar]
    }

    /// Forms-B (U+FE80–U+FEF4) in Unicode's order: for each letter from U+0621 to U+064A
    /// that has forms there, how many (1, 2 or 4).
    private static let formsB: [(letter: UInt32, count: Int)] = [
        (0x0621, 1), (0x0622, 2), (0x0623, 2), (0x0624, 2), (0x0625, 2), (0x0626, 4), (0x0627, 2), (0x0628, 4),
        (0x0629, 2), (0x062A, 4), (0x062B, 4), (0x062C, 4), (0x062D, 4), (0x062E, 4), (0x062F, 2), (0x0630, 2),
        (0x0631, 2), (0x0632, 2), (0x0633, 4), (0x0634, 4), (0x0635, 4), (0x0636, 4), (0x0637, 4), (0x0638, 4),
        (0x0639, 4), (0x063A, 4), (0x0641, 4), (0x0642, 4), (0x0643, 4), (0x0644, 4), (0x0645, 4), (0x0646, 4),
        (0x0647, 4), (0x0648, 2), (0x0649, 2), (0x064A, 4),
    ]

    /// Forms-A entries for the letters Persian and Urdu add: letter, first form, count.
    private static let formsA: [(letter: UInt32, first: UInt32, count: Int)] = [
        (0x0671, 0xFB50, 2), (0x0679, 0xFB66, 4), (0x067E, 0xFB56, 4), (0x0686, 0xFB7A, 4), (0x0688, 0xFB88, 2),
        (0x0691, 0xFB8C, 2), (0x0698, 0xFB8A, 2), (0x06A9, 0xFB8E, 4), (0x06AF, 0xFB92, 4), (0x06BA, 0xFB9E, 2),
        (0x06BE, 0xFBAA, 4), (0x06C1, 0xFBA6, 4), (0x06CC, 0xFBFC, 4), (0x06D2, 0xFBAE, 2),
    ]

    /// Every letter Folio shapes, with its forms.
    static let letters: [UInt32: Forms] = {
        var table: [UInt32: Forms] = [:]
        var next: UInt32 = 0xFE80
        for (letter, count) in formsB {
            let forms = (0..<UInt32(count)).compactMap { Unicode.Scalar(next + $0) }
            next += UInt32(count)
            table[letter] = Forms(joining: count == 4 ? .dual : count == 2 ? .right : .none, forms: forms)
        }
        for (letter, first, count) in formsA {
            let forms = (0..<UInt32(count)).compactMap { Unicode.Scalar(first + $0) }
            table[letter] = Forms(joining: count == 4 ? .dual : .right, forms: forms)
        }
        return table
    }()

    /// Lam-alef ligatures: the alef (madda, hamza above, hamza below, plain) to the
    /// isolated form; the final form follows it.
    private static let lamAlef: [UInt32: UInt32] = [0x0622: 0xFEF5, 0x0623: 0xFEF7, 0x0625: 0xFEF9, 0x0627: 0xFEFB]

    /// Each presentation form to the letters it stands for, for ToUnicode maps.
    private static let logical: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for (letter, forms) in letters {
            guard let scalar = Unicode.Scalar(letter) else { continue }
            for form in forms.forms { table[form.value] = String(scalar) }
        }
        for (alef, ligature) in lamAlef {
            guard let scalar = Unicode.Scalar(alef) else { continue }
            // In drawing order, alef then lam: text extractors (Poppler, MuPDF, PDFium) turn a
            // right-to-left line's characters around, a ligature's letters with them.
            let text = String(scalar) + "\u{0644}"
            table[ligature] = text
            table[ligature + 1] = text
        }
        return table
    }()

    /// Whether `text` has a letter that shaping would change.
    ///
    /// ```swift
    /// ArabicShaping.needsShaping("Dvořák")   // false
    /// ```
    public static func needsShaping(_ text: String) -> Bool {
        text.unicodeScalars.contains { letters[$0.value] != nil }
    }

    /// The letters a presentation form stands for, as a ToUnicode map gives them; nil for any
    /// other character. A lam-alef ligature gives its letters in drawing order (alef, lam),
    /// as text extractors reverse a right-to-left line's characters after reading them.
    ///
    /// ```swift
    /// ArabicShaping.logicalText(of: "\u{FE91}")   // "ب" (beh, initial form)
    /// ```
    public static func logicalText(of scalar: Unicode.Scalar) -> String? {
        logical[scalar.value]
    }

    /// `text` (logical order) with each Arabic letter in the form its neighbours call for,
    /// where `available` says the font has that form.
    ///
    /// ```swift
    /// ArabicShaping.shape("بيت") { dejaVu.glyph(for: $0) != nil }   // "ﺑﻴﺖ"
    /// ```
    public static func shape(_ text: String, available: (Unicode.Scalar) -> Bool) -> String {
        guard needsShaping(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        func joining(_ scalar: Unicode.Scalar) -> Joining? {
            if scalar.value == 0x0640 || scalar.value == 0x200D { return .causing }
            return letters[scalar.value]?.joining
        }
        func isTransparent(_ scalar: Unicode.Scalar) -> Bool {
            let category = scalar.properties.generalCategory
            return category == .nonspacingMark || category == .enclosingMark
        }
        // The nearest letter on each side that is not a transparent mark.
        func neighbour(of index: Int, step: Int) -> Int? {
            var at = index + step
            while at >= 0, at < scalars.count {
                if !isTransparent(scalars[at]) { return at }
                at += step
            }
            return nil
        }
        // Whether the letter at `index` joins the one before it (which must join onwards),
        // and the one after it (when it joins onwards itself).
        func joinsBefore(_ index: Int, _ type: Joining) -> Bool {
            guard type != .none, let before = neighbour(of: index, step: -1), let previous = joining(scalars[before]) else { return false }
            return previous == .dual || previous == .causing
        }
        func joinsAfter(_ index: Int, _ type: Joining) -> Bool {
            guard type == .dual || type == .causing, let after = neighbour(of: index, step: 1),
                  let next = joining(scalars[after]) else { return false }
            return next != .none
        }
        var shaped = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard let forms = letters[scalar.value] else {
                shaped.append(scalar)
                index += 1
                continue
            }
            let before = joinsBefore(index, forms.joining)
            // Lam and the alef right after it: one ligature, final when the lam is joined.
            if scalar.value == 0x0644, index + 1 < scalars.count, let isolated = lamAlef[scalars[index + 1].value],
               let ligature = Unicode.Scalar(isolated + (before ? 1 : 0)), available(ligature) {
                shaped.append(ligature)
                index += 2
                continue
            }
            let after = joinsAfter(index, forms.joining)
            let position = switch (before, after) {
            case (false, false): 0
            case (true, false): 1
            case (false, true): 2
            case (true, true): 3
            }
            if position < forms.forms.count, available(forms.forms[position]) {
                shaped.append(forms.forms[position])
            } else {
                shaped.append(scalar)
            }
            index += 1
        }
        return String(shaped)
    }
}
