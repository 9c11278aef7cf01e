import FolioPDF
import FolioScore
import Foundation

extension LibraryCatalog {
    /// The catalog as one forScore library CSV, handed to `write` a piece at a time (the
    /// header, then each score's rows) so a large library is never held in memory: every
    /// readable score by path, its own fields, and its bookmarks with their own fields.
    /// Returns the number of scores written.
    ///
    /// ```swift
    /// var text = ""
    /// try catalog.exportCSV { text += $0 }
    /// ```
    @discardableResult
    public func exportCSV(_ write: (String) throws -> Void) throws -> Int {
        try write(LibraryCSV.header)
        return try forEachScore { path, score, bookmarks in
            try write(LibraryCSV.rows(fileName: path, score: score, bookmarks: bookmarks))
        }
    }

    /// Calls `body` with every readable score by path — its own fields and its bookmarks —
    /// reading one score at a time. Returns the number of scores.
    func forEachScore(_ body: (String, ScoreMetadata, [Bookmark]) throws -> Void) throws -> Int {
        try storeRead { db in
            var count = 0
            var current: (id: Int64, path: String, score: ScoreMetadata, bookmarks: [Bookmark])?
            func flush() throws {
                guard let current else { return }
                try body(current.path, current.score, current.bookmarks)
                count += 1
            }
            try db.each("""
                SELECT s.id, s.path, e.bookmark, e.startPage, e.endPage, e.title, e.own
                FROM score s JOIN entry e ON e.scoreId = s.id WHERE s.error IS NULL
                ORDER BY \(db.binary("s.path")), s.id, e.bookmark IS NOT NULL, e.bookmark
                """) { row in
                let id: Int64 = try row.value("id")
                let own = ScoreMetadata(storedIn: row) ?? ScoreMetadata()
                if current?.id != id {
                    try flush()
                    current = (id, try row.value("path"), own, [])
                    return
                }
                guard let start: Int = row.optional("startPage") else { return }
                let end: Int = row.optional("endPage") ?? start
                current?.bookmarks.append(Bookmark(name: try row.value("title"), action: .page(index: start - 1),
                                                   pages: start...max(start, end), metadata: own))
            }
            try flush()
            return count
        }
    }

    /// The library file a CSV row's Filename names, relative to the folder: the path
    /// itself when it is a file of the library (``LibraryPaths/resolve(_:)``: no `..`, no
    /// hidden part, no link that leads out), else — for a bare name, as forScore exports — the
    /// one catalogued file with that name. Never guesses between several, never leaves the folder.
    public func resolve(fileName: String) throws -> String {
        let parts = PathName.components(fileName, keepingEmpty: true)
        guard !PathName.isAbsolute(fileName), !parts.contains(where: { $0.hasPrefix(".") || $0.isEmpty }) else {
            throw LibraryError(.invalidArgument, "'\(fileName)' is not a path inside the library")
        }
        var isDirectory: ObjCBool = false
        if let real = files.resolve(fileName), FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory),
           !isDirectory.boolValue {
            return fileName
        }
        guard parts.count == 1 else { throw LibraryError(.notFound, "no file \(fileName) in the library") }
        do {
            return try storeRead { try Self.score(fileName, in: $0).path }
        } catch let error as LibraryError where error.code == .notFound {
            throw LibraryError(.notFound, "no file \(fileName) in the library")
        }
    }

    /// Every readable catalogued file, relative paths sorted.
    public func paths() throws -> [String] {
        try storeRead { db in
            try db.rows("SELECT path FROM score WHERE error IS NULL ORDER BY \(db.binary("path"))").map { try $0.value(at: 0) as String }
        }
    }
}
