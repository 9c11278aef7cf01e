import FolioLibrary
import Foundation
import Hummingbird

/// `/trust`: the page that tells each kind of device how to trust this server's HTTPS, and the
/// local authority's certificate to install — a configuration profile for Apple's devices
/// (`/trust/folio.mobileconfig`), DER (`/trust/folio-ca.crt`) and PEM (`/trust/folio-ca.pem`).
/// A certificate is public: these answer without the access token, as a device must fetch
/// them before it can trust the connection that carries its password.
///
/// ```swift
/// TrustController(tls: server.tls).addRoutes(to: router)
/// ```
struct TrustController {
    let tls: ServerTLS?

    /// Paths answered before access is proven: these and the style sheet the page uses.
    static let publicPaths: Set<String> = ["/trust", "/trust/folio.mobileconfig", "/trust/folio-ca.crt", "/trust/folio-ca.pem", "/assets/folio.css"]

    static func isPublic(_ path: String) -> Bool { publicPaths.contains(path) }

    func addRoutes(to router: Router<FolioRequestContext>) {
        let tls = tls, authority = tls?.authority
        // Written for each request: the names follow the certificate when it is renewed.
        router.get("/trust") { _, _ -> Response in
            let page = HTMLPage.trust(authority: authority.map { ($0.name, $0.fingerprint) }, names: authority == nil ? nil : tls?.names,
                                      ownCertificate: tls != nil)
            return LibraryServer.bytes(Data(page.utf8), type: "text/html; charset=utf-8", cache: "no-store")
        }
        router.get("/trust/folio.mobileconfig") { _, _ -> Response in
            guard let authority else { throw LibraryError(.notFound, "this server has no local authority (start it with --https)") }
            return Self.download(try TrustProfile.mobileconfig(for: authority), type: "application/x-apple-aspen-config", name: "Folio.mobileconfig")
        }
        router.get("/trust/folio-ca.crt") { _, _ -> Response in
            guard let authority else { throw LibraryError(.notFound, "this server has no local authority (start it with --https)") }
            return Self.download(Data(authority.certificateDER), type: "application/x-x509-ca-cert", name: "folio-ca.crt")
        }
        router.get("/trust/folio-ca.pem") { _, _ -> Response in
            guard let authority else { throw LibraryError(.notFound, "this server has no local authority (start it with --https)") }
            return Self.download(Data(authority.certificatePEM.utf8), type: "application/x-pem-file", name: "folio-ca.pem")
        }
    }

    private static func download(_ data: Data, type: String, name: String) -> Response {
        var response = LibraryServer.bytes(data, type: type, cache: "no-cache")
        response.headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        return response
    }
}
