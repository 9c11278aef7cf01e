import FolioLibrary
import FolioScore

/// How library results are printed: text, JSON Lines, CSV.
enum LibraryOutput {
    static func json(_ entry: LibraryEntry) -> String {
        JSONValue.object([
            ("id", .int(Int(entry.id))), ("path", .string(entry.path)), ("title", .string(entry.title)),
            ("composers", .strings(entry.composers)), ("genres", .strings(entry.genres)), ("tags", .strings(entry.tags)),
            ("labels", .strings(entry.labels)), ("reference", .optional(entry.reference)),
            ("rating", .optional(entry.rating)), ("difficulty", .optional(entry.difficulty)),
            ("duration", .optional(entry.duration)), ("key", .optional(entry.key?.name)), ("pages", .optional(entry.pages)),
            ("bookmark", entry.bookmark.map {
                .object([("title", .string($0.title)), ("start", .optional($0.start)), ("end", .optional($0.end))])
            } ?? .null),
        ]).encoded
    }

    static let csvHeader = "id,path,title,start,end,composers,genres,tags,labels,reference,rating,difficulty,duration,key,pages"

    static func csvRow(_ entry: LibraryEntry) -> String {
        let fields: [String] = [
            String(entry.id), entry.path, entry.title, entry.bookmark?.start.map(String.init) ?? "",
            entry.bookmark?.end.map(String.init) ?? "", entry.composers.joined(separator: ", "),
            entry.genres.joined(separator: ", "), entry.tags.joined(separator: ", "), entry.labels.joined(separator: ", "),
            entry.reference ?? "", entry.rating.map(String.init) ?? "", entry.difficulty.map(String.init) ?? "",
            entry.duration.map(ScoreDuration.format) ?? "", entry.key?.name ?? "", entry.pages.map(String.init) ?? "",
        ]
        return fields.map(csvField).joined(separator: ",")
    }

    /// RFC 4180 quoting, and a leading = + - @ guarded so spreadsheets do not run it.
    private static func csvField(_ value: String) -> String {
        var text = value
        if let first = text.first, "=+-@".contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func text(_ entry: LibraryEntry) -> String {
        var line = "\(entry.id)\t\(entry.path)"
        if let bookmark = entry.bookmark {
            line += " pages \(bookmark.start.map(String.init) ?? "?")-\(bookmark.end.map(String.init) ?? "?")"
        }
        line += "\t\(entry.title)"
        if !entry.composers.isEmpty { line += " — " + entry.composers.joined(separator: ", ") }
        return line
    }
}
