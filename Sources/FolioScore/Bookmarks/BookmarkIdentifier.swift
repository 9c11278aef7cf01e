import Crypto
import Foundation

/// Identifiers for bookmarks that come from places without one (a row of a CSV index):
/// name-based UUIDs (RFC 9562 version 5, SHA-1) of the row's title and pages, so the same
/// row gets the same identifier every time it is read, and importing an index twice
/// replaces its bookmarks instead of doubling them.
///
/// ```swift
/// BookmarkIdentifier.derived(title: "Blue Bossa", pages: 14...15, occurrence: 0)
/// // the same UUID string on every call
/// ```
public enum BookmarkIdentifier {
    /// Folio's namespace for bookmark identifiers (itself a version 5 UUID of
    /// "http://ns.folio.dev/score/1.0/bookmarks" in the URL namespace).
    static let namespace: [UInt8] = uuidBytes(
        name: "http://ns.folio.dev/score/1.0/bookmarks",
        // RFC 9562's URL namespace, 6ba7b811-9dad-11d1-80b4-00c04fd430c8.
        in: [0x6B, 0xA7, 0xB8, 0x11, 0x9D, 0xAD, 0x11, 0xD1, 0x80, 0xB4, 0x00, 0xC0, 0x4F, 0xD4, 0x30, 0xC8])

    /// The identifier of a bookmark named `title` over `pages`; `occurrence` tells apart
    /// rows that are otherwise the same (0 for the first).
    public static func derived(title: String, pages: ClosedRange<Int>, occurrence: Int) -> String {
        let name = "\(title)\u{1F}\(pages.lowerBound)\u{1F}\(pages.upperBound)\u{1F}\(occurrence)"
        let bytes = uuidBytes(name: name, in: namespace)
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                           bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])).uuidString
    }

    private static func uuidBytes(name: String, in namespace: [UInt8]) -> [UInt8] {
        var bytes = Array(Insecure.SHA1.hash(data: namespace + Array(name.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC variant
        return bytes
    }
}
