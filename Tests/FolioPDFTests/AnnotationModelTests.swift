import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// The pieces annotations stand on: page geometry both ways, appearance frames, colours,
/// /DA strings, standard-font metrics (against PyMuPDF's) and line wrapping.
final class AnnotationModelTests: XCTestCase {
    let crop = PDFRect(x1: 30, y1: 40, x2: 560, y2: 800)

    func testDisplayAndUserSpaceConvertBothWaysOnEveryRotation() {
        // The display corner (0, 0) is the crop box corner that is top-left as shown.
        let topLeft: [Int: PDFPoint] = [0: PDFPoint(x: 30, y: 800), 90: PDFPoint(x: 30, y: 40),
                                        180: PDFPoint(x: 560, y: 40), 270: PDFPoint(x: 560, y: 800)]
        for rotation in [0, 90, 180, 270] {
            let geometry = PDFPageGeometry(cropBox: crop, rotation: rotation)
            XCTAssertEqual(geometry.toUser(PDFPoint(x: 0, y: 0)), topLeft[rotation], "/Rotate \(rotation)")
            let size = geometry.displaySize
            XCTAssertEqual(rotation % 180 == 0 ? size.width : size.height, 530)
            // The display corner opposite (0, 0) is the opposite crop box corner.
            let far = geometry.toUser(PDFPoint(x: size.width, y: size.height))
            XCTAssertEqual(far.x + (topLeft[rotation]?.x ?? 0), 590, accuracy: 1e-9)
            XCTAssertEqual(far.y + (topLeft[rotation]?.y ?? 0), 840, accuracy: 1e-9)
            for point in [PDFPoint(x: 12.5, y: 7), PDFPoint(x: 400, y: 300), PDFPoint(x: 0, y: 529)] {
                let back = geometry.toDisplay(geometry.toUser(point))
                XCTAssertEqual(back.x, point.x, accuracy: 1e-9)
                XCTAssertEqual(back.y, point.y, accuracy: 1e-9)
            }
            let rect = geometry.toUser(x: 40, y: 120, width: 220, height: 44)
            let shown = geometry.toDisplay(rect)
            XCTAssertEqual([shown.x, shown.y, shown.width, shown.height], [40, 120, 220, 44])
            // An upright frame of the shown size maps exactly onto the rectangle.
            let frame = geometry.uprightFrame(for: rect)
            XCTAssertEqual(frame.size.width, 220, accuracy: 1e-9)
            XCTAssertEqual(frame.size.height, 44, accuracy: 1e-9)
            XCTAssertEqual(frame.toUser.apply(PDFRect(x1: 0, y1: 0, x2: 220, y2: 44)), rect)
            // Its local x runs left to right as shown, y bottom to top.
            let origin = geometry.toDisplay(frame.toUser.apply(PDFPoint(x: 0, y: 0)))
            XCTAssertEqual(origin.x, 40, accuracy: 1e-9)
            XCTAssertEqual(origin.y, 164, accuracy: 1e-9)
            // Notes hang from their user-space upper-left corner.
            let note = geometry.toUser(x: 420, y: 360, width: 20, height: 20, noRotate: true)
            let hung = geometry.toDisplay(note, noRotate: true)
            XCTAssertEqual([hung.x, hung.y, hung.width, hung.height], [420, 360, 20, 20])
        }
    }

    func testMatricesInvertAndConcatenate() throws {
        let matrix = PDFMatrix(0, 1, -1, 0, 40, 7).concatenating(PDFMatrix(2, 0, 0, 3, 1, 1))
        let inverse = try XCTUnwrap(matrix.inverted)
        let point = PDFPoint(x: 3, y: -8)
        let back = inverse.apply(matrix.apply(point))
        XCTAssertEqual(back.x, point.x, accuracy: 1e-9)
        XCTAssertEqual(back.y, point.y, accuracy: 1e-9)
        XCTAssertNil(PDFMatrix(1, 2, 2, 4, 0, 0).inverted)
    }

    func testColoursParseAndRefuseWithTheForm() throws {
        XCTAssertEqual(try PDFColor(hex: "#FF8000").hex, "#ff8000")
        XCTAssertEqual(try PDFColor(hex: "0af").hex, "#00aaff")
        XCTAssertEqual(PDFColor(components: [0.5])?.hex, "#808080")
        XCTAssertEqual(PDFColor(components: [0, 1, 1, 0])?.hex, "#ff0000")
        XCTAssertNil(PDFColor(components: []))
        for bad in ["red", "#12345", "#gg0000", ""] {
            XCTAssertThrowsError(try PDFColor(hex: bad)) { error in
                XCTAssertTrue((error as? PDFError)?.message.contains("#RRGGBB") == true)
            }
        }
    }

    func testDefaultAppearanceStringsAreRead() {
        let da = PDFDefaultAppearance(parsing: "0 g /Helv 12.5 Tf 1 0 0 rg")
        XCTAssertEqual(da?.font, "Helv")
        XCTAssertEqual(da?.size, 12.5)
        XCTAssertEqual(da?.color?.hex, "#ff0000")
        XCTAssertEqual(PDFDefaultAppearance(parsing: "/F1 0 Tf 0 0 0 1 k")?.color?.hex, "#000000")
        XCTAssertNil(PDFDefaultAppearance(parsing: "garbage"))
    }

    /// The /DA reader splits on bytes; the same strings read by characters (its earlier rule,
    /// kept here as the oracle) give the same font, size and colour: seeded strings of numbers,
    /// names and operators in several scripts, junk among them, separated by spaces, tabs and
    /// line feeds. A CR LF pair, one character to Swift, now separates too.
    func testDefaultAppearanceReadByBytesAgreesWithReadingByCharacters() {
        func byCharacters(_ text: String) -> PDFDefaultAppearance? {
            let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }).map(String.init)
            var operands: [String] = [], font: String?, size: Double?, color: PDFColor?
            for token in tokens {
                switch token {
                case "Tf":
                    if operands.count >= 2 {
                        font = operands[operands.count - 2].hasPrefix("/") ? String(operands[operands.count - 2].dropFirst()) : nil
                        size = Double(operands[operands.count - 1])
                    }
                    operands = []
                case "g", "rg", "k":
                    let count = token == "g" ? 1 : token == "rg" ? 3 : 4
                    let numbers = operands.suffix(count).compactMap { Double($0) }
                    if numbers.count == count { color = PDFColor(components: numbers) }
                    operands = []
                default:
                    if token.first?.isLetter == true, !token.hasPrefix("/") { operands = [] } else { operands.append(token) }
                }
            }
            guard font != nil || size != nil || color != nil else { return nil }
            return PDFDefaultAppearance(font: font, size: size, color: color)
        }
        var random = SeededGenerator(#function)
        let pieces = ["0", "1", "0.5", "12.5", "-3", ".25", "1e3", "/Helv", "/Ärial", "/明朝", "/Ωμέγα", "/F1", "Tf", "g", "rg", "k",
                      "G", "RG", "BT", "ET", "Tj", "Ärger", "ωmega", "é", "(x)", "[", "]", "//", "/", "٣", "𝄞"]
        let gaps = [" ", "  ", "\t", "\n", " \n "]
        for _ in 0..<3000 {
            var text = ""
            for index in 0..<Int.random(in: 0...12, using: &random) {
                if index > 0 { text += gaps.randomElement(using: &random) ?? " " }
                text += pieces.randomElement(using: &random) ?? "0"
            }
            XCTAssertEqual(PDFDefaultAppearance(parsing: text), byCharacters(text), text)
        }
        XCTAssertEqual(PDFDefaultAppearance(parsing: "/Helv\r\n9\r\nTf\r\n0.5\r\ng")?.size, 9)
        XCTAssertEqual(PDFDefaultAppearance(parsing: "/Helv\r\n9\r\nTf\r\n0.5\r\ng")?.color?.hex, PDFColor(components: [0.5])?.hex)
    }

    /// `hasAppearance` is answered from the appearance's header where the xref says, without
    /// reading it: the same as resolving it for a stream, a direct dictionary, an object that
    /// is `null`, a number no object has, a free entry, an object in an object stream, and an
    /// xref offset that points at another object (the file is then rebuilt, as any reading does).
    func testWhetherAnAnnotationHasAnAppearanceIsFoundWithoutReadingIt() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        builder.add(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Annots [4 0 R 5 0 R 6 0 R 7 0 R 8 0 R 9 0 R 10 0 R] >>")
        let rect = "/Rect [10 10 60 30]"
        builder.add(4, "<< /Type /Annot /Subtype /Widget \(rect) /T (Příjmení – 名前) /AP << /N 11 0 R >> >>")
        builder.add(5, "<< /Type /Annot /Subtype /Widget \(rect) /AP << /N << /Yes 11 0 R /Off 11 0 R >> >> >>")
        builder.add(6, "<< /Type /Annot /Subtype /Square \(rect) /AP << /N 12 0 R >> >>")
        builder.add(7, "<< /Type /Annot /Subtype /Square \(rect) /AP << /N 99 0 R >> >>")
        builder.add(8, "<< /Type /Annot /Subtype /Square \(rect) /AP << /N 13 0 R >> >>")
        builder.add(9, "<< /Type /Annot /Subtype /Square \(rect) /AP << /D 11 0 R >> >>")
        builder.add(10, "<< /Type /Annot /Subtype /Square \(rect) /AP << /N 14 0 R >> >>")
        builder.addStream(11, "/Type /XObject /Subtype /Form /BBox [0 0 50 20]", Array("0 0 50 20 re f".utf8))
        builder.add(12, "null")
        builder.add(14, "<< /Type /XObject /Subtype /Form /BBox [0 0 50 20] /Length 0 >>stream\n\nendstream")
        // Object 13 is free; object 14's entry points at object 11 (a wrong offset, found by a rebuild).
        var offsets = builder.offsets
        offsets[14] = offsets[11]
        builder.offsets = offsets
        let document = try PDFDocument(bytes: builder.classic(trailer: "/Root 1 0 R"))
        let found = try document.annotations(onPage: 0).map(\.hasAppearance)
        XCTAssertEqual(found, [true, true, false, false, false, false, true])
        // The same, resolving each as before.
        let resolved = try document.annotations(onPage: 0).map { item in
            document.dictionary(item.dictionary["AP"]).map { !document.resolve($0["N"]).isNull } ?? false
        }
        XCTAssertEqual(found, resolved)

        // In an object stream: a stream's first token, and `null` resolved.
        var packed = PDFBuilder()
        packed.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        let (_, first, data) = PDFBuilder.objectStream([
            (2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            (3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Annots [4 0 R 6 0 R] >>"),
            (4, "<< /Type /Annot /Subtype /Widget \(rect) /AP << /N 5 0 R >> >>"),
            (6, "<< /Type /Annot /Subtype /Widget \(rect) /AP << /N 7 0 R >> >>"),
            (7, "null"),
        ])
        packed.addStream(8, "/Type /ObjStm /N 5 /First \(first) /Filter /FlateDecode", try FlateFilter.encode(data))
        packed.addStream(5, "/Type /XObject /Subtype /Form /BBox [0 0 50 20]", Array("0 g".utf8))
        let inStreams = try PDFDocument(bytes: try packed.withXRefStream(
            number: 9, trailer: "/Root 1 0 R", compressed: [2: (8, 0), 3: (8, 1), 4: (8, 2), 6: (8, 3), 7: (8, 4)]))
        XCTAssertEqual(try inStreams.annotations(onPage: 0).map(\.hasAppearance), [true, false])
    }

    func testStandardFontWidthsAgreeWithPyMuPDF() throws {
        let samples = ["Allegro ma non troppo", "Dvořák".replacingOccurrences(of: "ř", with: "r"), "«Coda» — attacca",
                       "WAVE fff", "€ 12,50 – “quotes” …", "ÆØÅ æøå ß"]
        let script = """
            import json, sys, pymupdf
            texts = json.loads(sys.argv[1])
            fonts = ("helv", "tibi", "hebo", "tiro", "tibo", "cour", "cobo", "heit", "tiit", "coit")
            print(json.dumps([[pymupdf.Font(f).text_length(t, fontsize=12) for t in texts] for f in fonts]))
            """
        let argument = String(decoding: try JSONSerialization.data(withJSONObject: samples), as: UTF8.self)
        let run = try TestEnvironment.runTool("python3", ["-c", script, argument])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        let widths = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [[Double]])
        for (index, text) in samples.enumerated() {
            let fonts: [StandardFont] = [.helvetica, .timesBoldItalic, .helveticaBold, .timesRoman, .timesBold, .courier, .courierBold,
                                        .helveticaOblique, .timesItalic, .courierOblique]
            for (number, font) in fonts.enumerated() {
                XCTAssertEqual(font.width(of: text, size: 12), widths[number][index], accuracy: 0.01, "\(font.baseFont): \(text)")
            }
        }
    }

    func testWrappingKeepsEveryLineInsideTheBox() throws {
        let font = StandardFont.helvetica
        let text = "Cut to bar 48, then take the coda at the sign — attacca subito\nSecond verse: tacet"
        let lines = try font.wrap(text, size: 11, maxWidth: 120)
        XCTAssertGreaterThan(lines.count, 3)
        XCTAssertTrue(lines.allSatisfy { font.width(ofEncoded: $0, size: 11) <= 120 })
        XCTAssertEqual(lines.map { String(decoding: $0, as: UTF8.self) }.last, "Second verse: tacet", "\(lines.map { String(decoding: $0, as: UTF8.self) })")
        let long = try font.wrap("Pianississississimo", size: 20, maxWidth: 60)
        XCTAssertGreaterThan(long.count, 1, "a word wider than the box is broken")
        XCTAssertTrue(long.allSatisfy { font.width(ofEncoded: $0, size: 20) <= 60 })
        XCTAssertThrowsError(try font.encode("Dvořák")) { error in
            XCTAssertEqual((error as? PDFError)?.code, .invalidArgument)
            XCTAssertTrue((error as? PDFError)?.message.contains("U+0159") == true)
        }
        XCTAssertEqual(try font.encode("€“”"), [0x80, 0x93, 0x94])
    }

    func testAnnotationsAreReadFromDirectAndIndirectArraysWithStableIds() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 612 792] >>")
        builder.add(3, "<< /Type /Page /Parent 2 0 R /Annots 5 0 R >>")
        builder.add(4, "<< /Type /Page /Parent 2 0 R /Rotate 90 /Annots [<< /Subtype /Square /Rect [300 200 100 100] /NM (dup) >> << /Subtype /Circle /Rect [1 1 5 5] /NM (dup) >> 6 0 R] >>")
        builder.add(5, "[6 0 R 7 0 R 8 0 R]")
        builder.add(6, "<< /Type /Annot /Subtype /FreeText /Rect [10 10 110 40] /Contents (Hello) /T (Anna) /NM (note-1) /DA (/Helv 9 Tf 0 0 1 rg) /Q 1 /C [1 1 0] /CA 0.5 /BS << /W 2 >> /F 4 >>")
        builder.add(7, "<< /Type /Annot /Subtype /Ink /Rect [0 0 50 50] /InkList [[1 2 3 4] [5 6]] /Border [0 0 3] /AP << /N 9 0 R >> >>")
        builder.add(8, "<< /Subtype /Foo /Rect [0 0 1 1] >>")
        builder.addStream(9, "/Type /XObject /Subtype /Form /BBox [0 0 50 50]", Array("0 0 m 5 5 l S".utf8))
        let document = try PDFDocument(bytes: builder.classic(trailer: "/Root 1 0 R"))
        let first = try document.annotations(onPage: 0)
        XCTAssertEqual(first.map(\.id), ["note-1", "obj-7", "obj-8"])
        XCTAssertEqual(first[0].defaultAppearance?.size, 9)
        XCTAssertEqual(first[0].defaultAppearance?.color?.hex, "#0000ff")
        XCTAssertEqual(first[0].alignment, 1)
        XCTAssertEqual(first[0].opacity, 0.5)
        XCTAssertEqual(first[0].borderWidth, 2)
        XCTAssertEqual(first[0].flags, .print)
        XCTAssertEqual(first[1].inkList, [[PDFPoint(x: 1, y: 2), PDFPoint(x: 3, y: 4)], [PDFPoint(x: 5, y: 6)]])
        XCTAssertEqual(first[1].borderWidth, 3)
        XCTAssertTrue(first[1].hasAppearance)
        XCTAssertEqual(first[2].subtype, "Foo")
        let second = try document.annotations(onPage: 1)
        // A duplicated /NM is no id; the shared indirect annotation keeps its object id.
        XCTAssertEqual(second.map(\.id), ["p2-1", "p2-2", "note-1"])
        XCTAssertEqual(second[0].rect, PDFRect(x1: 100, y1: 100, x2: 300, y2: 200), "normalised")
        XCTAssertThrowsError(try document.annotations(onPage: 2)) { error in
            XCTAssertTrue((error as? PDFError)?.message.contains("valid: 1 to 2") == true)
        }
    }

    /// The names that identify annotations are those unique on the page that no derived id
    /// could be; a page held in parts is named as one list of its names (what the readers of
    /// a large page apply in place), and the same as `identifyByName` on the whole page.
    func testIdentifyingNamesAreTheUniqueUsableOnesOfTheWholePage() {
        XCTAssertEqual(PDFDocument.identifyingNames([]), [])
        XCTAssertEqual(PDFDocument.identifyingNames(["", ""]), [])
        let names = ["Anna", "společná", "Δυναμική", "společná", "obj-7", "p3-1", "两 个", "楽譜", "", "pizz.", "Anna2"]
        XCTAssertEqual(PDFDocument.identifyingNames(names), ["Anna", "Δυναμική", "楽譜", "pizz.", "Anna2"])
        // Thousands of names, one repeated far apart: the repeated one names neither.
        var many = (0..<5000).map { "značka-\($0)" }
        many.append("značka-17")
        let usable = PDFDocument.identifyingNames(many)
        XCTAssertEqual(usable.count, 4999)
        XCTAssertFalse(usable.contains("značka-17"))
        // The whole-page form agrees.
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>")
        builder.add(3, "<< /Type /Page /Parent 2 0 R >>")
        guard let document = try? PDFDocument(bytes: builder.classic(trailer: "/Root 1 0 R")) else { return XCTFail("no document") }
        var annotations = names.enumerated().map { index, name in
            let dictionary: PDFDictionary = ["Subtype": .name("Square"), "Rect": .array([.integer(0), .integer(0), .integer(1), .integer(1)]),
                                             "NM": .string(PDFString(PDFTextString.encode(name)))]
            return document.annotation(dictionary, reference: nil, pageIndex: 0, index: index)
        }
        XCTAssertEqual(annotations.map(\.name), names.map { $0 })
        PDFDocument.identifyByName(&annotations)
        XCTAssertEqual(annotations.map(\.id), ["Anna", "p1-2", "Δυναμική", "p1-4", "p1-5", "p1-6", "p1-7", "楽譜", "p1-9", "pizz.", "Anna2"])
    }

    /// Counting by subtype lexes a stored annotation's top-level keys without building it;
    /// values (a nested dictionary or a string that say /Subtype, a reference, an array, a
    /// comment) are skipped, and anything the quick reading cannot decide is read in full. The
    /// counts equal those of the full decoding, here, on every corpus file that opens, and
    /// pikepdf's on a page of links in object streams.
    func testCountsBySubtypeLexOnlyTheTopLevelKeysAndAgreeWithTheFullReading() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>")
        builder.add(3, "<< /Type /Page /Parent 2 0 R /Annots [10 0 R 11 0 R 12 0 R 13 0 R 14 0 R 15 0 R 16 0 R] >>")
        builder.add(10, "<< /MK << /Subtype /Fausse [1 2 << /Subtype /Aussi >>] >> /P 3 0 R /T (/Subtype /Nein – Jiří) /Subtype /Widget >>")
        builder.add(11, "<</Type/Annot/Rect[1 1 9 9]/Subtype/Link>>")
        builder.add(12, "<< /Subtype (Link) /Rect [0 0 1 1] >>")
        builder.add(13, "17 0 R")
        builder.add(14, "<< /Contents <5375627479706520> % /Subtype /Comment\n /Subtype /Text >>")
        builder.add(15, "<< /Rect [0 0 1 1] >>")
        builder.add(16, "<< /Rect [0 0 1 1] /Subtype /Square /Subtype /Circle >>")
        builder.add(17, "<< /Subtype /Ink >>")
        let bytes = builder.classic(trailer: "/Root 1 0 R")
        let full = Dictionary(grouping: try PDFDocument(bytes: bytes).annotations().map(\.subtype), by: { $0 }).mapValues(\.count)
        XCTAssertEqual(full, ["Widget": 1, "Link": 1, "Unknown": 2, "Ink": 1, "Text": 1, "Circle": 1])
        let counting = try PDFDocument(bytes: bytes)
        XCTAssertEqual(counting.storedName("Subtype", inObject: 10), .name("Widget"))
        XCTAssertEqual(counting.storedName("Subtype", inObject: 12), .unknown, "not a name: read in full")
        XCTAssertEqual(counting.storedName("Subtype", inObject: 13), .unknown, "a reference: followed in full")
        XCTAssertEqual(counting.storedName("Subtype", inObject: 15), .absent)
        XCTAssertEqual(counting.storedName("Subtype", inObject: 99), .unknown)
        // A repeated key: the full reading keeps the last, the count as well.
        _ = counting.pages()
        let before = counting.loadedObjectCount
        XCTAssertEqual(counting.annotationCounts(), full)
        XCTAssertEqual(counting.loadedObjectCount, before, "no annotation left in memory")

        var compared = 0
        for relative in try TestEnvironment.corpusPDFs() {
            guard let bytes = FileManager.default.contents(atPath: try TestEnvironment.corpusFile(relative)),
                  let document = try? PDFDocument(bytes: [UInt8](bytes)) else { continue }
            let subtypes = document.annotations().map(\.subtype)
            let counted = (try? PDFDocument(bytes: [UInt8](bytes)))?.annotationCounts()
            XCTAssertEqual(counted, Dictionary(grouping: subtypes, by: { $0 }).mapValues(\.count), relative)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 650)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-counts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Odkazy – リンク.pdf").path
        let pikepdf = try TestEnvironment.python("""
            import sys, pikepdf
            pdf = pikepdf.new()
            pdf.add_blank_page(page_size=(595, 842))
            annots = pikepdf.Array()
            for k in range(3000):
                kind = pikepdf.Name.Highlight if k % 10 == 0 else pikepdf.Name.Link
                a = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Rect=[k % 500, 10, k % 500 + 6, 18],
                                       A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String(f"textedit:///skladba.ly:{k}")))
                a.Subtype = kind
                annots.append(pdf.make_indirect(a))
            pdf.pages[0].Annots = pdf.make_indirect(annots)
            pdf.save(sys.argv[1], object_stream_mode=pikepdf.ObjectStreamMode.generate)
            with pikepdf.open(sys.argv[1]) as pdf:
                kinds = [str(a.Subtype)[1:] for a in pdf.pages[0].Annots]
                print(" ".join(f"{k}={kinds.count(k)}" for k in sorted(set(kinds))))
            """, path)
        let document = try PDFDocument(path: path)
        XCTAssertEqual(document.annotationCounts().sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "), pikepdf)
    }

    /// A pass with readingOnce reads the same annotations and leaves in memory only what was
    /// there before it; counts by subtype read the same subtypes as the full decoding.
    func testReadingOnceForgetsWhatItReadAndCountsAgree() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 612 792] >>")
        builder.add(3, "<< /Type /Page /Parent 2 0 R /Annots [10 0 R 11 0 R 12 0 R] >>")
        builder.add(4, "<< /Type /Page /Parent 2 0 R /Annots 13 0 R >>")
        builder.add(10, "<< /Type /Annot /Subtype /Link /Rect [1 1 9 9] /A << /S /URI /URI (textedit:///a.ly:1:2:3) >> >>")
        builder.add(11, "<< /Type /Annot /Subtype /Highlight /Rect [10 10 50 20] /Contents (Δυναμική ff) /T (Jiří) >>")
        builder.add(12, "<< /Type /Annot /Rect [0 0 1 1] >>")
        builder.add(13, "[14 0 R 15 0 R]")
        builder.add(14, "<< /Type /Annot /Subtype /Link /Rect [2 2 8 8] >>")
        builder.add(15, "(not a dictionary)")
        let bytes = builder.classic(trailer: "/Root 1 0 R")
        let expected = try PDFDocument(bytes: bytes).annotations()
        let document = try PDFDocument(bytes: bytes)
        _ = document.pages()
        let before = document.loadedObjectCount
        let read = document.readingOnce { document.annotations() }
        XCTAssertEqual(document.loadedObjectCount, before, "the annotations' objects are forgotten")
        XCTAssertEqual(read.map(\.id), expected.map(\.id))
        XCTAssertEqual(read.map(\.contents), [nil, "Δυναμική ff", nil, nil])
        XCTAssertEqual(read.map(\.rect), expected.map(\.rect))
        let counting = try PDFDocument(bytes: bytes)
        XCTAssertEqual(counting.annotationCounts(), ["Link": 2, "Highlight": 1, "Unknown": 1])
        XCTAssertTrue(counting.warnings.contains { $0.description.contains("annotation 2 of page 2 is not a dictionary") },
                      "\(counting.warnings)")
        XCTAssertEqual(document.annotationCounts(), ["Link": 2, "Highlight": 1, "Unknown": 1])
        XCTAssertEqual(document.loadedObjectCount, before)
        // Nested passes forget at the outer pass's end.
        let nested = document.readingOnce { document.readingOnce { document.annotations() }.count + (document.loadedObjectCount > before ? 1 : 0) }
        XCTAssertEqual(nested, 5, "still in memory inside the outer pass")
        XCTAssertEqual(document.loadedObjectCount, before)
    }

    func testAnIndirectAnnotsArraySharedByTwoPagesIsCopiedBeforeAnAdd() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 612 792] >>")
        builder.add(3, "<< /Type /Page /Parent 2 0 R /Annots 5 0 R >>")
        builder.add(4, "<< /Type /Page /Parent 2 0 R /Annots 5 0 R >>")
        builder.add(5, "[6 0 R]")
        builder.add(6, "<< /Type /Annot /Subtype /Square /Rect [10 10 50 50] >>")
        let document = try PDFDocument(bytes: builder.classic(trailer: "/Root 1 0 R"))
        var draft = PDFAnnotationDraft(kind: .square)
        draft.rect = PDFRect(x1: 100, y1: 100, x2: 200, y2: 150)
        try document.addAnnotation(draft, toPage: 1)
        XCTAssertEqual(try document.annotations(onPage: 0).count, 1, "the other page keeps its array")
        XCTAssertEqual(try document.annotations(onPage: 1).count, 2)
        XCTAssertFalse(document.changedObjectNumbers.contains(5), "the shared array is not changed")
        XCTAssertTrue(document.changedObjectNumbers.contains(4), "the page gets its own array")
    }
}
