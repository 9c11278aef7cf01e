import FolioPDF
import XCTest

@testable import FolioScore

final class ScoreReaderTests: XCTestCase {
    private func pdf(info: String, xmp: String) -> [UInt8] {
        TestPDF.make(info: info, xmp: xmp)
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
