#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Crypto

/// The record that makes appending in place safe: written and synced beside the file
/// (`.NAME.folio-journal`) before the first byte is appended, removed after the update is
/// synced. It names the file (device and inode), its length before the update with a hash
/// of the last bytes before that length, and the update's length and hash.
///
/// A Folio process that opens or locks a file with a journal and finds no writer holding
/// the lock settles it: an update that is complete on disk (its hash matches) stays, a
/// partial one is cut off at the recorded length, a journal that no longer describes the
/// file (it was replaced or rewritten since) is dropped. While a writer holds the lock,
/// readers see the file as it was before the update.
///
/// ```swift
/// if let journal = SaveJournal.pending(for: "score.pdf") { print(journal) }
/// let outcome = try SaveJournal.settle(path: "score.pdf")   // under the file's lock
/// ```
public struct SaveJournal: Sendable, Equatable, CustomStringConvertible {
    /// The file's length before the update: the bytes that are never touched.
    public let originalLength: Int
    /// The update's length in bytes.
    public let updateLength: Int
    let device: UInt64
    let inode: UInt64
    let prefixHash: String
    let updateHash: String

    /// How many bytes before `originalLength` the prefix hash covers.
    static let prefixWindow = 4096
    private static let magic = "folio-journal 1"
    /// A journal is a few hundred bytes; anything larger is not one of ours.
    private static let maximumSize = 4096

    public var description: String {
        "an interrupted save appending \(updateLength) bytes to the original \(originalLength) bytes"
    }

    /// The journal's path for `path`: a hidden file in the same folder.
    public static func path(for path: String) -> String {
        SafeFile.hiddenSibling(of: path, suffix: "folio-journal")
    }

    init(originalLength: Int, updateLength: Int, device: UInt64, inode: UInt64,
         original: UnsafeRawBufferPointer, update: UnsafeRawBufferPointer) {
        self.originalLength = originalLength
        self.updateLength = updateLength
        self.device = device
        self.inode = inode
        let start = max(0, originalLength - Self.prefixWindow)
        prefixHash = Self.hex(SHA256.hash(data: UnsafeRawBufferPointer(rebasing: original[start..<originalLength])))
        updateHash = Self.hex(SHA256.hash(data: update))
    }

    private init(originalLength: Int, updateLength: Int, device: UInt64, inode: UInt64, prefixHash: String,
                 updateHash: String) {
        self.originalLength = originalLength
        self.updateLength = updateLength
        self.device = device
        self.inode = inode
        self.prefixHash = prefixHash
        self.updateHash = updateHash
    }

    /// The journal's text, ending in a hash of itself so that a torn write is recognised.
    var text: String {
        let body = """
            \(Self.magic)
            original-length: \(originalLength)
            device: \(device)
            inode: \(inode)
            prefix-sha256: \(prefixHash)
            update-length: \(updateLength)
            update-sha256: \(updateHash)

            """
        return body + "journal-sha256: \(Self.hex(SHA256.hash(data: Array(body.utf8))))\n"
    }

    /// Parses a journal; nil for anything torn, foreign or out of range.
    static func parse(_ bytes: [UInt8]) -> SaveJournal? {
        // Journals are ASCII; anything else is not one of ours.
        guard bytes.count <= maximumSize, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let marker = text.range(of: "journal-sha256: ") else { return nil }
        let body = String(text[..<marker.lowerBound])
        guard hex(SHA256.hash(data: Array(body.utf8))) + "\n" == text[marker.upperBound...] else { return nil }
        var fields: [String: String] = [:]
        let lines = body.split(separator: "\n")
        guard lines.first == Substring(magic) else { return nil }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...].drop(while: { $0 == " " }))
        }
        guard let original = fields["original-length"].flatMap({ Int($0) }), original >= 0,
            let update = fields["update-length"].flatMap({ Int($0) }), update > 0,
            original <= Int.max - update,
            let device = fields["device"].flatMap({ UInt64($0) }),
            let inode = fields["inode"].flatMap({ UInt64($0) }),
            let prefix = fields["prefix-sha256"], prefix.count == 64,
            let updateHash = fields["update-sha256"], updateHash.count == 64
        else { return nil }
        return SaveJournal(originalLength: original, updateLength: update, device: device, inode: inode,
                           prefixHash: prefix, updateHash: updateHash)
    }

    /// The journal beside `path`, if there is one and it is whole (a torn journal means
    /// the append it announced never began).
    public static func pending(for path: String) -> SaveJournal? {
        guard let bytes = readJournal(at: Self.path(for: path)) else { return nil }
        return parse(bytes)
    }

    /// Whether any journal file, whole or torn, lies beside `path`.
    static func exists(for path: String) -> Bool {
        var info = stat()
        return lstat(Self.path(for: path), &info) == 0
    }

    private static func readJournal(at path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: maximumSize + 1)
        var total = 0
        while total < buffer.count {
            let count = buffer.withUnsafeMutableBytes { pointer in
                pointer.baseAddress.map { read(fd, $0 + total, pointer.count - total) } ?? 0
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
        }
        return Array(buffer[..<total])
    }

    /// Writes the journal beside `path` and makes it durable (file and folder synced).
    func write(beside path: String) throws {
        let journalPath = Self.path(for: path)
        // A leftover journal is settled under the lock before any save, so one here is
        // stale debris of a journal that never became whole.
        unlink(journalPath)
        let fd = open(journalPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw PDFError(.io, "cannot create the save journal \(journalPath): \(SafeFile.lastError())")
        }
        defer { close(fd) }
        do {
            try Array(text.utf8).withUnsafeBytes { try SafeFile.writeAll(fd, $0, path: journalPath) }
            guard fsync(fd) == 0 else { throw PDFError(.io, "cannot sync \(journalPath): \(SafeFile.lastError())") }
            try SafeFile.syncDirectory(of: path)
        } catch {
            unlink(journalPath)
            throw error
        }
    }

    /// Removes the journal: the save it guarded is complete (or rolled back). The removal
    /// need not be synced: a journal that comes back after a power cut finds its update
    /// complete and is dropped again.
    static func remove(beside path: String) {
        unlink(Self.path(for: path))
    }

    /// What settling a journal did.
    ///
    /// ```swift
    /// if let outcome = try SaveJournal.settle(path: "Mahler – Symphonie Nr. 2.pdf") {
    ///     print(outcome)   // e.g. "rolled back an interrupted save (2048 bytes removed)"
    /// }
    /// ```
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The journal was torn: the append had not begun. Nothing to undo.
        case discardedTorn
        /// The update was complete on disk and stays.
        case keptCompleteUpdate(SaveJournal)
        /// A partial update was cut off: the file is its original again.
        case rolledBack(SaveJournal, removedBytes: Int)
        /// The journal no longer describes the file (replaced or rewritten since): dropped,
        /// the file left as it is.
        case droppedStale(SaveJournal, reason: String)

        public var description: String {
            switch self {
            case .discardedTorn:
                "removed a torn save journal (the interrupted save had not touched the file)"
            case .keptCompleteUpdate(let journal):
                "an interrupted save had finished writing its \(journal.updateLength) bytes: kept"
            case .rolledBack(let journal, let removed):
                "rolled back an interrupted save: \(removed) bytes cut, the file is its original \(journal.originalLength) bytes again"
            case .droppedStale(_, let reason):
                "removed a save journal that no longer matches the file (\(reason)); the file is left as it is"
            }
        }
    }

    /// Settles the journal beside `path`, if any. The caller holds the file's lock, so no
    /// writer is between journal and removal. Returns nil when there is no journal.
    public static func settle(path: String) throws -> Outcome? {
        let journalPath = Self.path(for: path)
        guard let bytes = readJournal(at: journalPath) else { return nil }
        guard let journal = parse(bytes) else {
            unlink(journalPath)
            return .discardedTorn
        }
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw PDFError(.io, "cannot open \(path) to settle its save journal: \(SafeFile.lastError())")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PDFError(.io, "cannot stat \(path): \(SafeFile.lastError())") }
        let size = Int(info.st_size)
        func drop(_ reason: String) -> Outcome {
            unlink(journalPath)
            return .droppedStale(journal, reason: reason)
        }
        guard UInt64(info.st_dev) == journal.device, UInt64(info.st_ino) == journal.inode else {
            return drop("the file was replaced since")
        }
        guard size >= journal.originalLength else { return drop("the file is shorter than the journal's original") }
        let start = max(0, journal.originalLength - prefixWindow)
        guard hashRange(fd, start, journal.originalLength - start) == journal.prefixHash else {
            return drop("the original bytes changed since")
        }
        if size >= journal.originalLength + journal.updateLength,
            hashRange(fd, journal.originalLength, journal.updateLength) == journal.updateHash
        {
            unlink(journalPath)
            return .keptCompleteUpdate(journal)
        }
        guard size <= journal.originalLength + journal.updateLength else {
            // More bytes than the update, and not the update: someone else wrote here.
            return drop("bytes other than the update follow the original")
        }
        guard ftruncate(fd, off_t(journal.originalLength)) == 0, fsync(fd) == 0 else {
            throw PDFError(.io, "cannot roll back the interrupted save of \(path): \(SafeFile.lastError())")
        }
        unlink(journalPath)
        return .rolledBack(journal, removedBytes: size - journal.originalLength)
    }

    /// The length a reader should see while a live writer holds the lock: the original
    /// when the journal is whole (the update may be half written), else `currentLength`
    /// (measured before the journal was read: a torn journal means the append had not
    /// begun by then).
    static func visibleLength(for path: String, currentLength: Int) -> Int {
        guard let journal = pending(for: path), journal.originalLength <= currentLength else { return currentLength }
        return journal.originalLength
    }

    /// SHA-256 of `count` bytes at `offset`, read in bounded chunks; nil when the file
    /// ends first.
    private static func hashRange(_ fd: Int32, _ offset: Int, _ count: Int) -> String? {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: min(max(count, 1), 1 << 20))
        var done = 0
        while done < count {
            let wanted = min(buffer.count, count - done)
            let result = buffer.withUnsafeMutableBytes { pointer in
                pointer.baseAddress.map { pread(fd, $0, wanted, off_t(offset + done)) } ?? 0
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return nil }
            hasher.update(data: buffer[..<result])
            done += result
        }
        return hex(hasher.finalize())
    }

    private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
