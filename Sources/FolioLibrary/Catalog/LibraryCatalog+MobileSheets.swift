import FolioScore
import Foundation

extension LibraryCatalog {
    /// The catalog in MobileSheets' CSV import layout, handed to `write` a piece at a time:
    /// a song per readable score and per bookmark. `filePrefix` is put before each path
    /// relative to the library so that MobileSheets finds the files from where the CSV lies
    /// ("" when it lies in the library folder). Returns the number of scores.
    ///
    /// ```swift
    /// var csv = ""
    /// try catalog.exportMobileSheetsCSV(filePrefix: "") { csv += $0 }
    /// ```
    @discardableResult
    public func exportMobileSheetsCSV(filePrefix: String, _ write: (String) throws -> Void) throws -> Int {
        try write(MobileSheetsCSV.header)
        return try forEachScore { path, score, bookmarks in
            try write(MobileSheetsCSV.rows(file: filePrefix + path, score: score, bookmarks: bookmarks))
        }
    }

    /// Every setlist for MobileSheets' `.mss`, each score entry titled as the CSV export
    /// titles its song now — the catalog's title of the score (its title, else its file name
    /// without extension) — so the two match.
    public func mobileSheetsSetlists() throws -> MobileSheetsSetlists {
        let titles = try storeRead { db in
            try Dictionary(db.rows("""
                SELECT s.path, e.title FROM score s JOIN entry e ON e.scoreId = s.id AND e.bookmark IS NULL
                WHERE s.id IN (SELECT scoreId FROM setlist_entry WHERE scoreId IS NOT NULL)
                """).map { (try $0.value("path") as String, try $0.value("title") as String) }, uniquingKeysWith: { first, _ in first })
        }
        let setlists = try setlists().map { summary in
            var setlist = try setlist(named: summary.name)
            for index in setlist.entries.indices where setlist.entries[index].kind == .score {
                if let path = setlist.entries[index].path, let title = titles[path] { setlist.entries[index].title = title }
            }
            return setlist
        }
        return MobileSheetsSetlists(setlists: setlists)
    }
}
