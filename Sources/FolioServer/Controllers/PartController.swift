import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// Parts: `/api/scores/{id}/parts` (the piece a score belongs to, with all its files),
/// `/api/scores/{id}/part` (a label set by hand) and `/api/instruments` (what a player picks).
///
/// ```swift
/// PartController(parts: server.parts, maxBody: 1 << 20).addRoutes(to: router)
/// ```
struct PartController {
    let parts: PartService
    let maxBody: Int

    func addRoutes(to router: Router<FolioRequestContext>) {
        router.get("/api/instruments") { _, _ -> Response in
            try LibraryServer.json(try parts.instruments())
        }
        router.get("/api/scores/:id/parts") { _, context -> Response in
            try LibraryServer.json(try parts.piece(score: try LibraryServer.scoreID(context)))
        }
        router.put("/api/scores/:id/part") { request, context -> Response in
            let label = try await LibraryServer.decode(PartService.Label.self, request, limit: maxBody,
                                                       what: "a part label ({\"label\": \"Trumpet in Bb\", \"song\": null})")
            return try LibraryServer.json(try parts.set(score: try LibraryServer.scoreID(context), label))
        }
    }
}
