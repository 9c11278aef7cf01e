import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// Parts: `/api/scores/{id}/parts` (the piece a score belongs to, with all its files),
/// `/api/scores/{id}/part` (a label set by hand), `/api/instruments` (what a player picks), and
/// "my parts" (`/parts/mine`, `/api/parts/mine`: a player's part of every piece).
///
/// ```swift
/// PartController(parts: server.parts, csrf: csrf, maxBody: 1 << 20).addRoutes(to: router, rights: rights)
/// ```
struct PartController {
    let parts: PartService
    let csrf: String
    let maxBody: Int

    /// What `/api/parts/mine` answers.
    struct Mine: Encodable {
        let instrument: String?
        let parts: [PlayerPart]
    }

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/api/parts/mine") { request, _ -> Response in
            let mine = try parts.mine(instrument: request.uri.queryParameters.get("instrument"))
            return try LibraryServer.json(Mine(instrument: mine.instrument, parts: mine.parts))
        }
        router.get("/parts/mine") { request, _ -> Response in
            let mine = try parts.mine(instrument: request.uri.queryParameters.get("instrument"))
            return LibraryServer.html(HTMLPage.myParts(instrument: mine.instrument, parts: mine.parts, csrf: csrf), csrf: csrf)
        }
        router.get("/api/instruments") { _, _ -> Response in
            try LibraryServer.json(try parts.instruments())
        }
        router.get("/api/scores/:id/parts") { _, context -> Response in
            try LibraryServer.json(try parts.piece(score: try LibraryServer.scoreID(context)))
        }
        router.on("/api/scores/:id/part", method: .put, right: .library("change the library"), in: rights) { request, context -> Response in
            let label = try await LibraryServer.decode(PartService.Label.self, request, limit: maxBody,
                                                       what: "a part label ({\"label\": \"Trumpet in Bb\", \"song\": null})")
            return try LibraryServer.json(try parts.set(score: try LibraryServer.scoreID(context), label))
        }
    }
}
