import FolioLibrary
import Foundation
import HTTPTypes
import Hummingbird

/// `/members` and `/api/members`: the librarian's page and API for the ensemble — the same
/// catalog operations as `folio members`. Adding a member, or asking a new link, answers with
/// the invitation: its token, its absolute link on the name the librarian's browser used, and
/// the link as a QR code (SVG) to show a new member's phone.
///
/// ```swift
/// MembersController(catalog: catalog, csrf: csrf, maxBody: 1 << 20).addRoutes(to: router, rights: rights)
/// ```
struct MembersController {
    let catalog: LibraryCatalog
    let csrf: String
    let maxBody: Int

    /// What adding a member or a new link answers.
    struct Invited: Encodable {
        let member: Member
        let token: String
        let link: String
        let expiresAt: String
        let qr: String
    }

    /// A member's fields as the API takes them; see `MemberSetting`.
    struct Setting: Decodable {
        var name: String?
        var role: String?
        var instrument: String?
        var section: String?

        func setting() throws -> MemberSetting {
            let role = try role.map { name in
                guard let role = MemberRole(rawValue: name) else {
                    throw LibraryError(.invalidArgument, "role \(name) is not one of \(MemberRole.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return role
            }
            return MemberSetting(name: name, role: role, instrument: instrument, section: section)
        }
    }

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        let catalog = catalog, csrf = csrf, maxBody = maxBody
        router.get("/members") { _, _ -> Response in
            try MemberContext.current?.require(.members, to: "manage the members")
            return LibraryServer.html(HTMLPage.members(csrf: csrf), csrf: csrf)
        }
        router.get("/api/members") { _, _ -> Response in
            try MemberContext.current?.require(.members, to: "see the members")
            return try LibraryServer.json(["members": try catalog.members()])
        }
        router.on("/api/members", method: .post, right: .library("manage the members"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(Setting.self, request, limit: maxBody, what: "a member")
            let setting = try input.setting()
            if setting.role != .librarian, try !catalog.hasMembers() {
                throw LibraryError(.invalidArgument, "the first member must be a librarian: someone must manage the others")
            }
            let added = try catalog.addMember(setting)
            return try LibraryServer.json(try Self.invited(added.member, added.invitation, request, context), status: .created)
        }
        router.on("/api/members/:member", method: .patch, right: .library("manage the members"), in: rights) { request, context -> Response in
            let input = try await LibraryServer.decode(Setting.self, request, limit: maxBody, what: "a member's change")
            let member = try catalog.member(id: try Self.id(context))
            return try LibraryServer.json(["member": try catalog.setMember(member.name, try input.setting())])
        }
        router.on("/api/members/:member", method: .delete, right: .library("manage the members"), in: rights) { _, context -> Response in
            let member = try catalog.member(id: try Self.id(context))
            try catalog.removeMember(member.name)
            return Response(status: .noContent)
        }
        router.on("/api/members/:member/invitation", method: .post, right: .library("manage the members"), in: rights) { request, context -> Response in
            let member = try catalog.member(id: try Self.id(context))
            let invited = try catalog.inviteMember(member.name)
            return try LibraryServer.json(try Self.invited(invited.member, invited.invitation, request, context), status: .created)
        }
    }

    static func id(_ context: FolioRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("member", as: Int64.self) else { throw LibraryError(.notFound, "no such member") }
        return id
    }

    static func invited(_ member: Member, _ invitation: LibraryCatalog.Invitation, _ request: Request,
                        _ context: FolioRequestContext) throws -> Invited {
        let host = RehearsalController.authority(request) ?? "localhost"
        let link = "\(context.client.secure ? "https" : "http")://\(host)/invite/\(invitation.token)"
        return Invited(member: member, token: invitation.token, link: link, expiresAt: invitation.expiresAt.formatted(.iso8601),
                       qr: try QRCode(text: link).svg())
    }
}
