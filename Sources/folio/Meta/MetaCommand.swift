import ArgumentParser
import FolioScore
import Foundation

/// `folio meta`: score metadata in forScore's conventions.
struct MetaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meta",
        abstract: "Read and write score metadata (title, composers, genres, tags, labels, rating, difficulty, "
            + "duration, key) in forScore's conventions.",
        subcommands: [MetaGetCommand.self, MetaSetCommand.self, MetaApplyCommand.self, MetaExportCommand.self,
                      MetaAdoptCommand.self, MetaFromNamesCommand.self]
    )
}

/// `folio meta get`.
struct MetaGetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Show score metadata as forScore reads it (Info dictionary, XMP as fallback).",
        discussion: """
            With --json, one object per line: the path, the metadata in the API's JSON form ("title", "composers", \
            "genres", "tags", "labels", "rating", "difficulty", "duration" in seconds and "durationText" as written, \
            "key" by name such as "F♯ minor", "reference", "tempo", "timeSignature"; lists always, unset fields left \
            out) and "warnings".
            Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(name: .long, help: "Print one JSON object per file (JSON Lines).")
    var json = false

    @Option(name: .long, help: "Password for encrypted files.")
    var password: String?

    @Argument(help: "PDF files.")
    var files: [String]

    func run() throws {
        let (json, password) = (self.json, self.password)
        let succeeded = FileBatch.run(files, command: "meta get", json: json) { index, path in
            let (score, warnings) = try ScoreMetadata.read(file: path, password: password)
            return json ? MetaFormat.json(path: path, score, warnings)
                : MetaFormat.text(path: path, score, warnings, separator: index > 0)
        }
        if !succeeded { throw ExitCode(1) }
    }
}

/// Renders score metadata.
enum MetaFormat {
    static func json(path: String, _ score: ScoreMetadata, _ warnings: [String]) -> String {
        JSONValue.object([("path", .string(path))] + JSONValue.fields(score)
            + [("warnings", .strings(warnings))]) + "\n"
    }

    static func text(path: String, _ score: ScoreMetadata, _ warnings: [String], separator: Bool) -> String {
        var lines: [(String, String?)] = [("File", path)]
        for field in ScoreField.allCases {
            lines.append((field.label, score[field].map { value in
                switch (field, value) {
                case (.rating, .number(let number)), (.difficulty, .number(let number)):
                    "\(number) of \(field.range?.upperBound ?? number)"
                case (_, .list(let list)): list.joined(separator: "; ")
                default: value.display(as: field)
                }
            }))
        }
        lines += warnings.map { ("Warning", $0) }
        var text = separator ? "\n" : ""
        for (label, value) in lines {
            guard let value else { continue }
            let head = label + ":"
            text += head + String(repeating: " ", count: max(1, 13 - head.count)) + value + "\n"
        }
        return text
    }
}
