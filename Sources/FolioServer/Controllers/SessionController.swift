import FolioLibrary
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Who is using Folio: `GET /api/session` (the CSRF token, and in a library with members the
/// member logged in and their rights), logging in and out (`POST`/`DELETE /api/session`), the
/// login page (`/login`) and an invitation's page (`/invite/{token}`, `GET`/`POST
/// /api/invitations/{token}`) where a new member sets their password once.
///
/// Wrong passwords are counted per client address (the server's ``LoginThrottle``) and per
/// account (a second one), so guesses against one member from many addresses are slowed and
/// then refused too.
///
/// ```swift
/// SessionController(catalog: catalog, csrf: csrf, members: true, throttle: throttle, accounts: accounts,
///                   passwords: WorkQueue(slots: 1)).addRoutes(to: router, rights: rights)
/// ```
struct SessionController {
    let catalog: LibraryCatalog
    let csrf: String
    /// Whether the library has members (``AccessSecret/members``).
    let members: Bool
    let throttle: LoginThrottle
    /// Wrong passwords per member.
    let accounts: LoginThrottle
    /// Where passwords are hashed and checked (scrypt): a core's worth at most, so that a
    /// flood of logins leaves the other for serving.
    let passwords: WorkQueue

    /// What a request without a session may reach in a library with members: the login and
    /// invitation pages and their API, and the files those pages load.
    static func isPublic(_ path: String) -> Bool {
        if ["/login", "/assets/login.js", "/assets/errors.js", "/assets/folio.css", "/assets/icon-192.png", "/manifest.webmanifest", "/api/session"].contains(path) {
            return true
        }
        for prefix in ["/invite/", "/api/invitations/"] where path.hasPrefix(prefix) {
            return !path.dropFirst(prefix.count).contains("/")
        }
        return false
    }

    struct Login: Decodable {
        let name: String
        let password: String
    }

    struct NewPassword: Decodable {
        let password: String
    }

    /// What `GET /api/session` answers.
    struct Who: Encodable {
        let csrf: String
        /// Whether members log in (else one token or password, or none, opens everything).
        let members: Bool
        let member: Member?
        /// The rights of whoever asks: every right for a musician alone.
        let rights: [String]
        /// The layer a member's marks go into, and the layers of others' marks Folio hides
        /// from them (`MemberLayers`).
        let layer: String?
        let hiddenLayers: [String]
    }

    func addRoutes(to router: Router<FolioRequestContext>, rights: RouteRights) {
        let catalog = catalog, csrf = csrf, members = members, throttle = throttle, accounts = accounts, passwords = passwords
        // Only Folio's own pages can read it: no CORS is granted, and the API refuses requests
        // a browser marks cross-site.
        router.get("/api/session") { _, context -> Response in
            let member = context.identity?.member
            let rights = (member?.role.rights ?? Set(MemberRight.allCases)).map(\.rawValue).sorted()
            let hidden = try member.map { MemberLayers.hidden(for: $0, among: try catalog.members()).sorted() } ?? []
            return Self.withCSRF(try LibraryServer.json(Who(csrf: csrf, members: members, member: member, rights: rights,
                                                            layer: member.flatMap(MemberLayers.layer(for:))?.name, hiddenLayers: hidden)), csrf)
        }
        router.get("/login") { request, _ -> Response in
            LibraryServer.html(HTMLPage.login(next: Self.next(request.uri.queryParameters.get("next")), members: members, csrf: csrf), csrf: csrf)
        }
        router.on("/api/session", method: .post, right: .open, in: rights) { request, context -> Response in
            guard members else { throw LibraryError(.notFound, "this library has no members to log in as (folio members add)") }
            let login = try await LibraryServer.decode(Login.self, request, limit: 16 << 10, what: "a name and a password")
            let client = context.client.address, account = "account:" + LibraryCatalog.nameKey(login.name)
            try Self.refuseGuessing(client, throttle: throttle)
            // A member's lockout holds against addresses that have not proven themselves: the
            // guesses of one cannot lock the member out of the devices they use.
            if !throttle.isProven(client), let wait = accounts.banned(account) {
                throw AccessGate.tooMany(wait, "too many wrong passwords for this member")
            }
            let (name, password) = (login.name, login.password)
            guard let session = try await passwords.run({ try catalog.logIn(name: name, password: password) }) else {
                let verdicts = [throttle.failed(client), accounts.failed(account)]
                context.logger.warning("wrong member name or password from \(client)", metadata: ["failures": "\(verdicts[0].failures)"])
                if let delay = verdicts.map(\.delay).max(), delay > .zero { try? await Task.sleep(for: delay) }
                throw HTTPError(.unauthorized, message: "wrong name or password")
            }
            throttle.succeeded(client)
            accounts.succeeded(account)
            return Self.opening(session, try LibraryServer.json(["member": session.member]))
        }
        router.on("/api/session", method: .delete, right: .open, in: rights) { request, _ -> Response in
            if let token = request.cookies[Secret.sessionCookie]?.value { try catalog.endSession(token) }
            var response = Response(status: .noContent)
            response.setCookie(Cookie(name: Secret.sessionCookie, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        router.get("/invite/:token") { _, context -> Response in
            let token = try context.parameters.require("token")
            let member: Member?, problem: String?
            do { (member, problem) = (try catalog.invitedMember(token), nil) } catch let error as LibraryError {
                (member, problem) = (nil, error.message)
            }
            return LibraryServer.html(HTMLPage.invitation(token: token, member: member, problem: problem, csrf: csrf), csrf: csrf)
        }
        router.get("/api/invitations/:token") { _, context -> Response in
            let token = try context.parameters.require("token")
            try Self.refuseGuessing(context.client.address, throttle: throttle)
            let member = try await Self.counted(context, throttle: throttle) { try catalog.invitedMember(token) }
            return try LibraryServer.json(["member": member])
        }
        // The token is looked up (its form first) before anything is hashed, and a wrong one
        // counts as a wrong password does: guessing tokens costs the guesser, not the server.
        router.on("/api/invitations/:token", method: .post, right: .open, in: rights) { request, context -> Response in
            let token = try context.parameters.require("token")
            try Self.refuseGuessing(context.client.address, throttle: throttle)
            let input = try await LibraryServer.decode(NewPassword.self, request, limit: 16 << 10, what: "a password")
            _ = try await Self.counted(context, throttle: throttle) { try catalog.invitedMember(token) }
            let session = try await passwords.run { try catalog.redeemInvitation(token, password: input.password) }
            context.logger.notice("\(session.member.name) set their password through an invitation")
            return Self.opening(session, try LibraryServer.json(["member": session.member]))
        }
    }

    /// 429 when `client` is banned, or guessing is paused and it has not proven itself.
    static func refuseGuessing(_ client: String, throttle: LoginThrottle) throws {
        if let wait = throttle.banned(client) { throw AccessGate.tooMany(wait, "too many wrong passwords or tokens from \(client)") }
        if let wait = throttle.guessingPaused(client) { throw AccessGate.tooMany(wait, "too many wrong passwords from many addresses") }
    }

    /// `body`'s answer; an invitation that is not there, used or expired counts as a wrong
    /// guess from the client (slowed as wrong passwords are) before its refusal goes out.
    static func counted<T>(_ context: FolioRequestContext, throttle: LoginThrottle, _ body: () throws -> T) async throws -> T {
        do { return try body() } catch let error as LibraryError where [.notFound, .forbidden].contains(error.code) {
            let verdict = throttle.failed(context.client.address)
            context.logger.warning("unknown or spent invitation from \(context.client.address)", metadata: ["failures": "\(verdict.failures)"])
            if verdict.delay > .zero { try? await Task.sleep(for: verdict.delay) }
            throw error
        }
    }

    /// `response` with the session's cookie (HttpOnly, SameSite=Strict, until the session ends).
    static func opening(_ session: LibraryCatalog.Session, _ response: Response) -> Response {
        var response = response
        response.setCookie(Cookie(name: Secret.sessionCookie, value: session.token, expires: session.expiresAt,
                                  path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    static func withCSRF(_ response: Response, _ csrf: String) -> Response {
        var response = response
        response.setCookie(Cookie(name: Secret.csrfCookie, value: csrf, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    /// Where to go after logging in: a path on this server, else the library.
    static func next(_ given: String?) -> String {
        guard let given, given.hasPrefix("/"), given.count <= 2_048 else { return "/" }
        return AccessGate.onSite(given)
    }
}
