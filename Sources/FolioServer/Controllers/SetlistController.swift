import FolioLibrary
import Foundation
import Hummingbird

/// The setlist pages and `/api/setlists`: the builder, performance mode, entries added,
/// moved, noted and removed, 4SS and PDF downloads.
///
/// ```swift
/// SetlistController(setlists: server.setlists, csrf: token, maxBody: 1 << 20, hasPDFJS: true).addRoutes(to: router, rights: rights)
/// ```
struct SetlistController {
    let setlists: SetlistService
    let csrf: String
    let maxBody: Int
    let hasPDFJS: Bool

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/setlists") { _, _ -> Response in
            LibraryServer.html(HTMLPage.setlists(try setlists.list(), csrf: csrf), csrf: csrf)
        }
        router.get("/setlists/:name") { _, context -> Response in
            let (_, shown) = try setlists.show(try Self.setlistName(context))
            return LibraryServer.html(HTMLPage.setlist(shown, csrf: csrf), csrf: csrf)
        }
        router.get("/setlists/:name/perform") { _, context -> Response in
            let (_, shown) = try setlists.show(try Self.setlistName(context))
            return LibraryServer.html(HTMLPage.perform(shown, csrf: csrf, pdfjs: hasPDFJS), csrf: csrf)
        }
        router.get("/api/setlists") { _, _ -> Response in
            try LibraryServer.json(["setlists": setlists.list().map { SetlistItem(name: $0.name, folder: $0.folder, count: $0.count) }])
        }
        router.on("/api/setlists", method: .post, right: .library("change setlists"), in: rights) { request, _ -> Response in
            let input = try await LibraryServer.decode(NewSetlist.self, request, limit: maxBody, what: "a setlist ({\"name\": …})")
            let (tag, shown) = try setlists.create(input.name)
            return try LibraryServer.json(shown, status: .created, tag: tag)
        }
        router.get("/api/setlists/:name") { _, context -> Response in
            let (tag, shown) = try setlists.show(try Self.setlistName(context))
            return try LibraryServer.json(shown, tag: tag)
        }
        router.on("/api/setlists/:name", method: .delete, right: .library("change setlists"), in: rights) { request, context -> Response in
            try setlists.delete(try Self.setlistName(context), expected: LibraryServer.expected(request))
            return Response(status: .noContent)
        }
        router.on("/api/setlists/:name/entries", method: .post, right: .library("change setlists"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(SetlistService.NewEntry.self, request, limit: maxBody, what: "a setlist entry")
            let (tag, shown) = try setlists.add(to: try Self.setlistName(context), expected: LibraryServer.expected(request), input)
            return try LibraryServer.json(shown, tag: tag)
        }
        router.on("/api/setlists/:name/move", method: .post, right: .library("change setlists"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(Move.self, request, limit: maxBody, what: "a move ({\"from\": 1, \"to\": 2})")
            let (tag, shown) = try setlists.move(in: try Self.setlistName(context), expected: LibraryServer.expected(request),
                                                 from: input.from, to: input.to)
            return try LibraryServer.json(shown, tag: tag)
        }
        router.on("/api/setlists/:name/entries/:position", method: .delete, right: .library("change setlists"), in: rights) { request, context -> Response in
            guard let position = context.parameters.get("position", as: Int.self) else { throw LibraryError(.notFound, "no such entry") }
            let (tag, shown) = try setlists.remove(from: try Self.setlistName(context), expected: LibraryServer.expected(request),
                                                   position: position)
            return try LibraryServer.json(shown, tag: tag)
        }
        router.on("/api/setlists/:name/entries/:position/note", method: .put, right: .library("change setlists"), in: rights) { request, context -> Response in
            guard let position = context.parameters.get("position", as: Int.self) else { throw LibraryError(.notFound, "no such entry") }
            let input = try await LibraryServer.decode(Note.self, request, limit: maxBody, what: "a note ({\"note\": \"attacca\"})")
            let (tag, shown) = try setlists.note(in: try Self.setlistName(context), expected: LibraryServer.expected(request),
                                                 position: position, note: input.note)
            return try LibraryServer.json(shown, tag: tag)
        }
        router.get("/api/setlists/:name/4ss") { _, context -> Response in
            let name = try Self.setlistName(context)
            var response = LibraryServer.bytes(Data(try setlists.openSetlist(name)), type: "application/xml", cache: "no-store")
            response.headers[.contentDisposition] = LibraryServer.attachment(name + ".4ss")
            return response
        }
        router.get("/api/setlists/:name/pdf") { request, context -> Response in
            let name = try Self.setlistName(context)
            let merged = try await setlists.work.run { try setlists.pdf(name) }
            var response = LibraryServer.bytes(Data(merged.bytes), type: "application/pdf", cache: "no-store")
            let disposition = request.uri.queryParameters.get("download") == nil ? "inline" : "attachment"
            response.headers[.contentDisposition] = LibraryServer.attachment(name + ".pdf", disposition: disposition)
            return response
        }
    }

    struct NewSetlist: Decodable { let name: String }
    struct Move: Decodable { let from: Int; let to: Int }
    struct Note: Decodable { let note: String? }
    struct SetlistItem: Encodable { let name: String; let folder: String?; let count: Int }

    /// A setlist's name from the path, percent-decoded (names hold spaces, slashes, accents).
    static func setlistName(_ context: FolioRequestContext) throws -> String {
        guard let raw = context.parameters.get("name"), let name = raw.removingPercentEncoding, !name.isEmpty else {
            throw LibraryError(.notFound, "no such setlist")
        }
        return name
    }
}
