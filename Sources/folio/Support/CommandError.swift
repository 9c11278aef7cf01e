import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// The command line's one mapping from what went wrong to what is printed and the exit
/// code (docs/saves.md, "Exit codes"): a failure of the engine, the score layer or the library in
/// its own words (with offsets and valid ranges), and by its `FailureKind` —
/// a bad value, a malformed input file, one past a limit or a kind of file Folio does not take exits 64 like a
/// usage error, a program Folio needs and cannot find (LibreOffice) 69, too much running at
/// once 75 (try again), a right the member's role lacks 77, anything else 1.
enum CommandError {
    /// The exit code of a usage error or an invalid value: nothing was touched.
    static let usage = ExitCode.validationFailure

    static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as any Failure: failure.description
        case let error as ValidationError: error.message
        default: error.localizedDescription
        }
    }

    /// Whether `error` is Folio's own (a failure of a layer, or a check of the options) and so
    /// printed in the one style; ArgumentParser's own (help asked for, a clean exit) are left to it.
    static func isOurs(_ error: any Error) -> Bool {
        error is any Failure || error is ValidationError
    }

    /// The exit code for `error`.
    static func exitCode(for error: any Error) -> ExitCode {
        switch error {
        case let code as ExitCode: code
        case is ValidationError: usage
        case let failure as any Failure where failure.kind == .unavailable: ExitCode(69)   // EX_UNAVAILABLE
        case let failure as any Failure where failure.kind == .busy || failure.kind == .tooMany: ExitCode(75)   // EX_TEMPFAIL
        case let failure as any Failure where failure.kind == .forbidden: ExitCode(77)   // EX_NOPERM
        case let failure as any Failure: failure.kind.isCallersInput ? usage : ExitCode(1)
        default: ExitCode(1)
        }
    }

    /// Prints `error` as `folio COMMAND: FILE: message` (the file left out for a bad value,
    /// which is about the command, not the file) and returns its exit code, to be thrown.
    static func report(_ error: any Error, command: String, file: String?) -> ExitCode {
        let code = exitCode(for: error)
        if !(error is ExitCode) {
            let inFile = code == usage ? "" : file.map { "\($0): " } ?? ""
            printError("folio \(command): \(inFile)\(describe(error))")
        }
        return code
    }
}

extension ScoreBatch {
    /// A batch that writes each file (or `output`), saved as the command's flags say.
    static func writing(_ command: String, output: String?, password: String?, saving: SaveFlags, allowComma: Bool) -> ScoreBatch {
        var batch = ScoreBatch(dryRun: false, password: password) { saving.options(command: command, file: $0) }
        batch.output = output
        batch.allowComma = allowComma
        batch.changeName = "folio \(command)"
        batch.author = EditAuthor.current()
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
