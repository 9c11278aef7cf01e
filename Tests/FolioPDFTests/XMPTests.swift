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

    /// Every corpus packet: dc:title and dc:creator as exiftool reads them.
    func testCorpusPacketsMatchExiftool() throws {
        var files: [(String, XMPPacket)] = []
        for relative in try TestEnvironment.corpusPDFs() {
            let path = TestEnvironment.corpusFile(relative)
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
