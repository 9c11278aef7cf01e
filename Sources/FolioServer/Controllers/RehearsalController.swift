import FolioLibrary
import FolioScore
import Foundation
import Logging
import NIOWebSocket
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket

/// Rehearsals: `POST /api/rehearsals` starts one (the leader gets its code and key),
/// `GET /api/rehearsals/{code}` tells where it is, `DELETE` ends it (with the key in
/// `X-Rehearsal-Key`), `/api/rehearsals/{code}/qr.svg` is its join link as a QR code, and
/// `/api/rehearsals/{code}/socket` is the WebSocket every member talks through (see
/// ``RehearsalMessage``). The socket is opened only by a page of this server (its `Origin`
/// must be this server's) and with the server's access, like every other request. The
/// pages: `/rehearse` asks for a code, `/rehearse/{code}` is the follower's.
///
/// ```swift
/// let controller = RehearsalController(rehearsals: server.rehearsals, hosts: options.hosts, maxBody: 1 << 20,
///                                      csrf: token, hasPDFJS: true)
/// controller.addRoutes(to: router, rights: rights)
/// controller.addSocket(to: socketRouter)
/// ```
struct RehearsalController {
    let rehearsals: RehearsalService
    let hosts: AllowedHosts
    let maxBody: Int
    let csrf: String
    let hasPDFJS: Bool

    static let keyHeader = HTTPField.Name("X-Rehearsal-Key")!

    struct Start: Decodable {
        var score: Int64
        var setlist: String?
        var piece: Int?
        var leader: String?
    }

    struct Started: Encodable {
        var code: String
        var key: String
        var join: String
        var qr: String
    }

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        router.get("/rehearse") { request, _ -> Response in
            guard let typed = request.uri.queryParameters.get("code") else {
                return LibraryServer.html(HTMLPage.rehearse(code: nil, error: nil, csrf: csrf, pdfjs: hasPDFJS), csrf: csrf)
            }
            let code = RehearsalService.normalized(typed)
            guard await rehearsals.exists(code: code) else { return notFoundPage(typed) }
            return Response(status: .seeOther, headers: [.location: "/rehearse/\(code)"])
        }
        router.get("/rehearse/:code") { _, context -> Response in
            let typed = try Self.code(context)
            let code = RehearsalService.normalized(typed)
            guard await rehearsals.exists(code: code) else { return notFoundPage(typed) }
            return LibraryServer.html(HTMLPage.rehearse(code: code, error: nil, csrf: csrf, pdfjs: hasPDFJS), csrf: csrf)
        }
        router.on("/api/rehearsals", method: .post, right: .lead, in: rights) { request, context -> Response in
            let start = try await LibraryServer.decode(Start.self, request, limit: maxBody,
                                                       what: "a rehearsal ({\"score\": 12, \"leader\": \"Jana\"})")
            let started = try await rehearsals.start(score: start.score, setlist: start.setlist, piece: start.piece,
                                                     leader: start.leader ?? "Leader", client: context.client.address)
            return try LibraryServer.json(Started(code: started.code, key: started.key, join: started.join,
                                                  qr: "/api/rehearsals/\(started.code)/qr.svg"), status: .created)
        }
        router.get("/api/rehearsals/:code") { _, context -> Response in
            try LibraryServer.json(try await rehearsals.summary(code: try Self.code(context)))
        }
        router.on("/api/rehearsals/:code", method: .delete, right: .lead, in: rights) { request, context -> Response in
            guard let key = request.headers[Self.keyHeader] else {
                throw LibraryError(.invalidArgument, "send the leader's key in X-Rehearsal-Key")
            }
            try await rehearsals.end(code: try Self.code(context), key: key)
            return Response(status: .noContent)
        }
        router.get("/api/rehearsals/:code/qr.svg") { request, context -> Response in
            let code = try Self.code(context)
            guard await rehearsals.exists(code: code) else { throw LibraryError(.notFound, "no rehearsal \(code)") }
            let link = Self.joinLink(code: RehearsalService.normalized(code), request: request, secure: context.client.secure)
            let svg = try QRCode(text: link).svg()
            return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: svg)))
        }
        // A plain GET of the socket's address (no upgrade, or one refused): why.
        router.get("/api/rehearsals/:code/socket") { request, context -> Response in
            _ = try await admit(request, context)
            throw HTTPError(.init(code: 426, reasonPhrase: "Upgrade Required"), message: "this address takes a WebSocket")
        }
    }

    /// The socket, on the router that answers WebSocket upgrades.
    func addSocket(to router: Router<FolioRequestContext>) {
        router.ws("/api/rehearsals/:code/socket") { request, context in
            (try? await admit(request, context)) == nil ? .dontUpgrade : .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let connection = try await admit(context.request, context.requestContext)
            let joined: RehearsalService.Joined
            do throws(LibraryError) { joined = try await rehearsals.connect(connection) } catch {
                try await outbound.write(.text(RehearsalService.json(["type": "refused", "message": error.message])))
                try await outbound.close(.policyViolation, reason: String(error.message.prefix(120)))
                return
            }
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in joined.messages { try await outbound.write(.text(text)) }
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    group.addTask {
                        for try await message in inbound.messages(maxSize: RehearsalMessage.maxBytes) {
                            guard case .text(let text) = message else { continue }
                            let verdict = await rehearsals.receive(code: connection.code, member: connection.member,
                                                                   connection: joined.connection, text: text)
                            if case .close(let reason) = verdict {
                                try await outbound.close(.policyViolation, reason: reason)
                                return
                            }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            } catch {
                context.logger.debug("rehearsal socket closed", metadata: ["error": "\(error)"])
            }
            await rehearsals.disconnect(code: connection.code, member: connection.member, connection: joined.connection)
        }
    }

    private func notFoundPage(_ code: String) -> Response {
        var response = LibraryServer.html(HTMLPage.rehearse(code: nil, error: "There is no rehearsal \(code.prefix(16)) (it may have ended).",
                                                            csrf: csrf, pdfjs: hasPDFJS), csrf: csrf)
        response.status = .notFound
        return response
    }

    /// Whether the socket request may open: the rehearsal exists, the page that opens it is
    /// one of this server's (its `Origin` names the `Host` it was sent to), and it says who
    /// the member is (`member`, `name`; `instrument`; the leader's `key`).
    func admit(_ request: Request, _ context: FolioRequestContext) async throws -> RehearsalService.Connection {
        let code = try Self.code(context)
        guard let origin = request.headers[.origin], let host = Self.authority(request),
              hosts.allows(origin: origin), origin == "http://\(host)" || origin == "https://\(host)" else {
            throw LibraryError(.forbidden, "a rehearsal's socket is opened by a page of this server (Origin refused)")
        }
        guard await rehearsals.exists(code: code) else { throw LibraryError(.notFound, "no rehearsal \(code.prefix(12)) (it may have ended)") }
        let query = request.uri.queryParameters
        guard let member = query.get("member"), RehearsalMember.isValidID(member) else {
            throw LibraryError(.invalidArgument, "member must be 8 to 64 letters, digits, - or _")
        }
        // A member logged in is who they are, playing what they play: nothing to type. As a
        // follower they hold one place however many ids their pages send (their key is the
        // id), and a leaver's grace keeps that one place; a leader keeps the page's id.
        if let known = context.identity?.member {
            let person = "m-" + known.key
            let id = query.get("key") == nil && RehearsalMember.isValidID(person) ? person : member
            return RehearsalService.Connection(code: code, member: id, name: known.name, instrument: known.instrument ?? query.get("instrument"),
                                               key: query.get("key"))
        }
        guard let name = query.get("name") else { throw LibraryError(.invalidArgument, "name is missing") }
        return RehearsalService.Connection(code: code, member: member, name: name, instrument: query.get("instrument"),
                                           key: query.get("key"))
    }

    /// The page a follower opens, as an absolute address on the name the leader's browser used.
    static func joinLink(code: String, request: Request, secure: Bool) -> String {
        let host = authority(request) ?? "localhost"
        return "\(secure ? "https" : "http")://\(host)/rehearse/\(code)"
    }

    /// The name and port the request was sent to (HTTP/1's Host).
    static func authority(_ request: Request) -> String? {
        request.head.authority ?? request.headers[hostField]
    }

    private static let hostField = HTTPField.Name("Host")!

    static func code(_ context: FolioRequestContext) throws -> String {
        guard let code = context.parameters.get("code"), (1...16).contains(code.count) else {
            throw LibraryError(.notFound, "no such rehearsal")
        }
        return code
    }
}
