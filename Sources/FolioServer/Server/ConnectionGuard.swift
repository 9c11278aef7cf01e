#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// Open connections counted per client address and in all, so idle or slow sockets cannot
/// take every file descriptor the server has: a connection past ``Policy/perAddress`` from
/// one address, or past ``Policy/total`` in all, is closed as soon as it is accepted.
/// Trusted reverse proxies count only toward the total (everyone behind one comes from its
/// address).
///
/// ```swift
/// let connections = ConnectionLimits(policy: .init(total: 900))
/// if connections.admit("192.0.2.7") { /* … */ connections.release("192.0.2.7") }
/// ```
public final class ConnectionLimits: @unchecked Sendable {
    /// How many connections, and how long before a request's head must have come.
    ///
    /// ```swift
    /// let policy = ConnectionLimits.Policy(total: ConnectionLimits.Policy.total(descriptors: 1024))
    /// ```
    public struct Policy: Sendable {
        /// Open connections from one address: a browser opens six to a server, a rehearsal
        /// page one more, so 64 leave room for a dozen devices behind one router.
        public var perAddress = 64
        /// Open connections in all (see ``total(descriptors:)``).
        public var total: Int
        /// How long a new connection may take to send its first request's head, as nginx's
        /// `client_header_timeout` (60 s there; a browser sends it at once).
        public var firstHead: Duration = .seconds(10)
        /// How long a connection may stay silent between requests, or between two pieces of
        /// a request's body, as nginx's `keepalive_timeout` and `client_body_timeout`
        /// (Hummingbird's idle timeout; a request being answered is never cut).
        public var idle: Duration = .seconds(30)
        /// Addresses that count toward ``total`` only (`--trusted-proxy`).
        public var exempt: Set<String> = []

        public init(total: Int) {
            self.total = total
        }

        /// The policy for this process: its descriptor limit raised to the hard limit, and
        /// the total taken from it (``total(descriptors:)``).
        public static func forThisProcess() -> Policy {
            Policy(total: total(descriptors: ConnectionLimits.raiseDescriptorLimit()))
        }

        /// The connections a server may hold with `descriptors` file descriptors: a quarter
        /// of them, and at least 128, are kept for the library's files, the catalog, uploads
        /// and pdftoppm.
        ///
        /// ```swift
        /// ConnectionLimits.Policy.total(descriptors: 1024)   // 768
        /// ```
        public static func total(descriptors: Int) -> Int {
            let kept = max(128, descriptors / 4)
            return max(16, descriptors - kept)
        }
    }

    public let policy: Policy
    private var open: [String: Int] = [:]
    private var count = 0
    private let lock = NSLock()

    public init(policy: Policy) {
        self.policy = policy
    }

    /// Counts a new connection from `address`; false (and not counted) when it is one too many.
    public func admit(_ address: String) -> Bool {
        lock.withLock {
            guard count < policy.total else { return false }
            if !policy.exempt.contains(address) {
                let mine = open[address, default: 0]
                guard mine < policy.perAddress else { return false }
                open[address] = mine + 1
            }
            count += 1
            return true
        }
    }

    /// Forgets a connection ``admit(_:)`` counted.
    public func release(_ address: String) {
        lock.withLock {
            count -= 1
            if !policy.exempt.contains(address), let mine = open[address] {
                open[address] = mine > 1 ? mine - 1 : nil
            }
        }
    }

    /// Connections open now (in all, and from `address`).
    public func openConnections(from address: String? = nil) -> Int {
        lock.withLock { address.map { open[$0, default: 0] } ?? count }
    }

    /// Raises this process's soft limit of open files to its hard limit (Linux starts
    /// processes at 1,024) and returns the limit now in force.
    ///
    /// ```swift
    /// let policy = ConnectionLimits.Policy(total: .total(descriptors: ConnectionLimits.raiseDescriptorLimit()))
    /// ```
    @discardableResult
    public static func raiseDescriptorLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
        // A hard limit of "unlimited" is not a number of descriptors: 65,536 is plenty.
        let wanted = limits.rlim_max == rlim_t.max ? max(limits.rlim_cur, 65_536) : limits.rlim_max
        if wanted > limits.rlim_cur {
            var raised = limits
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return limits.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limits.rlim_cur)
    }
}

/// The first handler of every connection, on its raw bytes: it admits the connection under
/// ``ConnectionLimits`` (closing it at once when over a limit) and closes one whose first
/// request head (up to the blank line) has not come within ``ConnectionLimits/Policy/firstHead``.
/// After that head Hummingbird's idle timeout, or a rehearsal socket's pings, take over.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limits: ConnectionLimits
    private var address: String?
    private var admitted = false
    private var headSeen = false
    /// The last bytes read while the head was awaited (the blank line may span two reads).
    private var tail: [UInt8] = []
    private var deadline: Scheduled<Void>?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard address == nil else { return }
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        self.address = address
        guard limits.admit(address) else {
            context.close(promise: nil)
            return
        }
        admitted = true
        let seconds = limits.policy.firstHead.components
        let amount = TimeAmount.seconds(seconds.seconds) + .nanoseconds(seconds.attoseconds / 1_000_000_000)
        deadline = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: amount) { [weak self] in
            guard let self, !self.headSeen else { return }
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !headSeen {
            let buffer = unwrapInboundIn(data)
            if Self.endsHead(tail + (buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? [])) {
                headSeen = true
                deadline?.cancel()
                deadline = nil
                tail = []
            } else {
                let bytes = buffer.getBytes(at: max(buffer.readerIndex, buffer.writerIndex - 3), length: min(3, buffer.readableBytes)) ?? []
                tail = Array((tail + bytes).suffix(3))
            }
        }
        context.fireChannelRead(data)
    }

    /// A stop (SIGINT, SIGTERM) asks every connection to quiesce. One whose first request head
    /// has not come holds no request, and nothing behind this handler can hear the ask yet
    /// (HTTP's handlers are added once the head shows it is no WebSocket): it is closed here,
    /// or it would hold the stop until its deadline (a browser keeps such spare connections).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !headSeen {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    private func finish() {
        deadline?.cancel()
        deadline = nil
        if admitted, let address {
            admitted = false
            limits.release(address)
        }
    }

    /// Whether `bytes` hold the blank line that ends a request head (CRLF CRLF, or LF LF as
    /// lenient parsers take it).
    static func endsHead(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        for index in 1..<bytes.count where bytes[index] == 0x0A {
            if bytes[index - 1] == 0x0A { return true }
            if index >= 3, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D { return true }
        }
        return false
    }
}

/// A server child channel with ``ConnectionGuardHandler`` early in every connection's pipeline,
/// then `Inner`'s own setup (HTTP/1 with the rehearsal's WebSocket upgrade). Under HTTPS the TLS
/// handler comes first, so the guard reads the request head decrypted: its deadline covers the
/// handshake and the first head together, and a connection past its head is never cut.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let limits: ConnectionLimits
    /// The TLS context to serve with, or nil for plain HTTP.
    let tls: NIOSSLContext?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = limits, tls = tls
        return channel.eventLoop.makeCompletedFuture {
            if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
            try channel.pipeline.syncOperations.addHandler(ConnectionGuardHandler(limits: limits))
        }.flatMap { _ in
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(MalformedRequestAnswer())
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        var quieter = logger
        quieter.handler = ClosedBeforeRequestLog(inner: logger.handler)
        await inner.handle(value: value, logger: quieter)
    }
}

/// Answers a request head NIO's HTTP parser refuses (a raw non-ASCII byte in the path, a broken
/// header line) with 400 and closes the connection. Without it, a malformed first request on
/// a connection that may still become a WebSocket was never answered: its error reached no
/// handler, and the connection stayed open past every timeout.
final class MalformedRequestAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundOut = HTTPServerResponsePart

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        let body = ByteBuffer(string: #"{"error":{"message":"malformed request: the request line or a header is not HTTP/1.1"}}"#)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}

/// Passes every log line on, except the error HummingbirdWebSocket logs when a connection closes
/// before its first request: a refused or abandoned TLS handshake, a browser's spare
/// connection, a silent socket closed at its deadline. Under TLS that close reaches the upgrade
/// handler as `ChannelError.inappropriateOperationForState` (swift-nio#3209) instead of the
/// `inputClosed` it logs at trace; it is logged here at debug, as nothing an operator can act on.
struct ClosedBeforeRequestLog: LogHandler {
    var inner: any LogHandler

    func log(event: LogEvent) {
        var event = event
        if event.level == .error, event.message.description == "Error handling upgrade result",
           case .string(let type)? = event.metadata?["error.type"], type == "\(ChannelError.inappropriateOperationForState)" {
            guard inner.logLevel <= .debug else { return }
            event.level = .debug
        }
        inner.log(event: event)
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }
}
