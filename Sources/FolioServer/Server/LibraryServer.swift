import FolioLibrary
import FolioScore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOSSL
import ServiceLifecycle

/// `folio serve`: the library in a browser. Builds the Hummingbird application — pages,
/// the JSON API, Folio's scripts and pdf.js — around one catalog.
///
/// ```swift
/// let catalog = try LibraryCatalog(folder: "Samples")
/// let server = try LibraryServer(catalog: catalog, options: .init())
/// try await server.application(logger: Logger(label: "folio")).runService()
/// ```
public struct LibraryServer: Sendable {
    /// How the server listens and what it serves.
    ///
    /// ```swift
    /// var options = LibraryServer.Options()
    /// options.port = 8090
    /// let server = try LibraryServer(catalog: catalog, options: options)
    /// ```
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// The folder holding pdf.js (`pdf.js`, `pdf.worker.js`); Debian's libjs-pdf by default.
        public var pdfjs = "/usr/share/javascript/pdf/build"
        /// What every request must present when set (required when listening beyond loopback).
        public var access: AccessSecret?
        /// Seconds between looks at the folder for added, changed or removed files (0: never).
        public var rescanInterval = 2.0
        /// The largest request body accepted, uploads aside.
        public var maxBody = 1 << 20
        /// The largest file accepted by upload (a scanned book runs to tens of megabytes).
        public var maxUpload = 256 << 20
        /// Names besides the listening address, `localhost`, `127.0.0.1` and `[::1]` that
        /// browsers may use to reach the server (`--allow-host`; see ``AllowedHosts``).
        public var allowedHosts: [String] = []
        /// Addresses of reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are
        /// believed (`--trusted-proxy`; see `ClientMiddleware`).
        public var trustedProxies: [String] = []
        /// How many connections may be open, and how long they may stay silent; nil: the
        /// total from the descriptor limit, raised to its hard limit at start (see ``ConnectionLimits``).
        public var connections: ConnectionLimits.Policy?
        /// How wrong passwords and tokens are slowed and banned.
        public var loginPolicy = LoginThrottle.Policy()
        /// The font the Text tool's annotations are drawn in (`--font-file`); nil: Helvetica
        /// for Latin-1 text, the installed fonts for any other script.
        public var textFont: TextFont?
        /// HTTPS: the certificate to serve with (see ``TLSSource``); nil: plain HTTP.
        public var tls: TLSSource?
        /// How often the certificate is looked at while the server runs: renewed when due, when
        /// the machine has a new address, or when the user's files were replaced.
        public var certificateCheck: Duration = .seconds(600)
        public init() {}

        /// The names the server answers to.
        public var hosts: AllowedHosts { AllowedHosts(listening: host, extra: allowedHosts) }
    }

    public let service: ScoreService
    public let setlists: SetlistService
    /// Audio files, tracks and the metronome's sample.
    public let tracks: TrackService
    /// Part labels and pieces.
    public let parts: PartService
    /// The rehearsals running (linked page turns across devices).
    public let rehearsals: RehearsalService
    /// Covers and first pages, drawn by pdftoppm.
    public let pictures: PageImageCache
    public let options: Options
    /// Where uploads are received (see ``UploadSpool``).
    public let spool: UploadSpool
    /// Drops of several files waiting to be taken in together.
    public let drops: UploadDrops
    /// The token every state-changing request repeats (see ``CSRFMiddleware``).
    let csrf: String
    /// Wrong passwords and tokens per client (see `AccessGate`).
    public let throttle: LoginThrottle
    /// Wrong passwords per member (see `SessionController`).
    public let accounts: LoginThrottle
    /// Where passwords are hashed (scrypt, about 0.1 s and 32 MiB each): one core's worth at
    /// most, a few waiting, the rest turned away with 503, so a flood of logins or invitation
    /// redemptions leaves a core for everyone else.
    public let passwords: WorkQueue
    /// Open connections per client address and in all (see ``ConnectionLimits``).
    public let connections: ConnectionLimits
    /// The certificate served when ``Options/tls`` is set.
    public let tls: ServerTLS?

    public init(catalog: LibraryCatalog, options: Options) throws {
        let work = WorkQueue()
        var service = try ScoreService(catalog: catalog, work: work)
        service.font = options.textFont
        self.service = service
        setlists = SetlistService(catalog: catalog, work: work)
        tracks = TrackService(catalog: catalog)
        parts = PartService(catalog: catalog)
        rehearsals = RehearsalService(catalog: catalog)
        // Four files of the largest size in flight from one device, sixteen from all.
        let upload = max(options.maxUpload, 1)
        do {
            spool = try UploadSpool(folder: catalog.folder, perClient: upload > Int.max / 4 ? Int.max : upload * 4,
                                    total: upload > Int.max / 16 ? Int.max : upload * 16)
        } catch {
            throw LibraryError(.io, "cannot make the upload folder in \(catalog.folder)/.folio: \(error.localizedDescription)")
        }
        do { drops = try UploadDrops(spool: spool, maxBytes: options.maxUpload > Int.max / 4 ? Int.max : max(options.maxUpload, 1) * 4) } catch {
            throw LibraryError(.io, "cannot make the drops folder in \(catalog.folder)/.folio: \(error.localizedDescription)")
        }
        pictures = PageImageCache(directory: (catalog.folder as NSString).appendingPathComponent(".folio/pages"))
        // What a killed server left (a save's journal beside a score, an import's staging folder)
        // is settled now, not when that score is next opened.
        _ = LibraryLeftovers.clean(folder: catalog.folder)
        // Covers were kept in .folio/covers before pages were: drawn again when asked for.
        try? FileManager.default.removeItem(atPath: (catalog.folder as NSString).appendingPathComponent(".folio/covers"))
        self.options = options
        csrf = Secret.random()
        // Counted by every server of a catalog in PostgreSQL together, else in this one's memory.
        throttle = LoginThrottle(policy: options.loginPolicy, shared: catalog.guessLedger(1))
        accounts = LoginThrottle(policy: options.loginPolicy, shared: catalog.guessLedger(2))
        passwords = WorkQueue(slots: max(1, ProcessInfo.processInfo.activeProcessorCount - 1), waiting: 8, seconds: 10, work: "password checks")
        var policy = options.connections ?? .forThisProcess()
        policy.exempt.formUnion(options.trustedProxies)
        connections = ConnectionLimits(policy: policy)
        let (host, extra) = (options.host, options.allowedHosts)
        tls = try options.tls.map { try ServerTLS(source: $0, names: { .forMachine(listening: host, extra: extra) }) }
    }

    /// A new random access token (64 hex digits), for ``Options/access``.
    public static func randomToken() -> String {
        Secret.random()
    }

    /// Whether pdf.js is where ``Options/pdfjs`` says.
    public var hasPDFJS: Bool {
        ["pdf.js", "pdf.worker.js"].allSatisfy { FileManager.default.isReadableFile(atPath: options.pdfjs + "/" + $0) }
    }

    public func router() -> Router<FolioRequestContext> {
        routes().router
    }

    /// The router and the rights its controllers declared for each route that changes
    /// something (``RouteRights``, read by ``MemberRights`` in a library with members).
    func routes() -> (router: Router<FolioRequestContext>, rights: RouteRights) {
        let router = Router(context: FolioRequestContext.self)
        let rights = RouteRights()
        router.add(middleware: SecurityHeadersMiddleware(folders: [service.catalog.folder, service.catalog.files.root]))
        // Every decision below is made on the path the router routes (see CanonicalPath).
        router.add(middleware: CanonicalPathMiddleware())
        router.add(middleware: ClientMiddleware(hosts: options.hosts, trustedProxies: Set(options.trustedProxies), tls: tls != nil))
        if let secret = options.access {
            router.add(middleware: AccessAuthenticator(secret: secret, catalog: service.catalog))
            router.add(middleware: AccessGate(secret: secret, throttle: throttle))
        }
        router.add(middleware: CSRFMiddleware(token: csrf, hosts: options.hosts))
        if options.access == .members { router.add(middleware: MemberRights(rights: rights)) }
        WebController(service: service, csrf: csrf, pdfjs: options.pdfjs, hasPDFJS: hasPDFJS).addRoutes(to: router)
        AppController().addRoutes(to: router)
        SessionController(catalog: service.catalog, csrf: csrf, members: options.access == .members, throttle: throttle,
                          accounts: accounts, passwords: passwords).addRoutes(to: router, rights: rights)
        MembersController(catalog: service.catalog, csrf: csrf, maxBody: options.maxBody).addRoutes(to: router, rights: rights)
        TrustController(tls: tls).addRoutes(to: router)
        HealthController(catalog: service.catalog).addRoutes(to: router)
        ScoreController(service: service, pictures: pictures, maxBody: options.maxBody).addRoutes(to: router, rights: rights)
        AnnotationController(service: service, maxBody: options.maxBody).addRoutes(to: router, rights: rights)
        BookmarkController(service: service, maxBody: options.maxBody).addRoutes(to: router, rights: rights)
        StampController(service: service, maxUpload: ImageStamp.maxBytes).addRoutes(to: router, rights: rights)
        UploadController(service: service, spool: spool, drops: drops, maxUpload: options.maxUpload).addRoutes(to: router, rights: rights)
        SetlistController(setlists: setlists, csrf: csrf, maxBody: options.maxBody, hasPDFJS: hasPDFJS).addRoutes(to: router, rights: rights)
        TrackController(tracks: tracks, maxBody: options.maxBody).addRoutes(to: router, rights: rights)
        PartController(parts: parts, csrf: csrf, maxBody: options.maxBody).addRoutes(to: router, rights: rights)
        rehearsalController.addRoutes(to: router, rights: rights)
        return (router, rights)
    }

    var rehearsalController: RehearsalController {
        RehearsalController(rehearsals: rehearsals, hosts: options.hosts, maxBody: options.maxBody, csrf: csrf, hasPDFJS: hasPDFJS)
    }

    /// The router that answers WebSocket upgrades (rehearsals' sockets), behind the same
    /// host check and access as every other request. An upgrade it refuses is answered by
    /// Hummingbird's upgrade handler with a bare 400; a plain GET of the socket's address goes
    /// to ``router()``, which says why it is refused (403, 404, 400 or 426).
    public func socketRouter() -> Router<FolioRequestContext> {
        let router = Router(context: FolioRequestContext.self)
        router.add(middleware: CanonicalPathMiddleware())
        router.add(middleware: ClientMiddleware(hosts: options.hosts, trustedProxies: Set(options.trustedProxies), tls: tls != nil))
        if let secret = options.access {
            router.add(middleware: AccessAuthenticator(secret: secret, catalog: service.catalog))
            router.add(middleware: AccessGate(secret: secret, throttle: throttle))
        }
        // The socket's route (a GET) changes nothing by itself: no rights to declare.
        if options.access == .members { router.add(middleware: MemberRights(rights: RouteRights())) }
        rehearsalController.addSocket(to: router)
        return router
    }

    /// The application, listening as ``Options`` says (HTTPS when ``Options/tls`` is set, with a
    /// service that keeps the certificate renewed); with a rescan service that keeps the
    /// catalog current. `runService()` ends on SIGINT or SIGTERM after the requests in
    /// flight (and so their saves) have finished.
    public func application(logger: Logger) throws -> some ApplicationProtocol {
        var services: [any Service] = []
        if options.rescanInterval > 0 {
            services.append(CatalogWatcher(catalog: service.catalog, interval: options.rescanInterval, logger: logger))
        }
        let limits = connections
        let sockets = socketRouter().buildResponder()
        let idle = limits.policy.idle.components
        let http1 = HTTP1Channel.Configuration(idleTimeout: .seconds(idle.seconds) + .nanoseconds(idle.attoseconds / 1_000_000_000))
        if let tls { services.append(CertificateRenewal(tls: tls, interval: options.certificateCheck, logger: logger)) }
        let context = try tls.map { try NIOSSLContext(configuration: $0.configuration()) }
        let server = HTTPServerBuilder { responder -> any ServerChildChannel in
            let channel = HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: sockets,
                                                       configuration: .init(http1: http1, ws: .init(maxFrameSize: RehearsalMessage.maxBytes)))
            return GuardedChildChannel(inner: channel, limits: limits, tls: context)
        }
        return Application(router: router(), server: server,
                           configuration: .init(address: .hostname(options.host, port: options.port), serverName: "Folio"),
                           services: services, logger: logger)
    }
}
