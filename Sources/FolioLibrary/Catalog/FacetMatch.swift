import GRDB

/// How a value given for a list field (`--composer`, `--genre`, `--tag`, `--label`; a facet
/// the browser offers) finds entries: a value some entry carries whole (case and accents
/// ignored) finds those entries only, so a facet's count and its click agree; any other value
/// finds the entries with a value in which each of its words begins a word, as a search does
/// (`chopin` finds "Frédéric Chopin", `saens` "Camille Saint-Saëns", `bach j` "Johann
/// Sebastian Bach").
///
/// The word test is `folio_facet_words(folded, wanted)`, an SQL function registered on every
/// connection of the catalog.
///
/// ```swift
/// var query = LibraryQuery()
/// query.composers = ["chopin"]
/// try catalog.search(query)   // every score by Frédéric Chopin
/// ```
enum FacetMatch {
    /// The SQL name of the word test.
    static let name = "folio_facet_words"

    /// Makes ``name`` callable on `db`'s connection.
    static func register(in db: Database) {
        db.add(function: DatabaseFunction(name, argumentCount: 2, pure: true) { values in
            guard let folded = String.fromDatabaseValue(values[0]), let wanted = String.fromDatabaseValue(values[1]) else { return false }
            return matches(folded: folded, wanted: wanted)
        })
    }

    /// The words of a folded value: its runs of letters and digits.
    static func words(_ folded: String) -> [Substring] {
        folded.split { !$0.isLetter && !$0.isNumber }
    }

    /// Whether each word of `wanted` begins a word of `folded` (both folded by
    /// ``LibraryQuery/fold(_:)``); false when `wanted` has no word.
    static func matches(folded: String, wanted: String) -> Bool {
        let wanted = words(wanted)
        guard !wanted.isEmpty else { return false }
        let have = words(folded)
        return wanted.allSatisfy { word in have.contains { $0.hasPrefix(word) } }
    }

    /// The condition on entry `e` for `value` of `field`, with its arguments.
    static func condition(field: String, value: String) -> (sql: String, arguments: [any DatabaseValueConvertible]) {
        let folded = LibraryQuery.fold(value)
        return ("""
            e.id IN (SELECT entryId FROM facet WHERE field = ? AND (folded = ? OR (\(name)(folded, ?) AND NOT EXISTS \
            (SELECT 1 FROM facet WHERE field = ? AND folded = ?))))
            """, [field, folded, folded, field, folded])
    }
}
