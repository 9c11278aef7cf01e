#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The bytes of a PDF, memory-mapped from a file so that opening a document touches only
/// the pages the reader actually visits (the tail, the xref, the objects asked for); a file
/// of at most 256 KiB is read whole instead, which costs less than mapping it.
///
/// Also wraps an in-memory copy, for object streams, tests and files that cannot be mapped.
///
/// ```swift
/// let source = try ByteSource(path: "score.pdf")
/// source.count   // file size in bytes
/// ```
public final class ByteSource: @unchecked Sendable {
    // Immutable after init: the mapping or allocation is never written and lives as long
    // as this object, which is what makes sharing it across threads safe.
    public let bytes: UnsafeRawBufferPointer
    private let isMapped: Bool
    /// The file this came from, for messages.
    public let path: String?
    /// The open file behind the mapping (-1 for memory): writers copy from it in the
    /// kernel instead of through the mapping.
    let fileDescriptor: Int32
    /// The file's identity when opened, so a save can tell it is still the same file.
    private let device: UInt64
    private let inode: UInt64
    /// What opening did about an interrupted save's journal, if one lay beside the file.
    public let settledJournal: SaveJournal.Outcome?

    public var count: Int { bytes.count }

    /// Files up to this size are read into memory; larger ones are mapped.
    static let readWholeLimit = 256 << 10

    /// Opens the file at `path` read-only: mapped, or read whole when it is small.
    public init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw PDFError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw PDFError(.io, "cannot stat \(path): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw PDFError(.io, "\(path) is not a regular file")
        }
        fileDescriptor = fd
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        var size = Int(info.st_size)
        (settledJournal, size) = Self.settleInterruptedSave(path: path, fd: fd, size: size)
        self.path = path
        if size == 0 {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            isMapped = false
            return
        }
        if size <= Self.readWholeLimit {
            // A small file is read in one call: cheaper than mapping it, faulting its pages in
            // and unmapping it (which interrupts every other core to flush its TLB).
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            var done = 0
            while done < size {
                let got = pread(fd, buffer.baseAddress.map { $0 + done }, size - done, off_t(done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else {
                    let reason = got == 0 ? "it ended at \(done) of \(size) bytes" : String(cString: strerror(errno))
                    buffer.deallocate()
                    close(fd)
                    throw PDFError(.io, "cannot read \(path): \(reason)")
                }
                done += got
            }
            bytes = UnsafeRawBufferPointer(buffer)
            isMapped = false
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
            address != MAP_FAILED
        else {
            close(fd)
            throw PDFError(.io, "cannot map \(path): \(String(cString: strerror(errno)))")
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
        isMapped = true
    }

    /// Copies `data` into a private buffer.
    public init<C: Collection>(data: C, path: String? = nil) where C.Element == UInt8 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        buffer.copyBytes(from: data)
        bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: data.count)
        isMapped = false
        self.path = path
        fileDescriptor = -1
        device = 0
        inode = 0
        settledJournal = nil
    }

    /// When an interrupted save left a journal beside the file: settles it if no writer
    /// holds the lock (and the file can be written), and returns the length to map — the
    /// original's while a journal stands, so a reader never sees a half-written update.
    private static func settleInterruptedSave(path: String, fd: Int32, size: Int) -> (SaveJournal.Outcome?, Int) {
        guard SaveJournal.exists(for: path) || TemporaryFile.leftoverExists(beside: path) else { return (nil, size) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            return (nil, SaveJournal.visibleLength(for: path, currentLength: size))
        }
        defer { flock(fd, LOCK_UN) }
        // The lock only counts if the path still names the file we hold: a writer may
        // have renamed a new file over it, and hold that one's lock.
        guard SafeFile.pathNamesFile(path, fd) else { return (nil, size) }
        let outcome = try? SafeFile.settleLeftovers(of: path)
        var info = stat()
        let settled = fstat(fd, &info) == 0 ? Int(info.st_size) : size
        return (outcome, SaveJournal.visibleLength(for: path, currentLength: settled))
    }

    /// Whether `path` names the file these bytes were read from.
    func isFile(at path: String) -> Bool {
        var info = stat()
        return fileDescriptor >= 0 && stat(path, &info) == 0 && isFile(info)
    }

    /// Whether `info` describes the file these bytes were read from.
    func isFile(_ info: stat) -> Bool {
        fileDescriptor >= 0 && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    deinit {
        if fileDescriptor >= 0 { close(fileDescriptor) }
        guard let base = bytes.baseAddress else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    /// A copy of the bytes in `range`, clamped to the source.
    public func slice(_ range: Range<Int>) -> [UInt8] {
        let lower = max(0, min(range.lowerBound, count))
        let upper = max(lower, min(range.upperBound, count))
        return Array(bytes[lower..<upper])
    }
}
