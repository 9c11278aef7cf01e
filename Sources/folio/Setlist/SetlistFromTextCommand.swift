import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio setlist from-text`.
struct SetlistFromTextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-text", abstract: "Make a setlist from a pasted list of titles (standard input).",
        discussion: """
            Each line ("1. Autumn Leaves (Gm)") loses its numbering and a key in brackets, then is matched against \
            score titles, bookmark titles and file names, ignoring case, diacritics, punctuation, word order and \
            small typos. Each line prints its best match with a confidence from 0 to 1 and the alternatives; a line \
            with nothing at or above --min-confidence becomes a placeholder.
            Example: pbpaste | folio setlist from-text "Friday" --library ~/Scores
            """)

    @Argument(help: "The new setlist's name.") var name: String
    @Option(help: "The least confidence taken as a match (0 to 1).") var minConfidence = 0.75
    @Option(help: "The folder of setlists to file it in.") var folder: String?
    @Flag(help: "Replace a setlist of the same name.") var replace = false
    @Flag(help: "Print the matches; store nothing.") var dryRun = false
    @Flag(help: "Print one JSON object per line of the text (JSON Lines): {\"line\",\"query\",\"key\",\"match\":{kind,title,path,start,end,confidence}|null,\"alternatives\"}.")
    var json = false
    @OptionGroup var location: LibraryLocation

    func run() throws {
        try SetlistCommand.run("from-text") {
            guard minConfidence.isFinite, (0...1).contains(minConfidence) else {
                throw LibraryError(.invalidArgument, "--min-confidence \(minConfidence) is out of range (valid: 0 to 1)")
            }
            let input = FileHandle.standardInput.readData(ofLength: 1 << 20)
            let lines = SetlistText.parse(String(decoding: input, as: UTF8.self))
            guard !lines.isEmpty else { throw LibraryError(.invalidArgument, "standard input has no titles") }
            let catalog = try location.catalog(scanning: true)
            let matcher = SetlistText(candidates: try catalog.setlistCandidates(), threshold: minConfidence)
            let matches = lines.map(matcher.match)
            if json {
                struct Scored: Encodable {
                    let kind: String, title: String, path: String, start: Int?, end: Int?, confidence: Double
                    init(_ scored: SetlistText.Scored) {
                        kind = scored.candidate.kind.rawValue; title = scored.candidate.title; path = scored.candidate.path
                        start = scored.candidate.start; end = scored.candidate.end
                        confidence = (scored.confidence * 100).rounded() / 100
                    }
                }
                struct Line: Encodable { let line: String; let query: String; let key: String?; let match: Scored?; let alternatives: [Scored] }
                try printJSONLines(matches.map {
                    Line(line: $0.line.text, query: $0.line.query, key: $0.line.key, match: $0.best.map(Scored.init),
                         alternatives: $0.alternatives.map(Scored.init))
                })
            } else {
                for (index, match) in matches.enumerated() {
                    let head = "\(index + 1). \(match.line.query)\(match.line.key.map { " [key \($0)]" } ?? "")"
                    if let best = match.best {
                        print("\(head) → \(describe(best))")
                    } else {
                        print("\(head) → placeholder (nothing at or above \(minConfidence))")
                    }
                    for alternative in match.alternatives { print("     or \(describe(alternative))") }
                }
            }
            if dryRun { return }
            let targets: [SetlistTarget] = matches.map { match in
                guard let best = match.best?.candidate else { return .placeholder(title: match.line.query) }
                return best.kind == .bookmark ? .bookmark(path: best.path, title: best.title) : .score(path: best.path)
            }
            try catalog.createSetlist(name, folder: folder, entries: targets, replace: replace)
            if !json { print("created setlist \(name) (\(targets.count) entries, \(matches.filter { $0.best == nil }.count) placeholders)") }
        }
    }

    private func describe(_ scored: SetlistText.Scored) -> String {
        let candidate = scored.candidate
        let pages = candidate.kind == .bookmark ? ", pages \(candidate.start ?? 0)–\(candidate.end ?? 0)" : ""
        return "\(candidate.kind.rawValue) \"\(candidate.title)\" in \(candidate.path)\(pages) (confidence \(String(format: "%.2f", scored.confidence)))"
    }
}
