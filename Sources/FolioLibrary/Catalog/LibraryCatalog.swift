import FolioScore
import Foundation
import GRDB

/// The catalog of a folder of scores: an SQLite database (WAL: one writer, readers in
/// parallel), by default `.folio/library.sqlite` inside the folder.
///
/// ```swift
/// let catalog = try LibraryCatalog(folder: "/scores")
/// let summary = try LibraryScanner(catalog: catalog).scan()
/// let songs = try catalog.search(LibraryQuery(text: "dvorak", includeBookmarks: true))
/// ```
public final class LibraryCatalog: Sendable {
    /// The library folder: its real absolute path (every symbolic link resolved), the same
    /// path as ``files``' root.
    public let folder: String
    /// The database file.
    public let databasePath: String
    /// The one check every file Folio opens for a request goes through: inside the folder,
    /// no `..`, no link that leads out.
    public let files: LibraryPaths
    let pool: DatabasePool
    /// The catalog's PostgreSQL database, when several servers share it: everything the catalog
    /// keeps is kept there (``databasePath`` then holds an empty catalog, which marks the folder
    /// as a library). Through ``storeRead(_:)`` and ``storeWrite(rollingBack:_:)``.
    let shared: PostgresCatalog?
    /// Answers to slow searches, each for the catalog's version it was computed at (see ``SearchCache``).
    let searches = SearchCache()

    /// The default database of a library folder.
    public static func defaultDatabasePath(folder: String) -> String {
        (folder as NSString).appendingPathComponent(".folio/library.sqlite")
    }

    /// Whether `folder` is a library: it holds its catalog (`.folio/library.sqlite`).
    ///
    /// ```swift
    /// LibraryCatalog.isLibrary("Scores")               // true after `folio library scan Scores`
    /// LibraryCatalog.isLibrary("Scores/Чайковский")    // false: a folder inside it
    /// ```
    public static func isLibrary(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: defaultDatabasePath(folder: folder))
    }

    /// Opens (creating or migrating when `create`) the catalog of `folder`: the PostgreSQL
    /// database its `.folio/catalog` names (see ``migrate(to:dryRun:)``), else its SQLite file.
    public convenience init(folder: String, databasePath: String? = nil, create: Bool = true) throws {
        var shared: PostgresCatalog?
        if case .postgresql(let address)? = try Self.recordedLocation(folder: folder) {
            shared = try PostgresCatalog(address: address)
        }
        try self.init(folder: folder, databasePath: databasePath, create: create, shared: shared)
    }

    /// Opens the catalog of `folder` with the concepts moved to PostgreSQL kept in `shared`.
    init(folder: String, databasePath: String? = nil, create: Bool = true, shared: PostgresCatalog?) throws {
        self.shared = shared
        var isDirectory: ObjCBool = false
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LibraryError(.notFound, "\(folder) is not a folder")
        }
        do { files = try LibraryPaths(folder: absolute) } catch {
            throw LibraryError(.notFound, "\(folder) cannot be resolved: \(error.localizedDescription)")
        }
        self.folder = files.root
        let database = databasePath.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            ?? Self.defaultDatabasePath(folder: files.root)
        self.databasePath = database
        if !FileManager.default.fileExists(atPath: database) {
            guard create else {
                throw LibraryError(.notFound, "no catalog at \(database): run `folio library scan` first")
            }
            do {
                try FileManager.default.createDirectory(atPath: (database as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
            } catch {
                throw LibraryError(.io, "cannot create \(database): \(error.localizedDescription)")
            }
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try SearchRank.register(in: db)
                FacetMatch.register(in: db)
                // Readers map the file (up to 256 MiB) instead of copying each page into their
                // own small cache: a page of search results looks up a thousand rows' lengths and
                // paths, and at 100,000 scores those copies were a quarter of the search.
                if db.configuration.readonly { try db.execute(sql: "PRAGMA mmap_size = 268435456") }
            }
            pool = try DatabasePool(path: database, configuration: configuration)
            try CatalogSchema.migrator.migrate(pool)
        } catch let error as DatabaseError {
            throw LibraryError(.database, "\(database): \(error.message ?? error.description)")
        }
    }

    // MARK: Writing (the scanner)

    /// What the catalog knows of a file without reading it.
    struct Known: Sendable {
        let id: Int64
        let stamp: FileStamp

        /// Whether `found` is this file as catalogued: the same size and time under the same
        /// bytes of name (a name in another Unicode form is read again).
        func isUnchanged(_ found: FileStamp) -> Bool {
            stamp.size == found.size && stamp.modified == found.modified && stamp.path.utf8.elementsEqual(found.path.utf8)
        }

        /// What is catalogued but not among the paths `seen`, by fingerprint: candidates for
        /// moves, else removed.
        static func missing(_ known: [String: Known], seen: Set<String>) -> [String: [Int64]] {
            var missing: [String: [Int64]] = [:]
            for (path, entry) in known where !seen.contains(path) {
                missing[entry.stamp.fingerprint, default: []].append(entry.id)
            }
            return missing
        }
    }

    /// The tables of catalogued files: scores, and audio files.
    enum FileTable: String {
        case score, audio
    }

    /// The catalogued files that could not be read, with why, by path.
    func unreadableFiles() throws -> [(path: String, error: String)] {
        try storeRead { statements in
            try statements.rows("SELECT path, error FROM score WHERE error IS NOT NULL ORDER BY \(statements.binary("path"))")
                .map { (path: try $0.value(at: 0), error: try $0.value(at: 1)) }
        }
    }

    /// Every catalogued file's stamp in `table`, by path: what an incremental scan compares with.
    func knownFiles(in table: FileTable = .score) throws -> [String: Known] {
        try storeRead { statements in
            var known: [String: Known] = [:]
            for row in try statements.rows("SELECT id, path, size, modified, fingerprint FROM \(table.rawValue)") {
                let file = try Self.known(row)
                known[file.stamp.path] = file
            }
            return known
        }
    }

    /// One catalogued file's stamp, when it is catalogued.
    func knownFile(path: String) throws -> Known? {
        try storeRead { statements in
            try statements.row("SELECT id, path, size, modified, fingerprint FROM score WHERE pathKey = ?",
                               [CatalogPath.key(path)]).map(Self.known)
        }
    }

    /// A file's stamp from a row of id, path, size, modified, fingerprint.
    private static func known(_ row: CatalogRow) throws -> Known {
        var stamp = FileStamp(path: try row.value(at: 1), size: try row.value(at: 2), modified: try row.value(at: 3))
        stamp.fingerprint = try row.value(at: 4)
        return Known(id: try row.value(at: 0), stamp: stamp)
    }

    /// Stores `record` as score `id` (replacing what it held, keeping the id), or as a new
    /// score. Returns the id.
    @discardableResult
    static func store(_ record: ScoreRecord, id: Int64?, in statements: any CatalogStatements) throws -> Int64 {
        let arguments: CatalogArguments = [
            record.stamp.path, CatalogPath.key(record.stamp.path), record.stamp.size, record.stamp.modified, record.stamp.fingerprint, record.pageCount,
            record.version, record.encrypted, json(record.annotations), record.annotations.values.reduce(0, +),
            json(record.warnings), record.error,
        ]
        let scoreID: Int64
        if let id {
            try statements.execute("""
                UPDATE score SET path = ?, pathKey = ?, size = ?, modified = ?, fingerprint = ?, pages = ?, version = ?,
                    encrypted = ?, annotations = ?, annotationCount = ?, warnings = ?, error = ? WHERE id = ?
                """, arguments + [id])
            try statements.execute("DELETE FROM entry WHERE scoreId = ?", [id])
            scoreID = id
        } else {
            scoreID = try statements.insertRow("""
                INSERT INTO score (path, pathKey, size, modified, fingerprint, pages, version, encrypted, annotations,
                    annotationCount, warnings, error, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments + [Date().timeIntervalSince1970])
        }
        // The composers an engraver wrote are shown and searched; the file's own fields (what a
        // CSV export writes back) stay what forScore reads.
        var score = record.metadata
        if score.composers.isEmpty { score.composers = record.engravedComposers }
        try insertEntry(scoreID: scoreID, bookmark: nil, source: nil, start: nil, end: nil,
                        title: score.title ?? ScoreMetadata.title(forFile: record.stamp.path), metadata: score, own: record.metadata,
                        path: record.stamp.path, credits: record.credits, in: statements)
        // A bookmark's own fields, else the score's: what a musician means by "this piece"; but
        // of an anthology's several composers none is the piece's, so none is inherited.
        var book = score
        if book.composers.count > 1 { book.composers = [] }
        for (position, bookmark) in record.bookmarks.enumerated() {
            let effective = bookmark.metadata.inheriting(from: book)
            try insertEntry(scoreID: scoreID, bookmark: position, source: bookmark.source, start: bookmark.start,
                            end: bookmark.end, title: bookmark.title, metadata: effective, own: bookmark.metadata,
                            in: statements)
        }
        // A new row has adopted nothing yet: without links there is nothing to compare.
        if id != nil || !record.tracks.isEmpty {
            try adoptTracks(record.tracks, scoreID: scoreID, scorePath: record.stamp.path, in: statements)
        }
        return scoreID
    }

    private static func insertEntry(scoreID: Int64, bookmark: Int?, source: String?, start: Int?, end: Int?,
                                    title: String, metadata: ScoreMetadata, own: ScoreMetadata,
                                    path: String? = nil, credits: [ScoreCredit] = [], in statements: any CatalogStatements) throws {
        // SQLite's text ends at a NUL (some producers end titles with one), PostgreSQL's holds
        // none: dropped, not cut at.
        let title = Self.withoutNUL(title)
        // "Satie; Beethoven; Chopin" is three composers in the catalog, its facets and search.
        var metadata = metadata
        metadata.composers = ComposerList.people(metadata.composers).map(Self.withoutNUL)
        for path in [\ScoreMetadata.genres, \.tags, \.labels] { metadata[keyPath: path] = metadata[keyPath: path].map(Self.withoutNUL) }
        metadata.reference = metadata.reference.map(Self.withoutNUL)
        metadata.timeSignature = metadata.timeSignature.map(Self.withoutNUL)
        let values: [CatalogValue] = [
            .integer(scoreID), .of(bookmark), .of(source.map(Self.withoutNUL)), .of(start), .of(end), .text(title),
            .text(json(metadata.composers)), .text(json(metadata.genres)), .text(json(metadata.tags)), .text(json(metadata.labels)),
            .of(metadata.reference), .of(metadata.rating), .of(metadata.difficulty), .of(metadata.duration),
            .of(metadata.key?.keysf), .of(metadata.key?.keymi), .text(json(own)), .of(metadata.tempo), .of(metadata.timeSignature),
            .of(ScoreCredit.stored(credits)),
        ]
        let entryID = try statements.insertRow("""
            INSERT INTO entry (scoreId, bookmark, source, startPage, endPage, title, composers, genres, tags, labels,
                reference, rating, difficulty, duration, keysf, keymi, own, tempo, timeSignature, credits)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, values)
        var facets: [(field: String, value: String)] = []
        for (field, values) in [("composer", metadata.composers), ("genre", metadata.genres), ("tag", metadata.tags),
                                ("label", metadata.labels)] {
            facets += values.map { (field, $0) }
        }
        if let key = metadata.key { facets.append(("key", key.name)) }
        for facet in facets { try insertFacet(entryID: entryID, field: facet.field, value: facet.value, in: statements) }
        // A score is found by its folders' and file's names too (SearchText).
        try SearchText.insert(entryID: entryID, isBookmark: bookmark != nil, title: title,
                              composers: metadata.composers, credits: credits,
                              words: metadata.genres + metadata.tags + metadata.labels + [metadata.reference].compactMap { $0 },
                              scorePath: path, in: statements)
    }

    /// Why the database refused a row (a constraint, a value it cannot hold), or nil when
    /// `error` is not such a refusal (the database gone, a bug): what a scan reports and
    /// passes over, the rest it stops for.
    static func refusal(_ error: any Error) -> String? {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        if let error = error as? LibraryError, error.code == .database || error.code == .taken { return error.message }
        return nil
    }

    /// Stores a value of an entry's list field (`composer`, `genre`, `tag`, `label`, `key`), folded
    /// for equality; in PostgreSQL with its words too, for a value typed in part (``FacetMatch``).
    static func insertFacet(entryID: Int64, field: String, value: String, in statements: any CatalogStatements) throws {
        let folded = LibraryQuery.fold(value)
        switch statements.dialect {
        case .sqlite:
            try statements.execute("INSERT INTO facet (entryId, field, folded, value) VALUES (?, ?, ?, ?)",
                                   [.integer(entryID), .text(field), .text(folded), .text(value)] as [CatalogValue])
        case .postgresql:
            try statements.execute("INSERT INTO facet (entryId, field, folded, value, words) VALUES (?, ?, ?, ?, ?)",
                                   [entryID, field, folded, value, FacetMatch.words(folded).joined(separator: " ")])
        }
    }

    /// `text` without NUL characters (most have none: the same string back).
    static func withoutNUL(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\0", with: "") : text
    }

    static func remove(id: Int64, in statements: any CatalogStatements) throws {
        try statements.execute("DELETE FROM score WHERE id = ?", [id])
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.write { db in
                let result = try body(db)
                // Counted in the same transaction: searches kept for an older version are stale.
                try db.cachedStatement(sql: "UPDATE catalog_state SET changes = changes + 1").execute()
                return result
            }
        } catch let error as DatabaseError {
            throw LibraryError(.database, "\(databasePath): \(error.message ?? error.description)")
        }
    }

    /// ``write(_:)`` that, with `rollingBack`, runs `body` in a transaction it then rolls
    /// back: every check and every answer of the change, none of its effect (a dry run).
    func write<T>(rollingBack: Bool, _ body: (Database) throws -> T) throws -> T {
        guard rollingBack else { return try write(body) }
        do {
            return try pool.writeWithoutTransaction { db in
                var result: Result<T, any Error>?
                try db.inTransaction {
                    result = Result { try body(db) }
                    return .rollback
                }
                guard let result else { throw LibraryError(.database, "\(databasePath): the dry run did not run") }
                return try result.get()
            }
        } catch let error as DatabaseError {
            throw LibraryError(.database, "\(databasePath): \(error.message ?? error.description)")
        }
    }

    /// The catalog's version: how many write transactions it has had, from any process.
    static func catalogVersion(in statements: any CatalogStatements) throws -> Int64 {
        try statements.scalar("SELECT changes FROM catalog_state") ?? 0
    }

    /// Whether the catalog can serve its library: the folder and the catalog's file are there and
    /// answer a read, and so does its PostgreSQL database when it has one. What `/healthz` asks
    /// (a service manager, a container runtime, a load balancer in front of several servers).
    /// The messages name no path: they are answered to anyone who asks.
    ///
    /// ```swift
    /// do { try catalog.checkHealth() } catch let error as LibraryError { print(error.code, error.retryAfter ?? 0) }
    /// ```
    ///
    /// - Throws: ``LibraryError`` `.notFound` when the folder or the catalog's file is gone,
    ///   `.unavailable` (with `retryAfter`) when PostgreSQL cannot be reached, `.database` when a read fails.
    public func checkHealth() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw LibraryError(.notFound, "the library's folder is gone", retryAfter: 5)
        }
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw LibraryError(.notFound, "the catalog's file is gone", retryAfter: 5)
        }
        do {
            _ = try read { db in try Self.catalogVersion(in: SQLiteStatements(db: db)) }
        } catch {
            throw LibraryError(.database, "the catalog cannot be read", retryAfter: 5)
        }
        if shared != nil {
            let answer: Int? = try storeRead { try $0.scalar("SELECT 1") }
            guard answer == 1 else { throw LibraryError(.database, "the catalog's PostgreSQL database gave no answer", retryAfter: 5) }
        }
    }

    /// A read of the catalog, in whichever database keeps it.
    func storeRead<T>(_ body: (any CatalogStatements) throws -> T) throws -> T {
        if let shared { return try shared.read(body) }
        return try read { try body(SQLiteStatements(db: $0)) }
    }

    /// A write of the catalog, in whichever database keeps it, as ``write(rollingBack:_:)``.
    func storeWrite<T>(rollingBack: Bool = false, _ body: (any CatalogStatements) throws -> T) throws -> T {
        if let shared { return try shared.write(rollingBack: rollingBack, body) }
        return try write(rollingBack: rollingBack) { try body(SQLiteStatements(db: $0)) }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as DatabaseError {
            throw LibraryError(.database, "\(databasePath): \(error.message ?? error.description)")
        }
    }

    /// A list of names as JSON text (`JSONText`): the scan stores four per entry, and
    /// JSONEncoder cost more than the rest of storing it. Read back by JSONDecoder.
    static func json(_ values: [String]) -> String {
        JSONText.strings(values)
    }

    /// Where a score's own entry lies in `entry_text`: at its id plus this (a bookmark's at
    /// its id). FTS5 reads a rowid range without touching the rest, so a search for scores
    /// alone never walks the bookmarks that match: "Sonata" over a library whose books hold
    /// tens of thousands of sonatas answers as fast as the scores that match. `rowid % offset`
    /// is the entry's id either way.
    static let scoreTextOffset: Int64 = 1 << 40

    /// Counts by name (annotations by subtype) as a JSON object, keys in order, like
    /// JSONEncoder's `.sortedKeys` would write them.
    static func json(_ counts: [String: Int]) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, name) in counts.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.quote(name, to: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: String(counts[name] ?? 0).utf8)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// A score's or bookmark's own fields as JSON (``FolioScore/ScoreMetadata``'s form). Most
    /// bookmarks have none of their own, and that text is made once.
    static func json(_ metadata: ScoreMetadata) -> String {
        metadata == ScoreMetadata() ? emptyMetadataJSON : json(encoding: metadata)
    }

    private static let emptyMetadataJSON = json(encoding: ScoreMetadata())

    /// Any other value (a list of track links) as JSON text, keys sorted.
    static func json<T: Encodable>(encoding value: T) -> String {
        (try? JSONCoding.text(value)) ?? "null"
    }
}
