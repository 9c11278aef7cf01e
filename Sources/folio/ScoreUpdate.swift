import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

/// The write half of `meta set` and `meta apply`: applies an edit to each file in an
/// incremental, atomic save under a lock, reporting each failure and going on with the
/// next file.
enum ScoreUpdate {
    /// Returns true when every file was saved. `edit` builds the change for one file
    /// from its path and its current metadata.
    static func run(command: String, files: [String], output: String?, password: String?, saving: SaveFlags,
                    allowComma: Bool,
                    edit: (String, ScoreMetadata) throws -> (ScoreEdit, [String])) -> Bool {
        var succeeded = true
        for file in files {
            do {
                func change(_ document: PDFDocument) throws -> [String] {
                    let (current, _) = ScoreMetadata.read(from: document)
                    let (scoreEdit, notes) = try edit(file, current)
                    return notes + (try ScoreWriter.write(scoreEdit, to: document, options: .init(allowComma: allowComma)))
                }
                let warnings = try PDFSaver.update(path: file, output: output, password: password,
                                                   save: saving.options(command: command, file: file), edit: change)
                for warning in warnings { printError("folio \(command): \(file): warning: \(warning)") }
            } catch {
                printError("folio \(command): \(file): \(describe(error))")
                succeeded = false
            }
        }
        return succeeded
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case let error as PDFError: error.description
        case let error as ScoreError: error.description
        case let error as LibraryError: error.message
        default: error.localizedDescription
        }
    }
}
