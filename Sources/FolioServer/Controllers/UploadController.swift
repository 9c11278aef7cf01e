import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// `/api/uploads`: a dropped file streamed to the spool, then taken in as forScore would
/// (a score, a setlist, an archive, metadata or bookmarks; see `LibraryIntake`) — or, with
/// `drop`, staged with the other files of a drop, which `POST /api/drops/{drop}` takes in
/// together (see ``UploadDrops``).
///
/// ```swift
/// UploadController(service: server.service, spool: server.spool, drops: server.drops, maxUpload: 256 << 20).addRoutes(to: router, rights: rights)
/// ```
struct UploadController {
    let service: ScoreService
    let spool: UploadSpool
    let drops: UploadDrops
    let maxUpload: Int

    /// One file's outcome in a drop: the intake as `POST /api/uploads` answers it, or the
    /// failure with the status a lone upload would have had.
    struct DropResult: Encodable {
        var index: Int
        var name: String
        var status: Int
        var intake: ScoreService.Intake?
        var error: String?
    }

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.on("/api/uploads", method: .post, right: .library("add scores to the library"), in: rights) { request, context -> Response in
            guard let name = request.uri.queryParameters.get("name") else {
                throw LibraryError(.invalidArgument, "name is missing: the received file's name")
            }
            var openIn: Data?
            if let encoded = request.uri.queryParameters.get("openin") {
                guard encoded.count <= 4 * OpenInDictionary.maxBytes / 3 + 4, let data = LibraryServer.base64URL(encoded) else {
                    throw LibraryError(.invalidArgument, "openin must be the Open In dictionary in base64url, at most \(OpenInDictionary.maxBytes) bytes")
                }
                openIn = data
            }
            let apply = request.uri.queryParameters.get("apply").map { $0 == "1" || $0 == "true" } ?? false
            var target: Int64?
            if let value = request.uri.queryParameters.get("score") {
                guard let id = Int64(value), id > 0 else { throw LibraryError(.invalidArgument, "score must be a score's id (1 or more)") }
                target = id
            }
            if let drop = request.uri.queryParameters.get("drop") {
                guard openIn == nil, !apply, target == nil else {
                    throw LibraryError(.invalidArgument, "a file staged in a drop takes no openin, apply or score")
                }
                let staged = try ScoreService.receivedName(name)
                guard UploadDrops.isValidID(drop) else {
                    throw LibraryError(.invalidArgument, "drop must be 16 to 64 letters, digits and dashes")
                }
                let file = try await spool.receive(request.body, limit: maxUpload, client: context.client.address)
                defer { spool.discard(file) }
                let index = try await drops.stage(file: file, name: staged, drop: drop, client: context.client.address)
                return try LibraryServer.json(["index": index], status: .accepted)
            }
            let file = try await spool.receive(request.body, limit: maxUpload, client: context.client.address)
            defer { spool.discard(file) }
            let dictionary = openIn, score = target
            let added = try await service.work.run { try service.upload(name: name, file: file, openIn: dictionary, apply: apply, target: score) }
            return try LibraryServer.json(added, status: added.applied ? .created : .ok)
        }
        router.on("/api/drops/:drop", method: .post, right: .library("add scores to the library"), in: rights) { _, context -> Response in
            let id = try context.parameters.require("drop")
            let files = try await drops.take(id)
            let outcomes: [ScoreService.DropOutcome]
            do {
                outcomes = try await service.work.run { service.takeDrop(files) }
            } catch {
                // Busy: the drop waits to be asked for again (503 with Retry-After).
                await drops.restore(id, files: files, client: context.client.address)
                throw error
            }
            drops.finish(id)
            let results = outcomes.map { taken -> DropResult in
                switch taken.outcome {
                case .success(let intake):
                    return DropResult(index: taken.index, name: taken.name, status: intake.applied ? 201 : 200, intake: intake)
                case .failure(let error):
                    let failure = error as? any Failure
                    let status = failure.map { ErrorStatus.status(of: $0.kind) } ?? .internalServerError
                    return DropResult(index: taken.index, name: taken.name, status: status.code,
                                      error: failure?.message ?? "\(taken.name): the server failed to take it in")
                }
            }
            return try LibraryServer.json(["results": results])
        }
    }
}
