import FolioLibrary
import FolioScore
import Foundation

/// Every change of a score through the library's one edit path, and undo.
extension ScoreService {
    /// An edit through the library's one edit path (`LibraryCatalog.edit`): refused with 409
    /// when the file is not at `expected` under its lock, recorded for
    /// ``undo(score:expected:)`` as `change` by ``author``, the catalog row refreshed.
    /// `right` is what a member's role must carry for it, `marks` the marks it touches (each
    /// must be the member's own); both checked in the edit path.
    func edit<T>(_ score: (Score, String), expected: String?, change: String, right: MemberRight = .library, marks: [String] = [],
                 _ body: (ScoreFile.Document) throws -> T) throws -> (value: T, tag: String) {
        guard let expected else {
            throw LibraryError(.versionRequired, "send the version you edit in If-Match (the ETag of GET)")
        }
        let saved = try catalog.edit(score: score.0.path, expected: expected, change: change, author: author, right: right, marks: marks,
                                     options: work.readOptions(), body)
        return (saved.value, saved.version)
    }

    /// A change as the history lists it.
    public struct Change: Codable, Sendable, Equatable {
        /// Its number: what ``takeBack(score:change:expected:)`` names.
        public let id: Int64
        public let change: String
        public let author: String?
        public let madeAt: String
        /// Whether it is the last change and the file is still as it left it (Undo takes it back).
        public let undoable: Bool
    }

    /// The changes saved to a score through the edit path, the last first; with `member`, only
    /// theirs (by name, as members are told apart). The librarian's: a member whose role
    /// lacks `MemberRight.library` is refused.
    public func changes(score id: Int64, member: String?) throws -> [Change] {
        try MemberContext.current?.require(.library, to: "read a score's history")
        let (score, _) = try score(id)
        let last = try catalog.lastChange(score: score.path)
        let key = member.map(LibraryCatalog.nameKey)
        return try catalog.changes(score: score.path)
            .filter { key == nil || $0.author.map(LibraryCatalog.nameKey) == key }
            .map { Change(id: $0.id, change: $0.change, author: $0.author, madeAt: $0.madeAt.formatted(.iso8601), undoable: $0 == last) }
    }

    /// Takes back one earlier change of a score, keeping those after it (see
    /// `LibraryCatalog.takeBack`): 409 when the file is not at `expected`, when a later change
    /// touched the same thing or it is taken back already; 404 for a change not recorded.
    /// Returns what was taken back and the new version.
    public func takeBack(score id: Int64, change: Int64, expected: String?) throws -> (change: String, tag: String) {
        let (score, _) = try score(id)
        guard let expected else {
            throw LibraryError(.versionRequired, "send the version you change in If-Match (the ETag of GET)")
        }
        let undone = try catalog.takeBack(score: score.path, change: change, expected: expected)
        return (undone.change, undone.version)
    }

    /// What the last change saved to a score did, when it can still be undone (nothing
    /// changed the file since); the record is the catalog's, so it outlives a restart.
    public func lastChange(score id: Int64) throws -> String? {
        let (score, _) = try score(id)
        return try catalog.lastChange(score: score.path)?.change
    }

    /// Undoes the last change saved to a score (see `LibraryCatalog.undo`). 409 when the file
    /// is not at `expected` or changed since that save, or when there is nothing to undo.
    /// Returns what was undone and the new version.
    public func undo(score id: Int64, expected: String?) throws -> (change: String, tag: String) {
        let (score, _) = try score(id)
        guard let expected else {
            throw LibraryError(.versionRequired, "send the version you undo in If-Match (the ETag of GET)")
        }
        let undone = try catalog.undo(score: score.path, expected: expected)
        return (undone.change, undone.version)
    }
}
