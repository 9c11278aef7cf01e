import Foundation

/// Where a line may break between two characters that no space separates: between Chinese
/// and Japanese characters (ideographs, kana, full-width forms: UAX #14's ideographic class),
/// but never before closing punctuation, iteration marks and small kana, nor after opening
/// punctuation — the Japanese *kinsoku shori* rules most typesetters apply, which keep "、",
/// "。" and "」" off the start of a line and "「" off its end.
///
/// ```swift
/// LineBreaking.canBreak("く", "り")    // true
/// LineBreaking.canBreak("り", "、")    // false: a comma never starts a line
/// LineBreaking.canBreak("D", "v")      // false: Latin words break at spaces only
/// ```
public enum LineBreaking {
    /// Whether a line may end after `before` and the next start with `after`.
    public static func canBreak(_ before: Character, _ after: Character) -> Bool {
        guard before != " ", after != " ", isIdeographic(before) || isIdeographic(after) else { return false }
        return !noBreakBefore.contains(after) && !noBreakAfter.contains(before)
    }

    /// Whether `character` is set as one ideographic unit: Han, kana, CJK symbols and
    /// punctuation, full-width forms, Hangul syllables.
    static func isIdeographic(_ character: Character) -> Bool {
        guard let value = character.unicodeScalars.first?.value else { return false }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF01...0xFF60, 0xFFE0...0xFFE6,
             0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Characters a line must not start with: closing brackets and quotes, commas and
    /// stops, iteration marks, the prolonged sound mark and small kana.
    static let noBreakBefore: Set<Character> = Set(
        ")]}»›,.!?:;%" + "、。，．・：；？！）］｝〕〉》」』】〙〗〟’”｠" + "々〻ー〜゠ゝゞヽヾ"
            + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ" + "ｧｨｩｪｫｬｭｮｯｰ｡､｣")

    /// Characters a line must not end with: opening brackets and quotes.
    static let noBreakAfter: Set<Character> = Set("([{«‹" + "（［｛〔〈《「『【〘〖〝‘“｟｢")
}
