import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// The request context of every route: Hummingbird's, plus how the request was let in
/// (hummingbird-auth's identity), which stays nil on loopback where nothing is asked.
public struct FolioRequestContext: AuthRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: LibraryAccess?

    public init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
    }
}

/// How a request proved it may use the library, when the server listens beyond loopback.
///
/// ```swift
/// context.identity?.proof == .password
/// ```
public struct LibraryAccess: Sendable, Equatable {
    public enum Proof: Sendable, Equatable {
        /// The access token, from its cookie or `Authorization: Bearer`.
        case token
        /// The token in the address (`?token=`, the link printed at start): exchanged for the cookie.
        case tokenInAddress
        /// The password, by HTTP Basic authentication (the browser asks for it; any user name).
        case password
    }

    public var proof: Proof
}

/// What a server beyond loopback asks of every request.
public enum AccessSecret: Sendable, Equatable {
    /// A random token, printed at start as Jupyter does; see ``LibraryAccess/Proof/token``.
    case token(String)
    /// A password from `--password-file`; see ``LibraryAccess/Proof/password``.
    case password(String)
}

/// Finds how a request proves access (hummingbird-auth's authenticator); requests without
/// proof go on unauthenticated, and ``AccessGate`` turns them away.
struct AccessAuthenticator<Context: AuthRequestContext<LibraryAccess>>: AuthenticatorMiddleware {
    typealias Identity = LibraryAccess
    let secret: AccessSecret

    func authenticate(request: Request, context: Context) async throws -> LibraryAccess? {
        switch secret {
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
struct AccessGate<Context: AuthRequestContext<LibraryAccess>>: RouterMiddleware {
    let secret: AccessSecret

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let access = context.identity else {
            switch secret {
            case .token:
                throw HTTPError(.unauthorized, message: "open the address with ?token= that folio serve printed")
            case .password:
                throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"Folio\", charset=\"UTF-8\""],
                                message: "this library asks for its password (any user name)")
            }
        }
        if access.proof == .tokenInAddress, case .token(let token) = secret {
            var response = Response(status: .seeOther, headers: [.location: request.uri.path])
            response.setCookie(Cookie(name: Secret.accessCookie, value: token, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        return try await next(request, context)
    }
}
