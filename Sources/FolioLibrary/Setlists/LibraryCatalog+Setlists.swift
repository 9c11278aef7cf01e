import FolioScore
import Foundation
import GRDB

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
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT name, folder, (SELECT count(*) FROM setlist_entry WHERE setlistId = setlist.id) AS n
                FROM setlist ORDER BY coalesce(folder, ''), name
                """).map { SetlistSummary(name: $0["name"], folder: $0["folder"], count: $0["n"]) }
        }
    }

    /// The setlist `name` with its entries as they stand now: a bookmark's pages from the
    /// catalog when its score still has a bookmark of that title, a score that is gone
    /// shown as a placeholder with its title.
    public func setlist(named name: String) throws -> Setlist {
        try read { db in
            let id = try Self.setlistID(name, in: db)
            let folder = try String.fetchOne(db, sql: "SELECT folder FROM setlist WHERE id = ?", arguments: [id])
            let rows = try Row.fetchAll(db, sql: """
                SELECT se.kind, se.title, se.startPage, se.endPage, se.note, s.path, s.id AS scoreId,
                    (SELECT e.startPage || ' ' || e.endPage FROM entry e
                     WHERE e.scoreId = s.id AND e.bookmark IS NOT NULL AND e.title = se.title
                     ORDER BY e.bookmark LIMIT 1) AS current
                FROM setlist_entry se LEFT JOIN score s ON s.id = se.scoreId
                WHERE se.setlistId = ? ORDER BY se.position
                """, arguments: [id])
            let entries = rows.map { row -> SetlistEntry in
                let title: String = row["title"]
                let note: String? = row["note"]
                guard let path: String = row["path"], let kind = SetlistEntry.Kind(rawValue: row["kind"]), kind != .placeholder else {
                    return SetlistEntry(kind: .placeholder, title: title, note: note)
                }
                if kind == .bookmark {
                    let current = (row["current"] as String?)?.split(separator: " ").compactMap { Int($0) }
                    let storedStart: Int? = row["startPage"]
                    let storedEnd: Int? = row["endPage"]
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
        try write { db in
            if try Self.findSetlistID(name, in: db) != nil {
                throw LibraryError(.taken, "a setlist named \(name) already exists")
            }
            try db.execute(sql: "INSERT INTO setlist (name, folder, modified) VALUES (?, ?, ?)",
                           arguments: [name, folder, Date().timeIntervalSince1970])
        }
    }

    /// Renames a setlist and/or files it in another folder ("" for the top level). With
    /// `dryRun`, checks all the same and changes nothing.
    public func renameSetlist(_ name: String, to newName: String?, folder: String?, dryRun: Bool = false) throws {
        try Self.checkSetlistName(newName ?? name, folder: folder?.isEmpty == true ? nil : folder)
        try write(rollingBack: dryRun) { db in
            let id = try Self.setlistID(name, in: db)
            if let newName, newName != name, try Self.findSetlistID(newName, in: db) != nil {
                throw LibraryError(.taken, "a setlist named \(newName) already exists")
            }
            if let newName { try db.execute(sql: "UPDATE setlist SET name = ? WHERE id = ?", arguments: [newName, id]) }
            if let folder {
                try db.execute(sql: "UPDATE setlist SET folder = ? WHERE id = ?", arguments: [folder.isEmpty ? nil : folder, id])
            }
            try Self.touch(id, in: db)
        }
    }

    public func deleteSetlist(_ name: String) throws {
        try write { db in
            let id = try Self.setlistID(name, in: db)
            try db.execute(sql: "DELETE FROM setlist WHERE id = ?", arguments: [id])
        }
    }

    /// Adds an entry at 1-based `position` (the end when nil); returns the entry as stored.
    @discardableResult
    public func addToSetlist(_ name: String, _ target: SetlistTarget, at position: Int? = nil) throws -> SetlistEntry {
        try write { db in
            let id = try Self.setlistID(name, in: db)
            let (stored, shown) = try Self.resolve(target, in: db, folder: folder)
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM setlist_entry WHERE setlistId = ?", arguments: [id]) ?? 0
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
        try write(rollingBack: dryRun) { db in
            let id = try Self.setlistID(name, in: db)
            let (index, title) = try Self.entry(at: position, of: id, in: db)
            try db.execute(sql: "DELETE FROM setlist_entry WHERE setlistId = ? AND position = ?", arguments: [id, index])
            try Self.shift(id, from: index + 1, by: -1, in: db)
            try Self.touch(id, in: db)
            return title
        }
    }

    /// Moves the entry at 1-based `from` to 1-based `to`; returns its title. With `dryRun`,
    /// checks both positions and changes nothing.
    @discardableResult
    public func moveInSetlist(_ name: String, from: Int, to: Int, dryRun: Bool = false) throws -> String {
        try write(rollingBack: dryRun) { db in
            let id = try Self.setlistID(name, in: db)
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM setlist_entry WHERE setlistId = ?", arguments: [id]) ?? 0
            let source = try Self.checkPosition(from, count: count) - 1
            let target = try Self.checkPosition(to, count: count) - 1
            let title = try String.fetchOne(db, sql: "SELECT title FROM setlist_entry WHERE setlistId = ? AND position = ?",
                                            arguments: [id, source]) ?? ""
            guard source != target else { return title }
            // Park the entry out of the way, close the gap, open the new one.
            try db.execute(sql: "UPDATE setlist_entry SET position = -1 WHERE setlistId = ? AND position = ?", arguments: [id, source])
            try Self.shift(id, from: source + 1, by: -1, in: db)
            try Self.shift(id, from: target, by: 1, in: db)
            try db.execute(sql: "UPDATE setlist_entry SET position = ? WHERE setlistId = ? AND position = -1", arguments: [target, id])
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
        return try write(rollingBack: dryRun) { db in
            let id = try Self.setlistID(name, in: db)
            let (index, title) = try Self.entry(at: position, of: id, in: db)
            try db.execute(sql: "UPDATE setlist_entry SET note = ? WHERE setlistId = ? AND position = ?", arguments: [note, id, index])
            try Self.touch(id, in: db)
            return (title, note)
        }
    }

    /// Creates (or with `replace`, replaces) a setlist with `entries` in one transaction.
    func storeSetlist(_ name: String, folder: String?, entries: [StoredSetlistEntry], replace: Bool) throws {
        try Self.checkSetlistName(name, folder: folder)
        try write { db in
            if let existing = try Self.findSetlistID(name, in: db) {
                guard replace else {
                    throw LibraryError(.taken, "a setlist named \(name) already exists (replace it, or import under another name)")
                }
                try db.execute(sql: "DELETE FROM setlist WHERE id = ?", arguments: [existing])
            }
            try db.execute(sql: "INSERT INTO setlist (name, folder, modified) VALUES (?, ?, ?)",
                           arguments: [name, folder, Date().timeIntervalSince1970])
            let id = db.lastInsertedRowID
            for (position, entry) in entries.enumerated() { try Self.insert(entry, setlist: id, position: position, in: db) }
        }
    }

    /// Whether a setlist of that name exists.
    public func hasSetlist(_ name: String) throws -> Bool {
        try read { db in try Self.findSetlistID(name, in: db) != nil }
    }

    /// Every readable file's path and every bookmark, for matching setlist entries.
    public func setlistMatcher() throws -> SetlistMatcher {
        try read { db in
            let paths = try String.fetchAll(db, sql: "SELECT path FROM score WHERE error IS NULL")
            let bookmarks = try Row.fetchAll(db, sql: """
                SELECT s.path, e.title, e.startPage, e.endPage FROM entry e JOIN score s ON s.id = e.scoreId
                WHERE e.bookmark IS NOT NULL AND s.error IS NULL ORDER BY s.path, e.bookmark
                """).map { row in
                SetlistMatcher.Bookmark(path: row["path"], title: row["title"], start: row["startPage"] ?? 1,
                                        end: row["endPage"] ?? (row["startPage"] ?? 1))
            }
            return SetlistMatcher(scores: paths, bookmarks: bookmarks)
        }
    }

    /// The stored form of `target`, and how it shows.
    func storedEntry(_ target: SetlistTarget) throws -> (StoredSetlistEntry, SetlistEntry) {
        try read { db in try Self.resolve(target, in: db, folder: folder) }
    }

    // MARK: Helpers

    private static func resolve(_ target: SetlistTarget, in db: Database, folder: String) throws
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
            let title: String = match["title"]
            let start: Int = match["startPage"] ?? 1
            let end: Int = match["endPage"] ?? start
            return (StoredSetlistEntry(kind: .bookmark, scoreID: id, title: title, start: start, end: end),
                    SetlistEntry(kind: .bookmark, title: title, path: resolved, start: start, end: end))
        }
    }

    /// The bookmark of the score `scoreID` (at `path`) titled `wanted` — exactly, else
    /// ignoring case — as its title and pages; `.notFound` naming the bookmarks it has.
    static func bookmark(_ wanted: String, of scoreID: Int64, path: String, in db: Database) throws -> Row {
        let rows = try Row.fetchAll(db, sql: """
            SELECT title, startPage, endPage FROM entry WHERE scoreId = ? AND bookmark IS NOT NULL ORDER BY bookmark
            """, arguments: [scoreID])
        let match = rows.first { ($0["title"] as String) == wanted }
            ?? rows.first { SetlistMatchLevel.caseInsensitive.key($0["title"]) == SetlistMatchLevel.caseInsensitive.key(wanted) }
        guard let match else {
            let titles = rows.map { $0["title"] as String }
            throw LibraryError(.notFound, "\(path) has no bookmark titled \(wanted)"
                + (titles.isEmpty ? " (it has no bookmarks)" : " (its bookmarks: \(titles.prefix(8).joined(separator: ", "))\(titles.count > 8 ? ", …" : ""))"))
        }
        return match
    }

    private static func insert(_ entry: StoredSetlistEntry, setlist: Int64, position: Int, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO setlist_entry (setlistId, position, kind, scoreId, title, startPage, endPage, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [setlist, position, entry.kind.rawValue, entry.scoreID, entry.title, entry.start, entry.end, entry.note])
    }

    /// Moves entries at `from` and after by `delta` (two steps, as positions are unique).
    private static func shift(_ setlist: Int64, from index: Int, by delta: Int, in db: Database) throws {
        try db.execute(sql: "UPDATE setlist_entry SET position = -(position + ?) - 2 WHERE setlistId = ? AND position >= ?",
                       arguments: [delta, setlist, index])
        try db.execute(sql: "UPDATE setlist_entry SET position = -position - 2 WHERE setlistId = ? AND position < -1",
                       arguments: [setlist])
    }

    private static func touch(_ id: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE setlist SET modified = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, id])
    }

    private static func findSetlistID(_ name: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM setlist WHERE name = ?", arguments: [name])
    }

    private static func setlistID(_ name: String, in db: Database) throws -> Int64 {
        if let id = try findSetlistID(name, in: db) { return id }
        let names = try String.fetchAll(db, sql: "SELECT name FROM setlist ORDER BY name LIMIT 10")
        throw LibraryError(.notFound, "no setlist named \(name)"
            + (names.isEmpty ? " (the library has no setlists)" : " (setlists: \(names.joined(separator: ", ")))"))
    }

    /// The entry at 1-based `position` of setlist `id`: its 0-based index and its title; a
    /// position out of range is refused with the valid range.
    private static func entry(at position: Int, of id: Int64, in db: Database) throws -> (index: Int, title: String) {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM setlist_entry WHERE setlistId = ?", arguments: [id]) ?? 0
        let index = try checkPosition(position, count: count) - 1
        let title = try String.fetchOne(db, sql: "SELECT title FROM setlist_entry WHERE setlistId = ? AND position = ?",
                                        arguments: [id, index]) ?? ""
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
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT e.title, s.path, e.bookmark, e.startPage, e.endPage FROM entry e JOIN score s ON s.id = e.scoreId
                WHERE s.error IS NULL ORDER BY s.path, e.bookmark IS NOT NULL, e.bookmark
                """).flatMap { row -> [SetlistText.Candidate] in
                let path: String = row["path"]
                if (row["bookmark"] as Int?) != nil {
                    let start: Int = row["startPage"] ?? 1
                    return [SetlistText.Candidate(kind: .bookmark, title: row["title"], path: path, start: start,
                                                  end: row["endPage"] ?? start)]
                }
                let stem = ScoreMetadata.title(forFile: path)
                let title: String = row["title"]
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
