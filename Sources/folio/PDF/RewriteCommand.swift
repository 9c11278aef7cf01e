import ArgumentParser
import FolioPDF
import Foundation

/// `folio rewrite`: a full rewrite of reachable objects.
struct RewriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Write a PDF anew: reachable objects only, renumbered, lengths fixed.",
        discussion: """
            OUT may equal IN; the file is replaced atomically. --dry-run makes the new file in memory and prints its \
            size beside IN's. Exit codes: 0 written; 1 failed (IN untouched).
            """
    )

    @Option(name: .long, help: "Password for an encrypted input.")
    var password: String?

    @Flag(name: .long, help: "Pack objects into object streams with an xref stream (PDF 1.5).")
    var objectStreams = false

    @Flag(name: .long, help: "Write the output without encryption.")
    var decrypt = false

    @Argument(help: "Input PDF.")
    var input: String

    @Argument(help: "Output PDF.")
    var output: String

    @Flag(help: "Make the new file in memory and print its size; write nothing.")
    var dryRun = false

    func run() throws {
        do {
            let document = try PDFDocument(path: input, password: password)
            let options = RewriteOptions(objectStreams: objectStreams, decrypt: decrypt)
            if dryRun {
                let bytes = try PDFSaver.rewritten(document, options: options)
                let before = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? NSNumber)?.intValue ?? 0
                print("dry run: \(output) would have \(bytes.count) bytes (\(input) has \(before)); nothing written")
                return
            }
            try PDFSaver.rewrite(document, to: output, options: options)
        } catch {
            throw CommandError.report(error, command: "rewrite", file: input)
        }
    }
}
