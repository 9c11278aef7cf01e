import FolioPDF
import FolioTestSupport
import Foundation
import XCTest

/// What one read of a hostile file may cost: XMP decoded no further than its reader takes,
/// the server's smaller limits per stream, a time budget, and DTDs found in any encoding.
final class ReadBudgetTests: XCTestCase {
    /// `count` zero bytes, deflated by Python's zlib (a reader nobody here wrote).
    private func deflatedZeros(_ count: Int) throws -> [UInt8] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let script = """
            import sys, zlib
            c = zlib.compressobj(9); chunk = bytes(1 << 20); n = int(sys.argv[2]) >> 20
            with open(sys.argv[1], 'wb') as f:
                for _ in range(n): f.write(c.compress(chunk))
                f.write(c.flush())
            """
        let result = try TestEnvironment.runTool("python3", ["-c", script, out, String(count)])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// A one-page PDF whose catalog's /Metadata or whose page's /Contents is `stream`.
    private func document(metadata: [UInt8]? = nil, contents: [UInt8]? = nil, filter: String = "/Filter /FlateDecode") -> [UInt8] {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R\(metadata == nil ? "" : " /Metadata 5 0 R") >>")
        builder.add(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>")
        builder.add(3, "<< /Type /Page /Parent 2 0 R\(contents == nil ? "" : " /Contents 4 0 R") >>")
        if let contents { builder.addStream(4, filter, contents) }
        if let metadata { builder.addStream(5, "/Type /Metadata /Subtype /XML \(filter)", metadata) }
        return builder.classic(trailer: "<< /Root 1 0 R >>")
    }

    func testXMPIsDecodedNoFurtherThanItsReaderTakes() throws {
        let bomb = try deflatedZeros(256 << 20)
        XCTAssertLessThan(bomb.count, 1 << 20)
        let document = try PDFDocument(bytes: document(metadata: bomb))
        let started = ContinuousClock.now
        XCTAssertTrue(document.xmpPacket == nil, "a packet past XMPPacket's limit is not read")
        XCTAssertLessThan(started.duration(to: .now), .seconds(2))
        XCTAssertTrue(document.warningText.contains("\((16 << 20) + 1) bytes"), document.warningText)
    }

    func testTheServerReadsWithSmallerLimitsAndATimeBudget() throws {
        let bomb = try deflatedZeros(64 << 20)
        let options = PDFReadOptions.server(seconds: 30)
        XCTAssertEqual(options.maxDecodedBytes, 32 << 20)
        let server = try PDFDocument(bytes: document(contents: bomb), options: options)
        XCTAssertThrowsError(try server.contentBounds(ofPage: 0)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .limitExceeded)
            XCTAssertTrue("\(error)".contains("\(32 << 20)"), "\(error)")
        }
        XCTAssertNoThrow(try PDFDocument(bytes: document(contents: bomb)).contentBounds(ofPage: 0), "the command line's own limit is larger")

        // A budget already spent stops the walk through a long content stream.
        let content = Array(String(repeating: "10 10 m 200 200 l S\n", count: 50_000).utf8)
        var spent = PDFReadOptions()
        spent.deadline = .now - .seconds(1)
        XCTAssertThrowsError(try PDFDocument(bytes: document(contents: content, filter: ""), options: spent).contentBounds(ofPage: 0)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .limitExceeded)
            XCTAssertTrue("\(error)".contains("time budget"), "\(error)")
        }
        let box = try XCTUnwrap(try PDFDocument(bytes: document(contents: content, filter: "")).contentBounds(ofPage: 0))
        XCTAssertEqual(box.x1, 10, accuracy: 1)
        XCTAssertEqual(box.x2, 200, accuracy: 1)
    }

    /// A DTD in UTF-16 or UTF-32 — with a byte order mark, or UTF-16 without one, which the
    /// XML parser detects on its own — is refused like one in UTF-8.
    func testADTDIsRefusedInEveryEncoding() {
        let packet = """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "Dvořák"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>\
            <x:xmpmeta xmlns:x="adobe:ns:meta/">&b;</x:xmpmeta>
            """
        let utf16LE = packet.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BE = packet.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let utf32LE = packet.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8((scalar.value >> ($0 * 8)) & 0xFF) } }
        let encodings: [(String, [UInt8])] = [
            ("UTF-8", Array(packet.utf8)), ("UTF-16LE with BOM", [0xFF, 0xFE] + utf16LE), ("UTF-16BE with BOM", [0xFE, 0xFF] + utf16BE),
            ("UTF-16LE without BOM", utf16LE), ("UTF-16BE without BOM", utf16BE), ("UTF-32LE with BOM", [0xFF, 0xFE, 0, 0] + utf32LE),
        ]
        for (name, bytes) in encodings {
            XCTAssertThrowsError(try XMPPacket(bytes: bytes), name) { error in
                XCTAssertEqual((error as? PDFError)?.code, .syntax, name)
            }
        }
        let fine = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>"#
        XCTAssertNoThrow(try XMPPacket(bytes: [0xFF, 0xFE] + fine.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
                         "UTF-16 with its mark and no DTD is read")
    }
}
