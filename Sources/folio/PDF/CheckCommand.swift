import ArgumentParser
import FolioPDF

/// `folio check`: structural check in the spirit of `qpdf --check`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the structure of PDF files (xref, objects, stream lengths and filters, page tree).",
        discussion: """
            A save journal left beside a file by an interrupted save is reported, then settled by opening the file \
            (see docs/saves.md). A file readable only by rebuilding its cross-reference table is reported as damaged. \
            With --json, one JSON object per file (JSON Lines): path, version, encrypted, objects, streams, pages, \
            damaged, errors, warnings (lists of strings).
            Exit codes: 0 no problems; 2 errors (in any file); 3 warnings only.
            """
    )

    @Option(name: .long, help: "Password for encrypted files.")
    var password: String?

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false

    @Argument(help: "PDF files to check.")
    var files: [String]

    /// What the check of one file found.
    private struct Finding {
        var path: String
        var version = ""
        var encrypted = "no"
        var counts: (objects: Int, streams: Int, pages: Int)?
        var damaged = false
        var errors: [String] = []
        var warnings: [String] = []

        var text: String {
            var lines = ["checking \(path)"]
            if let counts {
                lines += ["PDF version: \(version)", "encrypted: \(encrypted)",
                          "objects: \(counts.objects), streams: \(counts.streams), pages: \(counts.pages)"]
            }
            lines += warnings.map { "WARNING: \($0)" } + errors.map { "ERROR: \($0)" }
            if errors.isEmpty && warnings.isEmpty { lines.append("No structural problems found.") }
            return lines.joined(separator: "\n")
        }

        var jsonLine: String {
            var fields: [(String, JSONValue)] = [("path", .string(path))]
            if let counts {
                fields += [("version", .string(version)), ("encrypted", .string(encrypted)),
                           ("objects", .int(counts.objects)), ("streams", .int(counts.streams)), ("pages", .int(counts.pages))]
            }
            fields += [("damaged", .bool(damaged)), ("errors", .array(errors.map(JSONValue.string))),
                       ("warnings", .array(warnings.map(JSONValue.string)))]
            return JSONValue.object(fields)
        }
    }

    func run() throws {
        var sawError = false
        var sawWarning = false
        for (index, path) in files.enumerated() {
            let finding = check(path)
            sawError = sawError || !finding.errors.isEmpty
            sawWarning = sawWarning || !finding.warnings.isEmpty
            if json {
                print(finding.jsonLine)
            } else {
                if index > 0 { print() }
                print(finding.text)
            }
        }
        if sawError { throw ExitCode(2) }
        if sawWarning { throw ExitCode(3) }
    }

    private func check(_ path: String) -> Finding {
        var finding = Finding(path: path)
        // Opening settles an interrupted save; say what was found before it is gone.
        if let journal = SaveJournal.pending(for: path) {
            finding.warnings.append("pending save journal \(SaveJournal.path(for: path)): \(journal)")
        }
        do {
            let document = try PDFDocument(path: path, password: password)
            if let outcome = document.source.settledJournal { finding.warnings.append("\(outcome)") }
            finding.version = document.version
            finding.encrypted = document.encryption?.description ?? "no"
            let report = document.checkStructure()
            finding.counts = (report.objectCount, report.streamCount, document.pageCount)
            finding.damaged = document.damage != nil
            finding.warnings += report.warnings.map { "\($0)" }
            finding.errors += report.errors
        } catch {
            finding.errors.append((error as? PDFError)?.description ?? "\(error)")
        }
        return finding
    }
}
