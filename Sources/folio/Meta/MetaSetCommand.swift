import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio meta set`: change score metadata in place.
struct MetaSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set score metadata in Info and XMP, saved as an incremental update.",
        discussion: """
            Fields not given stay as they are. Repeat --composer, --genre, --tag or --label for several values; \
            they replace the field's values. Example:
              folio meta set Chopin.pdf --title "Nocturne Op. 90 № 2" --composer "Frédéric Chopin" --rating 5 \\
                --duration 4:12 --key "C# minor" --clear genres
            A value with a comma in a field forScore splits is refused (exit 64) unless --allow-comma is given. \
            --dry-run prints each file's changes (field, before → after) and saves nothing; --json prints them as \
            one JSON object per changed field (JSON Lines): path, field, before, after, reason, applied.
            Exit codes: 0 every file saved; 1 a file failed (it is left byte-identical, the others are saved); \
            64 invalid option (no file touched).
            """
    )

    @Option(help: "The title.") var title: String?
    @Option(name: .customLong("composer"), help: "A composer (repeatable).") var composers: [String] = []
    @Option(name: .customLong("genre"), help: "A genre (repeatable).") var genres: [String] = []
    @Option(name: .customLong("tag"), help: "A tag (repeatable).") var tags: [String] = []
    @Option(name: .customLong("label"), help: "A label (repeatable; stored in XMP).") var labels: [String] = []
    @Option(parsing: .unconditional, help: "Rating, 0 to 5.") var rating: Int?
    @Option(parsing: .unconditional, help: "Difficulty, 0 to 3.") var difficulty: Int?
    @Option(help: "Duration in seconds (72) or as m:ss (1:12).") var duration: String?
    @Option(help: "Key, e.g. \"F# minor\", \"Bb\", \"f#m\", \"E♭ major\".") var key: String?
    @Option(help: "forScore's free-text reference (stored in XMP).") var reference: String?
    @Option(parsing: .unconditional, help: "Tempo in beats per minute, 1 to 999 (stored in XMP).") var tempo: Int?
    @Option(help: "Time signature: 3/4, 6/8, C or ¢ (stored in XMP).") var timeSignature: String?
    @Option(name: .customLong("clear"), help: "A field to remove (repeatable): title, composers, genres, tags, labels, rating, difficulty, duration, key, reference, tempo, time-signature.")
    var cleared: [String] = []
    @Flag(help: "Keep values containing commas (forScore reads them as several values).") var allowComma = false
    @Option(help: "Write to this file instead of updating FILE in place (one FILE only).") var output: String?
    @OptionGroup var saving: SaveFlags
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDFs to change.") var files: [String]
    @Flag(help: "Print the changes; save nothing.") var dryRun = false
    @Flag(help: "Print one JSON object per changed field (JSON Lines).") var json = false

    func validate() throws {
        if output != nil && files.count != 1 { throw ValidationError("--output takes exactly one FILE") }
        let edit = try makeEdit()
        if edit.isEmpty { throw ValidationError("nothing to change: give a field option or --clear") }
    }

    /// The options as an edit; invalid values become usage errors naming the valid range.
    func makeEdit() throws -> ScoreEdit {
        do {
            var edit = ScoreEdit()
            edit.title = title
            func list(_ values: [String]) -> [String]? { values.isEmpty ? nil : ScoreEdit.trimmed(values) }
            edit.composers = list(composers)
            edit.genres = list(genres)
            edit.tags = list(tags)
            edit.labels = list(labels)
            edit.rating = rating
            edit.difficulty = difficulty
            edit.duration = try duration.map(ScoreDuration.parse)
            edit.key = try key.map { try MusicalKey(parsing: $0) }
            edit.reference = reference.flatMap(ScoreEdit.trimmed)
            edit.tempo = tempo
            edit.timeSignature = timeSignature
            edit.cleared = Set(try cleared.map { try ScoreField(parsing: $0) })
            try edit.validate()
            try edit.commaWarnings(allowComma: allowComma)
            return edit
        } catch let error as ScoreError {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        var change = ScoreChange()
        change.edit = try makeEdit()
        var batch = ScoreBatch.writing("meta set", output: output, password: password, saving: saving, allowComma: allowComma)
        batch.dryRun = dryRun
        let (json, dryRun) = (self.json, self.dryRun)
        let ok = batch.run(files: files) { _, _ in change } report: { outcome in
            BulkOutput.reportEdit(outcome, command: "meta set", json: json, dryRun: dryRun)
        }
        if !ok { throw ExitCode(1) }
    }
}
