import ArgumentParser
import FolioScore
import Foundation

/// `folio meta export`: a PDF's metadata as a forScore Open In dictionary.
struct MetaExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a PDF's score metadata as a forScore Open In dictionary (JSON or XML property list).",
        discussion: """
            Example: folio meta export Chopin.pdf --format plist > chopin.plist
            Exit codes: 0 written; 1 the file could not be read.
            """
    )

    @Option(help: "json or plist.") var format: OpenInDictionary.Format = .json
    @Option(help: "Password for an encrypted file.") var password: String?
    @Argument(help: "The PDF.") var file: String

    func run() throws {
        do {
            let (score, warnings) = try ScoreMetadata.read(file: file, password: password)
            for warning in warnings { printError("folio meta export: \(file): warning: \(warning)") }
            FileHandle.standardOutput.write(try OpenInDictionary.export(score, as: format))
        } catch {
            printError("folio meta export: \(file): \(CommandError.describe(error))")
            throw ExitCode(1)
        }
    }
}

extension OpenInDictionary.Format: ExpressibleByArgument {}
