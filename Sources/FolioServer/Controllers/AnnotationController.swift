import FolioLibrary
import FolioScore
import Foundation
import Hummingbird

/// `/api/scores/{id}/annotations`: listing a page's marks (and links, with where they lead),
/// adding, changing and removing one; `/links`: adding a jump link.
///
/// ```swift
/// AnnotationController(service: server.service, maxBody: 1 << 20).addRoutes(to: router, rights: rights)
/// ```
struct AnnotationController {
    let service: ScoreService
    let maxBody: Int

    /// What listing a page's marks answers: the marks the asker may see, and the names of the
    /// file's layers they do not (another member's own, another section's).
    struct Listing: Encodable {
        let annotations: [ScoreService.Annotation]
        let hiddenLayers: [String]
    }

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/api/scores/:id/annotations") { request, context -> Response in
            let page = try LibraryServer.integer("page", request, in: 1...Int.max)
            let (tag, list, hidden) = try service.annotations(score: try LibraryServer.scoreID(context), page: page)
            return try LibraryServer.json(Listing(annotations: list, hiddenLayers: hidden), tag: tag)
        }
        router.on("/api/scores/:id/annotations", method: .post, right: .markOwn, in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.NewAnnotation.self, request, limit: maxBody, what: "an annotation")
            let added = try service.addAnnotation(score: try LibraryServer.scoreID(context), expected: request.headers[.ifMatch], input)
            return try LibraryServer.json(["id": added.id], status: .created, tag: added.tag)
        }
        router.on("/api/scores/:id/links", method: .post, right: .library("change the library"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.NewLink.self, request, limit: maxBody, what: "a link")
            let added = try service.addLink(score: try LibraryServer.scoreID(context), expected: request.headers[.ifMatch], input)
            return try LibraryServer.json(["id": added.id], status: .created, tag: added.tag)
        }
        router.on("/api/scores/:id/annotations/:annotation", method: .patch, right: .markOwn, in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.AnnotationChange.self, request, limit: maxBody, what: "an annotation change")
            let tag = try service.editAnnotation(score: try LibraryServer.scoreID(context), annotation: try context.parameters.require("annotation"),
                                                 expected: request.headers[.ifMatch], input)
            return Response(status: .noContent, headers: [.eTag: tag])
        }
        router.on("/api/scores/:id/annotations/:annotation", method: .delete, right: .markOwn, in: rights) { request, context -> Response in
            let tag = try service.removeAnnotation(score: try LibraryServer.scoreID(context),
                                                   annotation: try context.parameters.require("annotation"),
                                                   expected: request.headers[.ifMatch])
            return Response(status: .noContent, headers: [.eTag: tag])
        }
    }
}
