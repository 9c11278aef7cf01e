import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio split`.
struct SplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split", abstract: "Split a PDF into one file per piece.",
        discussion: """
            --by bookmarks: the stored page-range bookmarks; --by toc: the outline, each entry running to the next \
            (as forScore reads it); --by "1-4,5-9,10": page ranges. Default: bookmarks when the file has any, else \
            the outline. Each file holds only what its pages use, their annotations, the outline entries leading into \
            them, and the piece's metadata — its own fields over the book's. --name is a template: {n} (or {n:02}, \
            zero-padded), {title}, {composer}, {start}, {end}, {file} (the source's name without extension). Names are \
            made safe; an existing file is never overwritten: the name gets a number instead.
            Example: folio split "Real Book.pdf" --by toc --output-dir Pieces --name "{n:03} {title}.pdf" \
            A damaged file (readable only by rebuilding its cross-reference table) is split with a warning on standard \
            error; --strict refuses it. With --json, one JSON object per piece (JSON Lines): first, last, title, path.
            Exit codes: 0 written; 1 the file could not be read, was damaged under --strict, or a piece not written (the \
            pieces written by this run are removed); 64 usage error, a range out of bounds, no pieces found, an encrypted file without \
            --decrypt.
            """)

    @Argument(help: "The PDF to split.") var file: String
    @Option(help: "bookmarks, toc, or page ranges such as 1-4,5-9.") var by: String?
    @Option(help: "The folder for the pieces (default: beside the file).") var outputDir: String?
    @Option(help: "The file name template (default \"\(PieceFiles.defaultTemplate)\").") var name = PieceFiles.defaultTemplate
    @Option(help: "The password of an encrypted file.") var password: String?
    @Flag(help: "Allow an encrypted file (the pieces are written decrypted).") var decrypt = false
    @Flag(help: "Print the pieces and their names; write nothing.") var dryRun = false
    @Flag(help: "Refuse a damaged file instead of splitting it with a warning.") var strict = false
    @Flag(help: "Print one JSON object per piece (JSON Lines).") var json = false

    func run() throws {
        try PageCommands.run("split") {
            var request = PieceFiles.SplitRequest(file: file, by: by, folder: outputDir)
            request.template = name
            (request.password, request.decrypt, request.dryRun, request.strict) = (password, decrypt, dryRun, strict)
            var libraries = CatalogLocator()
            let result = try PieceFiles.split(request, catalog: dryRun ? nil : libraries.library(containing: request.destination))
            for warning in result.warnings { printError("folio split: warning: \(warning)") }
            for piece in result.pieces {
                print(json ? JSONValue.object([("first", .int(piece.pages.lowerBound)), ("last", .int(piece.pages.upperBound)),
                                               ("title", .string(piece.title)), ("path", .string(piece.path))])
                           : "\(piece.pages.lowerBound)–\(piece.pages.upperBound)\t\(piece.title)\t→ \(piece.path)")
            }
            if !json {
                print(dryRun ? "dry run: \(result.pieces.count) pieces" : "wrote \(result.pieces.count) pieces to \(result.folder)")
            }
        }
    }
}
