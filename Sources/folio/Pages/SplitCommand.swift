import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio split`.
struct SplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split", abstract: "Split a PDF into one file per piece.",
        discussion: """
            --by bookmarks: the stored page-range bookmarks; --by toc: the outline, each entry running to the next
            (as forScore reads it); --by "1-4,5-9,10": page ranges. Default: bookmarks when the file has any, else
            the outline. Each file holds only what its pages use, their annotations, the outline entries leading into
            them, and the piece's metadata — its own fields over the book's. --name is a template: {n} (or {n:02},
            zero-padded), {title}, {composer}, {start}, {end}, {file} (the source's name without extension). Names are
            made safe; an existing file is never overwritten: the name gets a number instead.
            Example: folio split "Real Book.pdf" --by toc --output-dir Pieces --name "{n:03} {title}.pdf"
            Exit codes: 0 written; 1 the file could not be read or a piece not written (the pieces written by this
            run are removed); 64 usage error, a range out of bounds, no pieces found, an encrypted file without
            --decrypt.
            """)

    @Argument(help: "The PDF to split.") var file: String
    @Option(help: "bookmarks, toc, or page ranges such as 1-4,5-9.") var by: String?
    @Option(help: "The folder for the pieces (default: beside the file).") var outputDir: String?
    @Option(help: "The file name template (default \"\(PieceFiles.defaultTemplate)\").") var name = PieceFiles.defaultTemplate
    @Option(help: "The password of an encrypted file.") var password: String?
    @Flag(help: "Allow an encrypted file (the pieces are written decrypted).") var decrypt = false
    @Flag(help: "Print the pieces and their names; write nothing.") var dryRun = false

    func run() throws {
        try PageCommands.run("split") {
            var request = PieceFiles.SplitRequest(file: file, by: by, folder: outputDir)
            request.template = name
            (request.password, request.decrypt, request.dryRun) = (password, decrypt, dryRun)
            var libraries = CatalogLocator()
            let result = try PieceFiles.split(request, catalog: dryRun ? nil : libraries.library(containing: request.destination))
            for piece in result.pieces { print("\(piece.pages.lowerBound)–\(piece.pages.upperBound)\t\(piece.title)\t→ \(piece.path)") }
            print(dryRun ? "dry run: \(result.pieces.count) pieces" : "wrote \(result.pieces.count) pieces to \(result.folder)")
        }
    }
}
