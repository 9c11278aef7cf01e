import ArgumentParser
import FolioPDF
import FolioScore
import Foundation

/// `folio bookmarks`: page-range bookmarks.
struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "Page-range bookmarks, as forScore makes them from a table of contents.",
        subcommands: [BookmarksFromTocCommand.self]
    )
}

/// `folio bookmarks from-toc`.
struct BookmarksFromTocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-toc",
        abstract: "Show the bookmarks forScore imports from each file's table of contents.",
        discussion: """
            Entries with a page of the file, in page order; each ends one page before the next one starts (never
            before its own start), the last at the last page; URL and remote-file entries are left out.
            With --json, one object per file: {"path","bookmarks":[{"title","start","end"}]}, pages 1-based.
            Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Option(help: "Password for encrypted files.") var password: String?
    @Argument(help: "PDF files.") var files: [String]

    func run() throws {
        let (json, password) = (self.json, self.password)
        let succeeded = FileBatch.run(files, json: json) { index, path in
            let document = try PDFDocument(path: path, password: password)
            let bookmarks = TableOfContents.bookmarks(from: document.outline(), pageCount: document.pageCount)
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
