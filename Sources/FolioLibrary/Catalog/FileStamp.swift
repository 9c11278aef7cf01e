#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation

/// How the catalog recognises a file without opening it as a PDF: its path relative to the
/// library, size and modification time (unchanged ⇒ not reopened), and a fingerprint of
/// its content that follows it through a rename or a move.
///
/// ```swift
/// let stamp = try FileStamp(relativePath: "Bach/BWV 1013.pdf", in: "/scores")
/// ```
public struct FileStamp: Sendable, Equatable {
    /// Relative to the library folder, `/`-separated.
    public var path: String
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64
    /// SHA-256 (hex) of the size, the first and the last 64 KiB: cheap to compute, and two
    /// different scores practically never share it. Duplicates are confirmed by a full hash.
    public var fingerprint: String

    static let window = 64 << 10

    /// Size and time only; the fingerprint is read by ``withFingerprint(in:)``.
    init(path: String, size: Int64, modified: Int64) {
        self.path = path
        self.size = size
        self.modified = modified
        fingerprint = ""
    }

    /// The stamp of the file at `relativePath` inside `folder`, its fingerprint read.
    /// `LibraryErrorCode.notFound` when there is no such file.
    public init(relativePath: String, in folder: String) throws {
        let absolute = folder + "/" + relativePath
        var info = stat()
        guard lstat(absolute, &info) == 0 else { throw LibraryError(.notFound, "no file \(relativePath) in \(folder)") }
        do {
            self = try FileStamp(path: relativePath, info: info).withFingerprint(absolutePath: absolute)
        } catch {
            throw LibraryError(.io, "cannot read \(absolute): \(error.localizedDescription)")
        }
    }

    /// Size and time as `lstat` reported them.
    init(path: String, info: stat) {
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        self.init(path: path, size: Int64(info.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// Reads the fingerprint from the file at `absolutePath`.
    func withFingerprint(absolutePath: String) throws -> FileStamp {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: absolutePath))
        defer { try? handle.close() }
        let head = try handle.read(upToCount: Self.window) ?? Data()
        var tail = Data()
        if size > Int64(Self.window) {
            try handle.seek(toOffset: UInt64(max(Int64(Self.window), size - Int64(Self.window))))
            tail = try handle.read(upToCount: Self.window) ?? Data()
        }
        return head.withUnsafeBytes { head in tail.withUnsafeBytes { tail in withFingerprint(head: head, tail: tail) } }
    }

    /// The fingerprint of `content`, the file's bytes already in memory (all `size` of them).
    func withFingerprint(of content: UnsafeRawBufferPointer) -> FileStamp {
        precondition(Int64(content.count) == size, "the fingerprint is of the whole file")
        let head = UnsafeRawBufferPointer(rebasing: content.prefix(Self.window))
        let tailStart = max(Self.window, content.count - Self.window)
        let tail = UnsafeRawBufferPointer(rebasing: content[min(tailStart, content.count)...])
        return withFingerprint(head: head, tail: tail)
    }

    /// SHA-256 of the size in decimal, the first window and (when the file is longer) the last.
    private func withFingerprint(head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer) -> FileStamp {
        var hasher = SHA256()
        hasher.update(data: Array(String(size).utf8))
        hasher.update(bufferPointer: head)
        hasher.update(bufferPointer: tail)
        var copy = self
        let digits = Array("0123456789abcdef".utf8)
        copy.fingerprint = String(decoding: hasher.finalize().flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
        return copy
    }
}
