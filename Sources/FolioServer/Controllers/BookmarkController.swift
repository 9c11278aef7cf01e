import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// `/api/scores/{id}/contents` and `/bookmarks`: a score's table of contents and
/// bookmarks through the provider chain; bookmarks made from the TOC or by hand, renamed,
/// moved in the custom order, removed. Every answer is the contents after, bookmarks in
/// `?order=` custom or page (the default).
///
/// ```swift
/// BookmarkController(service: server.service, maxBody: 1 << 20).addRoutes(to: router, rights: rights)
/// ```
struct BookmarkController {
    let service: ScoreService
    let maxBody: Int

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/api/scores/:id/contents") { request, context -> Response in
            let (tag, contents) = try service.contents(score: try LibraryServer.scoreID(context), order: try Self.order(request))
            return try LibraryServer.json(contents, tag: tag)
        }
        router.on("/api/scores/:id/bookmarks/from-toc", method: .post, right: .library("change the library"), in: rights) { request, context -> Response in
            let (tag, contents) = try service.bookmarksFromTOC(score: try LibraryServer.scoreID(context), expected: LibraryServer.expected(request))
            return try LibraryServer.json(contents, tag: tag)
        }
        router.on("/api/scores/:id/bookmarks", method: .post, right: .library("change the library"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.NewBookmark.self, request, limit: maxBody, what: "a bookmark")
            let (tag, contents) = try service.addBookmark(score: try LibraryServer.scoreID(context), expected: LibraryServer.expected(request),
                                                          input, order: try Self.order(request))
            return try LibraryServer.json(contents, status: .created, tag: tag)
        }
        router.on("/api/scores/:id/bookmarks/:bookmark", method: .patch, right: .library("change the library"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.BookmarkChange.self, request, limit: maxBody, what: "a bookmark change")
            let (tag, contents) = try service.changeBookmark(score: try LibraryServer.scoreID(context),
                                                             bookmark: try context.parameters.require("bookmark"),
                                                             expected: LibraryServer.expected(request), input, order: try Self.order(request))
            return try LibraryServer.json(contents, tag: tag)
        }
        router.on("/api/scores/:id/bookmarks/:bookmark", method: .delete, right: .library("change the library"), in: rights) { request, context -> Response in
            let (tag, contents) = try service.removeBookmark(score: try LibraryServer.scoreID(context),
                                                              bookmark: try context.parameters.require("bookmark"),
                                                              expected: LibraryServer.expected(request), order: try Self.order(request))
            return try LibraryServer.json(contents, tag: tag)
        }
    }

    /// `?order=`: custom (Nutrient's sort keys) or page (the default).
    static func order(_ request: Request) throws -> BookmarkOrder {
        guard let text = request.uri.queryParameters.get("order") else { return .pageBased }
        guard let order = BookmarkOrder(rawValue: text) else {
            throw LibraryError(.invalidArgument, "order must be custom or page, not \(text)")
        }
        return order
    }
}
