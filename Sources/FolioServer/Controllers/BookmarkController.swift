import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// `/api/scores/{id}/contents` and `/bookmarks`: a score's table of contents and
/// bookmarks through the provider chain, bookmarks made from the TOC, one removed.
///
/// ```swift
/// BookmarkController(service: server.service).addRoutes(to: router)
/// ```
struct BookmarkController {
    let service: ScoreService

    func addRoutes(to router: Router<FolioRequestContext>) {
        router.get("/api/scores/:id/contents") { _, context -> Response in
            let (tag, contents) = try service.contents(score: try LibraryServer.scoreID(context))
            return try LibraryServer.json(contents, tag: tag)
        }
        router.post("/api/scores/:id/bookmarks/from-toc") { request, context -> Response in
            let (tag, contents) = try service.bookmarksFromTOC(score: try LibraryServer.scoreID(context), expected: request.headers[.ifMatch])
            return try LibraryServer.json(contents, tag: tag)
        }
        router.delete("/api/scores/:id/bookmarks/:bookmark") { request, context -> Response in
            let (tag, contents) = try service.removeBookmark(score: try LibraryServer.scoreID(context),
                                                              bookmark: try context.parameters.require("bookmark"),
                                                              expected: request.headers[.ifMatch])
            return try LibraryServer.json(contents, tag: tag)
        }
    }
}
