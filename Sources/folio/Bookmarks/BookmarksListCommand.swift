import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio bookmarks list`.
struct BookmarksListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the bookmarks stored in PDFs (Apple Preview's, Nutrient's and Folio's XMP; with --store csv the index's too).",
        discussion: """
            With --json, one object per file: {"path","bookmarks":[{"id","name","page","start","end","url","composers", \
            "genres","key","reference"}]}, pages 1-based or null. Bookmarks of an index have identifiers derived from \
            their title and pages, the same on every read while the row is unchanged.
            Exit codes: 0 every file read; 1 a file could not be read.
            """
    )

    @Flag(help: "Print one JSON object per file (JSON Lines).") var json = false
    @Option(help: "custom (sort key) or page.") var order: BookmarkOrder = .pageBased
    @Option(help: "Password for encrypted files.") var password: String?
    @OptionGroup var store: BookmarkStoreOptions
    @Argument(help: "PDF files.") var files: [String]

    func validate() throws {
        try store.validate(files: files)
    }

    func run() throws {
        let (json, password, order, store) = (self.json, self.password, self.order, self.store)
        let succeeded = FileBatch.run(files, command: "bookmarks list", json: json) { index, path in
            let (chain, _) = try BookmarkChain.read(ScoreFile(path, password: password), index: store.indexPath(for: path))
            for problem in chain.problems { printError("folio bookmarks list: \(problem)") }
            let bookmarks = chain.manager.bookmarks(in: order)
            if json {
                let items: [JSONValue] = bookmarks.map { bookmark in
                    var url: String?
                    if case .url(let value) = bookmark.action { url = value }
                    let key: JSONValue = bookmark.metadata.key.map { .string($0.name) } ?? .null
                    return .object([
                        ("id", .string(bookmark.id)), ("name", .optional(bookmark.name)),
                        ("page", .optional(bookmark.pageIndex.map { $0 + 1 })),
                        ("start", .optional(bookmark.pages?.lowerBound)), ("end", .optional(bookmark.pages?.upperBound)),
                        ("url", .optional(url)), ("composers", .strings(bookmark.metadata.composers)),
                        ("genres", .strings(bookmark.metadata.genres)), ("key", key),
                        ("reference", .optional(bookmark.metadata.reference)),
                    ])
                }
                return JSONValue.object([("path", .string(path)), ("bookmarks", .array(items))]) + "\n"
            }
            var text = (index > 0 ? "\n" : "") + "File: \(path)\n"
            for bookmark in bookmarks {
                let place = bookmark.pages.map { "pages \($0.lowerBound)–\($0.upperBound)" }
                    ?? bookmark.pageIndex.map { "page \($0 + 1)" } ?? "(no page)"
                text += "  \(bookmark.name ?? "(unnamed)")  —  \(place)  [\(bookmark.id)]\n"
            }
            return text
        }
        if !succeeded { throw ExitCode(1) }
    }
}
