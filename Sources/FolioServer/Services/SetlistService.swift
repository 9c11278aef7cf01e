import FolioLibrary
import FolioScore
import Foundation

/// Setlists as the browser builds and plays them: list, create, add, move, remove, delete,
/// each change checked against the version the client saw (a hash of the setlist's
/// content, so a stale builder gets 409); downloads as forScore's 4SS and as one PDF.
///
/// ```swift
/// let setlists = SetlistService(catalog: catalog)
/// let (version, _) = try setlists.create("Friday gig")
/// try setlists.add(to: "Friday gig", expected: version, .placeholder(title: "Encore"))
/// ```
public struct SetlistService: Sendable {
    public let catalog: LibraryCatalog
    /// Setlist changes check the version and change under this lock, so no change slips
    /// in between (within this server; the catalog's own transactions keep each change whole).
    private let lock = ChangeLock()
    /// Where merged PDFs are made, with the server's read limits (see ``WorkQueue``).
    public let work: WorkQueue

    public init(catalog: LibraryCatalog, work: WorkQueue = WorkQueue()) {
        self.catalog = catalog
        self.work = work
    }

    /// A setlist as the API shows it: entries with the score's id when it is in the catalog.
    ///
    /// ```swift
    /// let (tag, shown) = try setlists.show("Koncert – Brno")
    /// shown.entries.map(\.title)
    /// ```
    public struct Shown: Codable, Sendable, Equatable {
        /// One entry as the API shows it: its kind, title, score id and pages.
        ///
        /// ```swift
        /// shown.entries.first?.score   // 7
        /// ```
        public struct Entry: Codable, Sendable, Equatable {
            public var kind: String
            public var title: String
            public var score: Int64?
            public var start: Int?
            public var end: Int?
            /// The piece's composers and duration as the catalog has them (a bookmark's own,
            /// else its score's); none for a placeholder.
            public var composers: [String]?
            /// Its arranger and lyricist as the library shows them beside the composers
            /// ("arr. Diego F. Guillen", `ScoreCredit.byline(_:)`); nil when none.
            public var byline: String?
            public var duration: Int?
            public var durationText: String?
            /// The musician's note on the entry for this set ("attacca"); nil when none.
            public var note: String?
        }

        public var name: String
        public var folder: String?
        public var entries: [Entry]
        /// The set's playing time: the sum of the durations known, and how many pieces have none.
        public var duration: Int = 0
        public var durationText: String = "0:00"
        public var untimed: Int = 0
        /// What a 4SS download of it leaves out, one line per entry (its notes: the format has
        /// none), as `folio setlist export` warns of it.
        public var notCarried: [String] = []
    }

    /// A new entry: a score (by id), one of its bookmarks (by id and bookmark title), or a
    /// placeholder (a title alone, for music not in the library).
    ///
    /// ```swift
    /// let entry = try JSONDecoder().decode(SetlistService.NewEntry.self, from: Data(#"{"kind":"placeholder","title":"Přídavek"}"#.utf8))
    /// _ = try setlists.add(to: "Koncert – Brno", expected: tag, entry)
    /// ```
    public struct NewEntry: Codable, Sendable {
        public var kind: String
        public var score: Int64?
        public var title: String?
        /// 1-based; the end when missing.
        public var position: Int?
    }

    public func list() throws -> [SetlistSummary] {
        try catalog.setlists()
    }

    /// The setlist and its version.
    public func show(_ name: String) throws -> (tag: String, setlist: Shown) {
        let setlist = try catalog.setlist(named: name)
        let entries = try setlist.entries.map { entry in
            let rows = try entry.path.map { try catalog.show($0) } ?? []
            // The piece itself: a bookmark's row (its title and first page), else the score's.
            let piece = entry.kind == .bookmark
                ? rows.first { $0.bookmark?.title == entry.title && $0.bookmark?.start == entry.start } ?? rows.first
                : rows.first { $0.bookmark == nil }
            let duration = piece?.metadata.duration.flatMap { $0 > 0 ? $0 : nil }
            return Shown.Entry(kind: entry.kind.rawValue, title: entry.title, score: rows.first?.id, start: entry.start, end: entry.end,
                               composers: piece?.metadata.composers,
                               byline: piece.map { ScoreCredit.byline($0.credits) }.flatMap { $0.isEmpty ? nil : $0 }, duration: duration, durationText: duration.map(ScoreDuration.format),
                               note: entry.note)
        }
        var shown = Shown(name: setlist.title, folder: setlist.folder, entries: entries)
        // A day of music at most per piece is summed: no overflow from any catalog.
        shown.duration = entries.reduce(0) { $0 + min($1.duration ?? 0, 86_400) }
        shown.durationText = ScoreDuration.format(shown.duration)
        shown.untimed = entries.filter { $0.duration == nil }.count
        shown.notCarried = try catalog.openSetlist(setlist).warnings
        return (Self.version(of: setlist), shown)
    }

    /// Creates an empty setlist; 409 when the name is taken.
    public func create(_ name: String) throws -> (tag: String, setlist: Shown) {
        try lock.run {
            try Setlist.checkName(name)
            try catalog.createSetlist(name)
        }
        return try show(name)
    }

    public func add(to name: String, expected: String?, _ entry: NewEntry) throws -> (tag: String, setlist: Shown) {
        try change(name, expected: expected) {
            let target: SetlistTarget
            switch entry.kind {
            case "score", "bookmark":
                guard let id = entry.score, let path = try catalog.show(String(id)).first?.path else {
                    throw LibraryError(.invalidArgument, "a \(entry.kind) entry needs the score's id (score)")
                }
                if entry.kind == "score" {
                    target = .score(path: path)
                } else {
                    guard let title = entry.title, !title.isEmpty else {
                        throw LibraryError(.invalidArgument, "a bookmark entry needs the bookmark's title (title)")
                    }
                    target = .bookmark(path: path, title: title)
                }
            case "placeholder":
                guard let title = entry.title else { throw LibraryError(.invalidArgument, "a placeholder needs a title") }
                try Setlist.checkName(title, what: "placeholder title")
                target = .placeholder(title: title)
            default:
                throw LibraryError(.invalidArgument, "kind \(entry.kind) is not one of score, bookmark, placeholder")
            }
            try catalog.addToSetlist(name, target, at: entry.position)
        }
    }

    /// Moves the entry at 1-based `from` to 1-based `to`.
    public func move(in name: String, expected: String?, from: Int, to: Int) throws -> (tag: String, setlist: Shown) {
        try change(name, expected: expected) { try catalog.moveInSetlist(name, from: from, to: to) }
    }

    /// Gives the entry at 1-based `position` a note (nil or blank removes it).
    ///
    /// ```swift
    /// let (tag, shown) = try setlists.note(in: "Koncert – Brno", expected: tag, position: 2, note: "attacca")
    /// ```
    public func note(in name: String, expected: String?, position: Int, note: String?) throws -> (tag: String, setlist: Shown) {
        try change(name, expected: expected) { _ = try catalog.noteSetlistEntry(name, at: position, note: note) }
    }

    /// Removes the entry at 1-based `position`.
    public func remove(from name: String, expected: String?, position: Int) throws -> (tag: String, setlist: Shown) {
        try change(name, expected: expected) { _ = try catalog.removeFromSetlist(name, at: position) }
    }

    public func delete(_ name: String, expected: String?) throws {
        _ = try change(name, expected: expected, show: false) { try catalog.deleteSetlist(name) }
    }

    /// forScore's Open Setlist file (4SS) of the setlist.
    public func openSetlist(_ name: String) throws -> [UInt8] {
        try catalog.openSetlist(named: name).xml()
    }

    /// The setlist's pieces merged into one PDF, in order, each with an outline entry.
    public func pdf(_ name: String) throws -> LibraryCatalog.SetlistPDF {
        try catalog.setlistPDF(named: name, options: work.readOptions())
    }

    private func change(_ name: String, expected: String?, show: Bool = true,
                        _ body: () throws -> Void) throws -> (tag: String, setlist: Shown) {
        guard let expected else {
            throw LibraryError(.versionRequired, "send the version you edit in If-Match (the ETag of GET)")
        }
        try lock.run {
            guard Self.version(of: try catalog.setlist(named: name)) == expected else {
                throw LibraryError(.conflict, "the setlist changed since you loaded it; reload and try again")
            }
            try body()
        }
        return show ? try self.show(name) : ("", Shown(name: name, entries: []))
    }

    /// A setlist's version: a digest of its JSON, quoted as an entity tag.
    static func version(of setlist: Setlist) -> String {
        Digest.entityTag(of: setlist, kind: "s")
    }
}

/// The lock a service's changes run under (``SetlistService``, ``TrackService``): the
/// version is checked and the change made with no other change in between.
final class ChangeLock: @unchecked Sendable {
    private let lock = NSLock()
    func run<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }
}
