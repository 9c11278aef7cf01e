import Foundation

/// The names a browser may use to reach this server — the `Host` (and `Origin`) a request
/// must carry. A page from another site whose name an attacker re-points at this machine
/// (DNS rebinding) sends its own name as `Host`, so it is turned away before it can read
/// or change the library.
///
/// Allowed: the address the server listens on, `localhost`, `127.0.0.1`, `[::1]`, and the
/// names given with `--allow-host` (in any script: kept as browsers send them, see ``HostName``); when it listens on every address (`0.0.0.0`, `::`), any
/// address written as numbers (no DNS name is involved, so nothing can be rebound) and the
/// machine's own host name (and `NAME.local`).
///
/// ```swift
/// let hosts = AllowedHosts(listening: "127.0.0.1", extra: ["music.example.org"])
/// hosts.allows(authority: "localhost:8080")            // true
/// hosts.allows(authority: "attacker.example:8080")     // false
/// ```
public struct AllowedHosts: Sendable, Equatable {
    public private(set) var names: Set<String>
    /// Whether any numeric address is allowed (the server listens on all of them).
    public let anyAddress: Bool

    public init(listening host: String, extra: [String] = []) {
        let bound = Self.hostPart(host)
        anyAddress = bound == "0.0.0.0" || bound == "::" || bound.isEmpty
        names = Set(["localhost", "127.0.0.1", "::1", bound] + extra.map { HostName.ascii(Self.hostPart($0)) ?? Self.hostPart($0) })
        if anyAddress, let own = Self.machineName() {
            names.insert(own)
            if !own.contains(".") { names.insert(own + ".local") }
        }
    }

    /// Whether a `Host` value (name or address, with or without a port) is one of ours.
    public func allows(authority: String) -> Bool {
        let host = Self.hostPart(authority)
        if names.contains(host) { return true }
        return anyAddress && Self.isNumericAddress(host)
    }

    /// Whether an `Origin` (`scheme://host[:port]`) names one of ours; `null` never does.
    public func allows(origin: String) -> Bool {
        guard let range = origin.range(of: "://"), origin.hasPrefix("http") else { return false }
        return allows(authority: String(origin[range.upperBound...]))
    }

    /// The host of `host[:port]` or `[v6]:port`, lower-cased, without a final dot.
    public static func hostPart(_ authority: String) -> String {
        var host = authority.lowercased()
        if host.hasPrefix("[") {
            host = String(host.dropFirst().prefix { $0 != "]" })
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            host = String(host[..<colon])
        }
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }

    /// Whether `host` is an IPv4 or IPv6 address written as numbers.
    public static func isNumericAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Whether listening on `host` reaches this machine only: an address in 127.0.0.0/8 or
    /// `::1` (also written as `::ffff:127.x.y.z`), or a name every address of which is one
    /// (`localhost`). Decided from addresses, never from spelling: a name that merely begins
    /// with `127.` is looked up like any other, and one that cannot be looked up is not loopback.
    ///
    /// ```swift
    /// AllowedHosts.isLoopback("127.0.0.2")          // true
    /// AllowedHosts.isLoopback("127.example.org")    // false (unless it resolves to loopback only)
    /// ```
    public static func isLoopback(_ host: String) -> Bool {
        let bare = hostPart(host)
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return isLoopback(v4) }
        if inet_pton(AF_INET6, bare, &v6) == 1 { return isLoopback(v6) }
        guard !bare.isEmpty else { return false }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(bare, nil, &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(first) }
        var node: UnsafeMutablePointer<addrinfo>? = first
        var found = false
        while let entry = node {
            defer { node = entry.pointee.ai_next }
            guard let address = entry.pointee.ai_addr else { return false }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let loop = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { isLoopback($0.pointee.sin_addr) }
                guard loop else { return false }
            case AF_INET6:
                let loop = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { isLoopback($0.pointee.sin6_addr) }
                guard loop else { return false }
            default:
                return false
            }
            found = true
        }
        return found
    }

    private static func isLoopback(_ address: in_addr) -> Bool {
        UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    private static func isLoopback(_ address: in6_addr) -> Bool {
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return true }
        // An IPv4-mapped address (::ffff:a.b.c.d) is loopback when its IPv4 part is.
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    static func machineName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        return name.isEmpty ? nil : name
    }
}
