import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// `/api/uploads`: a dropped file streamed to the spool, then taken in as forScore would
/// (a score, a setlist, an archive, metadata or bookmarks; see `LibraryIntake`).
///
/// ```swift
/// UploadController(service: server.service, spool: server.spool, maxUpload: 256 << 20).addRoutes(to: router)
/// ```
struct UploadController {
    let service: ScoreService
    let spool: UploadSpool
    let maxUpload: Int

    func addRoutes(to router: Router<FolioRequestContext>) {
        router.post("/api/uploads") { request, _ -> Response in
            guard let name = request.uri.queryParameters.get("name") else {
                throw HTTPError(.badRequest, message: "name is missing: the received file's name")
            }
            var openIn: Data?
            if let encoded = request.uri.queryParameters.get("openin") {
                guard encoded.count <= 4 * OpenInDictionary.maxBytes / 3 + 4, let data = LibraryServer.base64URL(encoded) else {
                    throw HTTPError(.badRequest, message: "openin must be the Open In dictionary in base64url, at most \(OpenInDictionary.maxBytes) bytes")
                }
                openIn = data
            }
            let apply = request.uri.queryParameters.get("apply").map { $0 == "1" || $0 == "true" } ?? false
            var target: Int64?
            if let value = request.uri.queryParameters.get("score") {
                guard let id = Int64(value), id > 0 else { throw HTTPError(.badRequest, message: "score must be a score's id (1 or more)") }
                target = id
            }
            let file = try await spool.receive(request.body, limit: maxUpload)
            defer { spool.discard(file) }
            let dictionary = openIn, score = target
            let added = try await service.work.run { try service.upload(name: name, file: file, openIn: dictionary, apply: apply, target: score) }
            return try LibraryServer.json(added, status: added.applied ? .created : .ok)
        }
    }
}
