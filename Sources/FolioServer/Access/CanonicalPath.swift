import Foundation
import HTTPTypes
import Hummingbird

/// A request path in the one spelling every decision is made on. The router collapses empty
/// segments (`//api/scores` finds `/api/scores`'s route) while a middleware reading the path
/// as sent would not: so no request goes past `CanonicalPathMiddleware` unless its path is
/// already canonical — no empty segment (`//`, a trailing `/`), no dot segment (`.`, `..`), no
/// percent-encoded unreserved character (`%61` for `a`, `%2E` for `.`). Reserved characters
/// encoded (`%2F` inside a setlist's name) are data and stay as they are.
///
/// ```swift
/// CanonicalPath.form(of: "/api/scores/1/cover")          // .canonical
/// CanonicalPath.form(of: "//api/./scores/%31/cover/")    // .other("/api/scores/1/cover")
/// CanonicalPath.form(of: "/../etc/passwd")               // .invalid
/// ```
public enum CanonicalPath {
    /// How a path stands to its canonical spelling.
    public enum Form: Sendable, Equatable {
        /// The path is canonical.
        case canonical
        /// The path names `canonical` in another spelling.
        case other(String)
        /// Not a path of this server: it does not start with `/`, climbs above the root, or
        /// holds a broken percent escape.
        case invalid
    }

    /// The longest path taken (nginx's default request line is 8 KiB; the HTTP layer caps the head).
    public static let maxLength = 8_192

    /// RFC 3986's unreserved characters: ALPHA DIGIT `-` `.` `_` `~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }

    /// Whether `path` is canonical, and if not, its canonical spelling.
    public static func form(of path: String) -> Form {
        // Nearly every request: one pass over the bytes, nothing allocated.
        if isPlainlyCanonical(path.utf8) { return .canonical }
        let bytes = Array(path.utf8)
        guard bytes.first == 0x2F, bytes.count <= maxLength else { return .invalid }
        if bytes == [0x2F] { return .canonical }
        var segments: [[UInt8]] = []
        for raw in bytes.dropFirst().split(separator: 0x2F, omittingEmptySubsequences: false) {
            guard let segment = decodedUnreserved(Array(raw)) else { return .invalid }
            switch segment {
            case []: continue   // an empty segment (`//`, a trailing slash) says nothing
            case [0x2E]: continue   // `.`
            case [0x2E, 0x2E]:
                guard !segments.isEmpty else { return .invalid }
                segments.removeLast()
            default:
                segments.append(segment)
            }
        }
        var canonical: [UInt8] = []
        for segment in segments { canonical.append(0x2F); canonical.append(contentsOf: segment) }
        if canonical.isEmpty { canonical = [0x2F] }
        return canonical == bytes ? .canonical : .other(String(decoding: canonical, as: UTF8.self))
    }

    /// Whether `path` is canonical without decoding anything: it starts with `/`, is within
    /// ``maxLength``, holds no `%`, and no segment is empty, `.` or `..` (the root alone is fine).
    static func isPlainlyCanonical(_ path: String.UTF8View) -> Bool {
        guard path.first == 0x2F, path.count <= maxLength else { return false }
        guard path.count > 1 else { return true }
        var segmentLength = 0, dots = 0
        for byte in path.dropFirst() {
            switch byte {
            case 0x25:
                return false
            case 0x2F:
                guard segmentLength > 0, !(segmentLength == dots && dots <= 2) else { return false }
                segmentLength = 0
                dots = 0
            default:
                segmentLength += 1
                if byte == 0x2E { dots += 1 }
            }
        }
        return segmentLength > 0 && !(segmentLength == dots && dots <= 2)
    }

    /// `segment` with every percent escape of an unreserved character replaced by that
    /// character (other escapes kept, in upper case); nil for a broken escape.
    static func decodedUnreserved(_ segment: [UInt8]) -> [UInt8]? {
        guard segment.contains(0x25) else { return segment }
        var result: [UInt8] = []
        result.reserveCapacity(segment.count)
        var index = 0
        while index < segment.count {
            let byte = segment[index]
            guard byte == 0x25 else {
                result.append(byte)
                index += 1
                continue
            }
            guard index + 2 < segment.count, let high = hexValue(segment[index + 1]), let low = hexValue(segment[index + 2]) else { return nil }
            let value = high << 4 | low
            if isUnreserved(value) {
                result.append(value)
            } else {
                result.append(0x25)
                result.append(upperHex(high))
                result.append(upperHex(low))
            }
            index += 3
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    private static func upperHex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x41 + nibble - 10
    }
}

/// The first middleware after the error shaper: a request whose path is not canonical
/// (``CanonicalPath``) never reaches a decision. A `GET` or `HEAD` is sent to the canonical
/// spelling (308, the query kept), which a browser follows with the same `Sec-Fetch-Site`, so
/// the cross-site refusal judges what the router routes; any other method is 400, naming the
/// canonical path; a path that climbs above the root or holds a broken escape is 400.
struct CanonicalPathMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch CanonicalPath.form(of: request.uri.path) {
        case .canonical:
            return try await next(request, context)
        case .invalid:
            throw HTTPError(.badRequest, message: "the request's path is not one this server has (a broken percent escape, or .. above the root)")
        case .other(let canonical):
            guard request.method == .get || request.method == .head else {
                throw HTTPError(.badRequest, message: "the request's path is not in its one spelling; send it to \(canonical)")
            }
            let query = request.uri.query.map { "?" + $0 } ?? ""
            return Response(status: .permanentRedirect, headers: [.location: canonical + query, .cacheControl: "no-store"])
        }
    }
}
