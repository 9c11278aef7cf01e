import FolioLibrary
import FolioScore
import Foundation
import Hummingbird
import NIOCore

/// What every controller shares: reading a request (a search, a score id, a JSON body within
/// a limit) and writing a response (JSON with a version, HTML, bytes, a file name).
extension LibraryServer {
    /// A search as the query string says: q, composer, genre, tag, label, key, rating (the
    /// lowest shown), sort, limit.
    static func search(_ request: Request) throws -> ScoreService.Search {
        let parameters = request.uri.queryParameters
        var search = ScoreService.Search(text: parameters.get("q"))
        search.composer = parameters.get("composer")
        search.genre = parameters.get("genre")
        search.tag = parameters.get("tag")
        search.label = parameters.get("label")
        search.key = parameters.get("key")
        search.minRating = try integer("rating", request)
        search.sort = parameters.get("sort")
        search.limit = try integer("limit", request, in: 1...10_000) ?? 200
        return search
    }

    /// Bytes from base64url (RFC 4648 §5, padding optional); nil when it is not that.
    static func base64URL(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    /// An integer query parameter in `range`; nil when absent, 400 naming the range when it is
    /// not an integer in it (checked before anyone does arithmetic with it).
    static func integer(_ name: String, _ request: Request, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Int(text) else { throw LibraryError(.invalidArgument, "\(name) must be an integer, not \(text.prefix(40))") }
        guard range.contains(value) else {
            throw LibraryError(.invalidArgument, "\(name) \(value) is out of range (valid: \(range.lowerBound) to \(range.upperBound))")
        }
        return value
    }

    static func scoreID(_ context: FolioRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw LibraryError(.notFound, "no such score") }
        return id
    }

    static func html(_ text: String, csrf: String) -> Response {
        var response = Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(string: text)))
        response.setCookie(Cookie(name: Secret.csrfCookie, value: csrf, path: "/",
                                  httpOnly: true, sameSite: .strict))
        return response
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, tag: String? = nil) throws -> Response {
        let data = try JSONCoding.data(value)
        var response = Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        if let tag { response.headers[.eTag] = tag }
        return response
    }

    /// The version of the file (or setlist) an edit is based on: its `If-Match`, a view's tag
    /// taken back to the file's version (`FileVersion.version(ifMatch:)`).
    static func expected(_ request: Request) -> String? {
        FileVersion.version(ifMatch: request.headers[.ifMatch])
    }

    /// A JSON request body of at most `limit` bytes; 400 naming `what` was expected.
    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, limit: Int, what: String) async throws -> T {
        var request = request
        let body = try await request.collectBody(upTo: limit)
        do { return try JSONDecoder().decode(type, from: Data(body.readableBytesView)) } catch let failure as any Failure {
            throw failure   // a value refused by the score layer while decoding, by its kind
        } catch {
            throw LibraryError(.invalidArgument, "the body is not \(what): \(error)")
        }
    }

    /// A Content-Disposition value naming `file` (RFC 6266, UTF-8).
    static func attachment(_ file: String, disposition: String = "attachment") -> String {
        "\(disposition); filename*=UTF-8''" + (file.addingPercentEncoding(withAllowedCharacters: fileNameSafe) ?? "download")
    }

    /// What a file name keeps unescaped in `filename*`: ASCII letters and digits, `-._`
    /// (made once: building a character set costs more than the rest of a file's answer).
    private static let fileNameSafe = CharacterSet.alphanumerics
        .intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127))).union(CharacterSet(charactersIn: "-._"))

    static func bytes(_ data: Data, type: String, cache: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: cache],
                 body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A file name of letters, digits, `.`, `_` and `-` that does not start with a dot: no
    /// path, nothing hidden.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 128 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// Where pdf.js's data folder `name` lies beside the folder holding pdf.js: in it, next to
    /// it (pdfjs-dist), or in `../web` (Debian's libjs-pdf).
    static func pdfjsData(_ name: String, pdfjs: String) -> String? {
        [pdfjs + "/" + name, pdfjs + "/../" + name, pdfjs + "/../web/" + name].first {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &directory) && directory.boolValue
        }
    }

    /// A file of Folio's own (Assets/): a plain name with a stylesheet, script or YAML extension.
    static func asset(_ name: String) throws -> Response {
        // The UI's own files, by extension (Bundle.module holds nothing else under Assets/).
        let types = ["css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "yaml": "application/yaml; charset=utf-8",
                     "png": "image/png"]
        let suffix = name.split(separator: ".").last.map(String.init) ?? ""
        guard isPlainName(name), let type = types[suffix], let url = Bundle.module.url(forResource: "Assets/" + name, withExtension: nil),
              let data = try? Data(contentsOf: url) else {
            throw LibraryError(.notFound, "no such file of the web pages: \(name.prefix(80))")
        }
        return bytes(data, type: type, cache: "no-cache")
    }
}
