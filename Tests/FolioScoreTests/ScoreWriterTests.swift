import FolioPDF
import Foundation
import XCTest

@testable import FolioScore

final class ScoreWriterTests: XCTestCase {
    /// A packet with properties Folio does not own, in both forms, and a stale title.
    private let packet = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="Sibelius"/>
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:ex="urn:example:">
          <!-- kept -->
          <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Old</rdf:li></rdf:Alt></dc:title>
          <ex:Edition>Urtext &amp; more</ex:Edition>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """

    private let date = Date(timeIntervalSince1970: 1_795_000_000)

    /// Applies `edit` to a PDF made of `info` and `xmp`, saves it and opens the result.
    private func write(_ edit: ScoreEdit, info: String = "<< /Producer (Test) >>", xmp: String? = nil,
                       allowComma: Bool = false) throws -> (PDFDocument, [String]) {
        let directory = try TestPDF.directory()
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("score.pdf").path
        let original = TestPDF.make(info: info, xmp: xmp)
        try Data(original).write(to: URL(fileURLWithPath: path))
        let warnings = try PDFSaver.update(path: path) { document in
            try ScoreWriter.write(edit, to: document, options: .init(allowComma: allowComma, date: date))
        }
        let written = try PDFDocument(path: path)
        XCTAssertEqual(Array(written.source.bytes.prefix(original.count)), original, "the original is a prefix")
        return (written, warnings)
    }

    private func xmp(_ document: PDFDocument) throws -> XMPPacket {
        try XMPPacket(bytes: XCTUnwrap(document.xmpPacket))
    }

    func testInfoAndXMPAreWrittenTogether() throws {
        var edit = ScoreEdit()
        edit.title = "Nocturne Op. 90 № 2"
        edit.composers = ["Frédéric Chopin"]
        edit.genres = ["Romantic", "Piano"]
        edit.tags = ["My Tag"]
        edit.labels = ["Label One", "Label Two"]
        edit.rating = 3
        edit.key = try MusicalKey(parsing: "Db")
        edit.reference = "Henle HN 1156 — «Urtext»"
        let (document, warnings) = try write(edit, xmp: packet)
        XCTAssertEqual(warnings, [])
        let info = document.info
        XCTAssertEqual(info.title, "Nocturne Op. 90 № 2")
        XCTAssertEqual(info.author, "Frédéric Chopin")
        XCTAssertEqual(info.subject, "Romantic, Piano")
        XCTAssertEqual(info.keywords, "My Tag, rating:3, keysf:-5, keymi:0")
        XCTAssertEqual(info.producer, "Test", "entries Folio does not own stay")
        XCTAssertEqual(info.modificationDate, PDFDate(date))
        // Non-ASCII as UTF-16BE with BOM, ASCII as is.
        let raw = try XCTUnwrap(document.infoDictionary)
        XCTAssertEqual(raw["Title"]?.stringValue.map { Array($0.bytes.prefix(2)) }, [0xFE, 0xFF])
        XCTAssertEqual(raw["Subject"]?.stringValue?.bytes, Array("Romantic, Piano".utf8))

        let xmp = try xmp(document)
        XCTAssertEqual(xmp.text(XMPPacket.dc, "title"), "Nocturne Op. 90 № 2")
        XCTAssertEqual(xmp.array(XMPPacket.dc, "creator"), ["Frédéric Chopin"])
        XCTAssertEqual(xmp.text(XMPPacket.dc, "description"), "Romantic, Piano")
        XCTAssertEqual(xmp.array(XMPPacket.dc, "subject"), ["My Tag"])
        XCTAssertEqual(xmp.text(XMPPacket.pdf, "Keywords"), info.keywords)
        XCTAssertEqual(xmp.array(StoredScore.namespace, "labels"), ["Label One", "Label Two"])
        XCTAssertEqual(xmp.text(StoredScore.namespace, "reference"), "Henle HN 1156 — «Urtext»", "no place in Info")
        XCTAssertEqual(xmp.text(XMPPacket.xmp, "ModifyDate"), PDFDate(date).iso8601)
        XCTAssertEqual(xmp.text(XMPPacket.xmp, "MetadataDate"), PDFDate(date).iso8601)
        XCTAssertEqual(xmp.text(XMPPacket.xmp, "CreatorTool"), "Sibelius")
        XCTAssertEqual(xmp.text("urn:example:", "Edition"), "Urtext & more")
        let text = String(decoding: try XCTUnwrap(document.xmpPacket), as: UTF8.self)
        XCTAssertTrue(text.contains("<!-- kept -->"), text)
        XCTAssertTrue(text.hasPrefix("<?xpacket begin="), text)
        XCTAssertTrue(text.contains("<?xpacket end=\"w\"?>"), text)

        let stream = try XCTUnwrap(document.metadataStream)
        XCTAssertEqual(stream.dictionary["Type"]?.nameValue, "Metadata")
        XCTAssertEqual(stream.dictionary["Subtype"]?.nameValue, "XML")
        XCTAssertNil(stream.dictionary["Filter"], "metadata is written unfiltered")

        let (score, readWarnings) = ScoreMetadata.read(from: document)
        XCTAssertEqual(readWarnings, [])
        XCTAssertEqual(score, edit.applied(to: ScoreMetadata()))
    }

    func testFieldsNotGivenKeepTheirExactText() throws {
        var edit = ScoreEdit()
        edit.rating = 5
        let (document, _) = try write(edit, info: "<< /Title (Sonata) /Author (Bach,J.S.) /Keywords (a,b , rating:1) >>")
        XCTAssertEqual(document.info.title, "Sonata")
        XCTAssertEqual(document.info.author, "Bach,J.S.", "untouched fields are not re-joined")
        XCTAssertEqual(document.info.keywords, "a, b, rating:5")
        let xmp = try xmp(document)
        XCTAssertEqual(xmp.array(XMPPacket.dc, "creator"), ["Bach", "J.S."], "XMP follows what forScore reads")
        XCTAssertEqual(xmp.array(XMPPacket.dc, "subject"), ["a", "b"])
    }

    func testClearingRemovesFromInfoAndXMP() throws {
        var first = ScoreEdit()
        first.composers = ["A"]
        first.genres = ["G"]
        first.labels = ["L"]
        first.duration = 72
        first.reference = "Op. 9"
        let (tagged, _) = try write(first, xmp: packet)
        XCTAssertEqual(tagged.info.author, "A")

        var clear = ScoreEdit()
        clear.cleared = [.composers, .labels, .duration, .title, .reference]
        let directory = try TestPDF.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cleared.pdf").path
        try PDFSaver.saveIncrementally(tagged, to: path)
        try PDFSaver.update(path: path) { try ScoreWriter.write(clear, to: $0) }
        let document = try PDFDocument(path: path)
        XCTAssertNil(document.info.author)
        XCTAssertNil(document.info.title)
        XCTAssertNil(document.info.keywords)
        XCTAssertEqual(document.info.subject, "G")
        let xmp = try xmp(document)
        XCTAssertNil(xmp.text(XMPPacket.dc, "creator"))
        XCTAssertNil(xmp.text(XMPPacket.dc, "title"))
        XCTAssertNil(xmp.text(XMPPacket.pdf, "Keywords"))
        XCTAssertEqual(xmp.array(StoredScore.namespace, "labels"), [])
        XCTAssertNil(xmp.text(StoredScore.namespace, "reference"))
        XCTAssertEqual(xmp.text(XMPPacket.dc, "description"), "G")
        XCTAssertEqual(xmp.text("urn:example:", "Edition"), "Urtext & more")
    }

    func testANewPacketWhenThereIsNone() throws {
        var edit = ScoreEdit()
        edit.title = "Clair de Lune"
        let (document, _) = try write(edit)
        XCTAssertNotNil(document.catalog?["Metadata"])
        let xmp = try xmp(document)
        XCTAssertEqual(xmp.text(XMPPacket.dc, "title"), "Clair de Lune")
        XCTAssertNil(document.metadataStream?.dictionary["Filter"])
    }

    func testXMPValuesFillWhatInfoLacks() throws {
        var edit = ScoreEdit()
        edit.rating = 2
        let (document, _) = try write(edit, info: "<< >>", xmp: packet)
        XCTAssertEqual(document.info.title, "Old", "Info takes the XMP title so both agree")
    }

    func testABrokenPacketIsReplacedWithAWarning() throws {
        var edit = ScoreEdit()
        edit.title = "T"
        let (document, warnings) = try write(edit, xmp: "<x:xmpmeta><broken")
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("replaced"), warnings[0])
        XCTAssertEqual(try xmp(document).text(XMPPacket.dc, "title"), "T")
    }

    func testInvalidEditsChangeNothing() throws {
        let directory = try TestPDF.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("score.pdf").path
        let original = Data(TestPDF.make(info: "<< /Title (Keep) >>", xmp: packet))
        try original.write(to: URL(fileURLWithPath: path))
        var cases: [(ScoreEdit, String)] = []
        var edit = ScoreEdit()
        edit.rating = 9
        cases.append((edit, "0 to 5"))
        edit = ScoreEdit()
        edit.difficulty = -1
        cases.append((edit, "0 to 3"))
        edit = ScoreEdit()
        edit.composers = ["Bach, J. S."]
        cases.append((edit, "comma"))
        edit = ScoreEdit()
        edit.tags = ["rating:5"]
        cases.append((edit, "special keyword"))
        edit = ScoreEdit()
        edit.title = "X"
        edit.cleared = [.title]
        cases.append((edit, "both set and cleared"))
        edit = ScoreEdit()
        edit.title = "  "
        cases.append((edit, "empty"))
        for (edit, message) in cases {
            XCTAssertThrowsError(try PDFSaver.update(path: path) { try ScoreWriter.write(edit, to: $0) }) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "untouched after \(message)")
        }
    }

    func testACommaIsKeptWhenAllowed() throws {
        var edit = ScoreEdit()
        edit.composers = ["Bach, J. S."]
        let (document, warnings) = try write(edit, allowComma: true)
        XCTAssertEqual(document.info.author, "Bach, J. S.")
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(try xmp(document).array(XMPPacket.dc, "creator"), ["Bach, J. S."], "kept whole in XMP")
        XCTAssertEqual(ScoreMetadata.read(from: document).0.composers, ["Bach", "J. S."], "as forScore reads it")
    }

    /// The comma rule is one rule: the Info fields, an edit and the writer refuse the same value
    /// with the same words, and trim the same way.
    func testTheCommaRuleIsTheSameForMetadataEditsAndTheWriter() throws {
        let composer = "Dvořák, Antonín – Дворжак"
        var refusals: [String] = []
        func refusal(_ body: () throws -> Void) {
            do { try body(); XCTFail("accepted \(composer)") } catch let error as ScoreError {
                XCTAssertEqual(error.code, .invalidValue)
                refusals.append(error.message)
            } catch { XCTFail("\(error)") }
        }
        var edit = ScoreEdit()
        edit.composers = [composer]
        refusal { _ = try ForScoreInfo.fields(for: ScoreMetadata(composers: [composer])) }
        refusal { try edit.commaWarnings(allowComma: false) }
        let document = try PDFDocument(bytes: TestPDF.make(info: "<< /Producer (Test) >>", xmp: nil))
        refusal { try ScoreWriter.write(edit, to: document) }
        XCTAssertEqual(Set(refusals).count, 1, "\(refusals)")
        XCTAssertTrue(refusals[0].contains(composer) && refusals[0].hasSuffix("(--allow-comma keeps it)"), refusals[0])
        XCTAssertEqual(try ScoreWriter.write(edit, to: document, options: .init(allowComma: true)), [try edit.commaWarnings(allowComma: true)[0]])
        XCTAssertEqual(ScoreEdit.trimmed([" Чайковский ", "\n", "練習曲"]), ["Чайковский", "練習曲"])
        XCTAssertEqual(ScoreEdit(replacingWith: ScoreMetadata(composers: [" Чайковский ", " "])).composers, ["Чайковский"])
    }
}
