import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

/// How a command names what went wrong with a file: the error's own words (with offsets
/// and valid ranges), not Foundation's generic ones.
enum CommandError {
    static func describe(_ error: Error) -> String {
        switch error {
        case let error as PDFError: error.description
        case let error as ScoreError: error.description
        case let error as LibraryError: error.message
        default: error.localizedDescription
        }
    }
}

extension ScoreBatch {
    /// A batch that writes each file (or `output`), saved as the command's flags say.
    static func writing(_ command: String, output: String?, password: String?, saving: SaveFlags, allowComma: Bool) -> ScoreBatch {
        var batch = ScoreBatch(dryRun: false, password: password) { saving.options(command: command, file: $0) }
        batch.output = output
        batch.allowComma = allowComma
        return batch
    }
}

extension ScoreBatch.Outcome {
    /// The file's warnings and error on standard error, as `folio COMMAND: FILE: …`.
    func print(command: String) {
        for warning in warnings { printError("folio \(command): \(path): warning: \(warning)") }
        if let error { printError("folio \(command): \(path): \(error)") }
    }
}
