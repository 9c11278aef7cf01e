import FolioPDF
import FolioScore
import Foundation

/// What a catalog entry is found by in a text search (the FTS5 table `entry_text`: its title;
/// its people — composers, and the arranger and lyricist a file credits (``ScoreCredit``) —;
/// its other words), spelled
/// as readers type: the same rules for what is stored and for the words of a query.
///
/// - Russian and Belarusian ё is е (readers rarely type the dots: `петр` finds "Пётр"); й stays
///   a letter of its own.
/// - Words with ß, å, ä, ö, ü, ø or æ are stored a second time as people type them without
///   those letters (`strasse`, `aase`, `haendel`, `boesendorfer`), beside SQLite's own folding of
///   diacritics (`ase`, `handel`): either spelling finds them.
/// - A score is found by the names of the folders it lies in (`Real Book`, `Чайковский`) and
///   of its file, besides its fields.
///
/// ```swift
/// SearchText.spelled("Пётр Ильич")        // "Петр Ильич"
/// SearchText.alternates("Åses død, Straße")   // ["aases", "doed", "strasse"]
/// ```
enum SearchText {
    /// `text` with ё as е (either case).
    static func spelled(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value == 0x451 || $0.value == 0x401 || $0.value == 0x308 }) else { return text }
        // Composed first, so е + U+0308 is found as ё too.
        return text.precomposedStringWithCanonicalMapping
            .replacingOccurrences(of: "ё", with: "е").replacingOccurrences(of: "Ё", with: "Е")
    }

    /// The letters people write out when they cannot or do not type them.
    private static let writtenOut: [Character: String] = [
        "ß": "ss", "ẞ": "ss", "å": "aa", "ä": "ae", "ö": "oe", "ü": "ue", "ø": "oe", "æ": "ae",
    ]

    /// The words of `text` that hold a letter people write out, as written out (lower case),
    /// each once.
    static func alternates(_ text: String) -> [String] {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return [] }   // most titles: nothing to write out
        var seen = Set<String>(), found: [String] = []
        for word in text.precomposedStringWithCanonicalMapping.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            guard word.contains(where: { writtenOut[$0] != nil }) else { continue }
            let written = word.map { writtenOut[$0] ?? String($0) }.joined()
            if seen.insert(written).inserted { found.append(written) }
        }
        return found
    }

    /// The names a score's path gives it: each folder's, and the file's without its extension
    /// ("_" read as a space: "Dvorak_Rusalka_Op114.pdf" is its words).
    static func names(ofPath path: String) -> [String] {
        var parts = PathName.components(path)
        guard let file = parts.popLast() else { return [] }
        return parts + [(file as NSString).deletingPathExtension.replacingOccurrences(of: "_", with: " ")]
    }

    /// The text entry `entryID` is found by (`scorePath` for a score's own entry, nil for a
    /// bookmark, which its book's folders would only drown). Of the `credits`, the arranger and
    /// lyricist join the people (a credited composer is in `composers` already).
    static func text(entryID: Int64, isBookmark: Bool, title: String, composers: [String], credits: [ScoreCredit],
                     words: [String], scorePath: String?) -> IndexedText {
        let composers = composers + credits.filter { $0.role != .composer }.map(\.name)
        let words = words + (scorePath.map(names(ofPath:)) ?? [])
        let others = alternates(([title] + composers + words).joined(separator: " "))
        return IndexedText(rowid: entryID + (isBookmark ? 0 : LibraryCatalog.scoreTextOffset), entryID: entryID,
                           title: spelled(title), people: spelled(composers.joined(separator: " ; ")),
                           words: spelled((words + others).joined(separator: " ; ")))
    }

    /// Stores ``text(entryID:isBookmark:title:composers:credits:words:scorePath:)``.
    static func insert(entryID: Int64, isBookmark: Bool, title: String, composers: [String], credits: [ScoreCredit],
                       words: [String], scorePath: String?, in statements: any CatalogStatements) throws {
        try statements.indexTexts([text(entryID: entryID, isBookmark: isBookmark, title: title, composers: composers,
                                        credits: credits, words: words, scorePath: scorePath)])
    }

    /// Every entry's text stored again (a catalog made before these rules, or copied from another database).
    static func rebuild(in statements: any CatalogStatements) throws {
        try statements.execute("DELETE FROM entry_text")
        let list = LibraryCatalog.strings(stored:)
        let rows = try statements.rows("""
            SELECT e.id, e.bookmark, e.title, e.composers, e.genres, e.tags, e.labels, e.reference, s.path, e.credits
            FROM entry e JOIN score s ON s.id = e.scoreId
            """)
        var texts: [IndexedText] = []
        for row in rows {
            let isBookmark = row[index: 1] != .null
            let words = list(row.optional(at: 4)) + list(row.optional(at: 5)) + list(row.optional(at: 6))
                + [row.optional(at: 7) as String?].compactMap { $0 }
            texts.append(text(entryID: try row.value(at: 0), isBookmark: isBookmark, title: try row.value(at: 2),
                              composers: list(row.optional(at: 3)), credits: ScoreCredit.read(row.optional(at: 9)), words: words,
                              scorePath: isBookmark ? nil : try row.value(at: 8) as String))
            if texts.count == 500 {
                try statements.indexTexts(texts)
                texts.removeAll(keepingCapacity: true)
            }
        }
        try statements.indexTexts(texts)
    }
}
