import Crypto
import FolioPDF
import FolioScore
import Foundation
import GRDB

/// The one edit path of a catalogued score: every change — from `folio`, from the server, from
/// an offline replay — is made here. The version the change was made against, when given, is
/// checked under the file's lock; the change is saved as an incremental update through the
/// safe-save paths; what it did, who made it, when, and the file's length and version before are
/// recorded in the catalog (so Undo survives a restart); and the score's catalog row is brought
/// up to date at once, so `folio library list` and the server's library show the change without
/// a scan.
///
/// ```swift
/// let catalog = try LibraryCatalog(folder: "/scores")
/// let saved = try catalog.edit(score: "Dvořák/Rusalka.pdf", expected: nil, change: "Set the rating", author: "Jana") { document in
///     var change = ScoreChange()
///     change.edit.rating = 5
///     _ = try change.apply(to: document)
/// }
/// let undone = try catalog.undo(score: "Dvořák/Rusalka.pdf", expected: saved.version)   // "Set the rating"
/// ```
extension LibraryCatalog {
    /// One change saved through the edit path.
    ///
    /// ```swift
    /// for step in try catalog.changes(score: "Rusalka.pdf") { print(step.change, step.author ?? "", step.madeAt) }
    /// ```
    public struct ChangeRecord: Sendable, Equatable {
        /// What the change did ("Added a rectangle", "Set the metadata").
        public let change: String
        /// Who made it, when known.
        public let author: String?
        public let madeAt: Date
        /// The file's version before and right after the save.
        public let versionBefore: String
        public let versionAfter: String
        /// The file's length before: what an undo cuts it back to.
        public let lengthBefore: Int
        /// Its number in the catalog: what ``takeBack(score:change:expected:)`` names.
        public let id: Int64
        /// The file's length right after, and the SHA-256 of the bytes the save appended (nil
        /// for changes recorded before Folio kept them): what taking it back later needs.
        var lengthAfter: Int? = nil
        var updateDigest: String? = nil
        /// The ``Member/key`` of the member who made it (nil for the command line, a musician
        /// alone, and changes recorded before keys were kept).
        var authorKey: String? = nil
    }

    /// Changes kept per score; older ones are forgotten (the file keeps every revision anyway).
    public static let undoDepth = 50

    /// Saves `body`'s change to the catalogued score at `relative` (a path inside the library)
    /// as an incremental update, and records it. With `expected`, the file must still be at that
    /// version (``FileVersion``) when its lock is taken, else `.conflict` and nothing is written.
    /// Returns `body`'s value and the file's version after (unchanged when `body` changed nothing).
    ///
    /// When a member acts (``MemberContext/current``), their role must carry `right` (else
    /// `.forbidden`, the file untouched), the change is recorded as theirs whatever `author`
    /// says, and the marks named in `marks` must be their own (``MemberContext/requireOwnMark(_:in:)``).
    public func edit<T>(score relative: String, expected: String?, change: String, author: String? = nil,
                        right: MemberRight = .library, marks: [String] = [],
                        options: PDFReadOptions = PDFReadOptions(), password: String? = nil, save: SaveOptions = SaveOptions(),
                        _ body: (PDFDocument) throws -> T) throws -> (value: T, version: String) {
        let member = MemberContext.current
        try member?.require(right, to: Self.action(change))
        let author = member?.name ?? author
        guard let path = files.resolve(relative) else { throw LibraryError(.notFound, "no score \(relative) in the library") }
        var lengthBefore = 0, versionBefore = ""
        // The new version is what the engine saw under the file's lock, right after the save:
        // a save by another writer that follows at once cannot be mistaken for this one.
        let (value, report) = try PDFSaver.updateReporting(path: path, password: password, options: options, save: save) { document in
            versionBefore = FileVersion.tag(of: path) ?? ""
            if let expected, versionBefore != expected {
                throw LibraryError(.conflict, "\(relative) changed since you loaded it; reload and try again")
            }
            lengthBefore = document.source.count
            for mark in marks { try MemberContext.requireOwnMark(mark, in: document) }
            return try body(document)
        }
        guard let version = report.written.map(FileVersion.tag(of:)) else {
            throw LibraryError(.notFound, "\(relative) disappeared while it was saved")
        }
        if version != versionBefore {
            let lengthAfter = report.written.map { Int($0.size) }
            try record(ChangeRecord(change: change, author: author, madeAt: Date(), versionBefore: versionBefore,
                                    versionAfter: version, lengthBefore: lengthBefore, id: 0, lengthAfter: lengthAfter,
                                    updateDigest: lengthAfter.flatMap { Self.updateDigest(path: path, from: lengthBefore, to: $0, version: version) },
                                    authorKey: member?.key),
                       for: relative)
            // Every save: titles, bookmarks, page and annotation counts show at once. When this
            // fails the next scan catches up; the save itself stands.
            _ = try? LibraryScanner(catalog: self).update(path: CatalogPath.key(relative))
        }
        return (value, version)
    }

    /// The changes recorded for the score at `relative`, the last first.
    public func changes(score relative: String) throws -> [ChangeRecord] {
        try storeRead { db in
            try db.rows("""
                SELECT id, change, author, madeAt, versionBefore, versionAfter, lengthBefore, lengthAfter, updateDigest, authorKey FROM undo_step
                WHERE path = ? ORDER BY id DESC
                """, [CatalogPath.key(relative)]).map { row in
                ChangeRecord(change: try row.value("change"), author: row.optional("author"),
                             madeAt: Date(timeIntervalSince1970: try row.value("madeAt")),
                             versionBefore: try row.value("versionBefore"), versionAfter: try row.value("versionAfter"),
                             lengthBefore: try row.value("lengthBefore"), id: try row.value("id"), lengthAfter: row.optional("lengthAfter"),
                             updateDigest: row.optional("updateDigest"), authorKey: row.optional("authorKey"))
            }
        }
    }

    /// The last change of the score at `relative` when it can still be undone: nothing
    /// changed the file since it was saved.
    public func lastChange(score relative: String) throws -> ChangeRecord? {
        guard let path = files.resolve(relative), let last = try changes(score: relative).first,
              FileVersion.tag(of: path) == last.versionAfter else { return nil }
        return last
    }

    /// The change ``undo(score:expected:)`` would take back, with the same refusals, touching
    /// nothing: `.conflict` when there is nothing to undo or the file changed since.
    public func undoable(score relative: String) throws -> ChangeRecord {
        guard let path = files.resolve(relative) else { throw LibraryError(.notFound, "no score \(relative) in the library") }
        guard let step = try changes(score: relative).first else { throw Self.nothingToUndo(relative) }
        guard FileVersion.tag(of: path) == step.versionAfter else { throw Self.changedAfter(step, relative) }
        return step
    }

    private static func nothingToUndo(_ relative: String) -> LibraryError {
        LibraryError(.conflict, "nothing to undo in \(relative)")
    }

    private static func changedAfter(_ step: ChangeRecord, _ relative: String) -> LibraryError {
        LibraryError(.conflict, "\(relative) was changed after “\(step.change)”; it can no longer be undone")
    }

    /// Takes the score at `relative` back to the revision before its last recorded change
    /// (every save is an incremental update, so that revision is a prefix of the file). With
    /// `expected`, the file must be at that version; it must also be as that change left it.
    /// `.conflict` when either is not so or there is nothing to undo. Returns what was undone
    /// and the file's new version.
    ///
    /// A member acting (``MemberContext/current``) may undo only a change of their own, unless
    /// their role carries ``MemberRight/anyMark``.
    public func undo(score relative: String, expected: String?) throws -> (change: String, version: String) {
        guard let path = files.resolve(relative) else { throw LibraryError(.notFound, "no score \(relative) in the library") }
        guard let step = try changes(score: relative).first else { throw Self.nothingToUndo(relative) }
        try Self.refuseAnother(step, "undo")
        let reverted = try PDFSaver.revert(path: path, toLength: step.lengthBefore, check: {
            let current = FileVersion.tag(of: path)
            if let expected, current != expected {
                throw LibraryError(.conflict, "\(relative) changed since you loaded it; reload and try again")
            }
            guard current == step.versionAfter else { throw Self.changedAfter(step, relative) }
        })
        guard let version = reverted.map(FileVersion.tag(of:)) else { throw LibraryError(.notFound, "\(relative) disappeared") }
        try storeWrite { db in
            try db.execute("DELETE FROM undo_step WHERE id = ?", [step.id])
            // The change before becomes undoable when the file is now exactly as that one left it
            // (no other writer came in between); otherwise the older changes can no longer be undone.
            let key = CatalogPath.key(relative)
            if let previous = try db.row("SELECT id, versionAfter FROM undo_step WHERE path = ? ORDER BY id DESC LIMIT 1", [key]) {
                if try previous.value("versionAfter") as String == step.versionBefore {
                    try db.execute("UPDATE undo_step SET versionAfter = ? WHERE id = ?", [version, try previous.value("id") as Int64])
                } else {
                    try db.execute("DELETE FROM undo_step WHERE path = ?", [key])
                }
            }
        }
        _ = try? LibraryScanner(catalog: self).update(path: CatalogPath.key(relative))
        return (step.change, version)
    }

    /// Refuses a member acting (``MemberContext/current``) who would `verb` another's change
    /// without ``MemberRight/anyMark``.
    private static func refuseAnother(_ step: ChangeRecord, _ verb: String) throws {
        if let member = MemberContext.current, !member.may(.anyMark), !member.isAuthor(step.author, key: step.authorKey) {
            throw LibraryError(.forbidden, "only the librarian may \(verb) another’s change (“\(step.change)” is \(step.author ?? "the library")’s); "
                + "\(member.name) is a \(member.role.title)")
        }
    }

    /// Takes back one recorded change of the score at `relative` (its ``ChangeRecord/id``),
    /// keeping every change made after it: the objects that change wrote are put back as they
    /// were, merged with later changes to the same objects where they merge (another mark on
    /// the same page stays), as a new change of its own (“Took back …”) that Undo can take
    /// back in turn. The last change, while the file is as it left it, is simply undone
    /// (``undo(score:expected:)``). `.conflict` when a later change touched the same thing in
    /// a way that does not merge (take that one back first), when the change is taken back
    /// already, or the file was rewritten since; nothing is written then. A member may take
    /// back only a change of their own, unless their role carries ``MemberRight/anyMark``.
    ///
    /// ```swift
    /// let history = try catalog.changes(score: "Rusalka.pdf")
    /// if let annas = history.first(where: { $0.author == "Anna" }) {
    ///     _ = try catalog.takeBack(score: "Rusalka.pdf", change: annas.id, expected: nil)
    /// }
    /// ```
    public func takeBack(score relative: String, change id: Int64, expected: String?) throws -> (change: String, version: String) {
        guard let path = files.resolve(relative) else { throw LibraryError(.notFound, "no score \(relative) in the library") }
        let steps = try changes(score: relative)
        guard let step = steps.first(where: { $0.id == id }) else {
            throw LibraryError(.notFound, "no change \(id) is recorded for \(relative)")
        }
        if step == steps.first, FileVersion.tag(of: path) == step.versionAfter { return try undo(score: relative, expected: expected) }
        try Self.refuseAnother(step, "take back")
        guard let lengthAfter = step.lengthAfter, let digest = step.updateDigest else {
            throw LibraryError(.conflict, "“\(step.change)” was recorded by an older Folio, which did not keep what taking it back needs")
        }
        let change = "Took back “\(step.change)”" + (step.author.map { " (\($0))" } ?? "")
        let saved = try edit(score: relative, expected: expected, change: change, right: .markOwn) { document in
            guard step.lengthBefore > 0, step.lengthBefore < lengthAfter, lengthAfter <= document.source.count,
                  Self.digest(UnsafeRawBufferPointer(rebasing: document.source.bytes[step.lengthBefore..<lengthAfter])) == digest else {
                throw LibraryError(.conflict, "\(relative) was rewritten since “\(step.change)”; it can no longer be taken back")
            }
            let outcome: PDFDocument.TakeBackOutcome
            do {
                outcome = try document.takeBack(revisionFrom: step.lengthBefore, to: lengthAfter)
            } catch let error as PDFError where error.code == .invalidArgument {
                throw LibraryError(.conflict, "“\(step.change)” cannot be taken back: \(error.message)")
            }
            if !outcome.conflicts.isEmpty {
                throw LibraryError(.conflict, "a later change touched what “\(step.change)” changed; take that one back first")
            }
            if outcome.restored.isEmpty { throw LibraryError(.conflict, "“\(step.change)” is taken back already") }
        }
        return (step.change, saved.version)
    }

    /// The SHA-256 (hex) of the bytes a save appended to the file at `path`, when the file is
    /// still at `version` once they are read.
    private static func updateDigest(path: String, from start: Int, to end: Int, version: String) -> String? {
        guard start >= 0, start < end, let source = try? ByteSource(path: path), end <= source.count,
              FileVersion.tag(of: path) == version else { return nil }
        return digest(UnsafeRawBufferPointer(rebasing: source.bytes[start..<end]))
    }

    private static func digest(_ bytes: UnsafeRawBufferPointer) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// A change's description as the object of "may …": "Set the metadata" → "set the metadata".
    static func action(_ change: String) -> String {
        guard let first = change.first else { return "change this score" }
        return first.lowercased() + change.dropFirst()
    }

    private func record(_ step: ChangeRecord, for relative: String) throws {
        let key = CatalogPath.key(relative)
        try storeWrite { db in
            try db.execute("""
                INSERT INTO undo_step (path, lengthBefore, versionBefore, versionAfter, change, author, madeAt, lengthAfter, updateDigest,
                                       authorKey)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [key, step.lengthBefore, step.versionBefore, step.versionAfter, step.change, step.author,
                      step.madeAt.timeIntervalSince1970, step.lengthAfter, step.updateDigest, step.authorKey])
            try db.execute("""
                DELETE FROM undo_step WHERE path = ? AND id NOT IN
                    (SELECT id FROM undo_step WHERE path = ? ORDER BY id DESC LIMIT ?)
                """, [key, key, Self.undoDepth])
        }
    }
}
