import FolioLibrary
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
#if canImport(Glibc)
import Glibc
#if canImport(CDispatch)
// Where this toolchain's Foundation declares `stat` and its fields on Linux.
import CDispatch
#endif
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A library file as a response: streamed from disk in chunks (a 200 MB scan is never held
/// in memory), its version as `ETag`, `304` for a matching `If-None-Match`, HEAD answered
/// with the headers alone, and one byte
/// range at a time (`Range`, `If-Range`, RFC 9110 §14), which lets pdf.js fetch only the
/// parts of a large scan that the first page needs.
///
/// The file is opened once and its version taken from that open file, so the bytes sent
/// always belong to the tag sent, even when a save replaces the file meanwhile.
///
/// ```swift
/// return try FileResponse.file(at: path, type: "application/pdf", request: request, loop: context.channel.eventLoop)
/// ```
enum FileResponse {
    /// What a `Range` header asks of a file of `size` bytes.
    enum Ranged: Equatable {
        /// No range, several (answered whole, as RFC 9110 allows), or one we do not read.
        case whole
        case part(ClosedRange<Int>)
        /// A range starting past the end: 416.
        case unsatisfiable
    }

    static let chunk = 256 << 10

    /// Parses `bytes=first-last`, `bytes=first-` and `bytes=-suffix`.
    static func range(_ header: String?, size: Int) -> Ranged {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        let first = parts[0].isEmpty ? nil : Int(parts[0]), last = parts[1].isEmpty ? nil : Int(parts[1])
        switch (parts[0].isEmpty, parts[1].isEmpty) {
        case (true, false):
            guard let suffix = last, suffix >= 0 else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        case (false, _):
            guard let first, first >= 0 else { return .whole }
            if !parts[1].isEmpty {
                guard let last, last >= first else { return .whole }
                guard first < size else { return .unsatisfiable }
                return .part(first...min(last, size - 1))
            }
            guard first < size else { return .unsatisfiable }
            return .part(first...(size - 1))
        default:
            return .whole
        }
    }

    /// The file at `path`: 404 when it cannot be opened; 304, 206 or 200 as the request's
    /// headers ask. `loop` is the connection's event loop: a streamed part waits for it to
    /// have taken each chunk before reading the next (see ``body(_:_:loop:)``).
    static func file(at path: String, type: String, request: Request, loop: any EventLoop,
                     headers extra: HTTPFields = [:]) throws -> Response {
        guard let file = OpenFile(path) else { throw LibraryError(.notFound, "the file is gone") }
        let tag = FileVersion.tag(of: file.info), size = Int(file.info.st_size)
        var headers = extra
        headers[.eTag] = tag
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "no-cache"
        if FileVersion.matches(ifNoneMatch: request.headers[.ifNoneMatch], tag: tag) {
            return Response(status: .notModified, headers: headers)
        }
        var ranged = range(request.headers[.range], size: size)
        if let ifRange = request.headers[.ifRange], ifRange != tag { ranged = .whole }  // changed since: all of it
        headers[.contentType] = type
        if request.method == .head {
            headers[.contentLength] = String(size)
            return Response(status: .ok, headers: headers)
        }
        switch ranged {
        case .unsatisfiable:
            throw HTTPError(.rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"],
                            message: "the range asked for starts past the file's end (\(size) bytes)")
        case .part(let part):
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(size)"
            return Response(status: .partialContent, headers: headers, body: try body(file, part, loop: loop))
        case .whole:
            return Response(status: .ok, headers: headers, body: size == 0 ? ResponseBody() : try body(file, 0...(size - 1), loop: loop))
        }
    }

    /// The bytes of `part`: up to ``chunk`` read at once and sent with the headers in one
    /// write (pdf.js's ranges are 64 KiB: a streamed body costs three hand-overs to the event
    /// loop where this costs one); a larger part read chunk by chunk as the client takes them.
    ///
    /// The writer holds a chunk back once the connection's buffer is full, but it learns that
    /// only when `loop` has taken the chunks before it; a reader reads faster than the loop
    /// sends to sixty clients, so without the wait each connection kept megabytes in memory
    /// (60 readers of a 20 MB file: 550 MB). With it, one chunk beyond the connection's buffer.
    private static func body(_ file: OpenFile, _ part: ClosedRange<Int>, loop: any EventLoop) throws -> ResponseBody {
        if part.count <= chunk {
            var buffer = ByteBufferAllocator().buffer(capacity: part.count)
            try read(file, part.lowerBound, part.count, into: &buffer)
            return ResponseBody(byteBuffer: buffer)
        }
        return ResponseBody(contentLength: part.count) { writer in
            var offset = part.lowerBound
            var buffer = ByteBufferAllocator().buffer(capacity: chunk)
            while offset <= part.upperBound {
                let wanted = min(chunk, part.upperBound - offset + 1)
                buffer.clear()
                try read(file, offset, wanted, into: &buffer)
                offset += wanted
                try await writer.write(buffer)
                try await loop.submit {}.get()
            }
            try await writer.finish(nil)
        }
    }

    /// Appends `count` bytes of `file` from `offset` to `buffer`.
    private static func read(_ file: OpenFile, _ offset: Int, _ count: Int, into buffer: inout ByteBuffer) throws {
        var done = 0
        while done < count {
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count - done) { raw in
                max(0, pread(file.descriptor, raw.baseAddress, count - done, off_t(offset + done)))
            }
            // Shrunk under us (not by a save of ours: those rename): end the response short.
            guard read > 0 else { throw LibraryError(.io, "the file shrank while it was sent") }
            done += read
        }
    }

    /// An open regular file, closed when the last response body holding it is gone (sent,
    /// abandoned by the client, or never written).
    private final class OpenFile: Sendable {
        let descriptor: Int32
        let info: stat

        init?(_ path: String) {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            var info = stat()
            guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
            self.info = info
        }

        deinit { close(descriptor) }
    }
}
