import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio meta apply`: write a forScore Open In dictionary into PDFs.
struct MetaApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a forScore Open In dictionary (JSON, XML or binary property list) to PDFs.",
        discussion: """
            Keys: title, composers, genres, tags, labels (comma-separated strings, or arrays of strings), rating \
            (0-5), difficulty (0-3), duration (seconds), keysf (-7 to 7), keymi (0 major, 1 minor); numbers as \
            numbers or digit-only strings. Keys the dictionary lacks stay as they are; a file left without any \
            title gets its file name without .pdf, as forScore names it. Example:
              folio meta apply Chopin.pdf --from chopin.plist
            Exit codes: 0 every file saved; 1 a file failed (left byte-identical); 64 the dictionary is invalid.
            """
    )

    @Option(help: "The dictionary file (.json or .plist).") var from: String
    @Flag(help: "Keep values containing commas (forScore reads them as several values).") var allowComma = false
    @Option(help: "Write to this file instead of updating FILE in place (one FILE only).") var output: String?
    @OptionGroup var saving: SaveFlags
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDFs to change.") var files: [String]
    @Flag(help: "Print the changes; save nothing.") var dryRun = false

    func validate() throws {
        if output != nil && files.count != 1 { throw ValidationError("--output takes exactly one FILE") }
    }

    func run() throws {
        let (edit, warnings): (ScoreEdit, [String])
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: from))
            defer { try? handle.close() }
            // One byte past the limit tells a too-large file without reading all of it.
            let data = try handle.read(upToCount: OpenInDictionary.maxBytes + 1) ?? Data()
            (edit, warnings) = try OpenInDictionary.edit(from: data)
            try edit.commaWarnings(allowComma: allowComma)
        } catch {
            // The dictionary is the command's input: a bad one is a usage error, and no file is touched.
            printError("folio meta apply: \(from): \(CommandError.describe(error))")
            throw ExitCode.validationFailure
        }
        for warning in warnings { printError("folio meta apply: \(from): warning: \(warning)") }
        var batch = ScoreBatch.writing("meta apply", output: output, password: password, saving: saving, allowComma: allowComma)
        batch.dryRun = dryRun
        let dryRun = self.dryRun
        let ok = batch.run(files: files) { document, path in
                var change = ScoreChange()
                change.edit = edit
                if edit.title == nil, ScoreMetadata.read(from: document).0.title == nil {
                    change.edit.title = OpenInDictionary.defaultTitle(forFile: path)
                }
                return change
            } report: { BulkOutput.reportEdit($0, command: "meta apply", json: false, dryRun: dryRun) }
        if !ok { throw ExitCode(1) }
    }
}
