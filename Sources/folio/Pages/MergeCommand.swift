import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio merge`.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge PDFs into one, with an outline entry and a bookmark per file.",
        discussion: """
            Pages in the order given. Each file gets an outline entry titled with its title (else its file name), \
            its own outline nested under it, and a page-range bookmark (XMP, as forScore, Preview and Nutrient read \
            them) carrying its metadata; its own bookmarks come along on their new pages. Annotations travel with \
            their pages; objects the files have in common (the same embedded font, say) are written once. An \
            encrypted file is merged only with --decrypt, since the result is not encrypted. The output must not \
            exist.
            Example: folio merge Allemande.pdf Courante.pdf Gigue.pdf -o Suite.pdf --title "Suite No. 1" \
            A damaged file (readable only by rebuilding its cross-reference table) is merged with a warning on standard \
            error; --strict refuses it. With --json, one JSON object per file (JSON Lines): first, last, title.
            Exit codes: 0 written; 1 a file could not be read, was damaged under --strict, or the output could not be \
            written (nothing written); 64 usage error, an \
            existing output, or an encrypted file without --decrypt.
            """)

    @Argument(help: "The PDFs, in order.") var files: [String]
    @Option(name: [.short, .long], help: "The PDF to create.") var output: String
    @Option(help: "The merged file's title (Info and XMP).") var title: String?
    @Option(help: "The password of encrypted files.") var password: String?
    @Flag(help: "Allow encrypted files (the merged file is written decrypted).") var decrypt = false
    @Flag(help: "Refuse damaged files instead of merging them with a warning.") var strict = false
    @Flag(help: "Read and plan the merge; write nothing.") var dryRun = false
    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false

    func run() throws {
        try PageCommands.run("merge") {
            var request = PieceFiles.MergeRequest(files: files, output: output, title: title)
            (request.password, request.decrypt, request.strict, request.dryRun) = (password, decrypt, strict, dryRun)
            var libraries = CatalogLocator()
            let catalog = dryRun ? nil : libraries.library(containing: (output as NSString).deletingLastPathComponent)
            let merged = try PieceFiles.merge(request, catalog: catalog)
            for warning in merged.warnings { printError("folio merge: warning: \(warning)") }
            for piece in merged.pieces {
                print(json ? JSONValue.object([("first", .int(piece.start)), ("last", .int(piece.end)), ("title", .string(piece.title))])
                           : "\(piece.start)–\(piece.end)\t\(piece.title)")
            }
            if !json {
                print(dryRun ? "dry run: \(output) would have \(merged.pages) pages from \(files.count) files"
                             : "wrote \(output): \(merged.pages) pages from \(files.count) files")
            }
        }
    }
}
