import ArgumentParser
import FolioLibrary
import Foundation

/// `folio library duplicates`.
struct LibraryDuplicatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates",
        abstract: "List files with the same content, and different files of the same work.",
        discussion: """
            identical: same fingerprint, confirmed by a SHA-256 of the whole files. same-work: different files whose \
            title and composers agree (case and accents ignored). Text: a line per group, KIND<tab>KEY, then its \
            files indented; --json: {"kind","key","paths"} per line. The catalog is brought up to date first \
            (--no-scan skips that). Nothing is deleted.
            Example: folio library duplicates ~/Scores
            Exit codes: 0 listed; 1 the catalog could not be read; 64 usage error.
            """
    )

    @OptionGroup var library: ScannedLibrary
    @Flag(help: "One JSON object per line.") var json = false

    func run() throws {
        let groups = try LibraryCommand.run("duplicates") {
            let catalog = try library.catalog()
            return try catalog.duplicates()
        }
        for group in groups {
            if json {
                let fields: [(String, JSONValue)] = [
                    ("kind", .string(group.kind.rawValue)), ("key", .string(group.key)), ("paths", .strings(group.paths)),
                ]
                print(JSONValue.object(fields) as String)
            } else {
                print("\(group.kind.rawValue)\t\(group.key)")
                for path in group.paths { print("  \(path)") }
            }
        }
    }
}
