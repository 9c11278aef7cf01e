import FolioScore
import Foundation

/// What a setlist entry points to when it is added: a library file, a bookmark of one
/// (by title), or just a title.
///
/// ```swift
/// try catalog.addToSetlist("Friday", .bookmark(path: "Real Book.pdf", title: "Blue Bossa"))
/// ```
public enum SetlistTarget: Sendable, Equatable {
    case score(path: String)
    case bookmark(path: String, title: String)
    case placeholder(title: String)
}

/// A setlist as `setlist list` shows it.
///
/// ```swift
/// for summary in try catalog.setlists() {
///     print(summary.name, summary.count)   // "Koncert v Rudolfinu" 8
/// }
/// ```
public struct SetlistSummary: Sendable, Equatable {
    public var name: String
    public var folder: String?
    public var count: Int
}

extension LibraryCatalog {
    /// An entry as stored: the score by id, so moves and rescans keep it.
    struct StoredSetlistEntry: Sendable {
        var kind: SetlistEntry.Kind
        var scoreID: Int64?
        var title: String
        var start: Int?
        var end: Int?
        var note: String?
    }

    /// Every setlist, by folder then name.
    public func setlists() throws -> [SetlistSummary] {
        try storeRead { db in
            try db.rows("""
                SELECT name, folder, (SELECT count(*) FROM setlist_entry WHERE setlistId = setlist.id) AS n
                FROM setlist ORDER BY \(db.binary("coalesce(folder, '')")), \(db.binary("name"))
                """).map { SetlistSummary(name: try $0.value("name"), folder: $0.optional("folder"), count: try $0.value("n")) }
        }
    }

    /// The setlist `name` with its entries as they stand now: a bookmark's pages from the
    /// catalog when its score still has a bookmark of that title, a score that is gone
    /// shown as a placeholder with its title.
    public func setlist(named name: String) throws -> Setlist {
        try storeRead { db in
            let id = try Self.setlistID(name, in: db)
            let folder: String? = try db.scalar("SELECT folder FROM setlist WHERE id = ?", [id])
            let rows = try db.rows("""
                SELECT se.kind, se.title, se.startPage, se.endPage, se.note, s.path, s.id AS scoreId,
                    (SELECT e.startPage || ' ' || e.endPage FROM entry e
                     WHERE e.scoreId = s.id AND e.bookmark IS NOT NULL AND e.title = se.title
                     ORDER BY e.bookmark LIMIT 1) AS current
                FROM setlist_entry se LEFT JOIN score s ON s.id = se.scoreId
                WHERE se.setlistId = ? ORDER BY se.position
                """, [id])
            let entries = try rows.map { row -> SetlistEntry in
                let title: String = try row.value("title")
                let note: String? = row.optional("note")
                guard let path: String = row.optional("path"), let kind = SetlistEntry.Kind(rawValue: try row.value("kind")),
                      kind != .placeholder else {
                    return SetlistEntry(kind: .placeholder, title: title, note: note)
                }
                if kind == .bookmark {
                    let current = (row.optional("current") as String?)?.split(separator: " ").compactMap { Int($0) }
                    let storedStart: Int? = row.optional("startPage")
                    let storedEnd: Int? = row.optional("endPage")
                    let start = current?.first ?? storedStart
                    let end = current.flatMap { $0.count == 2 ? $0[1] : nil } ?? storedEnd
                    return SetlistEntry(kind: .bookmark, title: title, path: path, start: start, end: end, note: note)
                }
                return SetlistEntry(kind: .score, title: title, path: path, note: note)
            }
            return Setlist(title: name, folder: folder, entries: entries)
        }
    }

    /// Creates an empty setlist; refuses a name in use.
    public func createSetlist(_ name: String, folder: String? = nil) throws {
        try Self.checkSetlistName(name, folder: folder)
        try storeWrite { db in
            if try Self.findSetlistID(name, in: db) != nil {
                throw LibraryError(.taken, "a setlist named \(name) already exists")
            }
            try db.execute("INSERT INTO setlist (name, folder, modified) VALUES (?, ?, ?)", [name, folder, Date().timeIntervalSince1970])
        }
    }

    /// Renames a setlist and/or files it in another folder ("" for the top level). With
    /// `dryRun`, checks all the same and changes nothing.
    public func renameSetlist(_ name: String, to newName: String?, folder: String?, dryRun: Bool = false) throws {
        try Self.checkSetlistName(newName ?? name, folder: folder?.isEmpty == true ? nil : folder)
        try storeWrite(rollingBack: dryRun) { db in
            let id = try Self.setlistID(name, in: db)
            if let newName, newName != name, try Self.findSetlistID(newName, in: db) != nil {
                throw LibraryError(.taken, "a setlist named \(newName) already exists")
            }
            if let newName { try db.execute("UPDATE setlist SET name = ? WHERE id = ?", [newName, id]) }
            if let folder {
                try db.execute("UPDATE setlist SET folder = ? WHERE id = ?", [folder.isEmpty ? nil : folder, id])
            }
            try Self.touch(id, in: db)
        }
    }

    public func deleteSetlist(_ name: String) throws {
        try storeWrite { db in
            let id = try Self.setlistID(name, in: db)
            try db.execute("DELETE FROM setlist WHERE id = ?", [id])
        }
    }

    /// Adds an entry at 1-based `position` (the end when nil); returns the entry as stored.
    @discardableResult
    public func addToSetlist(_ name: String, _ target: SetlistTarget, at position: Int? = nil) throws -> SetlistEntry {
        try storeWrite { db in
            let id = try Self.setlistID(name, in: db)
            let (stored, shown) = try Self.resolve(target, in: db, folder: folder)
            let count: Int = try db.scalar("SELECT count(*) FROM setlist_entry WHERE setlistId = ?", [id]) ?? 0
            let index = try Self.checkPosition(position ?? count + 1, count: count + 1) - 1
            try Self.shift(id, from: index, by: 1, in: db)
            try Self.insert(stored, setlist: id, position: index, in: db)
            try Self.touch(id, in: db)
            return shown
        }
    }

    /// Removes the entry at 1-based `position`; returns its title. With `dryRun`, only
    /// finds the entry.
    @discardableResult
    public func removeFromSetlist(_ name: String, at position: Int, dryRun: Bool = false) throws -> String {
        try storeWrite(rollingBack: dryRun) { db in
            let id = try Self.setlistID(name, in: db)
            let (index, title) = try Self.entry(at: position, of: id, in: db)
            try db.execute("DELETE FROM setlist_entry WHERE setlistId = ? AND position = ?", [id, index])
            try Self.shift(id, from: index + 1, by: -1, in: db)
            try Self.touch(id, in: db)
            return title
        }
    }

    /// Moves the entry at 1-based `from` to 1-based `to`; returns its title. With `dryRun`,
    /// checks both positions and changes nothing.
    @discardableResult
    public func moveInSetlist(_ name: String, from: Int, to: Int, dryRun: Bool = false) throws -> String {
        try storeWrite(rollingBack: dryRun) { db in
            let id = try Self.setlistID(name, in: db)
            let count: Int = try db.scalar("SELECT count(*) FROM setlist_entry WHERE setlistId = ?", [id]) ?? 0
            let source = try Self.checkPosition(from, count: count) - 1
            let target = try Self.checkPosition(to, count: count) - 1
            let title: String = try db.scalar("SELECT title FROM setlist_entry WHERE setlistId = ? AND position = ?", [id, source]) ?? ""
            guard source != target else { return title }
            // Park the entry out of the way, close the gap, open the new one.
            try db.execute("UPDATE setlist_entry SET position = -1 WHERE setlistId = ? AND position = ?", [id, source])
            try Self.shift(id, from: source + 1, by: -1, in: db)
            try Self.shift(id, from: target, by: 1, in: db)
            try db.execute("UPDATE setlist_entry SET position = ? WHERE setlistId = ? AND position = -1", [target, id])
            try Self.touch(id, in: db)
            return title
        }
    }

    /// Gives the entry at 1-based `position` a note (nil or blank: none, see
    /// `SetlistEntry.checkNote(_:)` in FolioScore); returns the entry's title and the note as
    /// kept. With `dryRun`, checks all the same and changes nothing.
    ///
    /// ```swift
    /// try catalog.noteSetlistEntry("Friday", at: 2, note: " attacca ").note   // "attacca"
    /// ```
    @discardableResult
    public func noteSetlistEntry(_ name: String, at position: Int, note: String?, dryRun: Bool = false) throws
        -> (title: String, note: String?)
    {
        let note = try SetlistEntry.checkNote(note)
        return try storeWrite(rollingBack: dryRun) { db in
            let id = try Self.setlistID(name, in: db)
            let (index, title) = try Self.entry(at: position, of: id, in: db)
            try db.execute("UPDATE setlist_entry SET note = ? WHERE setlistId = ? AND position = ?", [note, id, index])
            try Self.touch(id, in: db)
            return (title, note)
        }
    }

    /// Creates (or with `replace`, replaces) a setlist with `entries` in one transaction.
    func storeSetlist(_ name: String, folder: String?, entries: [StoredSetlistEntry], replace: Bool) throws {
        try Self.checkSetlistName(name, folder: folder)
        try storeWrite { db in
            if let existing = try Self.findSetlistID(name, in: db) {
                guard replace else {
                    throw LibraryError(.taken, "a setlist named \(name) already exists (replace it, or import under another name)")
                }
                try db.execute("DELETE FROM setlist WHERE id = ?", [existing])
            }
            let id = try db.insertRow("INSERT INTO setlist (name, folder, modified) VALUES (?, ?, ?)", [name, folder, Date().timeIntervalSince1970])
            for (position, entry) in entries.enumerated() { try Self.insert(entry, setlist: id, position: position, in: db) }
        }
    }

    /// Whether a setlist of that name exists.
    public func hasSetlist(_ name: String) throws -> Bool {
        try storeRead { db in try Self.findSetlistID(name, in: db) != nil }
    }

    /// Every readable file's path and every bookmark, for matching setlist entries.
    public func setlistMatcher() throws -> SetlistMatcher {
        try storeRead { db in
            let paths = try db.rows("SELECT path FROM score WHERE error IS NULL").map { try $0.value(at: 0) as String }
            let bookmarks = try db.rows("""
                SELECT s.path, e.title, e.startPage, e.endPage FROM entry e JOIN score s ON s.id = e.scoreId
                WHERE e.bookmark IS NOT NULL AND s.error IS NULL ORDER BY \(db.binary("s.path")), e.bookmark
                """).map { row in
                let start: Int = row.optional("startPage") ?? 1
                return SetlistMatcher.Bookmark(path: try row.value("path"), title: try row.value("title"), start: start,
                                               end: row.optional("endPage") ?? start)
            }
            return SetlistMatcher(scores: paths, bookmarks: bookmarks)
        }
    }

    /// The stored form of `target`, and how it shows.
    func storedEntry(_ target: SetlistTarget) throws -> (StoredSetlistEntry, SetlistEntry) {
        try storeRead { db in try Self.resolve(target, in: db, folder: folder) }
    }

    // MARK: Helpers

    private static func resolve(_ target: SetlistTarget, in db: any CatalogStatements, folder: String) throws
        -> (StoredSetlistEntry, SetlistEntry)
    {
        switch target {
        case .placeholder(let title):
            try Setlist.checkName(title, what: "placeholder title")
            return (StoredSetlistEntry(kind: .placeholder, title: title), SetlistEntry(kind: .placeholder, title: title))
        case .score(let path):
            let (id, resolved, title) = try score(path, in: db)
            return (StoredSetlistEntry(kind: .score, scoreID: id, title: title),
                    SetlistEntry(kind: .score, title: title, path: resolved))
        case .bookmark(let path, let wanted):
            let (id, resolved, _) = try score(path, in: db)
            let match = try bookmark(wanted, of: id, path: resolved, in: db)
            let title: String = try match.value("title")
            let start: Int = match.optional("startPage") ?? 1
            let end: Int = match.optional("endPage") ?? start
            return (StoredSetlistEntry(kind: .bookmark, scoreID: id, title: title, start: start, end: end),
                    SetlistEntry(kind: .bookmark, title: title, path: resolved, start: start, end: end))
        }
    }

    /// The bookmark of the score `scoreID` (at `path`) titled `wanted` — exactly, else
    /// ignoring case — as its title and pages; `.notFound` naming the bookmarks it has.
    static func bookmark(_ wanted: String, of scoreID: Int64, path: String, in db: any CatalogStatements) throws -> CatalogRow {
        let rows = try db.rows("""
            SELECT title, startPage, endPage FROM entry WHERE scoreId = ? AND bookmark IS NOT NULL ORDER BY bookmark
            """, [scoreID])
        let titles = try rows.map { try $0.value("title") as String }
        let match = titles.firstIndex { $0 == wanted }
            ?? titles.firstIndex { SetlistMatchLevel.caseInsensitive.key($0) == SetlistMatchLevel.caseInsensitive.key(wanted) }
        guard let match else {
            throw LibraryError(.notFound, "\(path) has no bookmark titled \(wanted)"
                + (titles.isEmpty ? " (it has no bookmarks)" : " (its bookmarks: \(titles.prefix(8).joined(separator: ", "))\(titles.count > 8 ? ", …" : ""))"))
        }
        return rows[match]
    }

    private static func insert(_ entry: StoredSetlistEntry, setlist: Int64, position: Int, in db: any CatalogStatements) throws {
        try db.execute("""
            INSERT INTO setlist_entry (setlistId, position, kind, scoreId, title, startPage, endPage, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [setlist, position, entry.kind.rawValue, entry.scoreID, entry.title, entry.start, entry.end, entry.note])
    }

    /// Moves entries at `from` and after by `delta` (two steps, as positions are unique).
    private static func shift(_ setlist: Int64, from index: Int, by delta: Int, in db: any CatalogStatements) throws {
        try db.execute("UPDATE setlist_entry SET position = -(position + ?) - 2 WHERE setlistId = ? AND position >= ?",
                       [delta, setlist, index])
        try db.execute("UPDATE setlist_entry SET position = -position - 2 WHERE setlistId = ? AND position < -1", [setlist])
    }

    private static func touch(_ id: Int64, in db: any CatalogStatements) throws {
        try db.execute("UPDATE setlist SET modified = ? WHERE id = ?", [Date().timeIntervalSince1970, id])
    }

    private static func findSetlistID(_ name: String, in db: any CatalogStatements) throws -> Int64? {
        try db.scalar("SELECT id FROM setlist WHERE name = ?", [name])
    }

    private static func setlistID(_ name: String, in db: any CatalogStatements) throws -> Int64 {
        if let id = try findSetlistID(name, in: db) { return id }
        let names = try db.rows("SELECT name FROM setlist ORDER BY \(db.binary("name")) LIMIT 10").map { try $0.value(at: 0) as String }
        throw LibraryError(.notFound, "no setlist named \(name)"
            + (names.isEmpty ? " (the library has no setlists)" : " (setlists: \(names.joined(separator: ", ")))"))
    }

    /// The entry at 1-based `position` of setlist `id`: its 0-based index and its title; a
    /// position out of range is refused with the valid range.
    private static func entry(at position: Int, of id: Int64, in db: any CatalogStatements) throws -> (index: Int, title: String) {
        let count: Int = try db.scalar("SELECT count(*) FROM setlist_entry WHERE setlistId = ?", [id]) ?? 0
        let index = try checkPosition(position, count: count) - 1
        let title: String = try db.scalar("SELECT title FROM setlist_entry WHERE setlistId = ? AND position = ?", [id, index]) ?? ""
        return (index, title)
    }

    private static func checkPosition(_ position: Int, count: Int) throws -> Int {
        guard count > 0 else { throw LibraryError(.invalidArgument, "the setlist is empty") }
        guard (1...count).contains(position) else {
            throw LibraryError(.invalidArgument, "position \(position) is out of range (valid: 1 to \(count))")
        }
        return position
    }

    private static func checkSetlistName(_ name: String, folder: String?) throws {
        do {
            try Setlist.checkName(name)
            if let folder { try Setlist.checkName(folder, what: "setlist folder") }
        } catch let error as ScoreError {
            throw LibraryError(.invalidArgument, error.message)
        }
    }
}

extension LibraryCatalog {
    /// Every title a pasted setlist line can match: each readable score by its title and
    /// by its file name, and each bookmark.
    public func setlistCandidates() throws -> [SetlistText.Candidate] {
        try storeRead { db in
            try db.rows("""
                SELECT e.title, s.path, e.bookmark, e.startPage, e.endPage FROM entry e JOIN score s ON s.id = e.scoreId
                WHERE s.error IS NULL ORDER BY \(db.binary("s.path")), e.bookmark IS NOT NULL, e.bookmark
                """).flatMap { row -> [SetlistText.Candidate] in
                let path: String = try row.value("path")
                let title: String = try row.value("title")
                if row["bookmark"] != .null {
                    let start: Int = row.optional("startPage") ?? 1
                    return [SetlistText.Candidate(kind: .bookmark, title: title, path: path, start: start,
                                                  end: row.optional("endPage") ?? start)]
                }
                let stem = ScoreMetadata.title(forFile: path)
                return [SetlistText.Candidate(kind: .score, title: title, path: path)]
                    + (stem == title ? [] : [SetlistText.Candidate(kind: .score, title: stem, path: path)])
            }
        }
    }

    /// Stores `entries` (from matched text) as a new setlist.
    public func createSetlist(_ name: String, folder: String? = nil, entries: [SetlistTarget], replace: Bool = false) throws {
        let stored = try entries.map { try storedEntry($0).0 }
        try storeSetlist(name, folder: folder, entries: stored, replace: replace)
    }
}
