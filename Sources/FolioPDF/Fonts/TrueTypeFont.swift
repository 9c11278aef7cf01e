import Foundation

/// A TrueType font file (`.ttf`, glyph outlines in a `glyf` table) read for embedding: its
/// character map, glyph advances and the figures a font descriptor needs. Every table is
/// bounds-checked; fonts whose licence forbids embedding (OS/2 `fsType` 2), collections
/// (`.ttc`) and CFF-flavoured OpenType (`OTTO`) are refused with a clear error.
///
/// ```swift
/// let font = try TrueTypeFont(bytes: Array(try Data(contentsOf: url)))
/// font.glyph(for: "ř")   // a glyph number, or nil when the font lacks the character
/// ```
public struct TrueTypeFont: Sendable, Equatable {
    /// The font's PostScript name (name table, ID 6), reduced to characters a PDF name keeps plainly.
    public let postScriptName: String
    /// The file as given.
    let data: [UInt8]
    let unitsPerEm: Int
    /// Advance widths by glyph number, in font units.
    let advances: [UInt16]
    /// Unicode scalar → glyph number.
    let characterMap: [UInt32: UInt16]
    let boundingBox: [Int]
    let ascent: Int
    let descent: Int
    let capHeight: Int
    let italicAngle: Double
    /// Whether every glyph has the same advance (post table), as in a typewriter face.
    public let isFixedPitch: Bool

    /// Font files larger than this are refused (the largest pan-Unicode fonts are about 25 MB).
    public static let maxBytes = 64 << 20

    public init(bytes: [UInt8]) throws {
        guard bytes.count <= TrueTypeFont.maxBytes else {
            throw PDFError(.limitExceeded, "the font file is \(bytes.count) bytes; at most \(TrueTypeFont.maxBytes) are read")
        }
        guard bytes.count >= 12 else { throw PDFError(.invalidArgument, "not a TrueType font (\(bytes.count) bytes)") }
        let reader = FontReader(bytes: bytes)
        let tag = try reader.tag(0)
        switch tag {
        case "ttcf": throw PDFError(.invalidArgument, "font collections (.ttc) are not supported; give one .ttf font")
        case "OTTO": throw PDFError(.invalidArgument, "OpenType fonts with CFF outlines are not supported; give a TrueType (.ttf) font")
        case "\u{0}\u{1}\u{0}\u{0}", "true": break
        default: throw PDFError(.invalidArgument, "not a TrueType font (the file starts with \"\(tag)\")")
        }
        let tables = try TrueTypeFont.tableDirectory(reader)
        var readers: [String: FontReader] = [:]
        for name in ["head", "hhea", "maxp", "hmtx", "OS/2", "post", "cmap", "name"] {
            if let found = tables[name] { readers[name] = FontReader(bytes: Array(bytes[found.offset..<(found.offset + found.length)])) }
        }
        let table = { (name: String) throws -> FontReader in
            guard let found = readers[name] else { throw PDFError(.damaged, "the font has no \(name) table") }
            return found
        }
        guard tables["glyf"] != nil else { throw PDFError(.invalidArgument, "the font has no TrueType outlines (glyf table)") }

        let head = try table("head")
        let units = try head.u16(18)
        guard (16...16384).contains(units) else { throw PDFError(.damaged, "the font's units per em (\(units)) are out of range") }
        unitsPerEm = units
        boundingBox = try [36, 38, 40, 42].map { try head.i16($0) * 1000 / units }

        let hhea = try table("hhea"), maxp = try table("maxp")
        let glyphCount = try maxp.u16(4)
        let metricCount = try hhea.u16(34)
        guard metricCount >= 1, metricCount <= glyphCount else { throw PDFError(.damaged, "the font's hhea metrics count is inconsistent") }
        let hmtx = try table("hmtx")
        var advances: [UInt16] = []
        advances.reserveCapacity(glyphCount)
        for glyph in 0..<metricCount { advances.append(UInt16(try hmtx.u16(4 * glyph))) }
        while advances.count < glyphCount { advances.append(advances[metricCount - 1]) }
        self.advances = advances

        var ascent = try hhea.i16(4), descent = try hhea.i16(6), capHeight = ascent
        var forbidden = false
        if let os2 = try? table("OS/2") {
            forbidden = (try os2.u16(8)) & 0x000F == 0x0002
            if let typoAscent = try? os2.i16(68), let typoDescent = try? os2.i16(70), typoAscent > 0 {
                ascent = typoAscent
                descent = typoDescent
            }
            if try os2.u16(0) >= 2, let height = try? os2.i16(88), height > 0 { capHeight = height }
        }
        guard !forbidden else { throw PDFError(.notPermitted, "the font's licence forbids embedding it (OS/2 fsType 2)") }
        self.ascent = ascent * 1000 / unitsPerEm
        self.descent = descent * 1000 / unitsPerEm
        self.capHeight = capHeight * 1000 / unitsPerEm

        if let post = try? table("post") {
            italicAngle = Double(try post.i32(4)) / 65536
            isFixedPitch = try post.u32(12) != 0
        } else {
            italicAngle = 0
            isFixedPitch = false
        }
        characterMap = try TrueTypeFont.readCharacterMap(try table("cmap"), glyphCount: glyphCount)
        guard !characterMap.isEmpty else { throw PDFError(.invalidArgument, "the font has no Unicode character map") }
        postScriptName = (try? table("name")).flatMap { TrueTypeFont.readPostScriptName($0) } ?? "EmbeddedFont"
        data = bytes
    }

    /// The table directory: each table's offset and length, checked to lie inside the file.
    static func tableDirectory(_ reader: FontReader) throws -> [String: (offset: Int, length: Int)] {
        let tableCount = try reader.u16(4)
        var tables: [String: (offset: Int, length: Int)] = [:]
        for index in 0..<tableCount {
            let record = 12 + 16 * index
            let offset = try reader.u32(record + 8), length = try reader.u32(record + 12)
            guard offset <= reader.bytes.count, length <= reader.bytes.count - offset else {
                throw PDFError(.damaged, "the font's \(try reader.tag(record)) table lies outside the file", offset: record)
            }
            tables[try reader.tag(record)] = (offset, length)
        }
        return tables
    }

    /// The glyph drawing `scalar`, nil when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> UInt16? {
        characterMap[scalar.value]
    }

    /// A glyph's advance in thousandths of the font size.
    func advance(of glyph: UInt16) -> Double {
        Double(advances[min(Int(glyph), advances.count - 1)]) * 1000 / Double(unitsPerEm)
    }

    /// The Windows Unicode subtable (format 12 for the full range, else format 4), or a Unicode-platform one.
    private static func readCharacterMap(_ cmap: FontReader, glyphCount: Int) throws -> [UInt32: UInt16] {
        let count = try cmap.u16(2)
        var candidates: [(rank: Int, offset: Int)] = []
        for index in 0..<count {
            let platform = try cmap.u16(4 + 8 * index), encoding = try cmap.u16(6 + 8 * index)
            let offset = try cmap.u32(8 + 8 * index)
            let format = try cmap.u16(offset)
            let rank: Int? = switch (platform, encoding, format) {
            case (3, 10, 12): 0
            case (0, _, 12): 1
            case (3, 1, 4): 2
            case (0, _, 4): 3
            default: nil
            }
            if let rank { candidates.append((rank, offset)) }
        }
        guard let best = candidates.min(by: { $0.rank < $1.rank }) else { return [:] }
        var map: [UInt32: UInt16] = [:]
        func add(_ code: UInt32, _ glyph: Int) {
            if glyph > 0, glyph < glyphCount, code <= 0x10FFFF { map[code] = UInt16(glyph) }
        }
        let offset = best.offset
        if try cmap.u16(offset) == 12 {
            let groups = try cmap.u32(offset + 12)
            guard groups <= 1 << 20 else { throw PDFError(.damaged, "the font's character map has \(groups) groups") }
            var total = 0
            for group in 0..<groups {
                let base = offset + 16 + 12 * group
                let first = try cmap.u32(base), last = try cmap.u32(base + 4), glyph = try cmap.u32(base + 8)
                guard first <= last, last <= 0x10FFFF else { continue }
                total += last - first + 1
                guard total <= 0x110000 else { throw PDFError(.damaged, "the font's character map overlaps itself") }
                for code in first...last { add(UInt32(code), glyph + code - first) }
            }
        } else {
            let segments = try cmap.u16(offset + 6) / 2
            let ends = offset + 14, starts = ends + 2 * segments + 2
            let deltas = starts + 2 * segments, rangeOffsets = deltas + 2 * segments
            var total = 0
            for segment in 0..<segments {
                let end = try cmap.u16(ends + 2 * segment), start = try cmap.u16(starts + 2 * segment)
                let delta = try cmap.u16(deltas + 2 * segment)
                let rangeOffsetAt = rangeOffsets + 2 * segment
                let rangeOffset = try cmap.u16(rangeOffsetAt)
                guard start <= end else { continue }
                // Segments cover the 65,536 BMP codes once; overlapping ones must not multiply the work.
                total += end - start + 1
                guard total <= 0x10000 else { throw PDFError(.damaged, "the font's character map segments overlap") }
                for code in start...end where code != 0xFFFF {
                    if rangeOffset == 0 {
                        add(UInt32(code), (code + delta) & 0xFFFF)
                    } else {
                        let glyph = try cmap.u16(rangeOffsetAt + rangeOffset + 2 * (code - start))
                        if glyph != 0 { add(UInt32(code), (glyph + delta) & 0xFFFF) }
                    }
                }
            }
        }
        return map
    }

    private static func readPostScriptName(_ name: FontReader) -> String? {
        guard let count = try? name.u16(2), let storage = try? name.u16(4) else { return nil }
        for index in 0..<count {
            let record = 6 + 12 * index
            guard let platform = try? name.u16(record), let id = try? name.u16(record + 6), id == 6,
                  let length = try? name.u16(record + 8), let offset = try? name.u16(record + 10),
                  let raw = try? name.slice(storage + offset, length) else { continue }
            let text = platform == 3 || platform == 0
                ? String(decoding: stride(from: 0, to: raw.count - 1, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) },
                         as: UTF16.self)
                : String(decoding: raw, as: UTF8.self)
            let kept = String(text.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && !"()<>[]{}/%#".unicodeScalars.contains($0) })
            if !kept.isEmpty { return String(kept.prefix(63)) }
        }
        return nil
    }
}

/// Big-endian reads from a font table that fail with an error instead of reading past its end.
struct FontReader {
    let bytes: [UInt8]

    private func check(_ offset: Int, _ count: Int) throws {
        guard offset >= 0, offset <= bytes.count - count else {
            throw PDFError(.damaged, "the font file is truncated or damaged (a read at \(offset) past its end)", offset: offset)
        }
    }

    func u16(_ offset: Int) throws -> Int {
        try check(offset, 2)
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    func i16(_ offset: Int) throws -> Int { Int(Int16(truncatingIfNeeded: try u16(offset))) }

    func u32(_ offset: Int) throws -> Int { try u16(offset) << 16 | u16(offset + 2) }

    func i32(_ offset: Int) throws -> Int { Int(Int32(truncatingIfNeeded: try u32(offset))) }

    func tag(_ offset: Int) throws -> String {
        try check(offset, 4)
        return String(decoding: bytes[offset..<(offset + 4)].map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
    }

    func slice(_ offset: Int, _ count: Int) throws -> [UInt8] {
        try check(offset, count)
        return Array(bytes[offset..<(offset + count)])
    }
}
