import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio merge`.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge PDFs into one, with an outline entry and a bookmark per file.",
        discussion: """
            Pages in the order given. Each file gets an outline entry titled with its title (else its file name),
            its own outline nested under it, and a page-range bookmark (XMP, as forScore, Preview and Nutrient read
            them) carrying its metadata; its own bookmarks come along on their new pages. Annotations travel with
            their pages; objects the files have in common (the same embedded font, say) are written once. An
            encrypted file is merged only with --decrypt, since the result is not encrypted. The output must not
            exist.
            Example: folio merge Allemande.pdf Courante.pdf Gigue.pdf -o Suite.pdf --title "Suite No. 1"
            Exit codes: 0 written; 1 a file could not be read or written (nothing written); 64 usage error, an
            existing output, or an encrypted file without --decrypt.
            """)

    @Argument(help: "The PDFs, in order.") var files: [String]
    @Option(name: [.short, .long], help: "The PDF to create.") var output: String
    @Option(help: "The merged file's title (Info and XMP).") var title: String?
    @Option(help: "The password of encrypted files.") var password: String?
    @Flag(help: "Allow encrypted files (the merged file is written decrypted).") var decrypt = false

    func run() throws {
        try PageCommands.run("merge") {
            var request = PieceFiles.MergeRequest(files: files, output: output, title: title)
            (request.password, request.decrypt) = (password, decrypt)
            var libraries = CatalogLocator()
            let merged = try PieceFiles.merge(request, catalog: libraries.library(containing: (output as NSString).deletingLastPathComponent))
            for warning in merged.warnings { printError("warning: \(warning)") }
            for piece in merged.pieces { print("\(piece.start)–\(piece.end)\t\(piece.title)") }
            print("wrote \(output): \(merged.pages) pages from \(files.count) files")
        }
    }
}
