import FolioPDF
import FolioScore
import Foundation
import GRDB

/// The audio half of a scan: recordings catalogued the way scores are — unchanged files not
/// read again, a file at a new path with the fingerprint of one gone missing is the same
/// file moved (its links follow), what a file is told by its content. A link whose file
/// is gone keeps the path and waits for a file to appear there.
extension LibraryScanner {
    func scanAudio(_ stamps: [FileStamp], summary: inout Summary) throws {
        let known = try catalog.knownFiles(in: .audio)
        var toRead: [FileStamp] = []
        var seen = Set<String>()
        for stamp in stamps {
            seen.insert(stamp.path)
            if known[stamp.path]?.isUnchanged(stamp) == true {
                summary.audio += 1
                continue
            }
            toRead.append(stamp)
        }
        var missing = LibraryCatalog.Known.missing(known, seen: seen)
        // Read outside the transaction: a fingerprint and a sniff per file.
        var read: [(stamp: FileStamp, kind: AudioKind?)] = []
        for stamp in toRead {
            let absolute = catalog.folder + "/" + stamp.path
            do {
                read.append((try stamp.withFingerprint(absolutePath: absolute), try AudioKind.sniff(fileAt: absolute)))
            } catch {
                summary.skipped.append("\(stamp.path): cannot be read (\(error.localizedDescription))")
            }
        }
        guard !read.isEmpty || !missing.isEmpty else { return }
        try catalog.storeWrite { statements in
            for (stamp, kind) in read {
                do {
                    try statements.savepoint {
                        let old = known[stamp.path]
                        guard let kind else {
                            summary.notAudio.append(stamp.path)
                            if let old { try LibraryCatalog.removeAudio(id: old.id, in: statements) }
                            return
                        }
                        summary.audio += 1
                        if let id = old?.id {
                            try LibraryCatalog.storeAudio(stamp, kind: kind, id: id, in: statements)
                        } else if var ids = missing[stamp.fingerprint], let id = ids.popLast() {
                            missing[stamp.fingerprint] = ids
                            try LibraryCatalog.storeAudio(stamp, kind: kind, id: id, in: statements)
                        } else {
                            try LibraryCatalog.storeAudio(stamp, kind: kind, id: nil, in: statements)
                        }
                    }
                } catch {
                    guard let reason = LibraryCatalog.refusal(error) else { throw error }
                    summary.skipped.append("\(stamp.path): the catalog refused it (\(reason))")
                }
            }
            for id in missing.values.joined() { try LibraryCatalog.removeAudio(id: id, in: statements) }
        }
    }
}

extension LibraryCatalog {
    /// Stores an audio file as `id` (moved or changed) or as a new one, and links the tracks
    /// that wait for a file at its path.
    static func storeAudio(_ stamp: FileStamp, kind: AudioKind, id: Int64?, in statements: any CatalogStatements) throws {
        let arguments: CatalogArguments = [stamp.path, CatalogPath.key(stamp.path), stamp.size, stamp.modified, stamp.fingerprint, kind.rawValue]
        if let id {
            try statements.execute("UPDATE audio SET path = ?, pathKey = ?, size = ?, modified = ?, fingerprint = ?, kind = ? WHERE id = ?",
                                   arguments + [id])
        } else {
            try statements.execute("INSERT INTO audio (path, pathKey, size, modified, fingerprint, kind, added) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                   arguments + [Date().timeIntervalSince1970])
        }
        try statements.execute("""
            UPDATE track SET audioId = (SELECT id FROM audio WHERE audio.pathKey = track.fileKey)
            WHERE audioId IS NULL AND fileKey = ?
            """, [CatalogPath.key(stamp.path)])
    }

    /// Removes an audio file; its links keep its path and wait for it.
    static func removeAudio(id: Int64, in statements: any CatalogStatements) throws {
        try statements.execute("""
            UPDATE track SET file = (SELECT path FROM audio WHERE id = ?), fileKey = (SELECT pathKey FROM audio WHERE id = ?)
            WHERE audioId = ?
            """, [id, id, id])
        try statements.execute("DELETE FROM audio WHERE id = ?", [id])
    }

    /// Takes the tracks a score's XMP keeps (`folioscore:tracks`, from a 4SB import) into the
    /// catalog, once per version of that list: a link the user removed is not brought back
    /// until the file's list changes. Each file is relative to the score's folder; one not
    /// there is looked for by name among the library's audio files (a name only one has),
    /// else the link waits for it.
    static func adoptTracks(_ links: [AudioTrackLink], scoreID: Int64, scorePath: String, in statements: any CatalogStatements) throws {
        let digest = links.isEmpty ? nil : json(encoding: links)
        let adopted: String? = try statements.scalar("SELECT tracksAdopted FROM score WHERE id = ?", [scoreID])
        guard digest != adopted else { return }
        try statements.execute("UPDATE score SET tracksAdopted = ? WHERE id = ?", [digest, scoreID])
        let folder = (scorePath as NSString).deletingLastPathComponent
        for link in links where link.refusal == nil {
            let relative = PathName.components(link.file.replacingOccurrences(of: "\\", with: "/"), keepingEmpty: false)
                .filter { $0 != "." }.joined(separator: "/")
            var file = folder.isEmpty ? relative : folder + "/" + relative
            var audioID: Int64? = try statements.scalar("SELECT id FROM audio WHERE pathKey = ?", [CatalogPath.key(file)])
            if audioID == nil {
                let named = try audioFiles(named: (relative as NSString).lastPathComponent, in: statements)
                if named.count == 1 { audioID = named[0].id; file = named[0].path }
            }
            let exists: Bool = try statements.scalar("""
                SELECT EXISTS (SELECT 1 FROM track WHERE scoreId = ? AND bookmark IS NULL AND (fileKey = ? OR audioId = ?))
                """, [scoreID, CatalogPath.key(file), audioID ?? -1]) ?? false
            let count: Int = try statements.scalar("SELECT count(*) FROM track WHERE scoreId = ?", [scoreID]) ?? 0
            guard !exists, count < AudioTrackLink.maxTracks else { continue }
            try insertTrack(score: scoreID, bookmark: nil, audio: audioID, file: file, title: link.title,
                            loopStart: link.loopStart, loopEnd: link.loopEnd, offset: link.offset, in: statements)
        }
    }
}
