#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The bytes of a PDF, memory-mapped from a file so that opening a document touches only
/// the pages the reader actually visits (the tail, the xref, the objects asked for).
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

    public var count: Int { bytes.count }

    /// Maps the file at `path` read-only.
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
        let size = Int(info.st_size)
        self.path = path
        if size == 0 {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
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
