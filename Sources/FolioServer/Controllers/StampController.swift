import FolioLibrary
import Foundation
import Hummingbird

/// `/api/stamps`: the user's own stamps (PNG or JPEG images) kept in the library — listed,
/// uploaded once under a name, shown, removed — for the Stamp tool to place
/// (`POST /api/scores/{id}/annotations` with `"image": NAME`).
///
/// ```swift
/// StampController(service: server.service, maxUpload: 32 << 20).addRoutes(to: router, rights: rights)
/// ```
struct StampController {
    let service: ScoreService
    let maxUpload: Int

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/api/stamps") { _, _ -> Response in
            try LibraryServer.json(Stamps(stamps: try service.stamps.list()))
        }
        router.on("/api/stamps", method: .post, right: .library("change the library's stamps"), in: rights) { request, _ -> Response in
            guard let name = request.uri.queryParameters.get("name") else {
                throw LibraryError(.invalidArgument, "name is missing: the stamp's name")
            }
            var request = request
            let body = try await request.collectBody(upTo: maxUpload)
            let stamp = try service.stamps.add(name: name, bytes: Array(buffer: body))
            return try LibraryServer.json(stamp, status: .created)
        }
        router.get("/api/stamps/:name") { _, context -> Response in
            let image = try service.stamps.image(of: try Self.name(context))
            return LibraryServer.bytes(Data(image.bytes), type: "image/\(image.format)", cache: "no-cache")
        }
        router.on("/api/stamps/:name", method: .delete, right: .library("change the library's stamps"), in: rights) { _, context -> Response in
            try service.stamps.remove(try Self.name(context))
            return Response(status: .noContent)
        }
    }

    /// The stamp's name from the path, percent-decoded.
    static func name(_ context: FolioRequestContext) throws -> String {
        let raw = try context.parameters.require("name")
        return raw.removingPercentEncoding ?? raw
    }

    /// The list answered.
    struct Stamps: Encodable {
        let stamps: [StampLibrary.Stamp]
    }
}
