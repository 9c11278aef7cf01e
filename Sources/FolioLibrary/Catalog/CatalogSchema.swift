import GRDB

/// The catalog's tables, by GRDB migrations.
///
/// - `score`: one row per PDF — its path relative to the library, size, modification
///   time, fingerprint, when it was added, page count, version, encryption, annotation
///   counts, warnings and the read error. Its `id` is the score's identity: a file moved or
///   renamed outside Folio keeps it.
/// - `entry`: what searches return — one row for the score itself (`bookmark` NULL) and
///   one per bookmark, with the fields in effect (a bookmark's own, else the score's).
/// - `facet`: every value of the list fields (composer, genre, tag, label) of an entry,
///   folded for case- and diacritic-insensitive equality.
/// - `entry_text`: FTS5 over titles, people and words, diacritics removed (`unicode61
///   remove_diacritics 2`), kept in step with `entry` by triggers. Its rowid is the
///   entry's id for a bookmark and id + 2^40 for a score's own entry (from v9).
/// - v2 adds `entry.own`: the entry's own fields as JSON (``FolioScore/ScoreMetadata``'s JSON).
/// - v3 adds setlists: `setlist` (unique name, optional folder path) and `setlist_entry`
///   (ordered; a score or bookmark points to its score's id, so moves and rescans keep
///   it; a deleted score leaves the entry with its title, shown as a placeholder).
/// - v4 adds `score.pathKey`: the path in NFC, unique, what lookups use (``CatalogPath``).
/// - v5 stores `entry.own` in ``FolioScore/ScoreMetadata``'s JSON form (files read again).
/// - v6 adds `entry.tempo` and `entry.timeSignature`.
/// - v7 adds sound: `audio` (one row per audio file, told by content, with a fingerprint
///   like a score's, so a moved recording keeps its id) and `track` (a score's link, or a
///   bookmark's by title, to an audio file: loop points, offset; `file` keeps the path it
///   was linked by, so a link whose file is missing waits for it); `score.tracksAdopted`
///   remembers which `folioscore:tracks` of the file were taken into the catalog.
/// - v8 adds `score.partLabel` and `score.partSong`.
/// - v9 moves scores' own entries in `entry_text` to rowid id + 2^40.
/// - v10 keeps the undo history; v11 clears the stamps so the next scan makes every row anew
///   (composers split at ";", file names in the search text); v12 does so again for the
///   composers engravers write where forScore does not look (LilyPond's `/Composer`).
/// - v13 notes setlist entries; v14 keeps members, invitations and sessions; v15 what taking
///   back a change needs; v16 gives each member a key that outlives their name (`member.key`,
///   and `undo_step.authorKey` for the changes they make).
/// - v17 counts every write in `catalog_state.changes` (the version searches are kept at);
///   v18 stores every entry's search text again as ``SearchText`` spells it (ё as е, ß and å
///   written out too, a score's folders' names), adds `entry.credits` (who the file names beyond
///   forScore's fields, by role: an arranger or a poet is no composer) and clears the stamps (a
///   bookmark inherits its book's composer only when the book has one).
enum CatalogSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE score (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    path TEXT NOT NULL UNIQUE,
                    size INTEGER NOT NULL,
                    modified INTEGER NOT NULL,
                    fingerprint TEXT NOT NULL,
                    added REAL NOT NULL,
                    pages INTEGER,
                    version TEXT,
                    encrypted INTEGER NOT NULL DEFAULT 0,
                    annotations TEXT NOT NULL DEFAULT '{}',
                    annotationCount INTEGER NOT NULL DEFAULT 0,
                    warnings TEXT NOT NULL DEFAULT '[]',
                    error TEXT
                );
                CREATE INDEX score_fingerprint ON score(fingerprint);
                CREATE TABLE entry (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    scoreId INTEGER NOT NULL REFERENCES score(id) ON DELETE CASCADE,
                    bookmark INTEGER,
                    source TEXT,
                    startPage INTEGER,
                    endPage INTEGER,
                    title TEXT NOT NULL,
                    composers TEXT NOT NULL DEFAULT '[]',
                    genres TEXT NOT NULL DEFAULT '[]',
                    tags TEXT NOT NULL DEFAULT '[]',
                    labels TEXT NOT NULL DEFAULT '[]',
                    reference TEXT,
                    rating INTEGER,
                    difficulty INTEGER,
                    duration INTEGER,
                    keysf INTEGER,
                    keymi INTEGER
                );
                CREATE INDEX entry_score ON entry(scoreId);
                CREATE TABLE facet (
                    entryId INTEGER NOT NULL REFERENCES entry(id) ON DELETE CASCADE,
                    field TEXT NOT NULL,
                    folded TEXT NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE INDEX facet_lookup ON facet(field, folded);
                CREATE INDEX facet_entry ON facet(entryId);
                CREATE VIRTUAL TABLE entry_text USING fts5(
                    title, people, words, tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE TRIGGER entry_text_delete AFTER DELETE ON entry BEGIN
                    DELETE FROM entry_text WHERE rowid = old.id;
                END;
                """)
        }
        migrator.registerMigration("v2") { db in
            // Each entry's own fields (CSV export). Catalogued files are read again on the
            // next scan to fill them: a size no file has makes every stamp differ.
            try db.execute(sql: """
                ALTER TABLE entry ADD COLUMN own TEXT;
                UPDATE score SET size = -1;
                """)
        }
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                CREATE TABLE setlist (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    folder TEXT,
                    modified REAL NOT NULL
                );
                CREATE TABLE setlist_entry (
                    setlistId INTEGER NOT NULL REFERENCES setlist(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    scoreId INTEGER REFERENCES score(id) ON DELETE SET NULL,
                    title TEXT NOT NULL,
                    startPage INTEGER,
                    endPage INTEGER,
                    PRIMARY KEY (setlistId, position)
                );
                CREATE INDEX setlist_entry_score ON setlist_entry(scoreId);
                """)
        }
        migrator.registerMigration("v4") { db in
            // The NFC key every lookup goes by (see CatalogPath). A catalog that already holds a
            // name twice, in composed and decomposed form, keeps the older row; the next scan
            // gives the other file a name of its own and catalogues it again.
            try db.execute(sql: "ALTER TABLE score ADD COLUMN pathKey TEXT")
            var seen = Set<String>()
            let rows = try Row.fetchAll(db, sql: "SELECT id, path FROM score ORDER BY id")
            for row in rows {
                let key = CatalogPath.key(row["path"])
                if seen.insert(key).inserted {
                    try db.execute(sql: "UPDATE score SET pathKey = ? WHERE id = ?", arguments: [key, row["id"]])
                } else {
                    try db.execute(sql: "DELETE FROM score WHERE id = ?", arguments: [row["id"]])
                }
            }
            try db.execute(sql: "CREATE UNIQUE INDEX score_pathKey ON score(pathKey)")
        }
        migrator.registerMigration("v5") { db in
            // `entry.own` now holds ScoreMetadata's JSON form (the key by name, not keysf/keymi):
            // catalogued files are read again on the next scan.
            try db.execute(sql: "UPDATE score SET size = -1")
        }
        migrator.registerMigration("v6") { db in
            // Tempo and time signature; catalogued files are read again on the next scan.
            try db.execute(sql: """
                ALTER TABLE entry ADD COLUMN tempo INTEGER;
                ALTER TABLE entry ADD COLUMN timeSignature TEXT;
                UPDATE score SET size = -1;
                """)
        }
        migrator.registerMigration("v7") { db in
            // Scores are read again so the tracks their XMP keeps (4SB imports) are adopted.
            try db.execute(sql: """
                CREATE TABLE audio (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    path TEXT NOT NULL,
                    pathKey TEXT NOT NULL UNIQUE,
                    size INTEGER NOT NULL,
                    modified INTEGER NOT NULL,
                    fingerprint TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    added REAL NOT NULL
                );
                CREATE INDEX audio_fingerprint ON audio(fingerprint);
                CREATE TABLE track (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    scoreId INTEGER NOT NULL REFERENCES score(id) ON DELETE CASCADE,
                    bookmark TEXT,
                    audioId INTEGER REFERENCES audio(id) ON DELETE SET NULL,
                    file TEXT NOT NULL,
                    fileKey TEXT NOT NULL,
                    title TEXT,
                    loopStart REAL,
                    loopEnd REAL,
                    offset REAL,
                    added REAL NOT NULL
                );
                CREATE INDEX track_score ON track(scoreId);
                CREATE INDEX track_audio ON track(audioId);
                CREATE INDEX track_file ON track(fileKey);
                ALTER TABLE score ADD COLUMN tracksAdopted TEXT;
                UPDATE score SET size = -1;
                """)
        }
        migrator.registerMigration("v8") { db in
            // The part a user says a file is, and the piece it belongs to, where its name does
            // not tell (see LibraryCatalog.setPart); nil: as the name says.
            try db.execute(sql: """
                ALTER TABLE score ADD COLUMN partLabel TEXT;
                ALTER TABLE score ADD COLUMN partSong TEXT;
                """)
        }
        migrator.registerMigration("v9") { db in
            // A score's own entry moves to rowid id + 2^40 in entry_text (bookmarks stay at
            // their id): a search for scores alone reads that range only (see
            // LibraryCatalog.scoreTextOffset). Same text, same ranking.
            try db.execute(sql: """
                DROP TRIGGER entry_text_delete;
                CREATE TRIGGER entry_text_delete AFTER DELETE ON entry BEGIN
                    DELETE FROM entry_text WHERE rowid = old.id + (CASE WHEN old.bookmark IS NULL THEN \(LibraryCatalog.scoreTextOffset) ELSE 0 END);
                END;
                CREATE TEMP TABLE moving AS SELECT t.rowid AS id, t.title, t.people, t.words
                    FROM entry_text t JOIN entry e ON e.id = t.rowid WHERE e.bookmark IS NULL;
                DELETE FROM entry_text WHERE rowid IN (SELECT id FROM moving);
                INSERT INTO entry_text (rowid, title, people, words)
                    SELECT id + \(LibraryCatalog.scoreTextOffset), title, people, words FROM moving;
                DROP TABLE moving;
                """)
        }
        migrator.registerMigration("v10") { db in
            // Every change saved through the edit path (see LibraryCatalog.edit), so the last
            // can be undone after a restart and a score's changes listed with who made them.
            // A score is named by its path's NFC key; a change is an incremental update, so the
            // file before it is its first lengthBefore bytes.
            try db.execute(sql: """
                CREATE TABLE undo_step (
                    id INTEGER PRIMARY KEY,
                    path TEXT NOT NULL,
                    lengthBefore INTEGER NOT NULL,
                    versionBefore TEXT NOT NULL,
                    versionAfter TEXT NOT NULL,
                    change TEXT NOT NULL,
                    author TEXT,
                    madeAt REAL NOT NULL
                );
                CREATE INDEX undo_step_path ON undo_step (path, id);
                """)
        }
        migrator.registerMigration("v11") { db in
            // Composers split at ";" and file names searched: rows are made anew from each
            // file, so the next scan reads every file once more (ids, setlists and history
            // stay; only the stamps are cleared).
            try db.execute(sql: "UPDATE score SET modified = -1")
        }
        migrator.registerMigration("v12") { db in
            // Composers from LilyPond's /Composer, /Arranger and /Poet: every file read again.
            try db.execute(sql: "UPDATE score SET modified = -1")
        }
        migrator.registerMigration("v13") { db in
            // A note per setlist entry ("attacca", "capo 2").
            try db.execute(sql: "ALTER TABLE setlist_entry ADD COLUMN note TEXT")
        }
        migrator.registerMigration("v14") { db in
            // An ensemble's members (LibraryCatalog+Members): their role, part and password
            // (scrypt), one-time invitations and login sessions, both kept only as SHA-256.
            try db.execute(sql: """
                CREATE TABLE member (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    nameKey TEXT NOT NULL UNIQUE,
                    role TEXT NOT NULL,
                    instrument TEXT,
                    section TEXT,
                    password TEXT,
                    createdAt REAL NOT NULL
                );
                CREATE TABLE member_invitation (
                    digest TEXT PRIMARY KEY,
                    member INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                    expiresAt REAL NOT NULL,
                    usedAt REAL
                );
                CREATE TABLE member_session (
                    digest TEXT PRIMARY KEY,
                    member INTEGER NOT NULL REFERENCES member(id) ON DELETE CASCADE,
                    createdAt REAL NOT NULL,
                    expiresAt REAL NOT NULL
                );
                CREATE INDEX member_session_member ON member_session (member, createdAt);
                """)
        }
        migrator.registerMigration("v15") { db in
            // What taking back an earlier change needs: where its update ends and a digest of
            // its bytes (to know the file was not rewritten since).
            try db.execute(sql: "ALTER TABLE undo_step ADD COLUMN lengthAfter INTEGER")
            try db.execute(sql: "ALTER TABLE undo_step ADD COLUMN updateDigest TEXT")
        }
        migrator.registerMigration("v16") { db in
            // Members by an id that outlives their name, instrument and role, and is never
            // given again (a new member with an old name is a new person): their private
            // layers and marks carry it (MemberLayers), and so does each change they made.
            try db.execute(sql: """
                ALTER TABLE member ADD COLUMN key TEXT;
                UPDATE member SET key = lower(hex(randomblob(16)));
                CREATE UNIQUE INDEX member_key ON member (key);
                ALTER TABLE undo_step ADD COLUMN authorKey TEXT;
                """)
        }
        migrator.registerMigration("v17") { db in
            // The catalog's version, counted by every write transaction of every process: a
            // search answer kept in memory is served only at the version it was computed at.
            try db.execute(sql: """
                CREATE TABLE catalog_state (id INTEGER PRIMARY KEY CHECK (id = 1), changes INTEGER NOT NULL);
                INSERT INTO catalog_state (id, changes) VALUES (1, 0);
                """)
        }
        migrator.registerMigration("v18") { db in
            // Search text spelled as readers type (ё as е; ß, å, ä, ö, ü, ø, æ written out too)
            // and scores found by their folders' names: every entry's text stored again. The
            // stamps are cleared so the next scan reads every file again: a bookmark of an
            // anthology of several composers inherits none of them from now on.
            // A score's credits (ScoreCredit: who the file names beyond forScore's fields, by role).
            try db.execute(sql: "ALTER TABLE entry ADD COLUMN credits TEXT")
            try SearchText.rebuild(in: SQLiteStatements(db: db))
            try db.execute(sql: "UPDATE score SET size = -1")
        }
        return migrator
    }
}
