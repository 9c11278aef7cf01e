import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// `/api/scores`: searching the library, a score, its PDF, its cover and pictures of its
/// pages, its metadata, page tools, the 4SC download and undo.
///
/// ```swift
/// ScoreController(service: server.service, pictures: server.pictures, maxBody: 1 << 20).addRoutes(to: router, rights: rights)
/// ```
struct ScoreController {
    let service: ScoreService
    let pictures: PageImageCache
    let maxBody: Int

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/api/scores") { request, _ -> Response in
            try LibraryServer.json(["scores": service.search(try LibraryServer.search(request))])
        }
        router.get("/api/facets") { _, _ -> Response in
            try LibraryServer.json(["facets": service.facets()])
        }
        router.get("/api/scores/:id") { _, context -> Response in
            try LibraryServer.json(service.score(try LibraryServer.scoreID(context)).0)
        }
        // GET, and HEAD for the size and version without the bytes.
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/api/scores/:id/pdf", method: method) { request, context -> Response in
                let (score, path) = try service.score(try LibraryServer.scoreID(context))
                return try FileResponse.file(at: path, type: "application/pdf", request: request, loop: context.channel.eventLoop, headers: [
                    .contentDisposition: LibraryServer.attachment((score.path as NSString).lastPathComponent, disposition: "inline"),
                ])
            }
        }
        router.get("/api/scores/:id/cover") { request, context -> Response in
            let connected = context.isConnected
            return try await picture(request, context) { path, id, tag in
                try await pictures.cover(for: path, id: id, version: tag, marks: Self.marks(context), wanted: connected)
            }
        }
        // A page as a picture, shown while pdf.js starts (`?height=` in pixels).
        router.get("/api/scores/:id/pages/:page/image") { request, context -> Response in
            let page = try context.parameters.require("page", as: Int.self)
            var height = PageImageCache.pageHeight
            if let text = request.uri.queryParameters.get("height") {
                guard let value = Int(text), PageImageCache.heights.contains(value) else {
                    throw LibraryError(.invalidArgument, "height \(text) is out of range (valid: \(PageImageCache.heights.lowerBound) to \(PageImageCache.heights.upperBound))")
                }
                height = value
            }
            let connected = context.isConnected
            return try await picture(request, context, page: page) { path, id, tag in
                try await pictures.image(for: path, id: id, page: page, height: height, version: tag, marks: Self.marks(context),
                                         wanted: connected)
            }
        }
        router.get("/api/fields") { _, _ -> Response in
            try LibraryServer.json(ScoreFieldForm.all)
        }
        router.get("/api/scores/:id/metadata") { _, context -> Response in
            let (tag, metadata) = try service.metadata(score: try LibraryServer.scoreID(context))
            return try LibraryServer.json(metadata, tag: tag)
        }
        router.on("/api/scores/:id/metadata", method: .put, right: .library("change the library"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreMetadata.self, request, limit: maxBody, what: "metadata")
            let (tag, metadata) = try service.setMetadata(score: try LibraryServer.scoreID(context), expected: LibraryServer.expected(request), input)
            return try LibraryServer.json(metadata, tag: tag)
        }
        router.on("/api/scores/:id/pages", method: .post, right: .library("change the library"), in: rights) { request, context -> Response in
            let tool = try await LibraryServer.decode(PageTool.self, request, limit: maxBody, what: "a page tool")
            let id = try LibraryServer.scoreID(context), expected = LibraryServer.expected(request)
            let (tag, result) = try await service.work.run { try service.applyPageTool(score: id, expected: expected, tool) }
            return try LibraryServer.json(result, tag: tag)
        }
        router.on("/api/scores/:id/split", method: .post, right: .library("change the library"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.SplitInput.self, request, limit: maxBody, what: "how to split")
            let id = try LibraryServer.scoreID(context)
            let pieces = try await service.work.run { try service.split(score: id, input) }
            return try LibraryServer.json(["pieces": pieces], status: input.dryRun == true ? .ok : .created)
        }
        router.on("/api/merge", method: .post, right: .library("change the library"), in: rights) { request, _ -> Response in
            let input = try await LibraryServer.decode(ScoreService.MergeInput.self, request, limit: maxBody, what: "what to merge")
            let score = try await service.work.run { try service.merge(input) }
            return try LibraryServer.json(score, status: .created)
        }
        router.get("/api/scores/:id/4sc") { _, context -> Response in
            let id = try LibraryServer.scoreID(context)
            let (tag, name, bytes) = try await service.work.run { try service.container(score: id) }
            var response = LibraryServer.bytes(Data(bytes), type: "application/octet-stream", cache: "no-cache")
            response.headers[.eTag] = tag
            response.headers[.contentDisposition] = LibraryServer.attachment(name, disposition: "attachment")
            return response
        }
        // A copy to hand out: the asking member's part (their marks and the shared ones), or clean.
        router.get("/api/scores/:id/handout") { request, context -> Response in
            let id = try LibraryServer.scoreID(context)
            let asked = request.uri.queryParameters.get("marks") ?? "mine"
            guard let marks = ScoreService.HandoutMarks(rawValue: asked) else {
                throw LibraryError(.invalidArgument, "marks is mine or none")
            }
            let (name, bytes) = try await service.work.run { try service.handout(score: id, marks: marks) }
            var response = LibraryServer.bytes(Data(bytes), type: "application/pdf", cache: "no-store")
            response.headers[.contentDisposition] = LibraryServer.attachment(name, disposition: "attachment")
            return response
        }
        router.get("/api/scores/:id/changes") { request, context -> Response in
            let member = request.uri.queryParameters.get("member")
            return try LibraryServer.json(["changes": try service.changes(score: try LibraryServer.scoreID(context), member: member)])
        }
        router.on("/api/scores/:id/changes/:change/undo", method: .post, right: .markOwn, in: rights) { request, context -> Response in
            guard let change = context.parameters.get("change", as: Int64.self) else { throw LibraryError(.notFound, "no such change") }
            let undone = try service.takeBack(score: try LibraryServer.scoreID(context), change: change, expected: LibraryServer.expected(request))
            return try LibraryServer.json(["undone": undone.change], tag: undone.tag)
        }
        router.get("/api/scores/:id/undo") { _, context -> Response in
            try LibraryServer.json(UndoState(change: try service.lastChange(score: try LibraryServer.scoreID(context))))
        }
        router.on("/api/scores/:id/undo", method: .post, right: .markOwn, in: rights) { request, context -> Response in
            let undone = try service.undo(score: try LibraryServer.scoreID(context), expected: LibraryServer.expected(request))
            return try LibraryServer.json(["undone": undone.change], tag: undone.tag)
        }
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

    /// Whether the pictures a request gets show the marks: in a library with members, only
    /// the librarian's do, who sees every layer. Another member's pictures are drawn without
    /// marks (one picture for all of them, with no pixel of a layer hidden from any), and
    /// pdf.js draws the page with the marks they may see as soon as it has started.
    static func marks(_ context: FolioRequestContext) -> PageImageCache.Marks {
        guard let member = context.identity?.member, member.role != .librarian else { return .shown }
        return .hidden
    }

    /// A picture of the score's file at its current version (`draw` makes it); 304 when the
    /// client has that version, 404 when it cannot be drawn. With `page`, a page past the
    /// score's end is 400 with the valid range.
    private func picture(_ request: Request, _ context: FolioRequestContext, page: Int? = nil,
                         draw: (String, Int64, String) async throws -> Data?) async throws -> Response {
        let (score, path) = try service.score(try LibraryServer.scoreID(context))
        if let page, let count = score.pages, !(1...max(count, 1)).contains(page) {
            throw LibraryError(.invalidArgument, "page \(page) is out of range (valid: 1 to \(count))")
        }
        guard let version = FileVersion.tag(of: path) else { throw LibraryError(.notFound, "no score \(score.id)") }
        // A picture without marks is another picture of the same version: a browser that kept
        // one with marks (the librarian's, on a shared tablet) is not told it still has it.
        let tag = Self.marks(context) == .shown ? version : String(version.dropLast()) + "-no-marks\""
        if FileVersion.matches(ifNoneMatch: request.headers[.ifNoneMatch], tag: tag) {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        guard let png = try await draw(path, score.id, version) else {
            throw LibraryError(.notFound, "no picture of score \(score.id) (pdftoppm from poppler-utils draws them)")
        }
        var response = LibraryServer.bytes(png, type: "image/png", cache: "no-cache")
        response.headers[.eTag] = tag
        return response
    }
}
