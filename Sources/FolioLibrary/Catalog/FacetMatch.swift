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

    /// The condition on entry `e` for `value` of `field`, with its arguments. PostgreSQL has no
    /// ``name``: there each facet keeps its folded words (`facet.words`, one space between), and
    /// each wanted word is a `LIKE` on them (a word is letters and digits: no `%`, `_` or `\\`).
    static func condition(field: String, value: String, dialect: CatalogDialect = .sqlite) -> (sql: String, arguments: CatalogArguments) {
        let folded = LibraryQuery.fold(value)
        let test: String
        var arguments: CatalogArguments = [field, folded]
        switch dialect {
        case .sqlite:
            test = "\(name)(folded, ?)"
            arguments.append(folded)
        case .postgresql:
            let wanted = words(folded)
            test = wanted.isEmpty ? "FALSE" : wanted.map { _ in "(' ' || words) LIKE ?" }.joined(separator: " AND ")
            arguments += wanted.map { "% \($0)%" }
        }
        return ("""
            e.id IN (SELECT entryId FROM facet WHERE field = ? AND (folded = ? OR (\(test) AND NOT EXISTS \
            (SELECT 1 FROM facet WHERE field = ? AND folded = ?))))
            """, arguments + [field, folded])
    }
}
