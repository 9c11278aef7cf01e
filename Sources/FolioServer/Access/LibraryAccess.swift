import FolioLibrary
import Foundation
import Logging
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import HummingbirdAuth
import NIOCore

/// The request context of every route: Hummingbird's, plus how the request was let in
/// (hummingbird-auth's identity), which stays nil on loopback where nothing is asked.
///
/// ```swift
/// let router = Router(context: FolioRequestContext.self)
/// router.get("/proof") { _, context in "\(context.identity?.proof == .password)" }
/// ```
public struct FolioRequestContext: AuthRequestContext, RequestContext, RemoteAddressRequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The handler of a WebSocket this request is upgraded to (rehearsals' sockets).
    public let webSocket = WebSocketHandlerReference<Self>()
    public var identity: LibraryAccess?
    /// The peer of the connection (a reverse proxy's address when one stands in front).
    public let remoteAddress: SocketAddress?
    /// Who sent the request, as `ClientMiddleware` found it: the peer, or the address a
    /// trusted reverse proxy names; and whether the browser reached us over HTTPS.
    public var client = Client(address: "unknown", secure: false)
    /// The connection the request came on (see ``isConnected``).
    public let channel: any Channel

    public init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Whether the client is still connected: work done for the request alone (drawing a page)
    /// stops once it has gone. A request without a peer (in-process, as the router's tests
    /// send) is never gone.
    public var isConnected: @Sendable () -> Bool {
        let channel = channel
        return { channel.isActive || channel.remoteAddress == nil }
    }
}

/// How a request proved it may use the library, when the server listens beyond loopback.
///
/// ```swift
/// context.identity?.proof == .password
/// ```
public struct LibraryAccess: Sendable, Equatable {
    /// How a request proved it may use the library.
    ///
    /// ```swift
    /// if context.identity?.proof == .tokenInAddress { /* answer with the cookie and a redirect */ }
    /// ```
    public enum Proof: Sendable, Equatable {
        /// The access token, from its cookie or `Authorization: Bearer`.
        case token
        /// The token in the address (`?token=`, the link printed at start): exchanged for the cookie.
        case tokenInAddress
        /// The password, by HTTP Basic authentication (the browser asks for it; any user name).
        case password
        /// A member's session cookie (``AccessSecret/members``).
        case session
    }

    public var proof: Proof
    /// The member logged in, in a library with members.
    public var member: Member?

    public init(proof: Proof, member: Member? = nil) {
        self.proof = proof
        self.member = member
    }
}

/// What a server beyond loopback asks of every request.
///
/// ```swift
/// switch AccessSecret.password(fromLine: "tajné heslo\n") {
/// case .success(let secret): options.access = secret
/// case .failure(let error): print(error.message)
/// }
/// ```
public enum AccessSecret: Sendable, Equatable {
    /// A random token, printed at start as Jupyter does; see ``LibraryAccess/Proof/token``.
    case token(String)
    /// A password from `--password-file`; see ``LibraryAccess/Proof/password``.
    case password(String)
    /// Each member's own name and password (a library with members): a session cookie after
    /// logging in at `/login`; see ``LibraryAccess/Proof/session``.
    case members

    /// What the secret is called in messages.
    var kind: String {
        switch self {
        case .token: "token"
        case .password, .members: "password"
        }
    }

    /// A password as `folio serve` takes it from its file: the first line without the white
    /// space around it, at least 8 characters; otherwise a failure saying why — a password of
    /// spaces is no password.
    ///
    /// ```swift
    /// AccessSecret.password(fromLine: "        ")   // .failure("…")
    /// ```
    public static func password(fromLine line: String) -> Result<AccessSecret, AccessSecretError> {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 8 else {
            return .failure(AccessSecretError(message: trimmed.isEmpty
                ? "the password is only white space"
                : "the password has \(trimmed.count) characters besides the white space around it; at least 8 are needed"))
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(AccessSecretError(message: "the password holds a control character"))
        }
        return .success(.password(trimmed))
    }
}

/// Why a secret was refused.
///
/// ```swift
/// if case .failure(let error) = AccessSecret.password(fromLine: "   ") { print(error.message) }
/// ```
public struct AccessSecretError: Error, Sendable, Equatable {
    public let message: String
}

/// Finds how a request proves access (hummingbird-auth's authenticator); requests without
/// proof go on unauthenticated, and ``AccessGate`` turns them away.
struct AccessAuthenticator<Context: AuthRequestContext<LibraryAccess>>: AuthenticatorMiddleware {
    typealias Identity = LibraryAccess
    let secret: AccessSecret
    /// Where members' sessions are looked up (``AccessSecret/members``).
    let catalog: LibraryCatalog

    func authenticate(request: Request, context: Context) async throws -> LibraryAccess? {
        switch secret {
        case .members:
            if let token = request.cookies[Secret.sessionCookie]?.value, let member = try catalog.member(session: token) {
                return .init(proof: .session, member: member)
            }
        case .token(let token):
            if let cookie = request.cookies[Secret.accessCookie]?.value, Secret.equal(cookie, token) { return .init(proof: .token) }
            if let bearer = request.headers.bearer, Secret.equal(bearer.token, token) { return .init(proof: .token) }
            if let given = request.uri.queryParameters.get("token"), Secret.equal(given, token) { return .init(proof: .tokenInAddress) }
        case .password(let password):
            if let given = request.headers.basic?.password ?? Self.passwordWithoutUser(request.headers[.authorization]),
               Secret.equal(given, password) {
                return .init(proof: .password)
            }
        }
        return nil
    }

    /// The password of Basic credentials whose user name was left empty (`:password`), which
    /// hummingbird-auth's parser does not take and browsers send when only a password is typed.
    static func passwordWithoutUser(_ authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Basic "),
              let data = Data(base64Encoded: String(authorization.dropFirst(6))) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        return text.hasPrefix(":") ? String(text.dropFirst()) : nil
    }
}

/// Lets through only requests ``AccessAuthenticator`` recognised: a token in the address
/// becomes a cookie (HttpOnly, SameSite=Strict) and the browser is sent on to the address
/// without it; no proof is 401, with a Basic challenge when a password is set so that the
/// browser asks for it.
///
/// Wrong credentials are counted per client by ``LoginThrottle``: past a few, each answer
/// waits longer, and a client that keeps guessing is refused everything (429) for a while, a
/// password included (a session or token, which cannot be guessed, still opens). Failures are
/// also counted in all: when addresses together guess too fast, credentials from addresses
/// that have not proven access are refused unread.
struct AccessGate: RouterMiddleware {
    typealias Context = FolioRequestContext
    let secret: AccessSecret
    let throttle: LoginThrottle

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let client = context.client.address
        // A session or token no one can guess (256 random bits) is let in whatever others
        // behind the same address (a school's NAT) have guessed; a password can be guessed,
        // so a banned address is refused it.
        let unguessable = context.identity.map { [.session, .token, .tokenInAddress].contains($0.proof) } ?? false
        if !unguessable, let wait = throttle.banned(client) {
            throw Self.tooMany(wait, "too many wrong passwords or tokens from \(client)")
        }
        // While guessing is paused, credentials from an address that has not proven access are
        // refused whether right or wrong: a guess then tells nothing.
        if Self.presentsCredentials(request, secret: secret), let wait = throttle.guessingPaused(client) {
            throw Self.tooMany(wait, "too many wrong passwords or tokens from many addresses")
        }
        guard let access = context.identity else {
            if TrustController.isPublic(request.uri.path) || HealthController.isPublic(request.uri.path) {
                return try await next(request, context)
            }
            if case .members = secret {
                if SessionController.isPublic(request.uri.path) { return try await next(request, context) }
                if request.uri.path.hasPrefix("/api/") || request.method != .get {
                    throw HTTPError(.unauthorized, message: "log in first: this library's members each have their own name and password (/login)")
                }
                return Response(status: .seeOther, headers: [.location: "/login?next=" + Self.nextParameter(path: request.uri.path, query: request.uri.query)])
            }
            if Self.presentsCredentials(request, secret: secret) {
                let verdict = throttle.failed(client)
                context.logger.warning("wrong \(secret.kind) from \(client)",
                                       metadata: ["failures": "\(verdict.failures)", "uri": "\(request.uri.path)"])
                if let ban = verdict.bannedFor {
                    context.logger.error("\(client) banned for \(ban) s after \(verdict.failures) wrong attempts")
                }
                if verdict.delay > .zero { try? await Task.sleep(for: verdict.delay) }
            }
            switch secret {
            case .token:
                throw HTTPError(.unauthorized, message: "open the address with ?token= that folio serve printed")
            case .password:
                throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"Folio\", charset=\"UTF-8\""],
                                message: "this library asks for its password (any user name)")
            case .members:
                throw HTTPError(.unauthorized, message: "log in first (/login)")
            }
        }
        throttle.succeeded(client)
        if access.proof == .tokenInAddress, case .token(let token) = secret {
            var response = Response(status: .seeOther, headers: [.location: Self.onSite(request.uri.path)])
            response.setCookie(Cookie(name: Secret.accessCookie, value: token, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        return try await next(request, context)
    }

    /// 429 with `Retry-After`: "`why`; try again in `wait` s" (a ban, or guessing paused).
    static func tooMany(_ wait: Int, _ why: String) -> HTTPError {
        HTTPError(.tooManyRequests, headers: [.retryAfter: String(wait)], message: "\(why); try again in \(wait) s")
    }

    /// What a query value may hold unencoded (ASCII only: a header carries it).
    private static let plain = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")

    /// Where a login sends the browser back to: the path and query asked for, percent-encoded
    /// as one query value.
    static func nextParameter(path: String, query: String?) -> String {
        let target = onSite(path) + (query.map { "?" + $0 } ?? "")
        return target.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? "/"
    }

    /// A path to send the browser to on this server: `//evil.example/x` (or `/\evil.example`)
    /// would leave it, so leading slashes and backslashes become one slash.
    static func onSite(_ path: String) -> String {
        "/" + String(String.UnicodeScalarView(path.unicodeScalars.drop { $0 == "/" || $0 == "\\" }))
    }

    /// Whether the request carries a token or password at all (a first visit carries none,
    /// and is not a wrong guess).
    static func presentsCredentials(_ request: Request, secret: AccessSecret) -> Bool {
        switch secret {
        case .token:
            request.cookies[Secret.accessCookie] != nil || request.headers[.authorization] != nil
                || request.uri.queryParameters.get("token") != nil
        case .password:
            request.headers[.authorization] != nil
        case .members:
            false   // logins are counted where they are checked (SessionController)
        }
    }
}
