import FolioPDF
import XCTest

@testable import FolioScore

final class ScoreReaderTests: XCTestCase {
    /// A PDF whose Info has only Keywords, and whose XMP has title and creators.
    private func pdf(info: String, xmp: String) -> [UInt8] {
        var body = "%PDF-1.7\n"
        var offsets: [Int] = []
        func add(_ text: String) {
            offsets.append(body.utf8.count)
            body += "\(offsets.count) 0 obj\n\(text)\nendobj\n"
        }
        add("<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>")
        add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        add("<< /Type /Page /Parent 2 0 R >>")
        add("<< /Type /Metadata /Subtype /XML /Length \(xmp.utf8.count) >>\nstream\n\(xmp)\nendstream")
        add(info)
        let xref = body.utf8.count
        body += "xref\n0 6\n0000000000 65535 f\r\n"
        for offset in offsets { body += String(format: "%010d 00000 n\r\n", offset) }
        body += "trailer\n<< /Size 6 /Root 1 0 R /Info 5 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(body.utf8)
    }

    private let packet = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
        <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Nocturne Op. 90 № 2</rdf:li></rdf:Alt></dc:title>
        <dc:creator><rdf:Seq><rdf:li>Frédéric Chopin</rdf:li></rdf:Seq></dc:creator>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """

    func testXMPFillsWhatInfoLacks() throws {
        let document = try PDFDocument(bytes: pdf(info: "<< /Keywords (Recital, rating:4) >>", xmp: packet))
        let (score, warnings) = ScoreMetadata.read(from: document)
        XCTAssertEqual(score.title, "Nocturne Op. 90 № 2")
        XCTAssertEqual(score.composers, ["Frédéric Chopin"])
        XCTAssertEqual(score.tags, ["Recital"])
        XCTAssertEqual(score.rating, 4)
        XCTAssertEqual(warnings, [])
    }

    func testInfoWinsOverXMP() throws {
        let document = try PDFDocument(bytes: pdf(info: "<< /Title (Info Title) /Author (A, B) >>", xmp: packet))
        let (score, _) = ScoreMetadata.read(from: document)
        XCTAssertEqual(score.title, "Info Title")
        XCTAssertEqual(score.composers, ["A", "B"])
    }

    func testBrokenXMPIsAWarning() throws {
        let document = try PDFDocument(bytes: pdf(info: "<< >>", xmp: "<x:xmpmeta><broken"))
        let (score, warnings) = ScoreMetadata.read(from: document)
        XCTAssertNil(score.title)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("XMP"), warnings[0])
    }
}
