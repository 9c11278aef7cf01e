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
/// Bytes in flight are bounded as well as each upload: at most ``perClient`` from one address
/// at once (past it 429, as for one device uploading too much at a time) and ``total`` from
/// everyone (past it 503): a flood of parallel uploads cannot fill the disk or the spool.
///
/// ```swift
/// let spool = try UploadSpool(folder: "/scores")
/// let file = try await spool.receive(request.body, limit: 256 << 20, client: "192.0.2.7")
/// defer { spool.discard(file) }
/// ```
public struct UploadSpool: Sendable {
    public let directory: String
    /// The most bytes of uploads one address may have in flight at once.
    public let perClient: Int
    /// The most bytes of uploads in flight at once from everyone.
    public let total: Int
    private let flight = InFlight()

    public init(folder: String, perClient: Int = 1 << 30, total: Int = 4 << 30) throws {
        self.perClient = max(1, perClient)
        self.total = max(1, total)
        directory = (folder as NSString).appendingPathComponent(".folio/uploads")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        removeLeftovers()
    }

    /// Writes `body` to a new file and returns its path; 413 past `limit` bytes (the file is
    /// removed, nothing else written); `.tooMany` past ``perClient`` bytes in flight from
    /// `client`, `.busy` past ``total`` from everyone.
    public func receive<Body: AsyncSequence>(_ body: Body, limit: Int, client: String = "") async throws -> String
    where Body.Element == ByteBuffer {
        var held = 0
        defer { flight.release(held, client: client) }
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
                try flight.take(chunk.readableBytes, client: client, perClient: perClient, total: total)
                held += chunk.readableBytes
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

/// The bytes of uploads being received, per client address and in all.
private final class InFlight: @unchecked Sendable {
    private var byClient: [String: Int] = [:]
    private var all = 0
    private let lock = NSLock()

    func take(_ count: Int, client: String, perClient: Int, total: Int) throws {
        try lock.withLock {
            let mine = byClient[client, default: 0]
            guard count <= perClient - mine else {
                throw LibraryError(.tooMany, "this device is sending more than \(perClient) bytes of uploads at once; "
                    + "let the others finish first", retryAfter: 10)
            }
            guard count <= total - all else {
                throw LibraryError(.busy, "the server is receiving more than \(total) bytes of uploads at once; try again shortly",
                                   retryAfter: 10)
            }
            byClient[client] = mine + count
            all += count
        }
    }

    func release(_ count: Int, client: String) {
        guard count > 0 else { return }
        lock.withLock {
            let left = byClient[client, default: 0] - count
            byClient[client] = left > 0 ? left : nil
            all -= count
        }
    }
}
