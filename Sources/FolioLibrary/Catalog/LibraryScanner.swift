#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FolioPDF
import FolioScore
import Foundation
import GRDB

/// Brings a catalog up to date with its folder, incrementally: a file whose size and
/// modification time are unchanged is not opened; a new path whose content fingerprint is
/// that of a path gone missing is the same score moved (it keeps its id); files gone
/// leave the catalog. Files are read in parallel on all cores and written in batches, one
/// transaction each, so an interrupted scan leaves a consistent catalog that the next
/// scan continues.
///
/// Hidden files and folders (the catalog's own `.folio`, save journals) are skipped, and
/// no symbolic link is followed, so a scan never leaves the folder.
///
/// ```swift
/// let summary = try LibraryScanner(catalog: catalog).scan { progress in print(progress.done, progress.total) }
/// print(summary.opened, summary.moved, summary.removed)
/// ```
public struct LibraryScanner: Sendable {
    /// Where a scan is, for a progress bar.
    ///
    /// ```swift
    /// _ = try LibraryScanner(catalog: catalog).scan { progress in
    ///     print("\(progress.done)/\(progress.total) \(progress.path)")
    /// }
    /// ```
    public struct Progress: Sendable {
        public let done: Int
        public let total: Int
        public let path: String
    }

    /// What a scan did.
    ///
    /// ```swift
    /// let summary = try LibraryScanner(catalog: catalog).scan()
    /// print("\(summary.found) PDFs, \(summary.added) new, \(summary.skipped.count) unreadable")
    /// ```
    public struct Summary: Sendable, Equatable {
        /// PDFs found in the folder.
        public var found = 0
        /// Audio files catalogued (MP3, AAC, M4A, WAV, FLAC, Ogg by their content).
        public var audio = 0
        /// Files named like audio that are not audio by their content, left out.
        public var notAudio: [String] = []
        /// Files opened and read (new or changed).
        public var opened = 0
        public var added = 0
        public var updated = 0
        /// Files recognised at a new path by their fingerprint.
        public var moved = 0
        public var removed = 0
        /// Files that could not be read, with why (they stay in the catalog with the error).
        public var unreadable: [String] = []
        /// Files given a name of their own because another file's name was the same in
        /// another Unicode form (`étude.pdf` composed and decomposed): old path and new.
        public var renamed: [Renamed] = []
        /// Files left out of the catalog, with why (a name that could not be made unique,
        /// a row the database refused); the scan goes on without them.
        public var skipped: [String] = []
    }

    /// A file the scan renamed.
    ///
    /// ```swift
    /// for rename in try LibraryScanner(catalog: catalog).scan().renamed { print(rename.from, "→", rename.to) }
    /// ```
    public struct Renamed: Sendable, Equatable {
        public var from: String
        public var to: String
    }

    public let catalog: LibraryCatalog
    /// Most files read per transaction; a quarter of it at least (fewer at the end). Each
    /// commit rewrites the index pages it touched (the fingerprints' and facets' are
    /// scattered) and adds a segment to the text index, so fewer, larger commits write less
    /// (10,000 files took 2.2 s at 64 a commit, 1.9 s at 256); a writer that keeps up with
    /// the readers takes what they have read from a quarter of it on, so that little is
    /// left to write once the last file is read (at 1,024 a commit always, the last two
    /// batches took 80–100 ms after it; between 256 and 1,024, 45 ms).
    public var batchSize = 1024

    public init(catalog: LibraryCatalog) {
        self.catalog = catalog
    }

    public func scan(progress: (Progress) -> Void = { _ in }) throws -> Summary {
        var summary = Summary()
        var known = try catalog.knownFiles()
        let listing = try Self.files(in: catalog.folder)
        // Audio first: the tracks a score's XMP names find their files.
        try scanAudio(listing.audio, summary: &summary)
        let found = settleNames(listing.scores, known: known, summary: &summary)
        summary.found = found.count
        var toRead: [FileStamp] = []
        var seen = Set<String>()
        for stamp in found {
            // String keys compare canonically: a name catalogued decomposed finds the file composed.
            seen.insert(stamp.path)
            if known[stamp.path]?.isUnchanged(stamp) == true { continue }
            toRead.append(stamp)
        }
        // Files catalogued as unreadable and unchanged since: reported again (still unreadable).
        let reading = Set(toRead.map(\.path))
        for (path, error) in try catalog.unreadableFiles() where seen.contains(path) && !reading.contains(path) {
            summary.unreadable.append("\(path): \(error)")
        }
        // What is catalogued but gone from its path: candidates for moves, else removed.
        var missing = LibraryCatalog.Known.missing(known, seen: seen)
        var done = 0
        // Files are read on every core while the batch before is written (on one).
        let stream = RecordStream(stamps: toRead, folder: catalog.folder, window: 2 * batchSize)
        defer { stream.stop() }
        while case let records = stream.next(atLeast: batchSize / 4, atMost: batchSize), !records.isEmpty {
            // The batch in one transaction; only when the database refuses a row is it written
            // again with a savepoint per file, so that the rest is still stored. (A savepoint per
            // file always made the text index flush at each one: 24 writes per file, not 1.)
            do {
                try catalog.storeWrite { try store(records, savepoints: false, known: &known, missing: &missing, summary: &summary, in: $0) }
            } catch let error as LibraryError where error.code == .database || error.code == .taken {
                try catalog.storeWrite { try store(records, savepoints: true, known: &known, missing: &missing, summary: &summary, in: $0) }
            }
            summary.opened += records.count
            for record in records {
                done += 1
                progress(Progress(done: done, total: toRead.count, path: record.stamp.path))
            }
        }
        let gone = missing.values.flatMap { $0 }
        if !gone.isEmpty {
            try catalog.storeWrite { statements in
                for id in gone { try LibraryCatalog.remove(id: id, in: statements) }
            }
        }
        summary.removed = gone.count
        // Many rows in or out at once: PostgreSQL's plans are made afresh for them (when that
        // fails, autovacuum does it later; the scan stands).
        if let shared = catalog.shared, summary.opened + summary.removed >= Self.statisticsAfter {
            try? shared.refreshStatistics()
        }
        return summary
    }

    /// How many files read or removed by one scan have PostgreSQL gather its statistics again.
    static let statisticsAfter = 1_000

    /// Stores `records` in the transaction `db`: a catalogued path keeps its id, a new path
    /// with the fingerprint of a missing one takes that id (a move), else a new id. With
    /// `savepoints`, each file is stored in a savepoint of its own and a row the database
    /// refuses is reported and left out; without, the first refusal throws and nothing of
    /// the batch counts (`known`, `missing` and `summary` change only when all is stored;
    /// what the batch adds is kept aside until then, never a copy of the whole catalog's).
    private func store(_ records: [ScoreRecord], savepoints: Bool, known: inout [String: LibraryCatalog.Known],
                       missing: inout [String: [Int64]], summary: inout Summary, in statements: any CatalogStatements) throws {
        var added: [String: LibraryCatalog.Known] = [:]
        var taken: [String: Int] = [:]   // ids taken from the end of missing[fingerprint]
        var (updated, moved, new) = (0, 0, 0)
        var skipped: [String] = [], unreadable: [String] = []
        for record in records {
            let path = record.stamp.path, fingerprint = record.stamp.fingerprint
            let candidates = missing[fingerprint] ?? []
            let reused = taken[fingerprint, default: 0]
            func storeOne() throws {
                if let old = known[path] ?? added[path] {
                    try LibraryCatalog.store(record, id: old.id, in: statements)
                    updated += 1
                } else if reused < candidates.count {
                    try LibraryCatalog.store(record, id: candidates[candidates.count - 1 - reused], in: statements)
                    taken[fingerprint] = reused + 1
                    moved += 1
                } else {
                    let id = try LibraryCatalog.store(record, id: nil, in: statements)
                    added[path] = LibraryCatalog.Known(id: id, stamp: record.stamp)
                    new += 1
                }
            }
            if savepoints {
                do {
                    try statements.savepoint(storeOne)
                } catch {
                    guard let reason = LibraryCatalog.refusal(error) else { throw error }
                    skipped.append("\(path): the catalog refused it (\(reason))")
                    continue
                }
            } else {
                try storeOne()
            }
            if let error = record.error { unreadable.append("\(path): \(error)") }
        }
        known.merge(added) { _, new in new }
        for (fingerprint, count) in taken { missing[fingerprint]?.removeLast(count) }
        summary.updated += updated
        summary.moved += moved
        summary.added += new
        summary.skipped += skipped
        summary.unreadable += unreadable
    }

    /// Brings one file's entry up to date after a change made through Folio (a save, an
    /// upload, an undo) without listing the folder: read again when its size or time
    /// changed, added under a new id when it is new, removed when it is gone. `relative` is
    /// its path inside the library; a path that leaves it, or that a scan would skip
    /// (hidden, not a PDF, a link), is refused.
    ///
    /// ```swift
    /// try LibraryScanner(catalog: catalog).update(path: "Chopin/Nocturne.pdf")
    /// ```
    @discardableResult
    public func update(path relative: String) throws -> Summary {
        let parts = PathName.components(relative, keepingEmpty: true)
        guard !relative.isEmpty, !PathName.isAbsolute(relative), relative.lowercased().hasSuffix(".pdf"),
              parts.allSatisfy({ $0.unicodeScalars.first.map { $0 != "." } ?? false }) else {
            throw LibraryError(.invalidArgument, "\(relative) is not a path a scan catalogues (inside the library, not hidden, a .pdf)")
        }
        var summary = Summary()
        let known = try catalog.knownFile(path: relative)
        // The name as given, else as catalogued: the same name in another Unicode form.
        var info = stat()
        let onDisk = [relative, known?.stamp.path].compactMap { $0 }.first { lstat(catalog.folder + "/" + $0, &info) == 0 }
        guard let relative = onDisk, info.st_mode & S_IFMT == S_IFREG else {
            if let known {
                try catalog.storeWrite { try LibraryCatalog.remove(id: known.id, in: $0) }
                summary.removed = 1
            }
            return summary
        }
        let stamp = FileStamp(path: relative, info: info)
        summary.found = 1
        if known?.isUnchanged(stamp) == true { return summary }
        let records = [RecordStream.read(stamp, in: catalog.folder)]
        try catalog.storeWrite { statements in
            for record in records { try LibraryCatalog.store(record, id: known?.id, in: statements) }
        }
        summary.opened = records.count
        if known == nil { summary.added = records.count } else { summary.updated = records.count }
        summary.unreadable = records.compactMap { record in record.error.map { "\(record.stamp.path): \($0)" } }
        return summary
    }

    /// The files to catalogue, one per name: where two paths are the same name in different
    /// Unicode forms, the one the catalog already knows by those bytes (else the composed
    /// one, else the first) keeps it and the other is renamed beside it to the first free
    /// name ("étude 2.pdf"), never over a file; one that cannot be renamed is skipped.
    func settleNames(_ found: [FileStamp], known: [String: LibraryCatalog.Known], summary: inout Summary) -> [FileStamp] {
        var groups: [String: [Int]] = [:]   // canonical String keys: equal names meet here
        for (index, stamp) in found.enumerated() { groups[stamp.path, default: []].append(index) }
        let clashing = groups.values.filter { $0.count > 1 }
        guard !clashing.isEmpty else { return found }
        func preference(_ stamp: FileStamp) -> Int {
            if let old = known[stamp.path], old.stamp.path.utf8.elementsEqual(stamp.path.utf8) { return 2 }
            return stamp.path.utf8.elementsEqual(CatalogPath.key(stamp.path).utf8) ? 1 : 0
        }
        var result = found
        var dropped = Set<Int>()
        for group in clashing {
            guard let keeper = group.max(by: { preference(found[$0]) < preference(found[$1]) }) else { continue }
            for other in group where other != keeper {
                let path = found[other].path
                let directory = (path as NSString).deletingLastPathComponent
                var names = LibraryFileName(folder: directory.isEmpty ? catalog.folder : catalog.folder + "/" + directory)
                do {
                    let name = try names.moveIn((path as NSString).lastPathComponent, from: catalog.folder + "/" + path)
                    let renamed = directory.isEmpty ? name : directory + "/" + name
                    result[other].path = renamed
                    summary.renamed.append(Renamed(from: path, to: renamed))
                } catch {
                    dropped.insert(other)
                    summary.skipped.append("\(path): the same name as \(found[keeper].path) in another Unicode form, "
                        + "and it could not be renamed (\(error)); rename one of them")
                }
            }
        }
        return result.indices.filter { !dropped.contains($0) }.map { result[$0] }.sorted { $0.path < $1.path }
    }

    /// Every PDF below `folder` (not hidden, no symbolic links), with size and time,
    /// sorted by path; and every file whose name says it may be audio (its content decides).
    ///
    /// The folders directly inside `folder` are listed on every core, each with all below
    /// it. Each folder is read with `readdir` and its entries stated by name relative to it
    /// (`fstatat`): the kernel then looks up one name per file, not every folder of its path
    /// again. Names are decoded as `FileManager` decodes them (bytes that are not UTF-8
    /// repaired), so a name that cannot be stated by its decoding is left out, as before.
    static func files(in folder: String) throws -> (scores: [FileStamp], audio: [FileStamp]) {
        let top = try FolderListing(relative: "", in: folder)
        let found = FoundFiles(top)
        DispatchQueue.concurrentPerform(iterations: top.folders.count) { index in
            var part = FolderListing()
            var pending = [top.folders[index]]
            while let relative = pending.popLast() {
                // A folder that cannot be read is left out; the rest of the library is not.
                guard let listing = try? FolderListing(relative: relative, in: folder) else { continue }
                part.scores += listing.scores
                part.audio += listing.audio
                pending += listing.folders
            }
            found.add(part)
        }
        return found.sorted()
    }
}
