import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio bookmarks from-toc`.
struct BookmarksFromTocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-toc",
        abstract: "Show the bookmarks forScore imports from each file's table of contents.",
        discussion: """
            Entries with a page of the file, in page order; each ends one page before the next one starts (never \
            before its own start), the last at the last page; URL and remote-file entries are left out. \
            --save stores them as bookmarks in the PDF's XMP (incremental update), or with --store csv in the index \
            beside each PDF, before printing them. \
            With --json, one object per file: {"path","bookmarks":[{"title","start","end"}]}, pages 1-based.
            Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Flag(help: "Also store the bookmarks in each PDF (XMP), skipping ones already there with the same name and pages.")
    var save = false
    @Option(help: "Password for encrypted files.") var password: String?
    @OptionGroup var store: BookmarkStoreOptions
    @OptionGroup var saving: SaveFlags
    @Argument(help: "PDF files.") var files: [String]

    func validate() throws {
        try store.validate(files: files)
    }

    func run() throws {
        let (json, password) = (self.json, self.password)
        if save {
            for file in files {
                try BookmarksCommand.update("from-toc", file: file, output: nil, password: password, store: store,
                                                 saving: saving) {
                    manager, document in BookmarkEdit.addFromContents(of: document, to: &manager)
                }
            }
        }
        let succeeded = FileBatch.run(files, command: "bookmarks from-toc", json: json) { index, path in
            let bookmarks = TableOfContents.bookmarks(of: try ScoreFile(path, password: password).open())
            if json {
                let items: [JSONValue] = bookmarks.map {
                    .object([("title", .string($0.title)), ("start", .int($0.start)), ("end", .int($0.end))])
                }
                return JSONValue.object([("path", .string(path)), ("bookmarks", .array(items))]) + "\n"
            }
            var text = (index > 0 ? "\n" : "") + "File: \(path)\n"
            for bookmark in bookmarks {
                let pages = bookmark.start == bookmark.end ? "page \(bookmark.start)" : "pages \(bookmark.start)–\(bookmark.end)"
                text += "  \(bookmark.title)  —  \(pages)\n"
            }
            return text
        }
        if !succeeded { throw ExitCode(1) }
    }
}
