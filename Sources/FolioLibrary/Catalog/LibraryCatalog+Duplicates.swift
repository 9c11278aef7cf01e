import Crypto
import FolioScore
import Foundation

/// Files that are the same score twice.
///
/// ```swift
/// for group in try catalog.duplicates() where group.kind == .identical {
///     print(group.paths.joined(separator: " = "))
/// }
/// ```
public struct DuplicateGroup: Sendable, Equatable {
    /// Why files were grouped as duplicates.
    ///
    /// ```swift
    /// let copies = try catalog.duplicates().filter { $0.kind == .identical }
    /// ```
    public enum Kind: String, Sendable {
        /// The same bytes: fingerprints equal and confirmed by a SHA-256 of the whole files.
        case identical
        /// Different files with the same title and composers (case and accents ignored).
        case sameWork = "same-work"
    }

    public let kind: Kind
    /// Relative paths, sorted.
    public let paths: [String]
    /// The full hash for identical files; for the same work, "title — composers".
    public let key: String
}

extension LibraryCatalog {
    /// Identical files first, then different files of the same work. A file that vanished
    /// since the scan is left out of its group.
    public func duplicates() throws -> [DuplicateGroup] {
        var groups: [DuplicateGroup] = []
        let candidates = try storeRead { db in
            try db.rows("""
                SELECT fingerprint, path FROM score WHERE fingerprint IN
                    (SELECT fingerprint FROM score GROUP BY fingerprint HAVING COUNT(*) > 1)
                ORDER BY \(db.binary("fingerprint")), \(db.binary("path"))
                """).map { (fingerprint: try $0.value("fingerprint") as String, path: try $0.value("path") as String) }
        }
        // Same fingerprint: confirmed by hashing the whole files.
        var identicalPaths = Set<String>()
        for (_, members) in Dictionary(grouping: candidates, by: \.fingerprint).sorted(by: { $0.key < $1.key }) {
            var byHash: [String: [String]] = [:]
            for member in members {
                guard let hash = try? Self.fullHash(folder + "/" + member.path) else { continue }
                byHash[hash, default: []].append(member.path)
            }
            for (hash, paths) in byHash.sorted(by: { $0.key < $1.key }) where paths.count > 1 {
                groups.append(DuplicateGroup(kind: .identical, paths: paths.sorted(), key: hash))
                identicalPaths.formUnion(paths.dropFirst())
            }
        }
        // Same title and composers, different files: one representative per identical group.
        var works: [String: (label: String, paths: [String])] = [:]
        try storeRead { db in
            try db.each("""
                SELECT s.path, e.own FROM score s JOIN entry e ON e.scoreId = s.id
                WHERE e.bookmark IS NULL AND s.error IS NULL ORDER BY \(db.binary("s.path"))
                """) { row in
                let path: String = try row.value("path")
                guard !identicalPaths.contains(path) else { return }
                guard let fields = ScoreMetadata(storedIn: row),
                      let title = fields.title, !title.isEmpty, !fields.composers.isEmpty else { return }
                let key = LibraryQuery.fold(title) + "\u{1F}" + fields.composers.map(LibraryQuery.fold).sorted()
                    .joined(separator: "\u{1F}")
                works[key, default: ("\(title) — \(fields.composers.joined(separator: ", "))", [])].paths.append(path)
            }
        }
        for (_, work) in works.sorted(by: { $0.value.label < $1.value.label }) where work.paths.count > 1 {
            groups.append(DuplicateGroup(kind: .sameWork, paths: work.paths.sorted(), key: work.label))
        }
        return groups
    }

    /// SHA-256 of a whole file, read in 1 MiB pieces.
    static func fullHash(_ path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
