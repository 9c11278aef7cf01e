@testable import FolioPDF
import FolioTestSupport
import Foundation
import XCTest

/// gzip framing, PNG decoding (every colour type, pixels compared with what Pillow
/// decodes) and the merger (pages, outline and annotations read back by pikepdf, PyMuPDF,
/// PDFium and qpdf).
final class MergeAndImageTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func python(_ code: String, _ arguments: [String]) throws -> String {
        let result = try TestEnvironment.runTool("python3", ["-W", "ignore", "-c", code] + arguments)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return String(decoding: result.stdout, as: UTF8.self)
    }

    func testGzipRoundTripAndLimits() throws {
        let text = Array(String(repeating: "forScore ", count: 5000).utf8)
        let packed = try Gzip.compress(text)
        XCTAssertEqual(Array(packed.prefix(2)), [0x1F, 0x8B])
        XCTAssertEqual(try Gzip.decompress(packed, limit: text.count), text)
        // Python's gzip reads what we wrote.
        let file = root.appendingPathComponent("x.gz")
        try Data(packed).write(to: file)
        XCTAssertEqual(try python("import gzip,sys; print(len(gzip.open(sys.argv[1]).read()))", [file.path])
            .trimmingCharacters(in: .whitespacesAndNewlines), "\(text.count)")
        XCTAssertThrowsError(try Gzip.decompress(packed, limit: text.count - 1)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .limitExceeded)
        }
        XCTAssertThrowsError(try Gzip.decompress(Array(packed.dropLast(12)), limit: 1 << 20)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .filter)
        }
        XCTAssertThrowsError(try Gzip.decompress(Array(repeating: 0, count: 40), limit: 10))
    }

    func testPNGDecodingMatchesPillow() throws {
        // Each colour type Pillow writes, with every pixel different.
        let script = """
            import sys, json
            from PIL import Image
            out = sys.argv[1]; result = {}
            import random, zlib
            random.seed(7)
            for mode in ["L", "LA", "RGB", "RGBA", "P", "I;16", "noisy"]:
                base = Image.new("RGBA", (7, 5))
                base.putdata([((x * 37) % 256, (y * 51) % 256, (x * y * 13) % 256, (x * 40 + y * 9) % 256)
                              for y in range(5) for x in range(7)])
                if mode == "noisy":
                    # Rows written by hand with each of PNG's five filter types in turn (Pillow
                    # picks its own), then read by Pillow as the reference.
                    import struct
                    width, height, bpp = 96, 64, 4
                    pixels = [[(x * 3 + random.randint(0, 9)) % 256 if c == 0 else (y * 4 + c * 40) % 256 if c < 3 else (255 - x) % 256
                               for x in range(width) for c in range(bpp)] for y in range(height)]
                    def paeth(a, b, c):
                        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        return a if pa <= pb and pa <= pc else b if pb <= pc else c
                    raw = b""
                    for y, row in enumerate(pixels):
                        kind = y % 5
                        up = pixels[y - 1] if y else [0] * len(row)
                        filtered = []
                        for i, value in enumerate(row):
                            a = row[i - bpp] if i >= bpp else 0
                            b = up[i]
                            c = up[i - bpp] if i >= bpp else 0
                            predicted = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
                            filtered.append((value - predicted) % 256)
                        raw += bytes([kind]) + bytes(filtered)
                    chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
                    path = f"{out}/noisy.png"
                    open(path, "wb").write(bytes.fromhex("89504e470d0a1a0a") + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
                    result["filters"] = sorted({raw[y * (width * bpp + 1)] for y in range(height)})
                    back = Image.open(path)
                    result[path] = {"pixels": [list(p) for p in back.convert("RGB").getdata()],
                                    "alpha": list(back.getchannel("A").getdata())}
                    continue
                image = base.convert("RGB").convert("P", palette=Image.ADAPTIVE) if mode == "P" else (
                    base.convert("L").convert("I;16") if mode == "I;16" else base.convert(mode))
                path = f"{out}/{mode.replace(';', '')}.png"
                image.save(path)
                back = Image.open(path)
                rgb = back.convert("RGB" if mode in ("RGB", "RGBA", "P") else "L") if mode != "I;16" else None
                pixels = [list(p) if isinstance(p, tuple) else [p] for p in rgb.getdata()] if rgb else None
                alpha = list(back.getchannel("A").getdata()) if "A" in back.getbands() else None
                result[path] = {"pixels": pixels, "alpha": alpha}
            print(json.dumps(result))
            """
        var expected = try JSONSerialization.jsonObject(with: Data(try python(script, [root.path]).utf8)) as? [String: Any]
        let filters = expected?.removeValue(forKey: "filters") as? [Int]
        XCTAssertEqual(filters, [0, 1, 2, 3, 4], "the hand-filtered image uses every PNG filter type")
        XCTAssertEqual(expected?.count, 7)
        for (path, values) in (expected ?? [:]).compactMapValues({ $0 as? [String: Any] }) {
            let png = try PNGImage(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            XCTAssertEqual(png.width, path.hasSuffix("noisy.png") ? 96 : 7, path)
            XCTAssertEqual(png.height, path.hasSuffix("noisy.png") ? 64 : 5, path)
            if let pixels = values["pixels"] as? [[Int]] {
                XCTAssertEqual(png.pixels.map(Int.init), pixels.flatMap { $0 }, path)
            } else {
                XCTAssertEqual(png.components, 1, path)   // 16-bit gray keeps its high byte
            }
            let alpha = (values["alpha"] as? [Int])?.map(UInt8.init)
            XCTAssertEqual(png.alpha, alpha.flatMap { $0.allSatisfy { $0 == 255 } ? nil : $0 }, path)
        }
        XCTAssertThrowsError(try PNGImage(bytes: Array("not a png".utf8)))
        // A header claiming a gigantic image is refused before anything is inflated.
        var huge = try Data(contentsOf: URL(fileURLWithPath: root.path + "/RGB.png"))
        huge.replaceSubrange(16..<24, with: [0, 0, 0x40, 0, 0, 0, 0x40, 0])
        XCTAssertThrowsError(try PNGImage(bytes: Array(huge))) { error in
            XCTAssertEqual((error as? PDFError)?.code, .limitExceeded)
        }
    }

    func testMergedPagesAndOutlineReadBackEverywhere() throws {
        let scores = try TestEnvironment.corpus.appendingPathComponent("scores")
        let first = try PDFDocument(path: scores.appendingPathComponent("Bach-Partita_in_a_minor_BWV_1013.pdf").path)
        let second = try PDFDocument(path: scores.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path)
        // An annotation on a copied page travels with it.
        var note = PDFAnnotationDraft(kind: .square)
        note.rect = PDFRect(x1: 100, y1: 100, x2: 200, y2: 150)
        try first.addAnnotation(note, toPage: 2)
        let bytes = try PDFMerger.merge([
            PDFMergePart(document: first, pages: 1...2, title: "Corrente"),
            PDFMergePart(document: second, pages: 0...(second.pageCount - 1), title: "Wiegenlied – Brahms"),
            PDFMergePart(document: first, pages: 0...0, title: nil),
        ])
        let output = root.appendingPathComponent("merged.pdf").path
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        let check = try TestEnvironment.runTool("qpdf", ["--check", output])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self))
        let report = try python("""
            import sys, pikepdf, pymupdf, pypdfium2
            path, a, b = sys.argv[1:4]
            merged = pikepdf.open(path); src_a = pikepdf.open(a); src_b = pikepdf.open(b)
            doc = pymupdf.open(path)
            pdfium = pypdfium2.PdfDocument(path)
            # Page sizes, text and the annotation, compared with the sources page by page.
            order = [(a, 1), (a, 2)] + [(b, i) for i in range(len(src_b.pages))] + [(a, 0)]
            same = []
            for index, (src, number) in enumerate(order):
                original = pymupdf.open(src)[number]
                page = doc[index]
                same.append(page.rect == original.rect and page.get_text() == original.get_text())
            print(len(merged.pages), len(pdfium), all(same))
            print([t[1:] for t in doc.get_toc()])
            print([a.type[1] for a in doc[1].annots()])
            """, [output, first.source.path ?? "", second.source.path ?? ""])
        let lines = report.split(separator: "\n").map(String.init)
        let total = 2 + second.pageCount + 1
        XCTAssertEqual(lines.first, "\(total) \(total) True")
        XCTAssertEqual(lines.dropFirst().first, "[['Corrente', 1], ['Wiegenlied – Brahms', 3]]")
        XCTAssertEqual(lines.dropFirst(2).first, "['Square']")
        XCTAssertThrowsError(try PDFMerger.merge([PDFMergePart(document: second, pages: 0...99, title: nil)]))
        XCTAssertThrowsError(try PDFMerger.merge([]))
    }
}
