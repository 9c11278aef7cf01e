import FolioTestSupport
import Foundation
import XCTest

/// `folio merge` and `folio split` end to end, read back by qpdf, pikepdf, PyMuPDF and
/// Poppler: pages render identical to their sources, outlines and bookmarks land on the
/// right pages, metadata and annotations travel, and nothing is ever overwritten.
final class PageFileCommandTests: CommandTestCase, @unchecked Sendable {
    private let names = ["Chopin-Prelude_Op_28_No_15.pdf", "Brahms-Cancion_de_Cuna.pdf", "Clementi-Sonatina_O_36.pdf"]

    override func setUpWithError() throws {
        try super.setUpWithError()
        for name in names {
            try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/" + name), toPath: path(name))
        }
    }

    @discardableResult
    private func run(_ arguments: [String], status expected: Int32 = 0) throws -> String {
        let result = try TestEnvironment.run(folio, arguments)
        let out = String(decoding: result.stdout, as: UTF8.self)
        XCTAssertEqual(result.status, expected, "folio \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))\(out)")
        return out
    }

    /// What pikepdf, PyMuPDF and qpdf say of `file`.
    private func inspect(_ file: String) throws -> [String: Any] {
        let script = """
            import json, subprocess, sys, pikepdf, pymupdf
            path = sys.argv[1]
            check = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True)
            pdf = pikepdf.open(path)
            info = {str(k): str(v) for k, v in pdf.docinfo.items()}
            doc = pymupdf.open(path)
            print(json.dumps({
                "check": check.returncode, "checkOut": check.stdout + check.stderr,
                "pages": len(pdf.pages), "boxes": [[float(x) for x in p.mediabox] for p in pdf.pages],
                "info": info, "toc": doc.get_toc(),
                "annots": [[a.type[1] for a in p.annots()] for p in doc],
                "xmp": str(pdf.open_metadata()),
            }))
            """
        let result = try TestEnvironment.runTool("python3", ["-c", script, file])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    }

    /// Page `page` (1-based) of `file` as Poppler renders it.
    private func render(_ file: String, page: Int, password: String? = nil) throws -> Data {
        let prefix = root.appendingPathComponent("render-\(UUID().uuidString)").path
        let result = try TestEnvironment.runTool("pdftoppm", (password.map { ["-upw", $0] } ?? [])
            + ["-r", "40", "-f", "\(page)", "-l", "\(page)", "-singlefile", file, prefix])
        XCTAssertEqual(result.status, 0)
        return FileManager.default.contents(atPath: prefix + ".ppm") ?? Data()
    }

    private func assertClean(_ report: [String: Any], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(report["check"] as? Int, 0, what, file: file, line: line)
        let out = report["checkOut"] as? String ?? ""
        XCTAssertTrue(out.contains("No syntax or stream encoding errors") && !out.contains("WARNING"), "\(what): \(out)",
                      file: file, line: line)
    }

    func testMergeThenSplitKeepsEveryPageMetadataAndMarking() throws {
        let chopin = path(names[0]), brahms = path(names[1]), clementi = path(names[2])
        try run(["meta", "set", chopin, "--title", "Prélude in D♭", "--composer", "Frédéric Chopin", "--key", "Db"])
        try run(["bookmarks", "add", clementi, "--name", "Andante", "--page", "2", "--end", "2"])
        try run(["annot", "add", clementi, "--page", "3", "--type", "square", "--rect", "100,100,200,160"])
        let sources = try [chopin, brahms, clementi].map { try inspect($0) }
        let counts = sources.map { $0["pages"] as? Int ?? 0 }

        let merged = path("Concert.pdf")
        try run(["merge", chopin, brahms, clementi, "-o", merged, "--title", "Concert"])
        let report = try inspect(merged)
        assertClean(report, "merged")
        XCTAssertEqual(report["pages"] as? Int, counts.reduce(0, +))
        XCTAssertEqual(report["boxes"] as? [[Double]], sources.flatMap { $0["boxes"] as? [[Double]] ?? [] })
        XCTAssertEqual((report["info"] as? [String: String])?["/Title"], "Concert")
        // An outline entry per file on its first page, titled with its title.
        let toc = (report["toc"] as? [[Any]] ?? []).filter { $0.first as? Int == 1 }
        let brahmsTitle = (sources[1]["info"] as? [String: String])?["/Title"]
        XCTAssertEqual(toc.map { $0[1] as? String }, ["Prélude in D♭", brahmsTitle, (sources[2]["info"] as? [String: String])?["/Title"]])
        XCTAssertEqual(toc.map { $0[2] as? Int }, [1, counts[0] + 1, counts[0] + counts[1] + 1])
        // The square travels with page 3 of the Sonatina.
        let annots = report["annots"] as? [[String]] ?? []
        XCTAssertEqual(annots.indices.filter { annots[$0].contains("Square") }, [counts[0] + counts[1] + 2])
        // Bookmarks: one per file, and the Sonatina's own moved to its new page.
        let bookmarks = try run(["bookmarks", "export", merged])
        XCTAssertTrue(bookmarks.contains("Andante,\(counts[0] + counts[1] + 2),\(counts[0] + counts[1] + 2)"), bookmarks)
        XCTAssertTrue(bookmarks.contains("Frédéric Chopin"), bookmarks)
        XCTAssertTrue((report["xmp"] as? String ?? "").contains("Prélude in D♭"))
        for (index, source) in [chopin, brahms, clementi].enumerated() {
            let first = counts[..<index].reduce(0, +) + 1
            XCTAssertEqual(try render(merged, page: first), try render(source, page: 1), "first page of \(source)")
        }
        // Objects the files share are written once: no larger than qpdf's own merge.
        let qpdfMerged = path("qpdf-merged.pdf")
        _ = try TestEnvironment.runTool("qpdf", ["--empty", "--pages", chopin, brahms, clementi, "--", qpdfMerged])
        let size = { (file: String) in (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }
        XCTAssertLessThanOrEqual(size(merged), size(qpdfMerged))

        // An existing output is refused and left alone.
        let before = FileManager.default.contents(atPath: merged)
        try run(["merge", chopin, brahms, "-o", merged], status: 64)
        XCTAssertEqual(FileManager.default.contents(atPath: merged), before)

        // Split by the merged file's bookmarks: the three pieces again, plus the Andante.
        let pieces = root.appendingPathComponent("pieces").path
        let out = try run(["split", merged, "--by", "bookmarks", "--output-dir", pieces, "--name", "{n:02} {title}.pdf"])
        let files = try FileManager.default.contentsOfDirectory(atPath: pieces).sorted()
        XCTAssertEqual(files.count, 4, out)
        let prelude = pieces + "/01 Prélude in D♭.pdf"
        let preludeReport = try inspect(prelude)
        assertClean(preludeReport, "piece")
        XCTAssertEqual(preludeReport["pages"] as? Int, counts[0])
        XCTAssertEqual((preludeReport["info"] as? [String: String])?["/Author"], "Frédéric Chopin", "the piece's metadata")
        XCTAssertEqual(try render(prelude, page: 1), try render(chopin, page: 1))
        let sonatina = files.first { $0.hasPrefix("03 ") }.map { pieces + "/" + $0 } ?? ""
        let sonatinaReport = try inspect(sonatina)
        assertClean(sonatinaReport, "sonatina")
        XCTAssertEqual(sonatinaReport["pages"] as? Int, counts[2])
        XCTAssertEqual((sonatinaReport["annots"] as? [[String]])?[2], ["Square"], "its annotation")
        for page in 1...counts[2] {
            XCTAssertEqual(try render(sonatina, page: page), try render(clementi, page: page), "round trip, page \(page)")
        }
        // Existing names get a number; the files there are not touched.
        let kept = FileManager.default.contents(atPath: prelude)
        try run(["split", merged, "--by", "1-\(counts[0])", "--output-dir", pieces, "--name", "01 Prélude in D♭.pdf"])
        XCTAssertEqual(FileManager.default.contents(atPath: prelude), kept)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pieces + "/01 Prélude in D♭ 2.pdf"))
        // A range out of bounds: a clear error, nothing written.
        let count = try FileManager.default.contentsOfDirectory(atPath: pieces).count
        try run(["split", merged, "--by", "1-2,\(counts.reduce(0, +) + 1)", "--output-dir", pieces], status: 64)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pieces).count, count)
    }

    func testSplitByOutlineAndEncryptedInputs() throws {
        let book = try TestEnvironment.corpusFile("qpdf/page-labels-and-outlines.pdf")
        let pieces = root.appendingPathComponent("toc").path
        try run(["split", book, "--by", "toc", "--output-dir", pieces, "--name", "{n:02}-{start}-{end}.pdf"])
        let source = try inspect(book)
        let files = try FileManager.default.contentsOfDirectory(atPath: pieces).sorted()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let parts = file.dropLast(4).split(separator: "-").compactMap { Int($0) }
            let report = try inspect(pieces + "/" + file)
            assertClean(report, file)
            XCTAssertEqual(report["pages"] as? Int, parts[2] - parts[1] + 1, file)
            XCTAssertEqual(try render(pieces + "/" + file, page: 1), try render(book, page: parts[1]), file)
            // Every outline entry of the piece leads to a page of the piece.
            for entry in report["toc"] as? [[Any]] ?? [] {
                XCTAssertTrue((1...(parts[2] - parts[1] + 1)).contains(entry[2] as? Int ?? 0), "\(file): \(entry)")
            }
        }
        XCTAssertEqual(source["check"] as? Int, 0)

        let locked = try TestEnvironment.corpusFile("pypdf/encryption/r4-user-password.pdf")
        let output = path("out.pdf")
        try run(["merge", locked, path(names[1]), "-o", output, "--password", "asdfzxcv"], status: 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        try run(["merge", locked, path(names[1]), "-o", output, "--password", "wrong", "--decrypt"], status: 64)
        try run(["merge", locked, path(names[1]), "-o", output, "--password", "asdfzxcv", "--decrypt"])
        let report = try inspect(output)
        assertClean(report, "decrypted merge")
        XCTAssertEqual(try render(output, page: 1), try render(locked, page: 1, password: "asdfzxcv"))
    }
    func testDeletingAPageRemovesTheLinksThatLedToIt() throws {
        let count = """
            import json, sys, pymupdf
            doc = pymupdf.open(sys.argv[1]); page = int(sys.argv[2]) - 1
            links = [(p.number, l) for p in doc for l in p.get_links() if l.get("kind") in (1, 4)]
            print(json.dumps({"links": len(links), "on": sum(1 for n, _ in links if n == page),
                              "to": sum(1 for n, l in links if n != page and l.get("page") == page),
                              "dangling": sum(1 for _, l in links if not 0 <= l.get("page", -1) < doc.page_count)}))
            """
        for (name, page) in [("deterministic-id-in.pdf", 26), ("link-annots.pdf", 1)] {
            let file = path(name)
            try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("qpdf/" + name), toPath: file)
            func links() throws -> [String: Int] {
                let result = try TestEnvironment.runTool("python3", ["-c", count, file, String(page)])
                return try JSONSerialization.jsonObject(with: result.stdout) as? [String: Int] ?? [:]
            }
            let before = try links()
            XCTAssertGreaterThan(before["to"] ?? 0, 0, name)
            let result = try TestEnvironment.run(folio, ["pages", "delete", file, "--pages", String(page)])
            XCTAssertEqual(result.status, 0, name)
            let reported = String(decoding: result.stderr, as: UTF8.self).components(separatedBy: "led to deleted page").count - 1
            let after = try links()
            XCTAssertEqual(after["dangling"], 0, name)
            // The deleted page's own links go with it; links elsewhere that led to it are removed and reported.
            XCTAssertEqual(after["links"], (before["links"] ?? 0) - (before["to"] ?? 0) - (before["on"] ?? 0), name)
            XCTAssertEqual(reported, before["to"], name)
            XCTAssertEqual(try inspect(file)["check"] as? Int, 0, name)
        }
    }

    func testPageToolsAreIncrementalAndBookmarksFollowTheirPages() throws {
        let source = try TestEnvironment.corpusFile("scores/Schubert-Impromptu_in_Ges_dur_D_899_Op_90_No_3.pdf")
        let file = path("Impromptu.pdf")
        try TestEnvironment.copy(atPath: source, toPath: file)
        let count = try inspect(source)["pages"] as? Int ?? 0
        XCTAssertGreaterThan(count, 5)
        try run(["bookmarks", "add", file, "--name", "Trio", "--page", "3", "--end", "4"])
        try run(["bookmarks", "add", file, "--name", "Coda", "--page", "\(count)"])
        var previous = FileManager.default.contents(atPath: file) ?? Data()
        func step(_ arguments: [String], _ what: String) throws -> [String: Any] {
            try run(["pages"] + arguments)
            let now = FileManager.default.contents(atPath: file) ?? Data()
            XCTAssertEqual(now.prefix(previous.count), previous, "\(what): the bytes before stay a prefix")
            previous = now
            let report = try inspect(file)
            assertClean(report, what)
            return report
        }

        // A page turned a quarter clockwise renders as the source page turned clockwise by
        // Pillow: rasterising turned vectors is not bit-exact, so the two are compared at a
        // quarter of the size, against the page turned the wrong way.
        _ = try step(["rotate", file, "--pages", "2", "--by", "90"], "rotate")
        let compare = """
            import sys
            from PIL import Image, ImageChops, ImageStat
            source, rotated = Image.open(sys.argv[1]).convert("L"), Image.open(sys.argv[2]).convert("L")
            def distance(angle):
                turned = source.rotate(angle, expand=True)
                if turned.size != rotated.size: return 255.0
                return ImageStat.Stat(ImageChops.difference(turned.reduce(4), rotated.reduce(4))).mean[0]
            print(distance(-90), distance(90))
            """
        let original = root.appendingPathComponent("p2.ppm").path, rotated = root.appendingPathComponent("r2.ppm").path
        try render(source, page: 2).write(to: URL(fileURLWithPath: original))
        try render(file, page: 2).write(to: URL(fileURLWithPath: rotated))
        let difference = try TestEnvironment.runTool("python3", ["-c", compare, original, rotated])
        let distances = String(decoding: difference.stdout, as: UTF8.self).split(separator: " ")
            .compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        XCTAssertEqual(distances.count, 2, String(decoding: difference.stderr, as: UTF8.self))
        if distances.count == 2 {
            XCTAssertLessThan(distances[0], 20, "close to the source turned clockwise")
            XCTAssertLessThan(distances[0] * 3, distances[1], "far closer than to the source turned the other way")
        }

        // Deleting the last page takes its bookmark with it.
        var report = try step(["delete", file, "--pages", "\(count)"], "delete")
        XCTAssertEqual(report["pages"] as? Int, count - 1)
        var bookmarks = try run(["bookmarks", "export", file])
        XCTAssertFalse(bookmarks.contains("Coda"), bookmarks)
        // Moving the Trio to the front moves its bookmark.
        _ = try step(["move", file, "--pages", "3-4", "--to", "1"], "move")
        bookmarks = try run(["bookmarks", "export", file])
        XCTAssertTrue(bookmarks.contains("Trio,1,2"), bookmarks)
        XCTAssertEqual(try render(file, page: 1), try render(source, page: 3))
        XCTAssertEqual(try render(file, page: 3), try render(source, page: 1))
        // A blank page for notes, the size of its neighbour.
        report = try step(["insert-blank", file, "--at", "3"], "insert-blank")
        XCTAssertEqual(report["pages"] as? Int, count)
        let boxes = report["boxes"] as? [[Double]] ?? []
        XCTAssertEqual(boxes.count, count)
        if boxes.count > 3 { XCTAssertEqual(boxes[2], boxes[1]) }
        XCTAssertEqual(try render(file, page: 4), try render(source, page: 1))

        // Out of range: refused, the file untouched.
        try run(["pages", "delete", file, "--pages", "\(count + 1)"], status: 64)
        try run(["pages", "move", file, "--pages", "1", "--to", "0"], status: 64)
        try run(["pages", "rotate", file, "--pages", "1", "--by", "45"], status: 64)
        XCTAssertEqual(FileManager.default.contents(atPath: file), previous)

        // Extract: the pages, their bookmark, the score's metadata.
        let extracted = path("Trio.pdf")
        try run(["pages", "extract", file, "--pages", "1-2", "-o", extracted])
        report = try inspect(extracted)
        assertClean(report, "extract")
        XCTAssertEqual(report["pages"] as? Int, 2)
        XCTAssertTrue(try run(["bookmarks", "export", extracted]).contains("Trio,1,2"))
        XCTAssertEqual(try render(extracted, page: 2), try render(source, page: 4))
        try run(["pages", "extract", file, "--pages", "1", "-o", extracted], status: 64)
    }
    func testImagesMakeAPDFWithTheirBytesAndPixels() throws {
        let folder = root.appendingPathComponent("images").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = ["rgb.jpg", "gray.jpg", "cmyk.jpg", "rot6.jpg", "rgba.png", "bw.png", "pal.png", "g16.png", "rgb.png",
                     "rgb-i.png", "gray-i.png", "bw-i.png"]
        let make = """
            import os, random, sys, struct, zlib
            from PIL import Image
            os.chdir(sys.argv[1]); random.seed(7)
            def noise(mode, size):
                im = Image.new(mode, size); n = size[0] * size[1]
                top = {"1": 2, "I;16": 65536}.get(mode, 256)
                im.putdata([tuple(random.randrange(256) for _ in mode) for _ in range(n)] if mode in ("RGB", "RGBA", "CMYK")
                           else [random.randrange(top) for _ in range(n)])
                return im
            noise("RGB", (120, 80)).save("rgb.jpg", quality=90, dpi=(150, 150))
            noise("L", (64, 48)).save("gray.jpg")
            noise("CMYK", (50, 40)).save("cmyk.jpg")
            im = noise("RGB", (90, 60)); exif = im.getexif(); exif[0x0112] = 6; im.save("rot6.jpg", exif=exif)
            noise("RGBA", (40, 30)).save("rgba.png")
            noise("1", (33, 17)).save("bw.png")
            p = noise("P", (20, 20)); p.putpalette([random.randrange(256) for _ in range(768)]); p.save("pal.png")
            noise("I;16", (25, 15)).save("g16.png", dpi=(300, 300))
            noise("RGB", (30, 20)).save("rgb.png")
            open("broken.jpg", "wb").write(open("rgb.jpg", "rb").read()[:40])
            def chunk(kind, body): return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
            # Adam7-interlaced PNGs (Pillow reads them but cannot write them): each pass unfiltered.
            def adam7(im, name):
                w, h = im.size; px = im.load()
                depth, kind = {"RGB": (8, 2), "L": (8, 0), "1": (1, 0)}[im.mode]
                raw = b""
                for xs, ys, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
                    cols, rows = list(range(xs, w, dx)), list(range(ys, h, dy))
                    if not cols or not rows: continue
                    for y in rows:
                        line = bytearray()
                        if im.mode == "1":
                            line = bytearray((len(cols) + 7) // 8)
                            for i, x in enumerate(cols):
                                if px[x, y]: line[i // 8] |= 0x80 >> (i % 8)
                        else:
                            for x in cols:
                                v = px[x, y]; line += bytes(v if isinstance(v, tuple) else (v,))
                        raw += b"\\x00" + bytes(line)
                open(name, "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, kind, 0, 0, 1))
                                       + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
            adam7(noise("RGB", (37, 23)), "rgb-i.png")
            adam7(noise("L", (9, 3)), "gray-i.png")
            adam7(noise("1", (21, 11)), "bw-i.png")
            open("huge.png", "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0))
                                         + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
            """
        let made = try TestEnvironment.runTool("python3", ["-c", make, folder])
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        let output = path("Parts.pdf")
        try run(["make"] + names.map { folder + "/" + $0 } + ["-o", output])
        let check = """
            import json, sys, pikepdf, pymupdf
            from PIL import Image, ImageChops
            folder, path, names = sys.argv[1], sys.argv[2], sys.argv[3:]
            pdf, doc = pikepdf.open(path), pymupdf.open(path)
            result = {"title": str(pdf.docinfo.get("/Title")), "pages": []}
            for index, name in enumerate(names):
                source = folder + "/" + name
                image = list(pdf.pages[index].images.values())[0]
                original = Image.open(source)
                entry = {"rotation": doc[index].rotation, "size": [doc[index].rect.width, doc[index].rect.height],
                         "pixels": list(original.size), "dpi": list(original.info.get("dpi", (96, 96)))}
                if name.endswith(".jpg"):
                    entry["same"] = image.read_raw_bytes() == open(source, "rb").read()
                else:
                    decoded = pikepdf.PdfImage(image).as_pil_image()
                    # Interlaced 1-bit images come back as 8-bit gray: compare in the decoded mode.
                    entry["same"] = (decoded.mode == original.mode or name.endswith("-i.png")) and \\
                        list(decoded.getdata()) == list(original.convert(decoded.mode).getdata())
                result["pages"].append(entry)
            print(json.dumps(result))
            """
        let checked = try TestEnvironment.runTool("python3", ["-c", check, folder, output] + names)
        XCTAssertEqual(checked.status, 0, String(decoding: checked.stderr, as: UTF8.self))
        let result = try JSONSerialization.jsonObject(with: checked.stdout) as? [String: Any] ?? [:]
        assertClean(try inspect(output), "made")
        XCTAssertEqual(result["title"] as? String, "Parts")
        let pages = result["pages"] as? [[String: Any]] ?? []
        XCTAssertEqual(pages.count, names.count)
        for (name, page) in zip(names, pages) {
            XCTAssertEqual(page["same"] as? Bool, true, "\(name): JPEG bytes embedded unchanged, PNG pixels identical")
            let pixels = page["pixels"] as? [Double] ?? [], dpi = page["dpi"] as? [Double] ?? [], size = page["size"] as? [Double] ?? []
            guard pixels.count == 2, dpi.count == 2, size.count == 2 else {
                XCTFail("\(name): \(page)")
                continue
            }
            // Each image at its own resolution; the EXIF-turned one shows upright, a quarter turned.
            let turned = name == "rot6.jpg"
            XCTAssertEqual(page["rotation"] as? Int, turned ? 90 : 0, name)
            XCTAssertEqual(size[turned ? 1 : 0], pixels[0] * 72 / dpi[0], accuracy: 0.01, name)
            XCTAssertEqual(size[turned ? 0 : 1], pixels[1] * 72 / dpi[1], accuracy: 0.01, name)
        }
        // Fitted onto A4, turned to a landscape image's shape.
        let fitted = path("Fitted.pdf")
        try run(["make", folder + "/rgb.jpg", "-o", fitted, "--fit", "a4"])
        let fittedReport = try inspect(fitted)
        XCTAssertEqual((fittedReport["boxes"] as? [[Double]])?.first ?? [], [0, 0, 841.89, 595.276])

        // Bad input: a clear error, nothing written; an existing output is never replaced.
        let nothing = path("Nothing.pdf")
        for bad in ["broken.jpg", "huge.png"] {
            let result = try TestEnvironment.run(folio, ["make", folder + "/" + bad, "-o", nothing])
            // A damaged image cannot become a score (1, as a damaged PDF); one past the pixel limit is too large (64).
            XCTAssertEqual(result.status, bad == "broken.jpg" ? 1 : 64, bad)
            XCTAssertTrue(String(decoding: result.stderr, as: UTF8.self).contains(bad), bad)
            XCTAssertFalse(FileManager.default.fileExists(atPath: nothing), bad)
        }
        XCTAssertTrue(String(decoding: try TestEnvironment.run(folio, ["make", folder + "/huge.png", "-o", nothing]).stderr,
                             as: UTF8.self).contains("100000 × 100000"))
        let before = FileManager.default.contents(atPath: output)
        try run(["make", folder + "/rgb.png", "-o", output], status: 64)
        XCTAssertEqual(FileManager.default.contents(atPath: output), before)
    }
}
