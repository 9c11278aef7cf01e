import Foundation

/// Where a library's catalog lives, and moving it: from the SQLite file beside the scores to a
/// PostgreSQL database several servers share, and back.
///
/// A library whose catalog is in PostgreSQL says so in `.folio/catalog` (its address, never a
/// password): every command and server that opens the folder opens that database, the password
/// from `FOLIO_CATALOG_PASSWORD_FILE` or `FOLIO_CATALOG_PASSWORD` (``CatalogLocation``).
///
/// ```swift
/// let catalog = try LibraryCatalog(folder: "/srv/noty", create: false)
/// let moved = try catalog.migrate(to: try CatalogLocation(parsing: "postgresql://folio@db.example.org/noty"))
/// print(moved.rows["score"] ?? 0)   // the scores copied, and checked
/// ```
extension LibraryCatalog {
    /// Where the login throttle `ledger` (1: a server's addresses, 2: its accounts) keeps its
    /// counts: shared by every server of a catalog in PostgreSQL; nil for an SQLite catalog
    /// (each server counts in its own memory).
    ///
    /// ```swift
    /// let throttle = LoginThrottle(policy: policy, shared: catalog.guessLedger(1))
    /// ```
    public func guessLedger(_ ledger: Int) -> (any GuessLedger)? {
        shared.map { PostgresGuessLedger(database: $0, ledger: ledger) }
    }

    /// The file, inside the library folder, that names a catalog kept elsewhere.
    public static let locationFile = ".folio/catalog"

    /// The catalog `folder`'s `.folio/catalog` names, or nil when it has none (the SQLite file).
    ///
    /// - Throws: ``LibraryError`` `.invalidArgument` when the file names no catalog Folio reads,
    ///   `.io` when it (or the password file) cannot be read.
    public static func recordedLocation(folder: String,
                                        environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CatalogLocation? {
        let path = (folder as NSString).appendingPathComponent(locationFile)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path), data.count <= CatalogLocation.maxLength + 1 else {
            throw LibraryError(.io, "cannot read \(path) (at most \(CatalogLocation.maxLength) bytes)")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            return try CatalogLocation(parsing: text, environment: environment)
        } catch let error as LibraryError where error.code == .invalidArgument {
            throw LibraryError(.invalidArgument, "\(path): \(error.message)")
        }
    }

    /// What a migration copied: rows per table, checked equal in both databases.
    ///
    /// ```swift
    /// let moved = try catalog.migrate(to: .sqlite(path: nil))
    /// print(moved.from, "→", moved.to, moved.rows)
    /// ```
    public struct MigrationSummary: Sendable, Equatable {
        /// Where the catalog was and is now (addresses without passwords).
        public var from: String
        public var to: String
        /// Rows copied per table.
        public var rows: [String: Int]
        /// The SQLite file as it was before, kept beside it when the catalog moved to PostgreSQL.
        public var kept: String?
    }

    /// The tables a migration copies, in an order their references allow, each with the
    /// columns its rows are put in order by. (`catalog_state` is each database's own; the text
    /// index is built again from the entries; the throttle's counts stay where they were.)
    static let migratedTables: [(name: String, order: String)] = [
        ("score", "id"), ("entry", "id"), ("facet", "entryId, field, folded, value"),
        ("setlist", "id"), ("setlist_entry", "setlistId, position"), ("audio", "id"), ("track", "id"),
        ("undo_step", "id"), ("member", "id"), ("member_invitation", "digest"), ("member_session", "digest"),
    ]

    /// Copies the whole catalog to `location` (a PostgreSQL database, or the SQLite file: the
    /// default one, or `sqlite:PATH`), checks that both hold the same rows, and makes the copy the
    /// library's catalog: `.folio/catalog` written (PostgreSQL) or removed (SQLite).
    ///
    /// Nothing is lost: the target must be empty; the copy and the check (every row of both read
    /// and compared) are one transaction, rolled back on any failure or difference; the SQLite
    /// catalog left behind is first copied to `.folio/library.sqlite.before-postgresql` (SQLite's
    /// online backup), then copied and emptied while its writer is held (a write by a server that
    /// still runs waits, or is found and the move refused). With `dryRun`, all of it but the
    /// commit: the target, the folder and the catalog are left as they were.
    ///
    /// - Throws: ``LibraryError`` `.invalidArgument` when the catalog is there already or the
    ///   target holds a catalog, `.unavailable` when PostgreSQL cannot be reached, `.database`
    ///   when a row is refused or the check finds a difference (the target then holds nothing).
    public func migrate(to location: CatalogLocation, dryRun: Bool = false) throws -> MigrationSummary {
        let from = shared.map { CatalogLocation.postgresql($0.address).description } ?? "sqlite:\(databasePath)"
        var summary = MigrationSummary(from: from, to: location.description, rows: [:])
        switch location {
        case .postgresql(let address):
            if let shared, shared.address.host == address.host, shared.address.port == address.port,
               shared.address.database == address.database {
                throw LibraryError(.invalidArgument, "the catalog is in \(address) already")
            }
            let kept = databasePath + ".before-postgresql"
            if shared == nil, !dryRun, FileManager.default.fileExists(atPath: kept) {
                throw LibraryError(.invalidArgument, "\(kept) exists: move it away first (it is the copy a move to PostgreSQL keeps)")
            }
            let target = try PostgresCatalog(address: address)
            defer { target.close() }
            guard shared == nil, !dryRun else {
                summary.rows = try storeRead { source in
                    try copy(from: source) { body in try target.write(rollingBack: dryRun) { try body($0) } }
                }
                if dryRun { return summary }
                try? target.refreshStatistics()
                try record(location)
                return summary
            }
            // From the SQLite file: kept as it was (SQLite's online backup), then copied while its
            // writer is held, so that nothing written meanwhile is left behind when it is emptied.
            let version = try storeRead(Self.catalogVersion(in:))
            try copyCatalog(to: kept)
            summary.kept = kept
            var recorded = false
            do {
                try write { db in
                    guard try Self.catalogVersion(in: SQLiteStatements(db: db)) == version else {
                        throw LibraryError(.conflict, "the catalog changed while it was copied: stop every server of the library and move it again")
                    }
                    summary.rows = try copy(from: SQLiteStatements(db: db)) { body in try target.write { try body($0) } }
                    try record(location)
                    recorded = true
                    for table in Self.migratedTables.reversed() { try db.execute(sql: "DELETE FROM \(table.name)") }
                }
            } catch {
                if !recorded { try? FileManager.default.removeItem(atPath: kept) }
                throw error
            }
            // The planner's statistics of the new rows now, not when autovacuum comes by: without
            // them a search at 100,000 scores read every entry.
            try? target.refreshStatistics()
        case .sqlite(let path):
            guard shared != nil else { throw LibraryError(.invalidArgument, "the catalog is an SQLite file already (\(databasePath))") }
            let target = try LibraryCatalog(folder: folder, databasePath: path ?? databasePath, create: true, shared: nil)
            summary.to = "sqlite:\(target.databasePath)"
            summary.rows = try storeRead { source in
                try copy(from: source) { body in try target.storeWrite(rollingBack: dryRun) { try body($0) } }
            }
            if dryRun { return summary }
            try record(nil)
        }
        return summary
    }

    /// Copies every migrated table from `source` into the empty catalog `write` reaches, builds
    /// its text index, sets its ids to go on after the copied ones, and compares every row, all in
    /// the target's one transaction.
    private func copy(from source: any CatalogStatements,
                      into write: ((any CatalogStatements) throws -> Void) throws -> Void) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        do {
            try write { target in
                for (table, _) in Self.migratedTables {
                    let held: Int = try target.scalar("SELECT count(*) FROM \(table)") ?? 0
                    guard held == 0 else {
                        throw LibraryError(.invalidArgument, "the target catalog holds \(held) rows of \(table) already: migrate into an empty one")
                    }
                }
                // Each table's columns both databases have (a facet's words are PostgreSQL's own):
                // what the rows are compared by.
                var common: [String: [String]] = [:]
                for (table, order) in Self.migratedTables {
                    var count = 0
                    var columns: [String] = []
                    var batch: [[CatalogValue]] = []
                    try source.each("SELECT * FROM \(table) ORDER BY \(order)", []) { row in
                        var names = row.names, values = row.values
                        if table == "facet" {
                            // PostgreSQL keeps a facet's words; SQLite does not.
                            if let index = names.firstIndex(of: "words") { names.remove(at: index); values.remove(at: index) }
                            common[table] = names
                            if target.dialect == .postgresql, let folded = String.from(row["folded"]) {
                                names.append("words")
                                values.append(.text(FacetMatch.words(folded).joined(separator: " ")))
                            }
                        }
                        if common[table] == nil { common[table] = names }
                        columns = names
                        batch.append(values)
                        if batch.count == 2_000 {
                            try target.insert(into: table, columns: columns, rows: batch)
                            batch.removeAll(keepingCapacity: true)
                        }
                        count += 1
                    }
                    try target.insert(into: table, columns: columns, rows: batch)
                    counts[table] = count
                }
                try SearchText.rebuild(in: target)
                if target.dialect == .postgresql {
                    for (table, order) in Self.migratedTables where order == "id" {
                        try target.execute("SELECT setval(pg_get_serial_sequence('\(table)', 'id'), coalesce(max(id), 0) + 1, false) FROM \(table)")
                    }
                }
                // Every row of both, in the same order, compared value by value, before it commits.
                for (table, order) in Self.migratedTables {
                    guard let columns = common[table] else { continue }   // no rows: the target's are counted empty above
                    let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
                    let sql = "SELECT \(list) FROM \(table) ORDER BY \(order)"
                    let (left, right) = (try source.rows(sql), try target.rows(sql))
                    guard left.count == right.count else {
                        throw LibraryError(.database, "\(table): \(left.count) rows here, \(right.count) in the copy")
                    }
                    for (one, other) in zip(left, right) where one.values != other.values {
                        throw LibraryError(.database, "\(table): a row differs in the copy (\(one.values.prefix(3)) …)")
                    }
                }
            }
        }
        return counts
    }

    /// Writes `location` to `.folio/catalog` (nil: removes it), replacing it whole.
    private func record(_ location: CatalogLocation?) throws {
        let path = (folder as NSString).appendingPathComponent(Self.locationFile)
        guard let location else {
            if FileManager.default.fileExists(atPath: path) {
                do { try FileManager.default.removeItem(atPath: path) } catch {
                    throw LibraryError(.io, "cannot remove \(path): \(error.localizedDescription)")
                }
            }
            return
        }
        do { try Data((location.description + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw LibraryError(.io, "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
