import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// Subsets of DejaVu Sans (Debian's fonts-dejavu-core) checked by fontTools: every glyph kept
/// draws exactly what the original draws (composites decomposed) with the same advance, the
/// file's checksums hold; damaged fonts are refused with the damage named.
final class TrueTypeSubsetTests: XCTestCase {
    private let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-subset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func original() throws -> [UInt8] {
        guard FileManager.default.fileExists(atPath: dejaVu) else {
            throw TestFailure("\(dejaVu) is missing: install Debian's fonts-dejavu-core (bash .ci/install-deps does)")
        }
        return Array(try Data(contentsOf: URL(fileURLWithPath: dejaVu)))
    }

    func testEveryGlyphKeptDrawsAsInTheFont() throws {
        let font = try TrueTypeFont(bytes: try original())
        // Czech, Greek, Russian (ё and ř are composites in DejaVu), music signs, a ligature.
        let text = "Dvořák Ελληνικά Русский ёжик Šárka ů ǖ ♩ ♯ ♭ ﬁ"
        let glyphs = Set(text.unicodeScalars.compactMap(font.glyph(for:)))
        let subset = try TrueTypeSubset(font, glyphs: glyphs)
        XCTAssertTrue(glyphs.allSatisfy { subset.newGlyph[$0] != nil })
        XCTAssertEqual(subset.newGlyph[0], 0, ".notdef stays glyph 0")
        XCTAssertLessThan(subset.bytes.count, font.data.count / 20, "\(subset.bytes.count) of \(font.data.count) bytes")
        let file = folder.appendingPathComponent("subset.ttf")
        try Data(subset.bytes).write(to: file)

        let pairs = subset.newGlyph.map { [Int($0.key), Int($0.value)] }
        let script = """
            import json, sys
            from fontTools.ttLib import TTFont
            from fontTools.pens.recordingPen import DecomposingRecordingPen
            original = TTFont(sys.argv[1])
            subset = TTFont(sys.argv[2], checkChecksums=2)   # a wrong table checksum raises
            pairs = json.loads(sys.argv[3])
            old_order, new_order = original.getGlyphOrder(), subset.getGlyphOrder()
            old_set, new_set = original.getGlyphSet(), subset.getGlyphSet()
            differing, composites = [], 0
            for old, new in pairs:
                a, b = DecomposingRecordingPen(old_set), DecomposingRecordingPen(new_set)
                old_set[old_order[old]].draw(a)
                new_set[new_order[new]].draw(b)
                if a.value != b.value or original["hmtx"][old_order[old]][0] != subset["hmtx"][new_order[new]][0]:
                    differing.append(old)
                if subset["glyf"][new_order[new]].isComposite():
                    composites += 1
            print(json.dumps({"glyphs": subset["maxp"].numGlyphs, "differing": differing, "composites": composites}))
            """
        let run = try TestEnvironment.runTool("python3", ["-c", script, dejaVu, file.path,
                                                          String(decoding: try JSONSerialization.data(withJSONObject: pairs), as: UTF8.self)])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        let result = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any] ?? [:]
        XCTAssertEqual(result["glyphs"] as? Int, subset.newGlyph.count)
        XCTAssertEqual(result["differing"] as? [Int], [])
        XCTAssertGreaterThan(result["composites"] as? Int ?? 0, 0, "the text must exercise composite glyphs")

        // The CIDToGIDMap sends each original number to its new one.
        let map = subset.cidToGID
        for (old, new) in subset.newGlyph {
            XCTAssertEqual(UInt16(map[2 * Int(old)]) << 8 | UInt16(map[2 * Int(old) + 1]), new)
        }
        XCTAssertEqual(map.count, 2 * (Int(subset.largestOriginal) + 1))
    }

    /// Where a table lies in the font file, and its glyph's outline.
    private func locate(_ bytes: [UInt8], glyph: Int) throws -> (loca: Int, glyf: Int, long: Bool, outline: Range<Int>) {
        let tables = try TrueTypeFont.tableDirectory(FontReader(bytes: bytes))
        let head = try XCTUnwrap(tables["head"]), loca = try XCTUnwrap(tables["loca"]), glyf = try XCTUnwrap(tables["glyf"])
        let reader = FontReader(bytes: bytes)
        let long = try reader.i16(head.offset + 50) != 0
        let start = long ? try reader.u32(loca.offset + 4 * glyph) : 2 * (try reader.u16(loca.offset + 2 * glyph))
        let end = long ? try reader.u32(loca.offset + 4 * glyph + 4) : 2 * (try reader.u16(loca.offset + 2 * glyph + 2))
        return (loca.offset, glyf.offset, long, (glyf.offset + start)..<(glyf.offset + end))
    }

    func testDamagedFontsAreRefusedWithTheDamageNamed() throws {
        let bytes = try original()
        let font = try TrueTypeFont(bytes: bytes)
        let r = try XCTUnwrap(font.glyph(for: "ř"))
        let located = try locate(bytes, glyph: Int(r))
        let reader = FontReader(bytes: bytes)
        XCTAssertLessThan(try reader.i16(located.outline.lowerBound), 0, "ř is a composite glyph in DejaVu Sans")

        func refusal(_ damaged: [UInt8]) -> String? {
            do {
                _ = try TrueTypeSubset(try TrueTypeFont(bytes: damaged), glyphs: [r])
                return nil
            } catch let error as PDFError {
                return error.code == .damaged ? error.message : "wrong code \(error.code): \(error.message)"
            } catch {
                return "\(error)"
            }
        }

        // A composite built from itself.
        var loop = bytes
        loop[located.outline.lowerBound + 12] = UInt8(r >> 8)
        loop[located.outline.lowerBound + 13] = UInt8(r & 0xFF)
        XCTAssertTrue(refusal(loop)?.contains("built from itself") ?? false, refusal(loop) ?? "accepted")

        // A component past the font's glyphs.
        var past = bytes
        past[located.outline.lowerBound + 12] = 0xFF
        past[located.outline.lowerBound + 13] = 0xFE
        XCTAssertTrue(refusal(past)?.contains("past its") ?? false, refusal(past) ?? "accepted")

        // loca sending the glyph beyond glyf.
        var outside = bytes
        let entry = located.loca + (located.long ? 4 : 2) * (Int(r) + 1)
        for index in 0..<(located.long ? 4 : 2) { outside[entry + index] = 0xFF }
        XCTAssertTrue(refusal(outside)?.contains("outside its glyf") ?? false, refusal(outside) ?? "accepted")

        // A composite whose records run past its outline (loca ends it after its first record's glyph number).
        var cut = bytes
        let end = located.outline.lowerBound - located.glyf + 14
        let stored = located.long ? [UInt8(end >> 24), UInt8((end >> 16) & 0xFF), UInt8((end >> 8) & 0xFF), UInt8(end & 0xFF)]
            : [UInt8((end / 2) >> 8), UInt8((end / 2) & 0xFF)]
        for (index, byte) in stored.enumerated() { cut[entry + index] = byte }
        XCTAssertTrue(refusal(cut)?.contains("truncated") ?? false, refusal(cut) ?? "accepted")

        // A file cut short.
        XCTAssertThrowsError(try TrueTypeFont(bytes: Array(bytes.prefix(bytes.count / 2)))) { error in
            XCTAssertTrue("\(error)".contains("outside the file") || "\(error)".contains("truncated"), "\(error)")
        }
    }
}
