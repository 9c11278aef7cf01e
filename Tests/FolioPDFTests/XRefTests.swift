import XCTest

@testable import FolioPDF

/// One hand-made file per cross-reference form and per kind of damage.
final class XRefTests: XCTestCase {
    private let info = "<< /Title (Sonata) /Author (Clementi) >>"

    private func open(_ bytes: [UInt8], password: String? = nil) throws -> PDFDocument {
        try PDFDocument(bytes: bytes, password: password)
    }

    func testClassicTable() throws {
        let builder = PDFBuilder.minimal(pages: 3, info: info)
        let document = try open(builder.classic(trailer: "/Root 1 0 R /Info 6 0 R"))
        XCTAssertEqual(document.version, "1.7")
        XCTAssertEqual(document.pageCount, 3)
        XCTAssertEqual(document.info.title, "Sonata")
        XCTAssertEqual(document.xref.style, .table)
        XCTAssertFalse(document.xref.isReconstructed)
        XCTAssertEqual(document.warningCount, 0, document.warningText)
    }

    func testEntriesOf19And21Bytes() throws {
        for style in [PDFBuilder.EntryStyle.short19, .long21] {
            let document = try open(PDFBuilder.minimal(info: info).classic(trailer: "/Root 1 0 R /Info 4 0 R", style: style))
            XCTAssertEqual(document.info.author, "Clementi")
            XCTAssertFalse(document.xref.isReconstructed, "\(style)")
        }
    }

    func testTableNumberedFromOneIsRepaired() throws {
        let document = try open(PDFBuilder.minimal(info: info).classic(trailer: "/Root 1 0 R /Info 4 0 R", firstNumber: 1))
        XCTAssertEqual(document.info.title, "Sonata")
        XCTAssertFalse(document.xref.isReconstructed)
        XCTAssertTrue(document.warningText.contains("starts at object 1"))
    }

    func testXRefStreamWithPredictorAndObjectStream() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        let (header, first, data) = PDFBuilder.objectStream([
            (2, "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>"),
            (3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 200] >>"),
            (4, "<< /Type /Page /Parent 2 0 R /Rotate -90 >>"),
            (6, info),
        ])
        _ = header
        builder.addStream(5, "/Type /ObjStm /N 4 /First \(first) /Filter /FlateDecode", try FlateFilter.encode(data))
        let bytes = try builder.withXRefStream(
            number: 7, trailer: "/Root 1 0 R /Info 6 0 R", compressed: [2: (5, 0), 3: (5, 1), 4: (5, 2), 6: (5, 3)])
        let document = try open(bytes)
        XCTAssertEqual(document.xref.style, .stream)
        XCTAssertEqual(document.xref.entries[6], .compressed(stream: 5, index: 3))
        XCTAssertEqual(document.pageCount, 2)
        XCTAssertEqual(document.info.title, "Sonata")
        let pages = document.pages()
        XCTAssertEqual(pages.map(\.rotation), [0, 270])
        XCTAssertEqual(pages[0].mediaBox, [0, 0, 100, 200])
        XCTAssertEqual(document.warningCount, 0, document.warningText)
    }

    func testXRefStreamWithoutPredictor() throws {
        let bytes = try PDFBuilder.minimal(info: info).withXRefStream(
            number: 5, trailer: "/Root 1 0 R /Info 4 0 R", predictor: false)
        XCTAssertEqual(try open(bytes).info.author, "Clementi")
    }

    /// A hybrid file: the table hides object 4, which only the /XRefStm stream lists.
    func testHybridFile() throws {
        var builder = PDFBuilder.minimal(info: nil)
        let (_, first, data) = PDFBuilder.objectStream([(4, info)])
        builder.addStream(5, "/Type /ObjStm /N 1 /First \(first)", data)
        // The hidden xref stream (object 6) lists only object 4 as compressed.
        let row: [UInt8] = [2, 0, 0, 0, 5, 0, 0]
        let xrefStmOffset = builder.end
        builder.addStream(6, "/Type /XRef /Size 7 /W [1 4 2] /Index [4 1]", row)
        let bytes = builder.classic(trailer: "/Root 1 0 R /Info 4 0 R /XRefStm \(xrefStmOffset)")
        let document = try open(bytes)
        XCTAssertEqual(document.xref.entries[4], .compressed(stream: 5, index: 0))
        XCTAssertEqual(document.info.title, "Sonata")
        XCTAssertFalse(document.xref.isReconstructed)
    }

    /// An incremental update changes the title; the newest definition wins. Its trailer
    /// lacks /Root, which is then taken from the older trailer.
    func testIncrementalUpdateWithPrev() throws {
        let original = PDFBuilder.minimal(info: info).classic(trailer: "/Root 1 0 R /Info 4 0 R")
        let firstXRef = try XCTUnwrap(try open(original).xref.startOffset)
        var update = original
        let objectOffset = update.count
        update += Array("4 0 obj\n<< /Title (Sonatina) /Author (Clementi) >>\nendobj\n".utf8)
        let xrefOffset = update.count
        update += Array(String(format: "xref\n4 1\n%010d 00000 n\r\ntrailer\n<< /Size 5 /Info 4 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n",
                               objectOffset, firstXRef, xrefOffset).utf8)
        let document = try open(update)
        XCTAssertEqual(document.info.title, "Sonatina")
        XCTAssertEqual(document.xref.sectionCount, 2)
        XCTAssertNotNil(document.trailer["Root"], "Root comes from the older trailer")
        XCTAssertEqual(document.warningCount, 0, document.warningText)
    }

    func testPrevLoopIsDetectedAndRepaired() throws {
        let original = PDFBuilder.minimal(info: info).classic(trailer: "/Root 1 0 R /Info 4 0 R")
        var bytes = original
        let xrefOffset = bytes.count
        bytes += Array("xref\n0 1\n0000000000 65535 f\r\ntrailer\n<< /Size 5 /Root 1 0 R /Info 4 0 R /Prev \(xrefOffset) >>\nstartxref\n\(xrefOffset)\n%%EOF\n".utf8)
        let document = try open(bytes)
        XCTAssertTrue(document.warningText.contains("loop"))
        XCTAssertEqual(document.info.title, "Sonata")
        XCTAssertEqual(document.pageCount, 1)
    }

    func testWrongStartXRefIsReconstructed() throws {
        let bytes = PDFBuilder.minimal(pages: 2, info: info).classic(trailer: "/Root 1 0 R /Info 5 0 R", startxref: 3)
        let document = try open(bytes)
        XCTAssertTrue(document.xref.isReconstructed)
        XCTAssertEqual(document.pageCount, 2)
        XCTAssertEqual(document.info.title, "Sonata")
    }

    func testMissingXRefIsReconstructed() throws {
        var builder = PDFBuilder.minimal(info: info)
        builder.addRaw("trailer\n<< /Root 1 0 R /Info 4 0 R >>\n%%EOF\n")
        let bytes = builder.headerBytes + builder.body
        let document = try open(bytes)
        XCTAssertTrue(document.xref.isReconstructed)
        XCTAssertEqual(document.info.title, "Sonata")
    }

    func testWrongOffsetsTriggerReconstruction() throws {
        var bytes = PDFBuilder.minimal(info: info).classic(trailer: "/Root 1 0 R /Info 4 0 R")
        // Insert bytes after the header so that every offset in the table is off by 7.
        bytes.insert(contentsOf: Array("% junk\n".utf8), at: 15)
        let document = try open(bytes)
        XCTAssertEqual(document.info.title, "Sonata")
        XCTAssertEqual(document.pageCount, 1)
    }

    func testNoCatalogAnywhereIsAClearError() {
        let bytes = Array("%PDF-1.4\n1 0 obj\n(just a string)\nendobj\n%%EOF\n".utf8)
        XCTAssertThrowsError(try open(bytes)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .damaged)
        }
    }

    func testNotAPDF() {
        XCTAssertThrowsError(try open(Array("hello, world".utf8))) { error in
            XCTAssertEqual((error as? PDFError)?.code, .notPDF)
        }
        XCTAssertThrowsError(try open([])) { error in
            XCTAssertEqual((error as? PDFError)?.code, .notPDF)
        }
    }

    /// 4 MB of zeros after %%EOF: startxref is not found within the bounded window, and
    /// the file is still read (by reconstruction) without a quadratic scan.
    func testTrailingGarbage() throws {
        let tail = [UInt8](repeating: 0, count: 4 << 20)
        let bytes = PDFBuilder.minimal(info: info).classic(trailer: "/Root 1 0 R /Info 4 0 R", tail: tail)
        let document = try open(bytes)
        XCTAssertEqual(document.info.title, "Sonata")
    }

    func testStreamLengthRecovery() throws {
        var builder = PDFBuilder.minimal(info: nil)
        let content = Array("BT /F1 12 Tf (Hello) Tj ET".utf8)
        builder.addStream(4, "", content, length: "/Length 9999")
        builder.addStream(5, "", content, length: "")
        builder.add(6, "\(content.count)")
        builder.addStream(7, "", content, length: "/Length 6 0 R")
        let document = try open(builder.classic(trailer: "/Root 1 0 R"))
        XCTAssertEqual(document.loadedObjectCount, 1, "opening parses only the catalog")
        for number in [4, 5, 7] {
            let stream = try XCTUnwrap(document.object(PDFReference(number: number)).streamValue, "object \(number)")
            // Recovery keeps the end-of-line before `endstream`, as qpdf does.
            let data = try document.decodedData(of: stream)
            XCTAssertEqual(Array(data.prefix(content.count)), content, "object \(number)")
            XCTAssertLessThanOrEqual(data.count, content.count + 1)
        }
        XCTAssertEqual(document.object(PDFReference(number: 7)).streamValue?.encodedData, content, "indirect length")
        XCTAssertTrue(document.warningText.contains("/Length 9999 is wrong"))
    }

    func testSelfReferenceResolvesToNull() throws {
        var builder = PDFBuilder.minimal(info: nil)
        builder.add(4, "4 0 R")
        builder.add(5, "<< /Length 5 0 R >>\nstream\nabc\nendstream")
        let document = try open(builder.classic(trailer: "/Root 1 0 R"))
        XCTAssertEqual(document.resolve(.reference(PDFReference(number: 4))), .null)
        XCTAssertNotNil(document.object(PDFReference(number: 5)).streamValue)
    }

    func testPageTreeInheritanceAndLoops() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R 4 0 R 2 0 R] /Count 3 /MediaBox [0 0 595 842] /Rotate 90 /Resources << /Font << >> >> >>")
        builder.add(3, "<< /Type /Pages /Kids [5 0 R 6 0 R] /Count 2 /Rotate 180 >>")
        builder.add(4, "<< /Type /Page /MediaBox [0 0 100 100] >>")
        builder.add(5, "<< /Type /Page /CropBox [10 10 90 90] >>")
        builder.add(6, "<< /Type /Page /Rotate 450 >>")
        let document = try open(builder.classic(trailer: "/Root 1 0 R"))
        let pages = document.pages()
        XCTAssertEqual(pages.map(\.reference?.number), [5, 6, 4])
        XCTAssertEqual(pages.map(\.rotation), [180, 90, 90])
        XCTAssertEqual(pages[0].mediaBox, [0, 0, 595, 842])
        XCTAssertEqual(pages[0].cropBox, [10, 10, 90, 90])
        XCTAssertEqual(pages[1].cropBox, [0, 0, 595, 842], "crop box defaults to the media box")
        XCTAssertEqual(pages[2].mediaBox, [0, 0, 100, 100])
        XCTAssertNotNil(pages[1].resources)
        XCTAssertEqual(document.reachablePageCount, 3)
        XCTAssertTrue(document.warningText.contains("loop in the page tree"))
    }

    func testMissingCountFallsBackToWalkingTheTree() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R 3 0 R] >>")
        builder.add(3, "<< /Type /Page >>")
        let document = try open(builder.classic(trailer: "/Root 1 0 R"))
        XCTAssertEqual(document.pageCount, 2, "a page listed twice counts twice, as in qpdf")
        XCTAssertTrue(document.warningText.contains("more than once"))
    }

    func testOutlineCountIsLoopSafe() throws {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        builder.add(3, "<< /Type /Page >>")
        builder.add(4, "<< /Type /Outlines /First 5 0 R /Last 6 0 R >>")
        builder.add(5, "<< /Title (One) /Next 6 0 R /First 7 0 R >>")
        builder.add(6, "<< /Title (Two) /Next 5 0 R >>")
        builder.add(7, "<< /Title (One.One) >>")
        let document = try open(builder.classic(trailer: "/Root 1 0 R"))
        XCTAssertEqual(document.outlineCount, 3)
        XCTAssertTrue(document.warningText.contains("loop in the outline"))
    }

    func testLazyOpenParsesNothingButTheTrailer() throws {
        var builder = PDFBuilder.minimal(info: info)
        builder.add(5, "<< /Broken [ (never read")
        let document = try open(builder.classic(trailer: "/Root 1 0 R /Info 4 0 R"))
        XCTAssertEqual(document.info.title, "Sonata")
        XCTAssertEqual(document.pageCount, 1)
        XCTAssertEqual(document.warningCount, 0, "object 5 must not have been parsed: \(document.warningText)")
        // Catalog, page tree root and Info: nothing else was parsed for these answers.
        XCTAssertEqual(document.loadedObjectCount, 3)
    }
}



