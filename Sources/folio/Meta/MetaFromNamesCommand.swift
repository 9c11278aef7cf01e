import ArgumentParser
import FolioScore

/// `folio meta from-names`.
struct MetaFromNamesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-names",
        abstract: "Fill fields from folder and file names.",
        discussion: """
            Placeholders: {composer} {title} {genre} {tag} {opus} (→ reference, "Op. N" for a bare number) {key} \
            ({key} as "F# minor", "Eb", "d-moll" is not read) {rating} {difficulty}, and {*} for a part to skip. A \
            pattern with / matches the last folders and the file name; one without matches the file name; ".pdf" \
            is optional. "_" reads as a space; commas separate composers, genres and tags as in forScore. \
            A field that already has a value is kept unless --overwrite; tags are added to those there. Files \
            whose names do not match are listed on standard error and left alone.
            Examples:
              folio meta from-names --library ~/Scores --pattern "{composer}/{title}.pdf" --dry-run
              folio meta from-names *.pdf --pattern "{composer}-{title}"
            Exit codes: 0 every file read (and saved); 1 a file failed (left byte-identical); 64 usage error or a \
            bad pattern.
            """
    )

    @Option(help: "The pattern, e.g. \"{composer}/{title}.pdf\" or \"{composer} - {title}\".") var pattern: String
    @Flag(help: "Replace fields that already have a value.") var overwrite = false
    @Flag(help: "Print what would change; write nothing.") var dryRun = false
    @OptionGroup var targets: BulkTargets

    func validate() throws {
        do { _ = try NamePattern(pattern) } catch let error as ScoreError { throw ValidationError(error.message) }
    }

    func run() throws {
        let names = try NamePattern(pattern)
        let overwrite = self.overwrite
        let ok = try targets.run(command: "meta from-names", dryRun: dryRun) { document, path in
            guard let named = try names.match(path) else {
                printError("folio meta from-names: \(path): does not match \(names.pattern); left alone")
                return ScoreChange()
            }
            return NamePattern.change(from: named, current: ScoreMetadata.read(from: document).0, overwrite: overwrite)
        }
        if !ok { throw ExitCode(1) }
    }
}
