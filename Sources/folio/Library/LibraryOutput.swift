import FolioLibrary
import FolioScore
import Foundation

/// How library results are printed: text, JSON Lines, CSV.
enum LibraryOutput {
    static func json(_ entry: LibraryEntry) -> String {
        JSONValue.object([
            ("id", .int(Int(entry.id))), ("path", .string(entry.path)),
        ] + JSONValue.fields(entry.metadata) + [
            ("pages", .optional(entry.pages)),
            ("bookmark", entry.bookmark.map {
                .object([("title", .string($0.title)), ("start", .optional($0.start)), ("end", .optional($0.end))])
            } ?? .null),
        ] + (entry.unreadable.map { [("unreadable", JSONValue.string($0))] } ?? [])
          + (entry.credits.isEmpty ? [] : [("credits", JSONValue.array(entry.credits.map { credit in
              .object([("name", .string(credit.name)), ("role", .string(credit.role.rawValue)), ("source", .string(credit.source))])
          }))])).encoded
    }

    /// The lines `library show` prints under a score for who its file credits beyond forScore's
    /// fields: each with where the file names them, a composer with the command that would write
    /// it where forScore reads it.
    ///
    /// ```
    ///   composer: Gabriel Fauré (the file's /Composer, not forScore's fields: folio meta adopt "Faure.pdf" writes it)
    ///   lyricist: Romain Bussine (the file's /Poet; forScore has no field for a lyricist)
    /// ```
    static func credits(_ entry: LibraryEntry, file: String) -> [String] {
        entry.credits.map { credit in
            let source = credit.source.hasPrefix("/") ? "the file's \(credit.source)" : "the first page's \(credit.source)"
            let note = switch credit.role {
            case .composer: "\(source), not forScore's fields: folio meta adopt \"\(file)\" writes it"
            case .arranger: "\(source); not counted as a composer"
            case .lyricist: "\(source); forScore has no field for a lyricist"
            }
            return "  \(credit.role.rawValue): \(credit.name) (\(note))"
        }
    }

    static let csvHeader = (["id", "path", "title", "start", "end"] + ScoreField.allCases.filter { $0 != .title }.map(\.rawValue)
        + ["pages"]).joined(separator: ",")

    static func csvRow(_ entry: LibraryEntry) -> String {
        let fields: [String] = [
            String(entry.id), entry.path, entry.title, entry.bookmark?.start.map(String.init) ?? "",
            entry.bookmark?.end.map(String.init) ?? "",
        ] + ScoreField.allCases.filter { $0 != .title }.map { entry.metadata[$0]?.display(as: $0) ?? "" }
            + [entry.pages.map(String.init) ?? ""]
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
        if !entry.metadata.composers.isEmpty { line += " — " + entry.metadata.composers.joined(separator: ", ") }
        if let unreadable = entry.unreadable { line += "\t[unreadable: \(unreadable)]" }
        return line
    }
}
