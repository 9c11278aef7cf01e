import ArgumentParser
import FolioScore
import Foundation

/// `folio lint`.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Find junk metadata (scanner names, file-name titles, markup residue, misread keywords, Info/XMP disagreements); --fix repairs it.",
        discussion: """
            Rules (severity): junk-value (warning) scanner, converter and user names as title or composer; \
            markup-residue (warning) HTML entities, TeX quotes and commands, UTF-8 read as Latin-1; \
            title-is-file-name (info); whitespace (info); doubled-separator (info) empty items, composers split by \
            ";"; duplicate-value (info); special-keyword (warning) "rating:x", values out of range; legacy-keyword \
            (info) forScore-rating/forScore-difficulty; info-xmp-mismatch (warning) Info and XMP disagree. \
            Each finding prints as PATH: SEVERITY RULE: MESSAGE (fix: …); --json prints \
            {"path","rule","severity","field","message","fix"} per line. --fix applies every fix (incremental \
            saves) and prints the before → after table; linting a fixed file finds nothing.
            Examples:
              folio lint --library ~/Scores
              folio lint scan.pdf --fix
            --fix --dry-run prints the same table in the conditional and writes nothing.
            Exit codes: 0 nothing found (or everything fixed); 1 a file could not be read or saved (left \
            byte-identical); 2 findings reported (without --fix, or with --dry-run); 64 usage error.
            """
    )

    @Flag(help: "Apply the proposed fixes.") var fix = false
    @Flag(help: "With --fix: print the before → after table of what would be fixed; write nothing.") var dryRun = false
    @OptionGroup var targets: BulkTargets

    func run() throws {
        let json = targets.json, fixing = fix
        var findings = 0
        let ok = try targets.run(command: "lint", dryRun: !fix || dryRun) { document, path in
            let report = MetadataLint.check(document, fileName: path)
            findings += report.findings.count
            for finding in report.findings { Swift.print(Self.line(path: path, finding, json: json)) }
            return fixing ? report.change : ScoreChange()
        }
        if !ok { throw ExitCode(1) }
        if findings > 0 && (!fix || dryRun) { throw ExitCode(2) }   // a dry run leaves them to be fixed
    }

    static func line(path: String, _ finding: LintFinding, json: Bool) -> String {
        if json {
            let fields: [(String, JSONValue)] = [
                ("path", .string(path)), ("rule", .string(finding.rule)), ("severity", .string(finding.severity.rawValue)),
                ("field", .optional(finding.field?.rawValue)), ("message", .string(finding.message)),
                ("fix", .optional(finding.fix)),
            ]
            return JSONValue.object(fields)
        }
        return "\(path): \(finding.severity.rawValue) \(finding.rule): \(finding.message)"
            + (finding.fix.map { " (fix: \($0))" } ?? "")
    }
}
