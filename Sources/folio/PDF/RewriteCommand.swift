import ArgumentParser
import FolioPDF

/// `folio rewrite`: a full rewrite of reachable objects.
struct RewriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Write a PDF anew: reachable objects only, renumbered, lengths fixed.",
        discussion: "OUT may equal IN; the file is replaced atomically. Exit codes: 0 written; 1 failed (IN untouched)."
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

    func run() throws {
        do {
            let document = try PDFDocument(path: input, password: password)
            try PDFSaver.rewrite(document, to: output, options: RewriteOptions(objectStreams: objectStreams, decrypt: decrypt))
        } catch {
            throw CommandError.report(error, command: "rewrite", file: input)
        }
    }
}
