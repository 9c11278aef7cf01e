import FolioLibrary
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// What a route that changes something (POST, PUT, PATCH, DELETE) asks of a member in a library
/// with members, declared by the controller where it registers the route
/// (`router.on("/api/stamps", method: .post, right: .library("change the library's stamps"), in: rights)`).
enum RouteRight: Sendable, Equatable {
    /// Nothing: logging in and out, accepting an invitation.
    case open
    /// ``MemberRight/library``, and what the change does, named in a refusal.
    case library(String)
    /// ``MemberRight/markOwn``: the edit path then checks the mark or change is theirs.
    case markOwn
    /// ``MemberRight/lead``: leading a rehearsal.
    case lead

    /// The right needed and the action a refusal names; nil for ``open``.
    var requirement: (right: MemberRight, action: String)? {
        switch self {
        case .open: nil
        case .library(let action): (.library, action)
        case .markOwn: (.markOwn, "mark a score")
        case .lead: (.lead, "lead a rehearsal")
        }
    }

    /// The name of the right, as the OpenAPI document's `x-folio-right` writes it.
    var documented: String { requirement?.right.rawValue ?? "none" }
}

/// The table of rights, keyed by the router's own routes (method and path as the router
/// writes it, `POST /api/scores/{id}/annotations`): filled as the controllers register their
/// routes, read by ``MemberRights`` for each request by the route the router matched.
final class RouteRights: Sendable {
    private let table = Mutex<[String: RouteRight]>([:])

    static func key(_ method: HTTPRequest.Method, _ path: String) -> String { "\(method.rawValue) \(path)" }

    func declare(_ method: HTTPRequest.Method, _ path: RouterPath, _ right: RouteRight) {
        table.withLock { $0[Self.key(method, path.description)] = right }
    }

    /// The right declared for a route; nil for a route registered without one.
    func right(_ method: HTTPRequest.Method, _ path: String) -> RouteRight? {
        table.withLock { $0[Self.key(method, path)] }
    }

    /// Every declared route, as `METHOD /path` keys.
    var declared: [String: RouteRight] { table.withLock { $0 } }
}

extension Router where Context == FolioRequestContext {
    /// Registers a route that changes something (POST, PUT, PATCH, DELETE) with the right it asks
    /// of a member (see ``RouteRight``).
    @discardableResult
    func on(_ path: RouterPath, method: HTTPRequest.Method, right: RouteRight, in rights: RouteRights,
            use handler: @escaping @Sendable (Request, Context) async throws -> Response) -> Self {
        rights.declare(method, path, right)
        return on(path, method: method, use: handler)
    }
}

/// In a library with members: makes the logged-in member the one acting for the request
/// (`MemberContext`, which the edit path checks and names as the author), and refuses with 403
/// any change whose right their role lacks before any work. The right is the one the route's
/// controller declared (``RouteRights``), found by the route the router matched; a change by a
/// route registered without one is the library's (``MemberRight/library``), so a route added
/// without a right is closed to players, and `MemberRightsTests` fails on it.
struct MemberRights: RouterMiddleware {
    typealias Context = FolioRequestContext
    let rights: RouteRights

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let member = context.identity?.member
        if let member, let (right, action) = requirement(request.method, route: context.endpointPath) {
            try member.require(right, to: action)
        }
        return try await MemberContext.$current.withValue(member) { try await next(request, context) }
    }

    /// The right a request by `method` to the matched `route` needs and what it does (for the
    /// refusal), or nil when it changes nothing or needs none.
    func requirement(_ method: HTTPRequest.Method, route: String?) -> (MemberRight, String)? {
        guard [.post, .put, .patch, .delete].contains(method) else { return nil }
        guard let route, let right = rights.right(method, route) else { return (.library, "change the library") }
        return right.requirement
    }
}
