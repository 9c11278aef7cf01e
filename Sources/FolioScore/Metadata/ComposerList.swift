import Foundation

/// Composers as people, not strings. Anthologies and engravers write several composers in
/// one value ("Satie; Beethoven; Chopin" — LilyPond's habit, and what `folio lint` flags);
/// forScore's Info fields separate them with commas, which ``ScoreMetadata`` already reads as
/// several. The catalog, its facets and its search count each person once, and a piece split
/// from a book of several composers carries the one its contents entry names.
///
/// ```swift
/// ComposerList.people(["Satie; Beethoven ;Chopin", "Chopin"])   // ["Satie", "Beethoven", "Chopin"]
/// ComposerList.named(in: "Gymnopédie No. 1 — Satie", among: ["Erik Satie", "Chopin"])   // ["Erik Satie"]
/// ```
public enum ComposerList {
    /// Each value split at ";", trimmed, empty ones dropped, a person named twice (ignoring
    /// case and diacritics) kept once, in order.
    public static func people(_ values: [String]) -> [String] {
        var seen = Set<String>()
        var people: [String] = []
        for value in values {
            for part in value.split(separator: ";") {
                let name = part.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !name.isEmpty, seen.insert(fold(name)).inserted else { continue }
                people.append(name)
            }
        }
        return people
    }

    /// Those of `composers` whose name — whole, or its last word (a surname of two letters or
    /// more) — stands in `title` as a word of its own, ignoring case and diacritics.
    public static func named(in title: String, among composers: [String]) -> [String] {
        let words = Set(title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .components(separatedBy: CharacterSet.letters.inverted).filter { !$0.isEmpty })
        let folded = fold(title)
        return composers.filter { composer in
            let name = fold(composer)
            if name.count >= 2, folded.contains(name), name.contains(" ") { return true }
            guard let surname = name.components(separatedBy: CharacterSet.letters.inverted).last(where: { !$0.isEmpty }),
                  surname.count >= 2 else { return false }
            return words.contains(surname)
        }
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
