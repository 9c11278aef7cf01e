#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import FolioLibrary
import FolioScore
import NIOCore

/// Where uploads arrive: each is streamed, chunk by chunk as the network delivers it, into a
/// file of its own in `.folio/uploads` inside the library — never held in memory, and in
/// the library's own filesystem, so a finished upload is moved into place, not copied. A
/// file is named `upload-PID-RANDOM.part`; those a server left behind when it died mid-upload
/// are removed when the next one starts (their process is gone, or they are a day old).
///
/// ```swift
/// let spool = try UploadSpool(folder: "/scores")
/// let file = try await spool.receive(request.body, limit: 256 << 20)
/// defer { spool.discard(file) }
/// ```
public struct UploadSpool: Sendable {
    public let directory: String

    public init(folder: String) throws {
        directory = (folder as NSString).appendingPathComponent(".folio/uploads")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        removeLeftovers()
    }

    /// Writes `body` to a new file and returns its path; 413 past `limit` bytes (the file is
    /// removed, nothing else written).
    public func receive<Body: AsyncSequence>(_ body: Body, limit: Int) async throws -> String where Body.Element == ByteBuffer {
        let path = directory + "/upload-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).part"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Self.systemFailure("cannot receive the upload")
        }
        var closed = false
        do {
            var received = 0
            for try await chunk in body {
                received += chunk.readableBytes
                guard received <= limit else {
                    throw LibraryError(.tooLarge, "the file is larger than this server accepts (\(limit) bytes)")
                }
                try chunk.withUnsafeReadableBytes { buffer in
                    guard let base = buffer.baseAddress else { return }   // an empty chunk
                    var offset = 0
                    while offset < buffer.count {
                        let written = write(fd, base + offset, buffer.count - offset)
                        if written < 0, errno == EINTR { continue }
                        guard written > 0 else {
                            throw Self.systemFailure("cannot store the upload")
                        }
                        offset += written
                    }
                }
            }
            closed = true
            guard close(fd) == 0 else {
                throw Self.systemFailure("cannot store the upload")
            }
            return path
        } catch {
            if !closed { close(fd) }
            unlink(path)
            throw error
        }
    }

    /// The failure of the system call that just failed: `noSpace` when the disk or the
    /// quota is full, else `io`.
    static func systemFailure(_ what: String) -> LibraryError {
        let number = errno
        return LibraryError(FailureKind(systemError: number) == .noSpace ? .noSpace : .io, "\(what): \(String(cString: strerror(number)))")
    }

    /// Removes a received file that was not moved into the library (harmless when it was).
    public func discard(_ path: String) {
        unlink(path)
    }

    /// Removes files of uploads whose server is gone, and any a day old.
    func removeLeftovers() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let dayAgo = Date().addingTimeInterval(-86_400)
        for name in names where name.hasPrefix("upload-") && name.hasSuffix(".part") {
            let path = directory + "/" + name
            let pid = name.split(separator: "-").dropFirst().first.flatMap { pid_t($0) }
            let gone = pid.map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? true
            let old = ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date).map { $0 < dayAgo } ?? false
            if gone || old { unlink(path) }
        }
    }
}
