import FolioLibrary
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `/healthz`: whether this server can serve its library — 200 `ok` when the library's folder and
/// its catalog's file are there and the catalog answers a read, 503 naming why not (a volume
/// unmounted under the server, a catalog gone or broken). What a container runtime's health check,
/// a service manager or a load balancer in front of several servers asks; it answers without the
/// access token or a session and is never cached. `ok` tells nothing of the library; a 503 names
/// the reason, the library's path included.
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
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: catalog.folder, isDirectory: &isFolder), isFolder.boolValue else {
                    throw LibraryError(.notFound, "the library folder \(catalog.folder) is gone")
                }
                guard FileManager.default.fileExists(atPath: catalog.databasePath) else {
                    throw LibraryError(.notFound, "the catalog \(catalog.databasePath) is gone")
                }
                _ = try catalog.counts()
                return LibraryServer.bytes(Data("ok\n".utf8), type: "text/plain; charset=utf-8", cache: "no-store")
            } catch {
                let why = (error as? LibraryError)?.message ?? "\(error)"
                context.logger.error("health check: the library cannot be served: \(why)")
                let text = "the library cannot be served: \(why)\n"
                return Response(status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
        router.get(RouterPath(Self.path), use: answer)
        router.head(RouterPath(Self.path), use: answer)
    }
}
