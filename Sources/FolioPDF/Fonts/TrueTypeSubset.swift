import Foundation

/// A TrueType font cut down to the glyphs a document uses: those glyphs (with the components
/// of composite glyphs, and glyph 0, `.notdef`) renumbered from 0 in their original order,
/// `glyf`, `loca`, `hmtx`, `hhea`, `maxp` and `head` rebuilt, the hinting tables (`cvt `,
/// `fpgm`, `prep`) and `OS/2` kept, `post` reduced to its header (format 3). Text keeps
/// addressing glyphs by their original numbers (the CIDs of an Identity-H font); ``cidToGID``
/// maps them to the new ones, as a CIDFontType2's `/CIDToGIDMap` stream.
///
/// ```swift
/// let font = try TrueTypeFont(bytes: Array(try Data(contentsOf: dejaVuSans)))
/// let glyphs = Set("Dvořák".unicodeScalars.compactMap(font.glyph(for:)))
/// let subset = try TrueTypeSubset(font, glyphs: glyphs)
/// subset.bytes.count    // a few kilobytes instead of 750
/// ```
public struct TrueTypeSubset: Sendable {
    /// The subset's font program (a complete `.ttf`).
    public let bytes: [UInt8]
    /// Original glyph number → glyph number in the subset, for every glyph kept.
    public let newGlyph: [UInt16: UInt16]
    /// The largest original glyph number kept.
    public let largestOriginal: UInt16

    /// Composite glyphs nest at most this deep (the TrueType maximum in practice is a few).
    static let maxComponentDepth = 16

    /// Cuts `font` down to `glyphs` (original numbers; ones past the font's glyph count are
    /// ignored). A damaged `glyf`/`loca` (offsets out of order or outside the table, a
    /// composite glyph truncated, built from itself or nested more than 16 deep) is a
    /// ``PDFError/Code/damaged`` error.
    public init(_ font: TrueTypeFont, glyphs: Set<UInt16>) throws {
        let file = FontReader(bytes: font.data)
        let tables = try TrueTypeFont.tableDirectory(file)
        func table(_ tag: String) throws -> [UInt8] {
            guard let found = tables[tag] else { throw PDFError(.damaged, "the font has no \(tag) table") }
            return Array(font.data[found.offset..<(found.offset + found.length)])
        }
        let head = try table("head"), hhea = try table("hhea"), maxp = try table("maxp")
        let loca = FontReader(bytes: try table("loca")), glyf = try table("glyf"), hmtx = FontReader(bytes: try table("hmtx"))
        let glyphCount = try FontReader(bytes: maxp).u16(4)
        let longOffsets = try FontReader(bytes: head).i16(50) != 0
        let metricCount = try FontReader(bytes: hhea).u16(34)
        guard metricCount >= 1, metricCount <= glyphCount else { throw PDFError(.damaged, "the font's hhea metrics count is inconsistent") }

        // Where glyph `g`'s outline lies in glyf.
        func range(of glyph: Int) throws -> Range<Int> {
            let start = longOffsets ? try loca.u32(4 * glyph) : 2 * (try loca.u16(2 * glyph))
            let end = longOffsets ? try loca.u32(4 * glyph + 4) : 2 * (try loca.u16(2 * glyph + 2))
            guard start <= end, end <= glyf.count else {
                throw PDFError(.damaged, "the font's loca table puts glyph \(glyph) outside its glyf table")
            }
            return start..<end
        }

        // The glyphs to keep: those asked for, .notdef, and every component, once each. A
        // composite glyph built from itself (directly or through others) is damage: a viewer
        // drawing it would never finish.
        var kept: Set<Int> = []
        func keep(_ glyph: Int, within path: [Int]) throws {
            guard !path.contains(glyph) else {
                throw PDFError(.damaged, "glyph \(glyph) of the font is built from itself (through glyphs \(path.map(String.init).joined(separator: ", ")))")
            }
            guard kept.insert(glyph).inserted else { return }
            guard path.count < Self.maxComponentDepth else {
                throw PDFError(.damaged, "glyph \(path[0]) of the font nests components deeper than \(Self.maxComponentDepth)")
            }
            for component in try Self.components(of: glyf, try range(of: glyph), glyph: glyph) {
                guard component < glyphCount else {
                    throw PDFError(.damaged, "glyph \(glyph) of the font uses glyph \(component), past its \(glyphCount) glyphs")
                }
                try keep(component, within: path + [glyph])
            }
        }
        for glyph in [0] + glyphs.map(Int.init).sorted() where glyph < glyphCount { try keep(glyph, within: []) }
        let order = kept.sorted()
        var newGlyph: [UInt16: UInt16] = [:]
        for (new, old) in order.enumerated() { newGlyph[UInt16(old)] = UInt16(new) }

        // glyf and loca (long offsets), composite glyphs pointing at the new numbers.
        var newGlyf: [UInt8] = [], newLoca: [UInt8] = []
        var newHmtx: [UInt8] = []
        for old in order {
            newLoca.appendU32(newGlyf.count)
            var outline = Array(glyf[try range(of: old)])
            try Self.renumberComponents(&outline, glyph: old) { Int(newGlyph[UInt16($0)] ?? 0) }
            newGlyf += outline
            while newGlyf.count % 4 != 0 { newGlyf.append(0) }
            let advance = try hmtx.u16(4 * min(old, metricCount - 1))
            let bearing = old < metricCount ? try hmtx.u16(4 * old + 2) : try hmtx.u16(4 * metricCount + 2 * (old - metricCount))
            newHmtx.appendU16(advance)
            newHmtx.appendU16(bearing)
        }
        newLoca.appendU32(newGlyf.count)

        var newHead = head, newHhea = hhea, newMaxp = maxp
        guard newHead.count >= 54, newHhea.count >= 36, newMaxp.count >= 6 else {
            throw PDFError(.damaged, "the font's head, hhea or maxp table is truncated")
        }
        newHead.replaceU32(at: 8, 0)        // checkSumAdjustment, set once the file is complete
        newHead.replaceU16(at: 50, 1)       // indexToLocFormat: long offsets
        newHhea.replaceU16(at: 34, order.count)
        newMaxp.replaceU16(at: 4, order.count)

        var out: [String: [UInt8]] = [
            "head": newHead, "hhea": newHhea, "maxp": newMaxp, "hmtx": newHmtx, "loca": newLoca, "glyf": newGlyf,
        ]
        for tag in ["cvt ", "fpgm", "prep", "OS/2"] { if tables[tag] != nil { out[tag] = try table(tag) } }
        if tables["post"] != nil, var post = Optional(try table("post")), post.count >= 32 {
            post = Array(post.prefix(32))
            post.replaceU32(at: 0, 0x0003_0000)   // format 3: no glyph names
            out["post"] = post
        }
        var bytes = Self.assemble(out)
        let sum = Self.checksum(bytes)
        if let headAt = Self.tableOffset(of: "head", in: bytes) {
            bytes.replaceU32(at: headAt + 8, Int((0xB1B0_AFBA &- sum) & 0xFFFF_FFFF))
        }
        self.bytes = bytes
        self.newGlyph = newGlyph
        largestOriginal = UInt16(order.last ?? 0)
    }

    /// The `/CIDToGIDMap` stream's data: for every CID (original glyph number) up to the
    /// largest kept, the glyph number in the subset as two bytes (0 for glyphs not kept).
    public var cidToGID: [UInt8] {
        var map = [UInt8](repeating: 0, count: 2 * (Int(largestOriginal) + 1))
        for (old, new) in newGlyph {
            map[2 * Int(old)] = UInt8(new >> 8)
            map[2 * Int(old) + 1] = UInt8(new & 0xFF)
        }
        return map
    }

    /// A subset's tag for its PostScript name (six capital letters, "ABCDEF+Name"), the same
    /// for the same glyphs.
    public var tag: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for old in newGlyph.keys.sorted() {
            hash = (hash ^ UInt64(old)) &* 0x100_0000_01b3
        }
        var letters = ""
        for _ in 0..<6 {
            letters.append(Character(Unicode.Scalar(UInt8(65 + hash % 26))))
            hash /= 26
        }
        return letters
    }

    // MARK: Composite glyphs

    private static let argumentsAreWords: UInt16 = 0x0001
    private static let haveScale: UInt16 = 0x0008
    private static let moreComponents: UInt16 = 0x0020
    private static let haveXYScale: UInt16 = 0x0040
    private static let haveTwoByTwo: UInt16 = 0x0080

    /// The offsets of each component's glyph number in a composite glyph's outline, walking
    /// its records with bounds checks; empty for a simple glyph.
    private static func componentOffsets(_ outline: ArraySlice<UInt8>, glyph: Int) throws -> [Int] {
        guard outline.count >= 10 else { return [] }
        let base = outline.startIndex
        let contours = Int16(bitPattern: UInt16(outline[base]) << 8 | UInt16(outline[base + 1]))
        guard contours < 0 else { return [] }
        var offsets: [Int] = []
        var at = 10
        while true {
            guard at + 4 <= outline.count else {
                throw PDFError(.damaged, "composite glyph \(glyph) of the font is truncated")
            }
            let flags = UInt16(outline[base + at]) << 8 | UInt16(outline[base + at + 1])
            offsets.append(at + 2)
            at += 4 + (flags & argumentsAreWords != 0 ? 4 : 2)
            if flags & haveScale != 0 { at += 2 } else if flags & haveXYScale != 0 { at += 4 } else if flags & haveTwoByTwo != 0 { at += 8 }
            guard flags & moreComponents != 0 else { break }
            guard offsets.count < 1 << 12 else { throw PDFError(.damaged, "composite glyph \(glyph) of the font has too many components") }
        }
        guard at <= outline.count else { throw PDFError(.damaged, "composite glyph \(glyph) of the font is truncated") }
        return offsets
    }

    /// The glyph numbers a composite glyph is built from.
    private static func components(of glyf: [UInt8], _ range: Range<Int>, glyph: Int) throws -> [Int] {
        let outline = glyf[range]
        return try componentOffsets(outline, glyph: glyph).map { offset in
            Int(outline[outline.startIndex + offset]) << 8 | Int(outline[outline.startIndex + offset + 1])
        }
    }

    /// Rewrites a composite glyph's component numbers through `renumber`.
    private static func renumberComponents(_ outline: inout [UInt8], glyph: Int, _ renumber: (Int) -> Int) throws {
        for offset in try componentOffsets(outline[...], glyph: glyph) {
            let old = Int(outline[offset]) << 8 | Int(outline[offset + 1])
            outline.replaceU16(at: offset, renumber(old))
        }
    }

    // MARK: The file

    /// A font file of `tables`: the directory (tags in order, with checksums), then each
    /// table padded to four bytes.
    private static func assemble(_ tables: [String: [UInt8]]) -> [UInt8] {
        let tags = tables.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var power = 1, log = 0
        while power * 2 <= tags.count { power *= 2; log += 1 }
        var bytes: [UInt8] = []
        bytes.appendU32(0x0001_0000)
        bytes.appendU16(tags.count)
        bytes.appendU16(power * 16)
        bytes.appendU16(log)
        bytes.appendU16(tags.count * 16 - power * 16)
        var offset = 12 + 16 * tags.count
        var body: [UInt8] = []
        for tag in tags {
            let data = tables[tag] ?? []
            bytes += Array(tag.utf8)
            bytes.appendU32(Int(checksum(data)))
            bytes.appendU32(offset)
            bytes.appendU32(data.count)
            body += data
            while body.count % 4 != 0 { body.append(0) }
            offset = 12 + 16 * tags.count + body.count
        }
        return bytes + body
    }

    /// The sum of the data as big-endian 32-bit words (the last one zero-padded).
    private static func checksum(_ data: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var index = 0
        while index < data.count {
            var word: UInt32 = 0
            for byte in 0..<4 { word = word << 8 | UInt32(index + byte < data.count ? data[index + byte] : 0) }
            sum = sum &+ word
            index += 4
        }
        return sum
    }

    private static func tableOffset(of tag: String, in file: [UInt8]) -> Int? {
        let count = Int(file[4]) << 8 | Int(file[5])
        for index in 0..<count {
            let record = 12 + 16 * index
            if Array(file[record..<(record + 4)]) == Array(tag.utf8) {
                return Int(file[record + 8]) << 24 | Int(file[record + 9]) << 16 | Int(file[record + 10]) << 8 | Int(file[record + 11])
            }
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendU16(_ value: Int) {
        append(UInt8((value >> 8) & 0xFF))
        append(UInt8(value & 0xFF))
    }

    fileprivate mutating func appendU32(_ value: Int) {
        appendU16((value >> 16) & 0xFFFF)
        appendU16(value & 0xFFFF)
    }

    fileprivate mutating func replaceU16(at offset: Int, _ value: Int) {
        self[offset] = UInt8((value >> 8) & 0xFF)
        self[offset + 1] = UInt8(value & 0xFF)
    }

    fileprivate mutating func replaceU32(at offset: Int, _ value: Int) {
        replaceU16(at: offset, (value >> 16) & 0xFFFF)
        replaceU16(at: offset + 2, value & 0xFFFF)
    }
}
