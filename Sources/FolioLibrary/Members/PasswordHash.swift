import _CryptoExtras
import Crypto
import Foundation

/// A member's password as the catalog keeps it: scrypt (memory-hard: 32 MiB a try with the
/// defaults), a random salt, in one text `scrypt$LOG2N$R$P$SALT$KEY` (base64). A stored hash
/// whose parameters are out of range (a damaged or tampered catalog) verifies nothing rather
/// than asking for unbounded memory.
///
/// ```swift
/// let stored = try PasswordHash.make("Smetana – Vltava 1874")
/// PasswordHash.verify("Smetana – Vltava 1874", stored: stored)   // true
/// ```
public enum PasswordHash {
    /// scrypt's cost as a power of two, and its block size and parallelism (RFC 7914's
    /// interactive-login parameters: N = 2^15, r = 8, p = 1).
    public struct Cost: Sendable, Equatable {
        public var log2N: Int = 15
        public var blockSize: Int = 8
        public var parallelism: Int = 1
        public init() {}

        /// The bounds a stored hash must keep: N up to 2^20 (1 GiB with r = 8), r up to 16,
        /// p up to 4.
        var isSane: Bool { (10...20).contains(log2N) && (1...16).contains(blockSize) && (1...4).contains(parallelism) }
        /// scrypt's memory: 128 · r · N bytes.
        var memory: Int { 128 * blockSize << log2N }
    }

    /// Passwords: 8 to 1,024 characters besides the white space around them, no control
    /// characters (a password of spaces is no password).
    public static let minLength = 8
    public static let maxBytes = 1_024

    /// `password` checked as ``minLength`` and ``maxBytes`` say; `.invalidArgument` saying why.
    public static func checked(_ password: String) throws -> String {
        let trimmed = password.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= minLength else {
            throw LibraryError(.invalidArgument, trimmed.isEmpty ? "the password is only white space"
                : "the password has \(trimmed.count) characters; at least \(minLength) are needed")
        }
        guard trimmed.utf8.count <= maxBytes else {
            throw LibraryError(.invalidArgument, "the password is longer than \(maxBytes) bytes")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw LibraryError(.invalidArgument, "the password holds a control character")
        }
        return trimmed
    }

    /// The stored form of `password` (checked first), with a fresh 16-byte salt.
    public static func make(_ password: String, cost: Cost = Cost()) throws -> String {
        let password = try checked(password)
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let key = try derive(password, salt: salt, cost: cost)
        return ["scrypt", String(cost.log2N), String(cost.blockSize), String(cost.parallelism),
                Data(salt).base64EncodedString(), key.base64EncodedString()].joined(separator: "$")
    }

    /// Whether `password` is the one `stored` was made from; false for a stored text that is
    /// not this form or whose cost is out of bounds.
    public static func verify(_ password: String, stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt",
              let log2N = Int(parts[1]), let blockSize = Int(parts[2]), let parallelism = Int(parts[3]),
              let salt = Data(base64Encoded: String(parts[4])), let expected = Data(base64Encoded: String(parts[5])),
              (8...64).contains(salt.count), (16...64).contains(expected.count) else { return false }
        var cost = Cost()
        cost.log2N = log2N
        cost.blockSize = blockSize
        cost.parallelism = parallelism
        guard cost.isSane, password.utf8.count <= maxBytes,
              let key = try? derive(password.trimmingCharacters(in: .whitespacesAndNewlines), salt: Array(salt), cost: cost,
                                    length: expected.count) else { return false }
        // Compared in constant time.
        return zip(key, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0 && key.count == expected.count
    }

    private static func derive(_ password: String, salt: [UInt8], cost: Cost, length: Int = 32) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: salt, outputByteCount: length, rounds: 1 << cost.log2N,
                                           blockSize: cost.blockSize, parallelism: cost.parallelism,
                                           maxMemory: cost.memory * cost.parallelism + 1 << 20)
        return key.withUnsafeBytes { Data($0) }
    }
}

/// Random secrets (sessions, invitations) and the form the catalog keeps them in: only their
/// SHA-256, so a copy of the catalog opens no session.
///
/// ```swift
/// let token = SecretToken.make()          // 43 characters of base64url
/// let kept = SecretToken.digest(token)    // what the catalog stores
/// ```
public enum SecretToken {
    /// 32 random bytes in base64url without padding.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The hex SHA-256 of `token`.
    public static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `text` has a token's form (43 base64url characters): anything else is refused
    /// before the catalog is asked.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }
    }
}
