import FolioLibrary
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `/healthz`: whether this server can serve its library — 200 `ok` when the library's folder and
/// its catalog's file are there and the catalog answers a read, 503 naming why not (a volume
/// unmounted under the server, a catalog gone or broken). What a container runtime's health check,
/// a service manager or a load balancer in front of several servers asks; it answers without the
/// access token or a session and is never cached. `ok` tells nothing of the library; a 503 says
/// why in words that name no path (the server's log has the path), with `Retry-After`: a catalog
/// whose PostgreSQL server is away is unhealthy until it is back, and healthy again by itself.
///
/// ```swift
/// HealthController(catalog: service.catalog).addRoutes(to: router)
/// // curl -fsS http://127.0.0.1:8080/healthz  →  ok
/// ```
struct HealthController {
    let catalog: LibraryCatalog

    /// The path, answered before access is proven.
    static let path = "/healthz"

    static func isPublic(_ path: String) -> Bool { path == Self.path }

    func addRoutes(to router: Router<FolioRequestContext>) {
        let catalog = catalog
        let answer: @Sendable (Request, FolioRequestContext) async throws -> Response = { _, context in
            do {
                try catalog.checkHealth()
                return LibraryServer.bytes(Data("ok\n".utf8), type: "text/plain; charset=utf-8", cache: "no-store")
            } catch {
                let failure = error as? LibraryError
                let why = failure?.message ?? "the catalog cannot be read"
                // The log names the library; the answer, open to anyone, does not.
                context.logger.error("health check: the library \(catalog.folder) cannot be served: \(failure.map { "\($0)" } ?? "\(error)")")
                var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"]
                headers[.retryAfter] = String(failure?.retryAfter ?? 5)
                return Response(status: .serviceUnavailable, headers: headers,
                                body: .init(byteBuffer: ByteBuffer(string: "the library cannot be served: \(why)\n")))
            }
        }
        router.get(RouterPath(Self.path), use: answer)
        router.head(RouterPath(Self.path), use: answer)
    }
}
