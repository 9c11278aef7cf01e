import FolioLibrary
import FolioScore
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `folio serve`: the library in a browser. Builds the Hummingbird application — pages,
/// the JSON API, Folio's scripts and pdf.js — around one catalog.
///
/// ```swift
/// let catalog = try LibraryCatalog(folder: "Samples")
/// let server = try LibraryServer(catalog: catalog, options: .init())
/// try await server.application(logger: Logger(label: "folio")).runService()
/// ```
public struct LibraryServer: Sendable {
    /// How the server listens and what it serves.
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// The folder holding pdf.js (`pdf.js`, `pdf.worker.js`); Debian's libjs-pdf by default.
        public var pdfjs = "/usr/share/javascript/pdf/build"
        /// What every request must present when set (required when listening beyond loopback).
        public var access: AccessSecret?
        /// Seconds between looks at the folder for added, changed or removed files (0: never).
        public var rescanInterval = 2.0
        /// The largest request body accepted, uploads aside.
        public var maxBody = 1 << 20
        /// The largest file accepted by upload (a scanned book runs to tens of megabytes).
        public var maxUpload = 256 << 20
        /// Names besides the listening address, `localhost`, `127.0.0.1` and `[::1]` that
        /// browsers may use to reach the server (`--allow-host`; see ``AllowedHosts``).
        public var allowedHosts: [String] = []
        /// Addresses of reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are
        /// believed (`--trusted-proxy`; see ``ClientMiddleware``).
        public var trustedProxies: [String] = []
        /// How wrong passwords and tokens are slowed and banned.
        public var loginPolicy = LoginThrottle.Policy()
        public init() {}

        /// The names the server answers to.
        public var hosts: AllowedHosts { AllowedHosts(listening: host, extra: allowedHosts) }
    }

    public let service: ScoreService
    public let setlists: SetlistService
    public let covers: CoverCache
    public let options: Options
    /// Where uploads are received (see ``UploadSpool``).
    public let spool: UploadSpool
    /// The token every state-changing request repeats (see ``CSRFMiddleware``).
    let csrf: String
    /// Wrong passwords and tokens per client (see ``AccessGate``).
    public let throttle: LoginThrottle

    public init(catalog: LibraryCatalog, options: Options) throws {
        let work = WorkQueue()
        service = try ScoreService(catalog: catalog, work: work)
        setlists = SetlistService(catalog: catalog, work: work)
        do { spool = try UploadSpool(folder: catalog.folder) } catch {
            throw LibraryError(.io, "cannot make the upload folder in \(catalog.folder)/.folio: \(error.localizedDescription)")
        }
        covers = CoverCache(directory: (catalog.folder as NSString).appendingPathComponent(".folio/covers"))
        self.options = options
        csrf = Secret.random()
        throttle = LoginThrottle(policy: options.loginPolicy)
    }

    /// A new random access token (64 hex digits), for ``Options/access``.
    public static func randomToken() -> String {
        Secret.random()
    }

    /// Whether pdf.js is where ``Options/pdfjs`` says.
    public var hasPDFJS: Bool {
        ["pdf.js", "pdf.worker.js"].allSatisfy { FileManager.default.isReadableFile(atPath: options.pdfjs + "/" + $0) }
    }

    public func router() -> Router<FolioRequestContext> {
        let router = Router(context: FolioRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ClientMiddleware(hosts: options.hosts, trustedProxies: Set(options.trustedProxies)))
        if let secret = options.access {
            router.add(middleware: AccessAuthenticator(secret: secret))
            router.add(middleware: AccessGate(secret: secret, throttle: throttle))
        }
        router.add(middleware: CSRFMiddleware(token: csrf, hosts: options.hosts))
        let service = self.service, csrf = self.csrf, options = self.options, hasPDFJS = self.hasPDFJS, spool = self.spool
        let maxBody = options.maxBody, maxUpload = options.maxUpload

        router.get("/") { request, _ -> Response in
            let scores = try service.search(try Self.search(request))
            let total = try service.catalog.counts().scores
            return Self.html(HTMLPage.library(scores: scores, total: total, facets: try service.facets(), csrf: csrf), csrf: csrf)
        }
        router.get("/scores/:id") { _, context -> Response in
            let (score, _) = try service.score(try Self.scoreID(context))
            return Self.html(HTMLPage.score(score, csrf: csrf, pdfjs: hasPDFJS), csrf: csrf)
        }
        router.get("/assets/:name") { _, context -> Response in
            try Self.asset(context.parameters.require("name"))
        }
        router.get("/pdfjs/:name") { _, context -> Response in
            let name = try context.parameters.require("name")
            guard ["pdf.js", "pdf.worker.js", "pdf.min.js", "pdf.worker.min.js"].contains(name),
                  let data = FileManager.default.contents(atPath: options.pdfjs + "/" + name) else {
                throw HTTPError(.notFound)
            }
            return Self.bytes(data, type: "text/javascript; charset=utf-8", cache: "public, max-age=86400")
        }
        // Data pdf.js fetches on demand: the 14 standard fonts (for PDFs that name them
        // without embedding them) and the packed CJK character maps.
        for folder in ["standard_fonts", "cmaps"] {
            let directory = Self.pdfjsData(folder, pdfjs: options.pdfjs)  // looked for once, not per request
            router.get("/pdfjs/\(folder)/:name") { _, context -> Response in
                let name = try context.parameters.require("name")
                guard Self.isPlainName(name), let directory,
                      let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                    throw HTTPError(.notFound)
                }
                return Self.bytes(data, type: "application/octet-stream", cache: "public, max-age=86400")
            }
        }
        router.get("/api/openapi.yaml") { _, _ -> Response in
            try Self.asset("openapi.yaml")
        }
        router.get("/api/scores") { request, _ -> Response in
            try Self.json(["scores": service.search(try Self.search(request))])
        }
        router.get("/api/facets") { _, _ -> Response in
            try Self.json(["facets": service.facets()])
        }
        router.get("/api/scores/:id") { _, context -> Response in
            try Self.json(service.score(try Self.scoreID(context)).0)
        }
        // GET, and HEAD for the size and version without the bytes.
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/api/scores/:id/pdf", method: method) { request, context -> Response in
                let (score, path) = try service.score(try Self.scoreID(context))
                return try FileResponse.file(at: path, type: "application/pdf", request: request, headers: [
                    .contentDisposition: Self.attachment((score.path as NSString).lastPathComponent, disposition: "inline"),
                ])
            }
        }
        let covers = self.covers
        router.get("/api/scores/:id/cover") { request, context -> Response in
            let (score, path) = try service.score(try Self.scoreID(context))
            guard let tag = FileVersion.tag(of: path) else { throw HTTPError(.notFound, message: "no score \(score.id)") }
            if FileVersion.matches(ifNoneMatch: request.headers[.ifNoneMatch], tag: tag) {
                return Response(status: .notModified, headers: [.eTag: tag])
            }
            guard let png = await covers.cover(for: path, id: score.id, version: tag) else {
                throw HTTPError(.notFound, message: "no cover for score \(score.id) (pdftoppm from poppler-utils draws them)")
            }
            var response = Self.bytes(png, type: "image/png", cache: "no-cache")
            response.headers[.eTag] = tag
            return response
        }
        router.get("/api/scores/:id/annotations") { request, context -> Response in
            let page = try Self.integer("page", request)
            let (tag, list) = try service.annotations(score: try Self.scoreID(context), page: page)
            return try Self.json(["annotations": list], tag: tag)
        }
        router.post("/api/scores/:id/annotations") { request, context -> Response in
            let input = try await Self.decode(ScoreService.NewAnnotation.self, request, limit: maxBody, what: "an annotation")
            let added = try service.addAnnotation(score: try Self.scoreID(context), expected: request.headers[.ifMatch], input)
            return try Self.json(["id": added.id], status: .created, tag: added.tag)
        }
        router.patch("/api/scores/:id/annotations/:annotation") { request, context -> Response in
            let input = try await Self.decode(ScoreService.AnnotationChange.self, request, limit: maxBody, what: "an annotation change")
            let tag = try service.editAnnotation(score: try Self.scoreID(context), annotation: try context.parameters.require("annotation"),
                                                 expected: request.headers[.ifMatch], input)
            return Response(status: .noContent, headers: [.eTag: tag])
        }
        router.delete("/api/scores/:id/annotations/:annotation") { request, context -> Response in
            let tag = try service.removeAnnotation(score: try Self.scoreID(context),
                                                   annotation: try context.parameters.require("annotation"),
                                                   expected: request.headers[.ifMatch])
            return Response(status: .noContent, headers: [.eTag: tag])
        }
        router.get("/api/scores/:id/metadata") { _, context -> Response in
            let (tag, metadata) = try service.metadata(score: try Self.scoreID(context))
            return try Self.json(metadata, tag: tag)
        }
        router.put("/api/scores/:id/metadata") { request, context -> Response in
            let input = try await Self.decode(ScoreMetadata.self, request, limit: maxBody, what: "metadata")
            let (tag, metadata) = try service.setMetadata(score: try Self.scoreID(context), expected: request.headers[.ifMatch], input)
            return try Self.json(metadata, tag: tag)
        }
        router.get("/api/scores/:id/contents") { _, context -> Response in
            let (tag, contents) = try service.contents(score: try Self.scoreID(context))
            return try Self.json(contents, tag: tag)
        }
        router.post("/api/scores/:id/bookmarks/from-toc") { request, context -> Response in
            let (tag, contents) = try service.bookmarksFromTOC(score: try Self.scoreID(context), expected: request.headers[.ifMatch])
            return try Self.json(contents, tag: tag)
        }
        router.delete("/api/scores/:id/bookmarks/:bookmark") { request, context -> Response in
            let (tag, contents) = try service.removeBookmark(score: try Self.scoreID(context),
                                                              bookmark: try context.parameters.require("bookmark"),
                                                              expected: request.headers[.ifMatch])
            return try Self.json(contents, tag: tag)
        }
        router.post("/api/scores/:id/pages") { request, context -> Response in
            let tool = try await Self.decode(ScoreService.PageTool.self, request, limit: maxBody, what: "a page tool")
            let id = try Self.scoreID(context), expected = request.headers[.ifMatch]
            let (tag, result) = try await service.work.run { try service.applyPageTool(score: id, expected: expected, tool) }
            return try Self.json(result, tag: tag)
        }
        router.get("/api/scores/:id/4sc") { _, context -> Response in
            let id = try Self.scoreID(context)
            let (tag, name, bytes) = try await service.work.run { try service.container(score: id) }
            var response = Self.bytes(Data(bytes), type: "application/octet-stream", cache: "no-cache")
            response.headers[.eTag] = tag
            response.headers[.contentDisposition] = Self.attachment(name, disposition: "attachment")
            return response
        }
        router.post("/api/uploads") { request, _ -> Response in
            guard let name = request.uri.queryParameters.get("name") else {
                throw HTTPError(.badRequest, message: "name is missing: the received file's name")
            }
            var openIn: Data?
            if let encoded = request.uri.queryParameters.get("openin") {
                guard encoded.count <= 4 * OpenInDictionary.maxBytes / 3 + 4, let data = Self.base64URL(encoded) else {
                    throw HTTPError(.badRequest, message: "openin must be the Open In dictionary in base64url, at most \(OpenInDictionary.maxBytes) bytes")
                }
                openIn = data
            }
            let file = try await spool.receive(request.body, limit: maxUpload)
            defer { spool.discard(file) }
            let dictionary = openIn
            let added = try await service.work.run { try service.upload(name: name, file: file, openIn: dictionary) }
            return try Self.json(Upload(score: added.score, warnings: added.warnings), status: .created)
        }
        router.get("/api/scores/:id/undo") { _, context -> Response in
            try Self.json(UndoState(change: try service.lastChange(score: try Self.scoreID(context))))
        }
        router.post("/api/scores/:id/undo") { request, context -> Response in
            let undone = try service.undo(score: try Self.scoreID(context), expected: request.headers[.ifMatch])
            return try Self.json(["undone": undone.change], tag: undone.tag)
        }
        addSetlistRoutes(to: router)
        return router
    }

    /// The application, listening as ``Options`` says; with a rescan service that keeps the
    /// catalog current. `runService()` ends on SIGINT or SIGTERM after the requests in
    /// flight (and so their saves) have finished.
    public func application(logger: Logger) -> some ApplicationProtocol {
        var services: [any Service] = []
        if options.rescanInterval > 0 {
            services.append(CatalogWatcher(catalog: service.catalog, interval: options.rescanInterval, logger: logger))
        }
        return Application(router: router(),
                           configuration: .init(address: .hostname(options.host, port: options.port), serverName: "Folio"),
                           services: services, logger: logger)
    }

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
        search.limit = try integer("limit", request) ?? 200
        guard (1...10_000).contains(search.limit) else {
            throw HTTPError(.badRequest, message: "limit \(search.limit) is out of range (valid: 1 to 10000)")
        }
        return search
    }

    /// Bytes from base64url (RFC 4648 §5, padding optional); nil when it is not that.
    static func base64URL(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    /// An integer query parameter; nil when absent, 400 when it is not an integer.
    static func integer(_ name: String, _ request: Request) throws -> Int? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Int(text) else { throw HTTPError(.badRequest, message: "\(name) must be an integer, not \(text)") }
        return value
    }

    static func scoreID(_ context: FolioRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw HTTPError(.notFound) }
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        var response = Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        if let tag { response.headers[.eTag] = tag }
        return response
    }

    /// A JSON request body of at most `limit` bytes; 400 naming `what` was expected.
    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, limit: Int, what: String) async throws -> T {
        var request = request
        let body = try await request.collectBody(upTo: limit)
        do { return try JSONDecoder().decode(type, from: Data(buffer: body)) } catch let error as ScoreError {
            throw HTTPError(.badRequest, message: error.message)
        } catch {
            throw HTTPError(.badRequest, message: "the body is not \(what): \(error)")
        }
    }

    /// What an upload answers: the new score and notes about the file.
    struct Upload: Encodable {
        let score: ScoreService.Score
        let warnings: [String]
    }

    /// What `GET /api/scores/{id}/undo` answers: the change an undo would take back.
    struct UndoState: Encodable {
        let change: String?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(change, forKey: .change)   // null, not left out
        }
        enum CodingKeys: String, CodingKey { case change }
    }

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

    /// A file of Folio's own (Assets/), by a name from a fixed list.
    static func asset(_ name: String) throws -> Response {
        let types = ["folio.css": "text/css; charset=utf-8", "library.js": "text/javascript; charset=utf-8",
                     "score.js": "text/javascript; charset=utf-8", "api.js": "text/javascript; charset=utf-8",
                     "details.js": "text/javascript; charset=utf-8", "contents.js": "text/javascript; charset=utf-8",
                     "setlists.js": "text/javascript; charset=utf-8", "perform.js": "text/javascript; charset=utf-8",
                     "dom.js": "text/javascript; charset=utf-8", "pages.js": "text/javascript; charset=utf-8",
                     "pdf-worker.js": "text/javascript; charset=utf-8", "pagetools.js": "text/javascript; charset=utf-8",
                     "openapi.yaml": "application/yaml; charset=utf-8"]
        guard let type = types[name], let url = Bundle.module.url(forResource: "Assets/" + name, withExtension: nil),
              let data = try? Data(contentsOf: url) else {
            throw HTTPError(.notFound)
        }
        return bytes(data, type: type, cache: "no-cache")
    }
}

/// Looks at the library folder every few seconds and brings the catalog up to date, so
/// files added, changed or removed appear without a restart.
struct CatalogWatcher: Service {
    let catalog: LibraryCatalog
    let interval: Double
    let logger: Logger

    func run() async throws {
        let scanner = LibraryScanner(catalog: catalog)
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                let summary = try scanner.scan()
                for renamed in summary.renamed {
                    logger.notice("renamed \(renamed.from) to \(renamed.to): another file has the same name in another Unicode form")
                }
                for line in summary.skipped { logger.warning("skipped \(line)") }
                if summary.opened + summary.removed + summary.moved > 0 {
                    logger.info("catalog updated", metadata: ["added": "\(summary.added)", "updated": "\(summary.updated)",
                                                              "removed": "\(summary.removed)", "moved": "\(summary.moved)"])
                }
            } catch {
                logger.warning("rescan failed: \(error)")
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(Int(interval * 1000))) }
            } catch {
                return
            }
        }
    }
}
