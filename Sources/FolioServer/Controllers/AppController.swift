import Crypto
import Foundation
import Hummingbird

/// Folio as an installable web app: the service worker (`/sw.js`, at the root so it may
/// answer for every page) and the web app manifest (`/manifest.webmanifest`). The worker's
/// caches are named after the build's version: a hash of the UI's files, so a new build
/// replaces what devices keep of the old one. (The session a page renews after the server
/// restarted is `SessionController`'s.)
///
/// ```swift
/// AppController().addRoutes(to: router)
/// ```
struct AppController {

    /// The UI's files (`Assets/`) by name.
    static let assets: [String: Data] = {
        guard let folder = Bundle.module.url(forResource: "Assets", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [:] }
        var files: [String: Data] = [:]
        for name in names where !name.hasPrefix(".") {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) { files[name] = data }
        }
        return files
    }()

    /// The build's version: the first 16 hex digits of the SHA-256 of every UI file, by name.
    static let version: String = {
        var hash = SHA256()
        for name in assets.keys.sorted() {
            hash.update(data: Data(name.utf8))
            hash.update(data: assets[name] ?? Data())
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined().prefix(16).description
    }()

    /// The service worker's text: its version and the modules of the app shell filled in.
    static let serviceWorker: Data = {
        let modules = assets.keys.filter { $0.hasSuffix(".js") && $0 != "sw.js" }.sorted()
            .map { "'/assets/\($0)'" }.joined(separator: ", ")
        let text = String(decoding: assets["sw.js"] ?? Data(), as: UTF8.self)
            .replacingOccurrences(of: "__VERSION__", with: version)
            .replacingOccurrences(of: "__SHELL_MODULES__", with: modules)
        return Data(text.utf8)
    }()

    /// The manifest: a standalone app that opens on the library, with Folio's icons.
    static let manifest = Data("""
        {"name":"Folio","short_name":"Folio","description":"Your sheet-music library: scores, setlists, marks.",\
        "start_url":"/","scope":"/","display":"standalone","orientation":"any",\
        "background_color":"#fbfaf7","theme_color":"#8a3b12",\
        "icons":[{"src":"/assets/icon-192.png","sizes":"192x192","type":"image/png","purpose":"any"},\
        {"src":"/assets/icon-512.png","sizes":"512x512","type":"image/png","purpose":"any maskable"}]}
        """.utf8)

    func addRoutes(to router: Router<FolioRequestContext>) {
        router.get("/sw.js") { _, _ -> Response in
            LibraryServer.bytes(Self.serviceWorker, type: "text/javascript; charset=utf-8", cache: "no-cache")
        }
        router.get("/manifest.webmanifest") { _, _ -> Response in
            LibraryServer.bytes(Self.manifest, type: "application/manifest+json", cache: "no-cache")
        }
    }
}
