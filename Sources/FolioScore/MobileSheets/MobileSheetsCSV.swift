/// MobileSheets' CSV import layout: a header of MobileSheets' lower-case field names, `;`
/// between fields, `|` between the values of a field with several (composers, genres...),
/// RFC 4180 quoting; a song per score and one per bookmark, the bookmark's pages in
/// `pages` ("3-5") over the same file. A MobileSheets song stands alone, so a bookmark's
/// empty fields are filled from its score's, as forScore shows them.
///
/// forScore's fields map to MobileSheets' as: title → title, composers → composers,
/// genres → genres, tags → keywords, labels → collections, key → keys ("F#m", "Bb"),
/// rating and difficulty as numbers, duration in seconds, reference → notes.
///
/// ```swift
/// var csv = MobileSheetsCSV.header
/// csv += MobileSheetsCSV.rows(file: "Jazz/Autumn Leaves.pdf", score: metadata, bookmarks: [])
/// // title;files;pages;composers;...
/// // Autumn Leaves;Jazz/Autumn Leaves.pdf;;Joseph Kosma;...
/// ```
public enum MobileSheetsCSV {
    /// The columns, in order.
    public static let columns = ["title", "files", "pages", "composers", "genres", "keywords", "collections",
                                 "keys", "rating", "difficulty", "duration", "notes"]

    /// The header line.
    public static var header: String { columns.joined(separator: ";") + "\r\n" }

    /// The song rows of one file: the score, then each bookmark with a page range.
    /// `file` is the path as MobileSheets should find it (relative to the CSV).
    public static func rows(file: String, score: ScoreMetadata, bookmarks: [Bookmark]) -> String {
        var text = row(title: score.title ?? ScoreMetadata.title(forFile: file), file: file, pages: nil, score)
        for bookmark in bookmarks {
            guard let pages = bookmark.pages else { continue }
            let range = pages.lowerBound == pages.upperBound ? "\(pages.lowerBound)" : "\(pages.lowerBound)-\(pages.upperBound)"
            text += row(title: bookmark.name ?? "Pages \(range)", file: file, pages: range,
                        inheriting(bookmark.metadata, from: score))
        }
        return text
    }

    /// A key as MobileSheets spells keys: ASCII tonic, `m` for minor ("F#m", "Bb").
    public static func keyName(_ key: MusicalKey) -> String {
        let tonic = (key.isMinor ? MusicalKey.minorTonics : MusicalKey.majorTonics)[key.keysf + 7]
        return tonic.replacingOccurrences(of: "♯", with: "#").replacingOccurrences(of: "♭", with: "b")
            + (key.isMinor ? "m" : "")
    }

    /// A song stands alone: rating and difficulty come from the score too.
    private static func inheriting(_ own: ScoreMetadata, from score: ScoreMetadata) -> ScoreMetadata {
        var metadata = own.inheriting(from: score)
        metadata.rating = metadata.rating ?? score.rating
        metadata.difficulty = metadata.difficulty ?? score.difficulty
        return metadata
    }

    private static func row(title: String, file: String, pages: String?, _ metadata: ScoreMetadata) -> String {
        let cells = [
            title, file, pages ?? "",
            list(metadata.composers), list(metadata.genres), list(metadata.tags), list(metadata.labels),
            metadata.key.map(keyName) ?? "",
            metadata.rating.map(String.init) ?? "", metadata.difficulty.map(String.init) ?? "",
            metadata.duration.map(String.init) ?? "", metadata.reference ?? "",
        ]
        return cells.map { CSVIndex.quoted(flat($0), ";") }.joined(separator: ";") + "\r\n"
    }

    /// Values joined by MobileSheets' value separator; a `|` inside a value would split it, so it becomes `/`.
    private static func list(_ values: [String]) -> String {
        values.map { $0.replacingOccurrences(of: "|", with: "/") }.joined(separator: "|")
    }

    /// One line per song: line breaks inside a value become spaces.
    private static func flat(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
