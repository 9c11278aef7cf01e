import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

final class XMPTests: XCTestCase {
    func testElementAndAttributeForms() throws {
        let packet = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Keywords="Tag, rating:3"/>
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <dc:title><rdf:Alt><rdf:li xml:lang="de">Mondschein</rdf:li><rdf:li xml:lang="x-default">Clair de Lune</rdf:li></rdf:Alt></dc:title>
              <dc:creator><rdf:Seq><rdf:li>Claude Debussy</rdf:li><rdf:li>Ed. Durand</rdf:li></rdf:Seq></dc:creator>
              <dc:format>application/pdf</dc:format>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """
        let xmp = try XMPPacket(bytes: Array(packet.utf8))
        XCTAssertEqual(xmp.text(XMPPacket.dc, "title"), "Clair de Lune")
        XCTAssertEqual(xmp.array(XMPPacket.dc, "creator"), ["Claude Debussy", "Ed. Durand"])
        XCTAssertEqual(xmp.text(XMPPacket.pdf, "Keywords"), "Tag, rating:3")
        XCTAssertEqual(xmp.text(XMPPacket.dc, "format"), "application/pdf")
    }

    func testHostileXMLIsRefused() {
        let xxe = """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">&e;</x:xmpmeta>
            """
        XCTAssertThrowsError(try XMPPacket(bytes: Array(xxe.utf8))) { error in
            XCTAssertEqual((error as? PDFError)?.code, .syntax)
        }
        let bomb = "<!DOCTYPE l [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><x>&b;</x>"
        XCTAssertThrowsError(try XMPPacket(bytes: Array(bomb.utf8)))
        XCTAssertThrowsError(try XMPPacket(bytes: Array("<x:xmpmeta><unclosed>".utf8)))
    }

    /// pikepdf declares a property's namespace on the property itself; replacing the
    /// property keeps the declaration, so the packet stays well-formed for other readers.
    func testReplacedPropertyKeepsItsOwnNamespaceDeclaration() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about=""><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Alt>\
            <rdf:li xml:lang="x-default">Green Sleeves</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        var xmp = try XMPPacket(bytes: Array(packet.utf8))
        try xmp.update([XMPPacket.Edit(name(XMPPacket.dc, "title"), prefix: "dc", .languageAlternative("Greensleeves"))])
        let written = try XMPPacket(bytes: xmp.serialized())
        XCTAssertEqual(written.text(XMPPacket.dc, "title"), "Greensleeves")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("folio-xmp-\(UUID().uuidString).xml")
        try Data(xmp.serialized()).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let python = try TestEnvironment.runTool("python3", ["-c", """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            print(root.find('.//{http://purl.org/dc/elements/1.1/}title') is not None)
            """, file.path])
        XCTAssertEqual(String(decoding: python.stdout, as: UTF8.self), "True\n", String(decoding: python.stderr, as: UTF8.self))
    }

    private func name(_ namespace: String, _ local: String) -> XMPPacket.Name {
        XMPPacket.Name(namespace: namespace, local: local)
    }

    func testUpdateReplacesInPlaceAndKeepsEverythingElse() throws {
        let packet = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <?adobe-xap-filters esc="CRLF"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Other"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="uuid:1" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Keywords="old" pdf:Producer="P"/>
            <rdf:Description rdf:about="uuid:1" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <!-- a comment -->
              <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Old</rdf:li></rdf:Alt></dc:title>
              <dc:creator><rdf:Seq><rdf:li>Someone</rdf:li></rdf:Seq></dc:creator>
            </rdf:Description>
            <rdf:Description rdf:about="uuid:1" xmlns:d="http://purl.org/dc/elements/1.1/"><d:title>Duplicate</d:title></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """
        var xmp = try XMPPacket(bytes: Array(packet.utf8))
        try xmp.update([
            XMPPacket.Edit(name(XMPPacket.pdf, "Keywords"), prefix: "pdf", .text("Tag, rating:3")),
            XMPPacket.Edit(name(XMPPacket.dc, "title"), prefix: "dc", .languageAlternative("Rêverie & <Nocturne> \"№ 2\"")),
            XMPPacket.Edit(name(XMPPacket.dc, "creator"), prefix: "dc", nil),
            XMPPacket.Edit(name(XMPPacket.dc, "subject"), prefix: "dc", .unordered(["A", "B"])),
        ])
        let text = String(decoding: xmp.serialized(), as: UTF8.self)
        let again = try XMPPacket(bytes: xmp.serialized())
        XCTAssertEqual(again.properties, xmp.properties, "the serialized packet reads back the same")
        XCTAssertEqual(again.text(XMPPacket.dc, "title"), "Rêverie & <Nocturne> \"№ 2\"")
        XCTAssertEqual(again.text(XMPPacket.pdf, "Keywords"), "Tag, rating:3")
        XCTAssertEqual(again.text(XMPPacket.pdf, "Producer"), "P")
        XCTAssertEqual(again.array(XMPPacket.dc, "creator"), [])
        XCTAssertEqual(again.array(XMPPacket.dc, "subject"), ["A", "B"])
        XCTAssertFalse(text.contains("pdf:Keywords=\"old\""), "the attribute form became an element")
        XCTAssertFalse(text.contains("Duplicate"), "a duplicate of a replaced property goes")
        XCTAssertEqual(text.components(separatedBy: "rdf:Description ").count - 1, 3,
                       "the emptied description goes; one new description for dc:subject")
        XCTAssertTrue(text.contains("<!-- a comment -->"))
        XCTAssertTrue(text.contains("<?adobe-xap-filters esc=\"CRLF\"?>"))
        XCTAssertTrue(text.contains("x:xmptk=\"Other\""))
        XCTAssertTrue(text.contains("rdf:about=\"uuid:1\" xmlns:dc") || text.contains("rdf:about=\"uuid:1\""))
        // The title was replaced where it was: before the comment's description ends, not in a new one.
        let titleRange = try XCTUnwrap(text.range(of: "<dc:title>"))
        let commentRange = try XCTUnwrap(text.range(of: "<!-- a comment -->"))
        XCTAssertLessThan(commentRange.lowerBound, titleRange.lowerBound)
        XCTAssertNil(text.range(of: "<dc:title>", range: titleRange.upperBound..<text.endIndex), "one title")
    }

    func testNewPacketAndDefaultNamespaceRDF() throws {
        var fresh = XMPPacket(emptyWrittenBy: "Folio")
        try fresh.update([XMPPacket.Edit(name(XMPPacket.dc, "creator"), prefix: "dc", .ordered(["Frédéric Chopin", "George Sand"]))])
        let parsed = try XMPPacket(bytes: fresh.serialized())
        XCTAssertEqual(parsed.array(XMPPacket.dc, "creator"), ["Frédéric Chopin", "George Sand"])
        XCTAssertTrue(String(decoding: fresh.serialized(), as: UTF8.self).hasPrefix("<?xpacket begin="))

        let defaultRDF = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><RDF xmlns="http://www.w3.org/1999/02/22-rdf-syntax-ns#"></RDF></x:xmpmeta>
            """
        var xmp = try XMPPacket(bytes: Array(defaultRDF.utf8))
        try xmp.update([XMPPacket.Edit(name(XMPPacket.dc, "title"), prefix: "dc", .languageAlternative("T"))])
        XCTAssertEqual(try XMPPacket(bytes: xmp.serialized()).text(XMPPacket.dc, "title"), "T")

        var notXMP = try XMPPacket(bytes: Array("<root><child/></root>".utf8))
        XCTAssertThrowsError(try notXMP.update([XMPPacket.Edit(name(XMPPacket.dc, "title"), prefix: "dc", .text("T"))]))
    }

    /// Every corpus packet: dc:title and dc:creator as exiftool reads them.
    func testCorpusPacketsMatchExiftool() throws {
        var files: [(String, XMPPacket)] = []
        for relative in try TestEnvironment.corpusPDFs() {
            let path = try TestEnvironment.corpusFile(relative)
            guard let document = try? PDFDocument(path: path), let bytes = document.xmpPacket,
                let packet = try? XMPPacket(bytes: bytes)
            else { continue }
            files.append((path, packet))
        }
        XCTAssertGreaterThan(files.count, 20)
        let result = try TestEnvironment.runTool(
            "exiftool", ["-j", "-q", "-XMP-dc:Title", "-XMP-dc:Creator", "-XMP-pdf:Keywords"] + files.map(\.0), timeout: 600)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        var byPath: [String: [String: Any]] = [:]
        for entry in list { if let source = entry["SourceFile"] as? String { byPath[source] = entry } }
        var compared = 0
        for (path, packet) in files {
            guard let expected = byPath[path] else { continue }
            func strings(_ value: Any?) -> [String] {
                if let array = value as? [Any] { return array.map { "\($0)" } }
                return value.map { ["\($0)"] } ?? []
            }
            XCTAssertEqual(packet.text(XMPPacket.dc, "title").map { [$0] } ?? [], strings(expected["Title"]), path)
            XCTAssertEqual(packet.array(XMPPacket.dc, "creator"), strings(expected["Creator"]), path)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 20)
    }
}
