import ArgumentParser
import FolioPDF
import Foundation

/// `folio info`: version, pages, encryption and Info fields of PDFs, in parallel.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show version, page count, encryption and metadata of PDF files.",
        discussion: """
            With --json, one JSON object per line (JSON Lines), with the keys path, version, pages, \
            encrypted, title, author, subject, keywords, creator, producer, created, modified, xmp, \
            outlines, warnings, damaged (true when the file could be read only by rebuilding its cross-reference \
            table: what the damage cut off is missing) and, with --warnings, warningMessages; a file that cannot be \
            read gives {"path", "error"} (and its error on standard error).
            Exit codes: 0 when every file was read, 1 when any failed.
            """
    )

    @Flag(name: .long, help: "Print one JSON object per file (JSON Lines).")
    var json = false

    @Flag(name: .long, help: "List each warning (in JSON as warningMessages).")
    var warnings = false

    @Option(name: .long, help: "Password for encrypted files (user or owner).")
    var password: String?

    @Argument(help: "PDF files to read.")
    var files: [String]

    func run() throws {
        let (json, password, listWarnings) = (self.json, self.password, self.warnings)
        let succeeded = FileBatch.run(files, command: "info", json: json) { index, path in
            let document = try PDFDocument(path: path, password: password)
            let summary = document.summary(path: path)
            let messages = listWarnings ? document.warnings.map { "\($0)" } : nil
            if json { return InfoFormat.json(summary, warnings: messages) }
            return InfoFormat.text(summary, separator: index > 0)
                + (messages ?? []).map { "  warning: \($0)\n" }.joined()
        }
        if !succeeded { throw ExitCode(1) }
    }
}

/// Renders summaries as text or JSON Lines.
enum InfoFormat {
    static func text(_ summary: PDFSummary, separator: Bool) -> String {
        var lines: [(String, String)] = [
            ("File", summary.path),
            ("PDF version", summary.version),
            ("Pages", String(summary.pages)),
            ("Encrypted", summary.encrypted ? "yes" + (summary.encryption.map { ", \($0)" } ?? "") : "no"),
        ]
        let optional: [(String, String?)] = [
            ("Title", summary.title), ("Author", summary.author), ("Subject", summary.subject),
            ("Keywords", summary.keywords), ("Creator", summary.creator), ("Producer", summary.producer),
            ("Created", summary.created), ("Modified", summary.modified),
        ]
        for (label, value) in optional { if let value { lines.append((label, value)) } }
        lines.append(("XMP", summary.xmp ? "yes" : "no"))
        lines.append(("Outlines", String(summary.outlines)))
        lines.append(("Warnings", String(summary.warnings)))
        if let damage = summary.damage { lines.append(("Damaged", "yes — \(damage)")) }
        var text = separator ? "\n" : ""
        for (label, value) in lines {
            let head = label + ":"
            text += head + String(repeating: " ", count: max(1, 13 - head.count))
            // One line per field: line breaks inside a value would break the layout.
            text += String(value.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 }) + "\n"
        }
        return text
    }

    static func json(_ summary: PDFSummary, warnings messages: [String]? = nil) -> String {
        var fields: [(String, JSONValue)] = [
            ("path", .string(summary.path)), ("version", .string(summary.version)),
            ("pages", .int(summary.pages)), ("encrypted", .bool(summary.encrypted)),
            ("title", .optional(summary.title)), ("author", .optional(summary.author)),
            ("subject", .optional(summary.subject)), ("keywords", .optional(summary.keywords)),
            ("creator", .optional(summary.creator)), ("producer", .optional(summary.producer)),
            ("created", .optional(summary.created)), ("modified", .optional(summary.modified)),
            ("xmp", .bool(summary.xmp)), ("outlines", .int(summary.outlines)), ("warnings", .int(summary.warnings)),
            ("damaged", .bool(summary.damage != nil)),
        ]
        if let messages { fields.append(("warningMessages", .array(messages.map(JSONValue.string)))) }
        return JSONValue.object(fields) + "\n"
    }

    static func json(path: String, error: String) -> String {
        JSONValue.object([("path", .string(path)), ("error", .string(error))]) + "\n"
    }
}
