import Foundation
import Logging
import HTTPTypes
import Hummingbird
import NIOCore

/// Headers every response carries: a strict Content-Security-Policy (scripts, styles,
/// workers and connections from this server only; no inline script, no eval, no frames),
/// no MIME sniffing, no referrer. Errors become responses here, each with a JSON body
/// `{"error":{"message":…}}` (the router's own 404 included), the library's absolute path
/// left out of every message (names relative to the library say enough, and the folder's place on
/// the server is nobody's business).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The library folder as the server knows it (as given, and with its links resolved).
    var folders: [String] = []

    static var policy: String {  // computed: generic types hold no stored statics
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
            + "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            + "frame-ancestors 'none'; form-action 'self'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError where error.body == nil {
            response = try HTTPError(error.status, message: error.status.reasonPhrase).response(from: request, context: context)
        } catch let error as HTTPError {
            response = try HTTPError(error.status, headers: error.headers, message: redacted(error.body ?? ""))
                .response(from: request, context: context)
        } catch is NIOTooManyBytesError {
            response = try HTTPError(.contentTooLarge, message: "the request body is larger than this server accepts")
                .response(from: request, context: context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            if let known = ErrorStatus.httpError(for: error) {
                response = try HTTPError(known.status, headers: known.headers, message: redacted(known.body ?? ""))
                    .response(from: request, context: context)
            } else {
                // A bug: say so in the log, and answer in the same shape as every other error.
                context.logger.error("unexpected error", metadata: ["error": "\(error)", "uri": "\(request.uri)"])
                response = try HTTPError(.internalServerError, message: "internal error (\(type(of: error))); see the server's log")
                    .response(from: request, context: context)
            }
        }
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        return response
    }

    /// `message` with the library folder's absolute path taken out: a file inside it is named
    /// relative to it, the folder itself "the library".
    func redacted(_ message: String) -> String {
        var text = message
        for folder in folders.sorted(by: { $0.count > $1.count }) where folder.count > 1 {
            text = text.replacingOccurrences(of: folder + "/", with: "").replacingOccurrences(of: folder, with: "the library")
        }
        return text
    }
}

/// Refuses API requests a browser says another site's page made (`Sec-Fetch-Site:
/// cross-site`), and state-changing requests (POST, PUT, PATCH, DELETE) that do not come from
/// Folio's own pages: they must carry the `X-Folio-CSRF` header equal to the `folio_csrf`
/// cookie (SameSite=Strict, set by every page), and an `Origin`, when sent, must be this
/// server's: the request's own `Host`, and one of the ``AllowedHosts``. Another site can neither read the cookie nor send the header without CORS,
/// which the server never grants.
struct CSRFMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String
    let hosts: AllowedHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The API answers Folio's own pages: a request another site's page makes (an <img> of a
        // page picture, a GET of annotations) is refused before any work. Browsers say so in
        // Sec-Fetch-Site; a request without it (curl, a script) has no page of another site behind it.
        if request.uri.path.hasPrefix("/api/"), request.headers[Secret.fetchSite]?.lowercased() == "cross-site" {
            throw HTTPError(.forbidden, message: "cross-site request refused (Sec-Fetch-Site: cross-site)")
        }
        guard [.post, .put, .patch, .delete].contains(request.method) else { return try await next(request, context) }
        if let origin = request.headers[.origin] {
            let host = request.head.authority ?? ""
            guard hosts.allows(origin: origin), origin == "http://\(host)" || origin == "https://\(host)" else {
                throw HTTPError(.forbidden, message: "cross-site request refused (Origin \(origin))")
            }
        }
        guard let sent = request.headers[Secret.csrfHeader], let cookie = request.cookies[Secret.csrfCookie]?.value,
              Secret.equal(sent, token), Secret.equal(cookie, token) else {
            throw HTTPError(.forbidden, message: "missing or wrong CSRF token: reload the page")
        }
        return try await next(request, context)
    }
}

/// Random tokens, where they travel, and a comparison whose time does not depend on
/// where strings differ.
enum Secret {
    static let csrfCookie = "folio_csrf"
    static let csrfHeader = HTTPField.Name("X-Folio-CSRF")!
    static let accessCookie = "folio_token"
    /// A member's session (a library with members).
    static let sessionCookie = "folio_session"
    /// Who made a request, as the browser tells it (`same-origin`, `same-site`, `cross-site`, `none`).
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
