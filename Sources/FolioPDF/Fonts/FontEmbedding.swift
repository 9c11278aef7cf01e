import Foundation

/// The objects that embed a TrueType font in a new file: a Type0 font (Identity-H, two-byte
/// glyph numbers: the font's own, as CIDs), its CIDFontType2 with the widths of the glyphs
/// used, a font descriptor, the font program cut down to those glyphs (``TrueTypeSubset``,
/// FontFile2, its name tagged "ABCDEF+" as subsets are), the `/CIDToGIDMap` from the font's
/// glyph numbers to the subset's, and a ToUnicode CMap so text extracts as written.
enum FontEmbedding {
    static func embed(_ font: TrueTypeFont, glyphs: [UInt16: String], as number: Int, allocate: () -> Int,
                      store: (Int, PDFObject) -> Void) throws {
        let subset = try TrueTypeSubset(font, glyphs: Set(glyphs.keys))
        let name = subset.tag + "+" + font.postScriptName
        let program = try FlateFilter.encode(subset.bytes)
        let fileNumber = allocate()
        store(fileNumber, .stream(PDFStream(dictionary: [
            "Filter": .name("FlateDecode"), "Length": .integer(program.count), "Length1": .integer(subset.bytes.count),
        ], encodedData: program)))
        let map = try FlateFilter.encode(subset.cidToGID)
        let mapNumber = allocate()
        store(mapNumber, .stream(PDFStream(dictionary: ["Filter": .name("FlateDecode"), "Length": .integer(map.count)],
                                           encodedData: map)))

        // Flags: nonsymbolic (bit 6), fixed pitch (bit 1), italic (bit 7).
        let flags = 32 | (font.isFixedPitch ? 1 : 0) | (font.italicAngle != 0 ? 64 : 0)
        let descriptorNumber = allocate()
        store(descriptorNumber, .dictionary([
            "Type": .name("FontDescriptor"), "FontName": .name(name), "Flags": .integer(flags),
            "FontBBox": .array(font.boundingBox.map { .integer($0) }), "ItalicAngle": .real(PDFReal(font.italicAngle)),
            "Ascent": .integer(font.ascent), "Descent": .integer(font.descent), "CapHeight": .integer(font.capHeight),
            "StemV": .integer(80), "FontFile2": .reference(PDFReference(number: fileNumber)),
        ]))

        let used = glyphs.keys.sorted()
        var widths: [PDFObject] = []
        for glyph in used {
            widths += [.integer(Int(glyph)), .array([.integer(Int(font.advance(of: glyph).rounded()))])]
        }
        let descendantNumber = allocate()
        store(descendantNumber, .dictionary([
            "Type": .name("Font"), "Subtype": .name("CIDFontType2"), "BaseFont": .name(name),
            "CIDSystemInfo": .dictionary(["Registry": .string(PDFString(Array("Adobe".utf8))),
                                          "Ordering": .string(PDFString(Array("Identity".utf8))), "Supplement": .integer(0)]),
            "FontDescriptor": .reference(PDFReference(number: descriptorNumber)),
            "DW": .integer(Int(font.advance(of: 0).rounded())), "W": .array(widths), "CIDToGIDMap": .reference(PDFReference(number: mapNumber)),
        ]))

        let cmap = try FlateFilter.encode(toUnicode(glyphs, used: used))
        let cmapNumber = allocate()
        store(cmapNumber, .stream(PDFStream(dictionary: ["Filter": .name("FlateDecode"), "Length": .integer(cmap.count)],
                                            encodedData: cmap)))
        store(number, .dictionary([
            "Type": .name("Font"), "Subtype": .name("Type0"), "BaseFont": .name(name),
            "Encoding": .name("Identity-H"), "DescendantFonts": .array([.reference(PDFReference(number: descendantNumber))]),
            "ToUnicode": .reference(PDFReference(number: cmapNumber)),
        ]))
    }

    /// Notes in `glyphs` the character each glyph of `encoded` (two-byte glyph numbers, one
    /// per scalar of `text`) stands for, for the font's ToUnicode map; a glyph keeps the
    /// first character noted for it.
    static func note(_ encoded: [UInt8], for text: String, in glyphs: inout [UInt16: String]) {
        for (index, scalar) in text.unicodeScalars.enumerated() where 2 * index + 1 < encoded.count {
            let glyph = UInt16(encoded[2 * index]) << 8 | UInt16(encoded[2 * index + 1])
            if glyphs[glyph] == nil { glyphs[glyph] = String(scalar) }
        }
    }

    /// The text a glyph stands for: an Arabic presentation form (drawn for a joined letter,
    /// ``ArabicShaping``) as the letters typed, anything else as itself.
    private static func logical(_ text: String) -> String {
        guard let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1,
              let letters = ArabicShaping.logicalText(of: scalar) else { return text }
        return letters
    }

    /// A ToUnicode CMap mapping each two-byte glyph number to the UTF-16 of its character.
    private static func toUnicode(_ glyphs: [UInt16: String], used: [UInt16]) -> [UInt8] {
        func hex(_ units: some Sequence<UInt16>) -> String { units.map { String(format: "%04X", $0) }.joined() }
        var text = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """
        // At most 100 mappings per block, as the CMap format requires.
        for start in stride(from: 0, to: used.count, by: 100) {
            let block = used[start..<min(start + 100, used.count)]
            text += "\(block.count) beginbfchar\n"
            for glyph in block { text += "<\(hex([glyph]))> <\(hex(logical(glyphs[glyph] ?? "").utf16))>\n" }
            text += "endbfchar\n"
        }
        text += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
        return Array(text.utf8)
    }
}

/// The objects of a font embedded in a document's pending update: its Type0 font first, then
/// the objects it refers to, and the glyphs its subset holds.
struct EmbeddedFontObjects {
    var glyphs: [UInt16: String]
    var numbers: [Int]
}

extension PDFDocument {
    /// Embeds `font` as a subset of `glyphs` (with the characters each stands for) in this
    /// document's next update, and returns the reference of its Type0 font. The same font
    /// embedded again in the same update is the same objects, its subset grown to the glyphs
    /// of both, so many annotations in one font cost one font.
    ///
    /// ```swift
    /// let reference = try document.embedFont(dejaVu, glyphs: [glyph: "ř"])
    /// ```
    public func embedFont(_ font: TrueTypeFont, glyphs: [UInt16: String]) throws -> PDFReference {
        let key = font.postScriptName + ":\(font.data.count)"
        let known = embeddedFonts[key]
        let merged = known.map { $0.glyphs.merging(glyphs) { current, _ in current } } ?? glyphs
        if let known, let type0 = known.numbers.first, merged.count == known.glyphs.count { return PDFReference(number: type0) }
        // Embedded again with more glyphs: the same objects, rewritten (earlier appearances keep
        // their reference); first time: new ones.
        let type0 = known?.numbers.first ?? add(.null).number
        var reused = (known?.numbers.dropFirst() ?? []).makeIterator()
        var numbers = [type0]
        try FontEmbedding.embed(font, glyphs: merged, as: type0, allocate: {
            let number = reused.next() ?? add(.null).number
            numbers.append(number)
            return number
        }, store: { replace(PDFReference(number: $0), with: $1) })
        embeddedFonts[key] = EmbeddedFontObjects(glyphs: merged, numbers: numbers)
        return PDFReference(number: type0)
    }

    /// The font file at `path` (one of ``SystemFonts``' candidates), read once per document;
    /// nil when it is missing or not a font Folio can embed.
    func systemFont(_ path: String) -> TrueTypeFont? {
        if let known = fontFiles[path] { return known }
        let font = SystemFonts.read(path)
        fontFiles[path] = font
        return font
    }
}
