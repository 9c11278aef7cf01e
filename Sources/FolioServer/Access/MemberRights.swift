import FolioLibrary
import Foundation
import HTTPTypes
import Hummingbird

/// In a library with members: makes the logged-in member the one acting for the request
/// (`MemberContext`, which the edit path checks and names as the author), and refuses with 403
/// any change whose right their role lacks before any work. Changes are the library's
/// (``MemberRight/library``) unless this table says otherwise, so a route added later is
/// closed to players until it is listed:
///
/// | request | right |
/// | --- | --- |
/// | `POST /api/scores/{id}/annotations`, `PATCH`/`DELETE …/annotations/{mark}`, `POST …/undo`, `POST …/changes/{change}/undo` | ``MemberRight/markOwn`` (the edit path checks the mark or change is theirs) |
/// | `POST /api/rehearsals`, `DELETE /api/rehearsals/{code}` | ``MemberRight/lead`` |
/// | `POST`/`DELETE /api/session`, `POST /api/invitations/{token}` | none (logging in and out) |
/// | any other `POST`, `PUT`, `PATCH`, `DELETE` | ``MemberRight/library`` |
struct MemberRights: RouterMiddleware {
    typealias Context = FolioRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let member = context.identity?.member
        if let member, let (right, action) = Self.right(request.method, request.uri.path) {
            try member.require(right, to: action)
        }
        return try await MemberContext.$current.withValue(member) { try await next(request, context) }
    }

    /// The right a request needs and what it does (for the refusal), or nil when it changes
    /// nothing or needs none.
    static func right(_ method: HTTPRequest.Method, _ path: String) -> (MemberRight, String)? {
        guard [.post, .put, .patch, .delete].contains(method) else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch (method, parts.count, parts.first, parts.count > 1 ? parts[1] : "") {
        case (.post, 2, "api", "session"), (.delete, 2, "api", "session"), (.post, 3, "api", "invitations"):
            return nil
        case (.post, 2, "api", "rehearsals"), (.delete, 3, "api", "rehearsals"):
            return (.lead, "lead a rehearsal")
        default:
            break
        }
        if parts.count >= 4, parts[0] == "api", parts[1] == "scores" {
            switch (method, parts.count, parts[3]) {
            case (.post, 4, "annotations"), (.patch, 5, "annotations"), (.delete, 5, "annotations"), (.post, 4, "undo"),
                 (.post, 6, "changes") where parts[5] == "undo":
                return (.markOwn, "mark a score")
            default:
                break
            }
        }
        return (.library, Self.action(method, parts))
    }

    /// What a library change is called in a refusal ("change the library (PUT /api/scores/7/metadata)").
    private static func action(_ method: HTTPRequest.Method, _ parts: [String]) -> String {
        let what: String
        switch (method, parts.count >= 2 ? parts[1] : "") {
        case (.delete, "scores") where parts.count == 3: what = "delete a score"
        case (_, "uploads"), (_, "drops"): what = "add scores to the library"
        case (_, "setlists"): what = "change setlists"
        case (_, "members"): what = "manage the members"
        case (_, "stamps"): what = "change the library's stamps"
        default: what = "change the library"
        }
        return what
    }
}
