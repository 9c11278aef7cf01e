import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// `/api/scores`: searching the library, a score, its PDF and cover, its metadata, page
/// tools, the 4SC download and undo.
///
/// ```swift
/// ScoreController(service: server.service, covers: server.covers, maxBody: 1 << 20).addRoutes(to: router)
/// ```
struct ScoreController {
    let service: ScoreService
    let covers: CoverCache
    let maxBody: Int

    func addRoutes(to router: Router<FolioRequestContext>) {
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
                return try FileResponse.file(at: path, type: "application/pdf", request: request, headers: [
                    .contentDisposition: LibraryServer.attachment((score.path as NSString).lastPathComponent, disposition: "inline"),
                ])
            }
        }
        router.get("/api/scores/:id/cover") { request, context -> Response in
            let (score, path) = try service.score(try LibraryServer.scoreID(context))
            guard let tag = FileVersion.tag(of: path) else { throw HTTPError(.notFound, message: "no score \(score.id)") }
            if FileVersion.matches(ifNoneMatch: request.headers[.ifNoneMatch], tag: tag) {
                return Response(status: .notModified, headers: [.eTag: tag])
            }
            guard let png = await covers.cover(for: path, id: score.id, version: tag) else {
                throw HTTPError(.notFound, message: "no cover for score \(score.id) (pdftoppm from poppler-utils draws them)")
            }
            var response = LibraryServer.bytes(png, type: "image/png", cache: "no-cache")
            response.headers[.eTag] = tag
            return response
        }
        router.get("/api/scores/:id/metadata") { _, context -> Response in
            let (tag, metadata) = try service.metadata(score: try LibraryServer.scoreID(context))
            return try LibraryServer.json(metadata, tag: tag)
        }
        router.put("/api/scores/:id/metadata") { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreMetadata.self, request, limit: maxBody, what: "metadata")
            let (tag, metadata) = try service.setMetadata(score: try LibraryServer.scoreID(context), expected: request.headers[.ifMatch], input)
            return try LibraryServer.json(metadata, tag: tag)
        }
        router.post("/api/scores/:id/pages") { request, context -> Response in
            let tool = try await LibraryServer.decode(ScoreService.PageTool.self, request, limit: maxBody, what: "a page tool")
            let id = try LibraryServer.scoreID(context), expected = request.headers[.ifMatch]
            let (tag, result) = try await service.work.run { try service.applyPageTool(score: id, expected: expected, tool) }
            return try LibraryServer.json(result, tag: tag)
        }
        router.get("/api/scores/:id/4sc") { _, context -> Response in
            let id = try LibraryServer.scoreID(context)
            let (tag, name, bytes) = try await service.work.run { try service.container(score: id) }
            var response = LibraryServer.bytes(Data(bytes), type: "application/octet-stream", cache: "no-cache")
            response.headers[.eTag] = tag
            response.headers[.contentDisposition] = LibraryServer.attachment(name, disposition: "attachment")
            return response
        }
        router.get("/api/scores/:id/undo") { _, context -> Response in
            try LibraryServer.json(UndoState(change: try service.lastChange(score: try LibraryServer.scoreID(context))))
        }
        router.post("/api/scores/:id/undo") { request, context -> Response in
            let undone = try service.undo(score: try LibraryServer.scoreID(context), expected: request.headers[.ifMatch])
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
}
