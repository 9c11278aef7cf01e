import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Who sent a request: the client's address (for counting wrong passwords) and whether its
/// browser reached the library over HTTPS (then every cookie is marked `Secure`).
///
/// ```swift
/// router.get("/whoami") { _, context in context.client.secure ? "https" : "http" }
/// ```
public struct Client: Sendable, Equatable {
    public var address: String
    public var secure: Bool
}

/// The first middleware of every request after its path is made canonical: turns away a
/// request without `Host` or with several (400), or with one that is not one of the server's
/// names (421, see ``AllowedHosts``), and finds the ``Client`` — the connection's
/// peer, or, when the peer is a reverse proxy named with `--trusted-proxy`, the address the
/// proxy puts last in `X-Forwarded-For` and the scheme it gives in `X-Forwarded-Proto`.
/// Headers of that kind from anyone else are ignored. When the server itself speaks HTTPS,
/// every client is secure.
struct ClientMiddleware: RouterMiddleware {
    typealias Context = FolioRequestContext
    let hosts: AllowedHosts
    let trustedProxies: Set<String>
    var tls = false
    /// `Host` as a field: a second one stays among the fields when the first became the authority.
    static let hostField = HTTPField.Name("Host")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTP/1.1 requires Host (RFC 9112, 3.2): a request without one is answered 400, as nginx does.
        guard let authority = request.head.authority, !authority.isEmpty else {
            throw HTTPError(.badRequest, message: "a request needs a Host header naming this server")
        }
        // The first Host became the authority; another one would let two parts of a chain
        // (a proxy, this server) judge two names (RFC 9112, 3.2: a request with more than one is 400).
        guard request.headers[values: Self.hostField].isEmpty else {
            throw HTTPError(.badRequest, message: "a request has one Host header, not several")
        }
        if !hosts.allows(authority: authority) {
            throw HTTPError(.misdirectedRequest,
                            message: "this server does not answer to the name \(AllowedHosts.hostPart(authority)); "
                                + "start it with --allow-host \(AllowedHosts.hostPart(authority)) if that name is yours")
        }
        var context = context
        context.client = client(of: request, peer: context.remoteAddress)
        var response = try await next(request, context)
        if context.client.secure { Self.markSecure(&response.headers) }
        return response
    }

    func client(of request: Request, peer: SocketAddress?) -> Client {
        let address = peer?.ipAddress ?? "unknown"
        guard trustedProxies.contains(address) else { return Client(address: address, secure: tls) }
        let forwarded = request.headers[values: HTTPField.Name("X-Forwarded-For")!]
            .flatMap { $0.split(separator: ",") }.last.map { $0.trimmingCharacters(in: .whitespaces) }
        let scheme = request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased()
        return Client(address: forwarded.flatMap { $0.isEmpty ? nil : $0 } ?? address, secure: tls || scheme == "https")
    }

    /// Adds `Secure` to every cookie the response sets.
    static func markSecure(_ headers: inout HTTPFields) {
        let cookies = headers[values: .setCookie]
        guard !cookies.isEmpty else { return }
        headers[values: .setCookie] = cookies.map { $0.localizedCaseInsensitiveContains("; secure") ? $0 : $0 + "; Secure" }
    }
}
