import FolioPDF
import Foundation
import GRDB

/// What ``LibraryCatalog/backup(to:)`` copied.
public struct LibraryBackupSummary: Sendable, Equatable {
    /// The folder the copy was made in.
    public let destination: String
    /// Files copied besides the catalog (scores, audio, stamps, …).
    public let files: Int
    /// Their bytes, the catalog's not counted.
    public let bytes: Int64
    /// The catalog's bytes (its online copy).
    public let catalogBytes: Int64
}

extension LibraryCatalog {
    /// Folders under `.folio/` that are made again from the library when missing (pictures of
    /// pages and covers, uploads in flight): a backup leaves them out.
    static let rebuiltFolders: Set<String> = ["covers", "pages", "uploads"]

    /// Copies the library — every file in its folder and its catalog — into `destination`, a
    /// folder that must not exist yet, while the library may be served and edited.
    ///
    /// The catalog is copied with SQLite's online backup from one read transaction, so the copy
    /// is a consistent database as it stood at one moment (setlists, members, the history of
    /// changes), never a file caught half-written; then the files are copied, each in one
    /// piece (Folio replaces a score by renaming a finished file over it, so a copy reads the
    /// old or the new whole). A score changed between the two has a newer file than its
    /// catalog row, which the copy's first scan reads again. A PDF is copied under its edit lock,
    /// so a save that appends in place is never caught halfway. Pictures of pages and covers,
    /// uploads in flight and what a running save or import writes beside its file (journals,
    /// temporary copies, staging folders) are left out: they are made again. Everything is written into a hidden
    /// folder beside `destination` and renamed to it when complete, so a failure (a full disk,
    /// an unreadable file) leaves no half backup under that name.
    ///
    /// To restore, serve or scan the copy where it is, or copy it back in place of the library.
    ///
    /// ```swift
    /// let catalog = try LibraryCatalog(folder: "/srv/music", create: false)
    /// let summary = try catalog.backup(to: "/mnt/usb/music-2026-11-28")
    /// print("\(summary.files) files, \(summary.bytes) bytes")
    /// ```
    ///
    /// - Throws: ``LibraryError`` `.invalidArgument` when `destination` exists or lies inside the
    ///   library, `.notFound` when its parent folder is missing, `.io` or `.noSpace` when a copy
    ///   fails, `.database` when the catalog cannot be read, `.invalidArgument` when the catalog is
    ///   kept in PostgreSQL (its server's own tools back it up: `pg_dump`).
    public func backup(to destination: String) throws -> LibraryBackupSummary {
        if shared != nil {
            throw LibraryError(.invalidArgument, "the catalog is kept in PostgreSQL: back up its database with pg_dump, "
                + "and the library's folder with any file copy")
        }
        let target = URL(fileURLWithPath: destination).standardizedFileURL.path
        let parent = (target as NSString).deletingLastPathComponent
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: target) else {
            throw LibraryError(.invalidArgument, "\(destination) already exists: a backup goes into a new folder")
        }
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw LibraryError(.notFound, "\(parent) is not a folder: make it first, the backup goes inside it")
        }
        let realParent = (parent as NSString).resolvingSymlinksInPath
        let root = files.root
        guard realParent != root, !realParent.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw LibraryError(.invalidArgument, "\(destination) is inside the library \(folder): a backup goes outside it")
        }
        let staging = (parent as NSString).appendingPathComponent(".\((target as NSString).lastPathComponent).partial-\(UUID().uuidString.prefix(8))")
        do {
            try fileManager.createDirectory(atPath: (staging as NSString).appendingPathComponent(".folio"), withIntermediateDirectories: true)
        } catch {
            throw Self.copyFailure(error, what: "cannot make \(staging)")
        }
        do {
            let catalogCopy = (staging as NSString).appendingPathComponent(".folio/library.sqlite")
            try copyCatalog(to: catalogCopy)
            var copied = (files: 0, bytes: Int64(0))
            try copyFiles(from: root, to: staging, relative: "", copied: &copied)
            let catalogBytes = (try? fileManager.attributesOfItem(atPath: catalogCopy)[.size] as? Int64).flatMap { $0 } ?? 0
            do { try fileManager.moveItem(atPath: staging, toPath: target) } catch {
                throw Self.copyFailure(error, what: "cannot rename \(staging) to \(destination)")
            }
            return LibraryBackupSummary(destination: target, files: copied.files, bytes: copied.bytes, catalogBytes: catalogBytes)
        } catch {
            try? fileManager.removeItem(atPath: staging)
            throw error
        }
    }

    /// The catalog through SQLite's online backup (one read transaction of the live pool),
    /// written to `path` and closed; its journal is folded in so the copy is one file.
    func copyCatalog(to path: String) throws {
        do {
            let copy = try DatabaseQueue(path: path)
            try pool.backup(to: copy)
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try copy.close()
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_FULL { throw LibraryError(.noSpace, "the disk of \(path) is full") }
            throw LibraryError(.database, "cannot copy the catalog \(databasePath) to \(path): \(error.message ?? error.description)")
        }
    }

    /// Every entry under `folder` (at `relative` in the library) copied into `target`: folders
    /// made, files copied, symbolic links copied as links; the catalog's files and the folders
    /// made again left out.
    private func copyFiles(from folder: String, to target: String, relative: String, copied: inout (files: Int, bytes: Int64)) throws {
        let fileManager = FileManager.default
        let names: [String]
        do { names = try fileManager.contentsOfDirectory(atPath: folder).sorted() } catch {
            throw Self.copyFailure(error, what: "cannot read the folder \(folder)")
        }
        for name in names {
            let inLibrary = relative.isEmpty ? name : relative + "/" + name
            if relative == ".folio", name.hasPrefix("library.sqlite") || Self.rebuiltFolders.contains(name) { continue }
            if LibraryLeftovers.isInFlight(name) { continue }
            let source = (folder as NSString).appendingPathComponent(name)
            let destination = (target as NSString).appendingPathComponent(name)
            var status = stat()
            guard lstat(source, &status) == 0 else { continue }   // gone since the folder was read
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                if inLibrary == ".folio" {
                    // made with the catalog's copy
                } else {
                    do { try fileManager.createDirectory(atPath: destination, withIntermediateDirectories: false) } catch {
                        throw Self.copyFailure(error, what: "cannot make \(destination)")
                    }
                }
                try copyFiles(from: source, to: destination, relative: inLibrary, copied: &copied)
            case S_IFREG, S_IFLNK:
                do {
                    if status.st_mode & S_IFMT == S_IFREG, (name as NSString).pathExtension.lowercased() == "pdf" {
                        // Under the score's lock: no save is halfway through it meanwhile.
                        try FileLock.withExclusiveLock(on: source, timeout: 30) {
                            try fileManager.copyItem(atPath: source, toPath: destination)
                            guard lstat(source, &status) == 0 else { return }
                        }
                    } else {
                        try fileManager.copyItem(atPath: source, toPath: destination)
                    }
                } catch {
                    if !fileManager.fileExists(atPath: source) { continue }   // removed while copying
                    throw Self.copyFailure(error, what: "cannot copy \(inLibrary)")
                }
                if status.st_mode & S_IFMT == S_IFREG {
                    // The time kept, so the copy's catalog knows its files without reading them again.
                    var times = [status.st_atim, status.st_mtim]
                    _ = utimensat(AT_FDCWD, destination, &times, 0)
                    copied.files += 1
                    copied.bytes += Int64(status.st_size)
                }
            default:
                continue   // sockets, pipes, devices: not a library's
            }
        }
    }

    /// A failed copy as the error vocabulary says it: a full disk is `.noSpace`, anything else `.io`.
    private static func copyFailure(_ error: any Error, what: String) -> LibraryError {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if (error as NSError).code == NSFileWriteOutOfSpaceError || underlying?.code == Int(ENOSPC) {
            return LibraryError(.noSpace, "\(what): the disk is full")
        }
        return LibraryError(.io, "\(what): \(error.localizedDescription)")
    }
}
