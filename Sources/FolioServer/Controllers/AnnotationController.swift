import FolioLibrary
import FolioScore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/api/scores/{id}/annotations`: listing a page's marks (and links, with where they lead),
/// adding, changing and removing one; `/links`: adding a jump link.
///
/// ```swift
/// AnnotationController(service: server.service, maxBody: 1 << 20).addRoutes(to: router, rights: rights)
/// ```
struct AnnotationController {
    let service: ScoreService
    let maxBody: Int
    /// A page's marks as sent, by score, page and tag (the tag names the file's version and
    /// what the asker is not shown): written once per version and view, however many ask.
    let listings = BoundedCache<String, ByteBuffer>(count: 512, cost: 32 << 20)

    /// What listing a page's marks answers: the marks the asker may see, and the names of the
    /// file's layers they do not (another member's own, another section's).
    struct Listing: Encodable {
        let annotations: [ScoreService.Annotation]
        let hiddenLayers: [String]
    }

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/api/scores/:id/annotations") { request, context -> Response in
            let page = try LibraryServer.integer("page", request, in: 1...Int.max)
            let id = try LibraryServer.scoreID(context)
            let (tag, list, hidden) = try service.annotations(score: id, page: page)
            // Kept by the browser and asked for again with its tag: unchanged, 304 and no body.
            // (The tag names what is kept from the asker, so another's view is never 304.)
            let headers: HTTPFields = [.eTag: tag, .cacheControl: "private, no-cache"]
            if FileVersion.matches(ifNoneMatch: request.headers[.ifNoneMatch], tag: tag) {
                return Response(status: .notModified, headers: headers)
            }
            let key = "\(id)|\(page.map(String.init) ?? "all")|\(tag)"
            let body = try listings.value(for: key) ?? {
                let body = ByteBuffer(bytes: try JSONCoding.data(Listing(annotations: list, hiddenLayers: hidden)))
                listings.insert(body, for: key, cost: body.readableBytes)
                return body
            }()
            var response = Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
            response.headers[.contentType] = "application/json"
            return response
        }
        router.on("/api/scores/:id/annotations", method: .post, right: .markOwn, in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.NewAnnotation.self, request, limit: maxBody, what: "an annotation")
            let added = try service.addAnnotation(score: try LibraryServer.scoreID(context), expected: LibraryServer.expected(request), input)
            return try LibraryServer.json(["id": added.id], status: .created, tag: added.tag)
        }
        router.on("/api/scores/:id/links", method: .post, right: .library("change the library"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.NewLink.self, request, limit: maxBody, what: "a link")
            let added = try service.addLink(score: try LibraryServer.scoreID(context), expected: LibraryServer.expected(request), input)
            return try LibraryServer.json(["id": added.id], status: .created, tag: added.tag)
        }
        router.on("/api/scores/:id/annotations/:annotation", method: .patch, right: .markOwn, in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(ScoreService.AnnotationChange.self, request, limit: maxBody, what: "an annotation change")
            let tag = try service.editAnnotation(score: try LibraryServer.scoreID(context), annotation: try context.parameters.require("annotation"),
                                                 expected: LibraryServer.expected(request), input)
            return Response(status: .noContent, headers: [.eTag: tag])
        }
        router.on("/api/scores/:id/annotations/:annotation", method: .delete, right: .markOwn, in: rights) { request, context -> Response in
            let tag = try service.removeAnnotation(score: try LibraryServer.scoreID(context),
                                                   annotation: try context.parameters.require("annotation"),
                                                   expected: LibraryServer.expected(request))
            return Response(status: .noContent, headers: [.eTag: tag])
        }
    }
}
