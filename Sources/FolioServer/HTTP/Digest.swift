import FolioScore
import Foundation

/// A short, file-name-safe digest (FNV-1a, 64 bits, hex) for versions and cache keys —
/// not for security.
///
/// ```swift
/// Digest.fnv1a(Array("abc".utf8))   // "e71fa2190541574b"
/// ```
enum Digest {
    static func fnv1a<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// A version of what the catalog keeps (a setlist, a track list): the digest of its JSON
    /// (keys sorted), after `kind`, quoted as an entity tag (`"s1f…"`).
    static func entityTag<T: Encodable>(of value: T, kind: String) -> String {
        "\"\(kind)\(fnv1a((try? JSONCoding.data(value)) ?? Data()))\""
    }
}
