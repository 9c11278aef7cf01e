import FolioPDF
import Foundation

/// A ZIP-packaged office document (Word's DOCX, OpenDocument's ODT) checked before a
/// converter sees it: the central directory read, every entry's name (no `..`, no absolute
/// path, no duplicates), method (stored or deflate, not encrypted) and declared size checked
/// against the limits, then every entry inflated with its declared size as the cap — so a
/// zip bomb, whose entries claim little and inflate to much, fails here — and every XML part
/// refused when it has a DTD or entities (office XML never needs them).
///
/// ```swift
/// let package = try OfficePackage(bytes: Array(try Data(contentsOf: docxURL)))
/// package.format          // .docx
/// try package.check()     // throws ScoreError naming the limit a part breaks
/// ```
public struct OfficePackage: Sendable {
    /// The kinds of package Folio converts.
    ///
    /// ```swift
    /// OfficePackage.Format.odt.fileExtension   // "odt"
    /// ```
    public enum Format: String, Sendable {
        case docx, odt

        public var fileExtension: String { rawValue }
    }

    /// One file in the package, as the central directory lists it.
    ///
    /// ```swift
    /// let parts = try OfficePackage(bytes: bytes).entries.map(\.name)   // ["[Content_Types].xml", "word/document.xml", …]
    /// ```
    public struct Entry: Sendable, Equatable {
        public var name: String
        /// 0 stored, 8 deflate.
        public var method: Int
        public var compressedSize: Int
        public var size: Int
        /// Offset of the entry's local header.
        public var offset: Int
    }

    /// The most entries a package may have.
    public static let maxEntries = 10_000
    /// The most all entries together may inflate to.
    public static let maxTotalSize = 512 << 20
    /// The most one entry may inflate to.
    public static let maxEntrySize = 256 << 20
    /// The most an entry above 1 MiB may inflate to per compressed byte (text compresses
    /// about 10:1; a bomb a thousand times more).
    public static let maxRatio = 200

    public let bytes: [UInt8]
    public let entries: [Entry]
    /// DOCX or ODT; nil for another ZIP (a spreadsheet, an e-book, an archive).
    public let format: Format?

    /// Reads the central directory of `bytes` and checks each entry's name, method and
    /// declared size; throws ``ScoreError`` `.malformed` for a file that is not a ZIP or is
    /// damaged, `.limitExceeded` past the limits (the message names the valid range).
    public init(bytes: [UInt8]) throws {
        self.bytes = bytes
        let directory = try Self.directory(of: bytes)
        var entries: [Entry] = []
        var names = Set<String>()
        var total = 0
        var position = directory.offset
        for _ in 0..<directory.count {
            guard position + 46 <= bytes.count, Self.u32(bytes, position) == 0x0201_4B50 else {
                throw ScoreError(.malformed, "the ZIP's central directory is damaged at byte \(position)")
            }
            let flags = Self.u16(bytes, position + 8), method = Self.u16(bytes, position + 10)
            let compressed = Self.u32(bytes, position + 20), size = Self.u32(bytes, position + 24)
            let nameLength = Self.u16(bytes, position + 28), extra = Self.u16(bytes, position + 30)
            let comment = Self.u16(bytes, position + 32), offset = Self.u32(bytes, position + 42)
            guard position + 46 + nameLength <= bytes.count else {
                throw ScoreError(.malformed, "the ZIP's central directory is cut short at byte \(position)")
            }
            let name = String(decoding: bytes[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            if let refusal = Self.refusal(ofName: name) { throw ScoreError(.malformed, "the ZIP entry \"\(name)\" \(refusal)") }
            guard names.insert(name).inserted else { throw ScoreError(.malformed, "the ZIP names \"\(name)\" twice") }
            guard flags & 1 == 0 else { throw ScoreError(.malformed, "the document is encrypted (\(name)); Folio converts documents without a password") }
            guard method == 0 || method == 8 else {
                throw ScoreError(.malformed, "the ZIP entry \"\(name)\" is compressed with method \(method) (valid: 0 stored, 8 deflate)")
            }
            guard compressed != 0xFFFF_FFFF, size != 0xFFFF_FFFF, offset != 0xFFFF_FFFF else {
                throw ScoreError(.limitExceeded, "the ZIP entry \"\(name)\" is in ZIP64 form (valid: entries below 4 GiB)")
            }
            guard size <= Self.maxEntrySize else {
                throw ScoreError(.limitExceeded, "the ZIP entry \"\(name)\" inflates to \(size) bytes (valid: up to \(Self.maxEntrySize))")
            }
            if size > 1 << 20, size / max(compressed, 1) > Self.maxRatio {
                throw ScoreError(.limitExceeded,
                                 "the ZIP entry \"\(name)\" inflates \(size / max(compressed, 1)) times its size (valid: up to \(Self.maxRatio); a zip bomb?)")
            }
            total += size
            guard total <= Self.maxTotalSize else {
                throw ScoreError(.limitExceeded, "the ZIP's entries inflate to more than \(Self.maxTotalSize) bytes (valid: up to \(Self.maxTotalSize))")
            }
            entries.append(Entry(name: name, method: method, compressedSize: compressed, size: size, offset: offset))
            position += 46 + nameLength + extra + comment
        }
        self.entries = entries
        var format: Format?
        if let mimetype = entries.first(where: { $0.name == "mimetype" }), mimetype.size < 200,
           let data = try? Self.data(of: mimetype, in: bytes),
           String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
               .hasPrefix("application/vnd.oasis.opendocument.text") {
            format = .odt
        } else if names.contains("[Content_Types].xml"), names.contains("word/document.xml") {
            format = .docx
        }
        self.format = format
    }

    /// Inflates every entry (each capped at its declared size, which it must match) and
    /// refuses an XML part with a DTD or entities. Throws ``ScoreError``.
    public func check() throws {
        for entry in entries {
            let data = try Self.data(of: entry, in: bytes)
            guard data.count == entry.size else {
                throw ScoreError(.malformed, "the ZIP entry \"\(entry.name)\" inflates to \(data.count) bytes, not the \(entry.size) it declares")
            }
            let lower = entry.name.lowercased()
            if lower.hasSuffix(".xml") || lower.hasSuffix(".rels") || lower.hasSuffix(".rdf") {
                if Self.contains(data, "<!DOCTYPE") || Self.contains(data, "<!ENTITY") {
                    throw ScoreError(.malformed, "the part \(entry.name) declares a DTD or entities; office documents never need them")
                }
            }
        }
    }

    /// The inflated data of `entry`, at most its declared size (a byte more is an error).
    static func data(of entry: Entry, in bytes: [UInt8]) throws -> [UInt8] {
        let local = entry.offset
        guard local + 30 <= bytes.count, u32(bytes, local) == 0x0403_4B50 else {
            throw ScoreError(.malformed, "the ZIP entry \"\(entry.name)\" has no local header at byte \(local)")
        }
        let start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28)
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw ScoreError(.malformed, "the ZIP entry \"\(entry.name)\" runs past the end of the file")
        }
        let raw = Array(bytes[start..<(start + entry.compressedSize)])
        if entry.method == 0 { return raw }
        do {
            return try RawDeflate.decompress(raw, limit: entry.size)
        } catch let error as PDFError {
            throw ScoreError(error.code == .limitExceeded ? .limitExceeded : .malformed,
                             "the ZIP entry \"\(entry.name)\": \(error.message) (it declares \(entry.size) bytes)")
        }
    }

    /// Why an entry's name is refused: a path out of the package, or characters no office
    /// suite writes.
    static func refusal(ofName name: String) -> String? {
        if name.isEmpty || name.utf8.count > 1024 { return "has no name or a name past 1,024 bytes" }
        if PathName.isAbsolute(name, windows: true) { return "is an absolute path" }
        if PathName.climbs(name, separators: "/\\") { return "leads out of the package (..)" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 }) { return "has control characters in its name" }
        return nil
    }

    /// The end-of-central-directory record: how many entries, and where they start.
    static func directory(of bytes: [UInt8]) throws -> (count: Int, offset: Int) {
        guard bytes.count >= 22 else { throw ScoreError(.malformed, "the file is too short to be a ZIP") }
        var position = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        while position >= lowest {
            if u32(bytes, position) == 0x0605_4B50 {
                let count = u16(bytes, position + 10), size = u32(bytes, position + 12), offset = u32(bytes, position + 16)
                guard count != 0xFFFF, offset != 0xFFFF_FFFF else {
                    throw ScoreError(.limitExceeded, "the ZIP is in ZIP64 form (valid: up to 65,535 entries below 4 GiB)")
                }
                guard u16(bytes, position + 4) == 0, u16(bytes, position + 6) == 0 else {
                    throw ScoreError(.malformed, "the ZIP spans several disks")
                }
                guard count <= maxEntries else {
                    throw ScoreError(.limitExceeded, "the ZIP has \(count) entries (valid: up to \(maxEntries))")
                }
                guard offset + size <= position else {
                    throw ScoreError(.malformed, "the ZIP's central directory lies past its end record")
                }
                return (count, offset)
            }
            position -= 1
        }
        throw ScoreError(.malformed, "the file has no ZIP end record")
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> Int {
        guard at >= 0, at + 2 <= bytes.count else { return 0 }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> Int {
        guard at >= 0, at + 4 <= bytes.count else { return 0 }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }

    static func contains(_ data: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard data.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        while index <= data.count - needle.count {
            if data[index] == first, data[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
