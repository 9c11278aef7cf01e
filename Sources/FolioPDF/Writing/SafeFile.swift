#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Writes files so that nothing is ever lost.
///
/// A whole file goes to a temporary file in the same folder, fsync, rename over the
/// target, fsync of the folder: on any error the target is left as it was and the
/// temporary file is removed; the target's permissions are kept. An incremental update
/// (`append(to:source:tail:options:holdingLock:)`) goes the cheapest safe way: a clone
/// of the original where the filesystem shares blocks, a journaled append in place, or
/// the same copy and rename.
///
/// ```swift
/// try SafeFile.write(to: "score.pdf", bytes: newBytes)
/// ```
public enum SafeFile {
    typealias Fault = (SaveStage) throws -> Void

    /// Writes the concatenation of `parts` to `path` atomically.
    public static func write(to path: String, parts: [UnsafeRawBufferPointer]) throws {
        try write(to: path, parts: parts, fault: nil)
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(to path: String, bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write(to: path, parts: [$0], fault: nil) }
    }

    /// Writes `bytes` to a new file `path`, durably; fails, leaving everything as it was,
    /// when `path` exists.
    public static func create(at path: String, bytes: [UInt8]) throws {
        let temporary = try TemporaryFile(beside: path, fixedName: false)
        defer { temporary.discard() }
        try bytes.withUnsafeBytes { try writeAll(temporary.fd, $0, path: temporary.path) }
        try temporary.commit(fault: nil, exclusive: true)
    }

    /// Gives the finished file at `source` the name `target` in the same filesystem, durably,
    /// and never over a file: fails, leaving both as they were, when `target` exists.
    /// (`link` refuses an existing name; where a filesystem has no hard links, such as exFAT,
    /// a rename after a look that the name is free.)
    public static func moveIn(from source: String, to target: String) throws {
        if link(source, target) == 0 {
            unlink(source)
        } else if errno == EPERM || errno == ENOTSUP {
            var info = stat()
            guard lstat(target, &info) != 0, rename(source, target) == 0 else {
                throw SafeFile.systemFailure("cannot create \(target)")
            }
        } else {
            throw SafeFile.systemFailure("cannot create \(target)")
        }
        try syncDirectory(of: target)
    }

    /// Refuses to change the file at `path` when this user may not write it or its folder (as
    /// the system decides, `access(2)`): every save method writes beside the file, and a rename
    /// over a read-only file the folder lets one replace would change it regardless. Root,
    /// whom the system lets write anything, is held to the owner's write bit (`chmod 444`
    /// means "keep this" on a NAS or in a container too) unless `overridingMode` (a save
    /// asked for with ``SaveOptions/overridesReadOnlyMode``). `notPermitted`, naming the file,
    /// its mode and what to allow; a file that does not exist yet is only checked for its folder.
    ///
    /// ```swift
    /// try SafeFile.requireWritable("Ηχοι.pdf")   // chmod 444 → "Ηχοι.pdf is read-only (mode 444)…", root too
    /// ```
    public static func requireWritable(_ path: String, overridingMode: Bool = false) throws {
        let root = geteuid() == 0 && !overridingMode
        try requireWritable(path, root: root, refusal: { mode in
            "\(path) is read-only for you (mode \(mode)); nothing was written: allow writing to it (chmod u+w) to change it"
        }, rootRefusal: { mode in
            "\(path) is read-only (mode \(mode)), and Folio keeps it so even for root; nothing was "
                + "written: allow writing to it (chmod u+w) to change it (the command line's --force writes it anyway)"
        })
        let folder = parentDirectory(of: path)
        try requireWritable(folder, root: root, refusal: { mode in
            "the folder \(folder) is read-only for you (mode \(mode)); "
                + "nothing was written: a save writes beside the file, so allow writing to the folder to change \(path)"
        }, rootRefusal: { mode in
            "the folder \(folder) is read-only (mode \(mode)), and Folio keeps it so even for root; "
                + "nothing was written: a save writes beside the file, so allow writing to the folder (chmod u+w) to change \(path), "
                + "or force the save (the command line's --force)"
        })
    }

    /// The one check ``requireWritable(_:overridingMode:)`` makes of the file and of its
    /// folder: nothing when `target` does not exist; `notPermitted` with `refusal`'s message
    /// when the system does not let this user write it, or with `rootRefusal`'s when `root`
    /// is held to an owner's write bit that is off (each given the mode in octal).
    private static func requireWritable(_ target: String, root: Bool, refusal: (String) -> String,
                                        rootRefusal: (String) -> String) throws {
        var info = stat()
        guard stat(target, &info) == 0 else { return }
        let mode = String(info.st_mode & 0o7777, radix: 8)
        if access(target, W_OK) != 0 { throw PDFError(.notPermitted, refusal(mode)) }
        if root, info.st_mode & S_IWUSR == 0 { throw PDFError(.notPermitted, rootRefusal(mode)) }
    }

    static func write(to path: String, parts: [UnsafeRawBufferPointer], fault: Fault?, overridingMode: Bool = false) throws {
        try requireWritable(path, overridingMode: overridingMode)
        let temporary = try TemporaryFile(beside: path, fixedName: false)
        defer { temporary.discard() }
        try fault?(.created)
        for part in parts { try writeAll(temporary.fd, part, path: temporary.path) }
        try fault?(.appended)
        try temporary.commit(fault: fault)
    }

    /// Appends `tail` to the bytes of `source` and puts the result at `path`, by the
    /// method `options` asks for. `holdingLock` says the caller holds `path`'s lock and
    /// opened `source` from it under that lock: only then may the file change in place.
    static func append(to path: String, source: ByteSource, tail: UnsafeRawBufferPointer, options: SaveOptions,
                       holdingLock: Bool) throws -> SaveReport {
        try requireWritable(path, overridingMode: options.overridesReadOnlyMode)
        let fault = options.stageHook
        let inPlace = holdingLock && source.isFile(at: path)
        switch options.method {
        case .copy:
            return try replace(path, source: source, tail: tail, clone: false, holdingLock: holdingLock, fault: fault)
        case .clone:
            return try replace(path, source: source, tail: tail, clone: true, holdingLock: holdingLock, fault: fault)
        case .journal:
            guard inPlace else {
                throw PDFError(.invalidArgument, "a journaled save appends to the file it opened, in place: \(path) is another file")
            }
            do {
                return try journaledAppend(path, source: source, tail: tail, fault: fault, reason: nil)
            } catch let refused as JournalRefused {
                throw PDFError(.io, refused.reason)
            }
        case .automatic:
            let large = inPlace && source.count >= options.journalThreshold
            let temporary = try TemporaryFile(beside: path, fixedName: holdingLock)
            var discardTemporary = true
            defer { if discardTemporary { temporary.discard() } }
            if let refusal = FileClone.clone(from: source, to: temporary) {
                let reason = "no block sharing here: \(refusal)"
                guard large else {
                    discardTemporary = false
                    return try fill(temporary, at: path, source: source, tail: tail, cloned: false, fault: fault,
                                    reason: reason + (inPlace ? "; below the journal threshold" : ""))
                }
                temporary.discard()
                do {
                    return try journaledAppend(path, source: source, tail: tail, fault: fault, reason: reason)
                } catch let refused as JournalRefused {
                    return try replace(path, source: source, tail: tail, clone: false, holdingLock: holdingLock,
                                       fault: fault, reason: reason + "; " + refused.reason)
                }
            }
            discardTemporary = false
            return try fill(temporary, at: path, source: source, tail: tail, cloned: true, fault: fault, reason: nil)
        }
    }

    /// Copy (or clone) and rename.
    private static func replace(_ path: String, source: ByteSource, tail: UnsafeRawBufferPointer, clone: Bool,
                                holdingLock: Bool, fault: Fault?, reason: String? = nil) throws -> SaveReport {
        let temporary = try TemporaryFile(beside: path, fixedName: holdingLock)
        if clone, let refusal = FileClone.clone(from: source, to: temporary) {
            temporary.discard()
            throw PDFError(.io, "cannot clone \(path) here: \(refusal); save with method auto or copy")
        }
        return try fill(temporary, at: path, source: source, tail: tail, cloned: clone, fault: fault, reason: reason)
    }

    /// Puts the original (unless cloned) and the update into `temporary`, then commits it.
    private static func fill(_ temporary: TemporaryFile, at path: String, source: ByteSource,
                             tail: UnsafeRawBufferPointer, cloned: Bool, fault: Fault?, reason: String?) throws
        -> SaveReport
    {
        defer { temporary.discard() }
        try fault?(.created)
        if cloned {
            // The clone is of the file as it is now; keep exactly the bytes we read.
            guard ftruncate(temporary.fd, off_t(source.count)) == 0, lseek(temporary.fd, 0, SEEK_END) >= 0 else {
                throw SafeFile.systemFailure("cannot size \(temporary.path)")
            }
        } else if !copyInKernel(from: source, to: temporary.fd) {
            try writeAll(temporary.fd, source.bytes, path: temporary.path)
        }
        try fault?(.copied)
        let half = tail.count / 2
        try writeAll(temporary.fd, UnsafeRawBufferPointer(rebasing: tail[..<half]), path: temporary.path)
        try fault?(.appendedHalf)
        try writeAll(temporary.fd, UnsafeRawBufferPointer(rebasing: tail[half...]), path: temporary.path)
        try fault?(.appended)
        try temporary.commit(fault: fault)
        return SaveReport(method: cloned ? .clone : .copy, fallbackReason: reason, appendedBytes: tail.count)
    }

    /// Why the journal could not be started; the file is untouched.
    struct JournalRefused: Error {
        let reason: String
    }

    /// Appends in place behind a journal. Before the journal exists, a problem is
    /// `JournalRefused` (the caller may copy instead); after, any failure cuts the file
    /// back to its original length before the error is thrown.
    private static func journaledAppend(_ path: String, source: ByteSource, tail: UnsafeRawBufferPointer,
                                        fault: Fault?, reason: String?) throws -> SaveReport {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw JournalRefused(reason: "cannot write \(path) in place: \(lastError())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SafeFile.systemFailure("cannot stat \(path)") }
        guard source.isFile(info), Int(info.st_size) == source.count else {
            throw PDFError(.io, "\(path) changed since it was opened; nothing was written")
        }
        let journal = SaveJournal(originalLength: source.count, updateLength: tail.count,
                                  device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
                                  original: source.bytes, update: tail)
        do {
            try journal.write(beside: path)
        } catch let error as PDFError {
            throw JournalRefused(reason: error.message)
        }
        do {
            try fault?(.journalWritten)
            let half = tail.count / 2
            try writeAll(fd, UnsafeRawBufferPointer(rebasing: tail[..<half]), at: source.count, path: path)
            try fault?(.appendedHalf)
            try writeAll(fd, UnsafeRawBufferPointer(rebasing: tail[half...]), at: source.count + half, path: path)
            try fault?(.appended)
            guard fsync(fd) == 0 else { throw SafeFile.systemFailure("cannot sync \(path)") }
            try fault?(.synced)
        } catch {
            // Undo what was appended; the journal goes only when the cut is on disk.
            if ftruncate(fd, off_t(source.count)) == 0 && fsync(fd) == 0 { SaveJournal.remove(beside: path) }
            throw error
        }
        SaveJournal.remove(beside: path)
        try fault?(.journalRemoved)
        return SaveReport(method: .journal, fallbackReason: reason, appendedBytes: tail.count)
    }

    /// Settles what an interrupted save left beside `path`: its journal (see
    /// ``SaveJournal/settle(path:)``) and a temporary file of a locked save. The caller
    /// holds the lock.
    static func settleLeftovers(of path: String) throws -> SaveJournal.Outcome? {
        unlink(TemporaryFile.fixedPath(beside: path))
        return try SaveJournal.settle(path: path)
    }

    /// Writes all of `buffer` to `fd` (at `offset`, when given), again after a short write or
    /// an interrupted one; any other failure is `PDFError` `io`, naming `path`.
    ///
    /// ```swift
    /// try Array("Ноктюрн\n".utf8).withUnsafeBytes { try SafeFile.writeAll(STDOUT_FILENO, $0, path: "standard output") }
    /// ```
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, at offset: Int? = nil, path: String) throws {
        guard let base = buffer.baseAddress else { return }
        var written = 0
        while written < buffer.count {
            let result = offset.map { pwrite(fd, base + written, buffer.count - written, off_t($0 + written)) }
                ?? posixWrite(fd, base + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw SafeFile.systemFailure("cannot write \(path)")
            }
            written += result
        }
    }

    /// Makes a rename or a new directory entry in `path`'s folder durable.
    static func syncDirectory(of path: String) throws {
        let directoryFD = open(parentDirectory(of: path), O_RDONLY | O_CLOEXEC)
        guard directoryFD >= 0 else { return }
        defer { close(directoryFD) }
        // Some filesystems refuse fsync on a folder (EINVAL); they order entries anyway.
        guard fsync(directoryFD) == 0 || errno == EINVAL else {
            throw SafeFile.systemFailure("cannot sync the folder of \(path)")
        }
    }

    /// sendfile from the source file; false when unavailable (the caller then
    /// writes from memory). A partial copy is rewound so the fallback starts clean.
    private static func copyInKernel(from source: ByteSource, to fd: Int32) -> Bool {
        #if os(Linux)
        guard source.fileDescriptor >= 0 else { return false }
        var offset: off_t = 0
        var remaining = source.count
        while remaining > 0 {
            let copied = sendfile(fd, source.fileDescriptor, &offset, remaining)
            if copied < 0 && errno == EINTR { continue }
            guard copied > 0 else {
                _ = ftruncate(fd, 0)
                _ = lseek(fd, 0, SEEK_SET)
                return false
            }
            remaining -= copied
        }
        return true
        #else
        return false
        #endif
    }

    /// A hidden file beside `path` in the same folder: `.NAME.suffix`.
    static func hiddenSibling(of path: String, suffix: String) -> String {
        let directory = parentDirectory(of: path)
        let name = PathName.lastComponent(of: path)
        return (directory == "." && !path.utf8.starts(with: "./".utf8) ? "" : directory + "/") + ".\(name).\(suffix)"
    }

    /// Whether `path` still names the file open as `fd` (it may have been replaced by a
    /// rename since it was opened).
    static func pathNamesFile(_ path: String, _ fd: Int32) -> Bool {
        var opened = stat()
        var current = stat()
        return fstat(fd, &opened) == 0 && stat(path, &current) == 0
            && opened.st_dev == current.st_dev && opened.st_ino == current.st_ino
    }

    static func parentDirectory(of path: String) -> String {
        PathName.parent(of: path)
    }

    static func lastError() -> String {
        String(cString: strerror(errno))
    }

    /// The failure of the system call that just failed, as `what: reason`: ``PDFError/Code/noSpace``
    /// when the disk or the quota is full, else ``PDFError/Code/io``.
    static func systemFailure(_ what: String) -> PDFError {
        let number = errno
        return PDFError(FailureKind(systemError: number) == .noSpace ? .noSpace : .io, "\(what): \(String(cString: strerror(number)))")
    }
}

/// A temporary file beside a target, removed unless committed (renamed over the target).
/// A save under the target's lock uses a fixed name, so that what a killed save left is
/// found and removed by the next one; other saves a random name.
final class TemporaryFile {
    let path: String
    let target: String
    private(set) var fd: Int32
    private var committed = false
    /// The mode to give the new file: the target's, when it exists.
    private let existing: stat?

    static func fixedPath(beside target: String) -> String {
        SafeFile.hiddenSibling(of: target, suffix: "folio-save.tmp")
    }

    static func leftoverExists(beside target: String) -> Bool {
        var info = stat()
        return lstat(fixedPath(beside: target), &info) == 0
    }

    init(beside target: String, fixedName: Bool) throws {
        self.target = target
        var info = stat()
        existing = stat(target, &info) == 0 ? info : nil
        // A new file gets 0666 less the umask from open() itself (reading the umask
        // means changing it, which races with other threads).
        let mode: mode_t = existing == nil ? 0o666 : 0o600
        var candidate = Self.fixedPath(beside: target)
        var descriptor: Int32 = -1
        if fixedName {
            // Under the lock a file of this name is what a killed save left.
            unlink(candidate)
            descriptor = open(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        } else {
            for _ in 0..<16 {
                let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
                candidate = SafeFile.hiddenSibling(of: target, suffix: "folio-\(suffix).tmp")
                descriptor = open(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
                if descriptor >= 0 || errno != EEXIST { break }
            }
        }
        guard descriptor >= 0 else {
            throw SafeFile.systemFailure("cannot create a temporary file in \(SafeFile.parentDirectory(of: target))")
        }
        path = candidate
        fd = descriptor
    }

    /// Gives the file the target's permissions, syncs it, renames it over the target and
    /// syncs the folder.
    func commit(fault: SafeFile.Fault?, exclusive: Bool = false) throws {
        if let existing {
            guard fchmod(fd, existing.st_mode & 0o7777) == 0 else {
                throw SafeFile.systemFailure("cannot set permissions of \(path)")
            }
            // Keep the owner where we may (root, or the same user); failure is harmless.
            _ = fchown(fd, existing.st_uid, existing.st_gid)
        }
        guard fsync(fd) == 0 else { throw SafeFile.systemFailure("cannot sync \(path)") }
        try fault?(.synced)
        close(fd)
        fd = -1
        if exclusive {
            // link() fails when the name exists: a file that appeared meanwhile is kept.
            guard link(path, target) == 0 else {
                throw SafeFile.systemFailure("cannot create \(target)")
            }
            unlink(path)
        } else {
            guard rename(path, target) == 0 else {
                throw SafeFile.systemFailure("cannot replace \(target)")
            }
        }
        committed = true
        try fault?(.renamed)
        try SafeFile.syncDirectory(of: target)
    }

    #if canImport(Darwin)
    /// Opens the file again under its name (after `fclonefileat` made it anew).
    func reopen(create: Bool) -> Bool {
        if fd >= 0 { close(fd) }
        fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0), 0o600)
        return fd >= 0
    }
    #endif

    /// Closes and, unless committed, removes the file. Safe to call more than once.
    func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        if !committed {
            unlink(path)
            committed = true
        }
    }

    deinit { discard() }
}

@inline(__always) private func posixWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, pointer, count)
}
