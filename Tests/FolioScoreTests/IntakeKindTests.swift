import FolioPDF
@testable import FolioScore
import Foundation
import XCTest

/// A dropped file's kind by content, never by name, and the checks an office package passes
/// before LibreOffice sees it.
final class IntakeKindTests: XCTestCase {
    func testKindsAreToldByContent() throws {
        XCTAssertEqual(IntakeKind.of(bytes: Array(#"{\rtf1\ansi Ave Maria \u1040?}"#.utf8)), .rtf)
        XCTAssertEqual(IntakeKind.of(bytes: Array("<--4SBV03-->".utf8) + [0x20]), .forScoreArchive)
        XCTAssertEqual(IntakeKind.of(bytes: try Gzip.compress(Array("bplist00".utf8))), .forScoreContainer)
        XCTAssertEqual(IntakeKind.of(bytes: Array(#"<?xml version="1.0"?><forScore kind="setlist" version="1.0" title="Концерт"/>"#.utf8)), .setlist)
        XCTAssertEqual(IntakeKind.of(bytes: Array(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#.utf8)), .openIn)
        XCTAssertEqual(IntakeKind.of(bytes: Array(#"{"composers": "Antonín Dvořák"}"#.utf8)), .openIn)
        XCTAssertEqual(IntakeKind.of(bytes: Array("{title: Ó, řekni}\n[C]Ó řek[G]ni\n".utf8)), .text, "ChordPro is no JSON")
        XCTAssertEqual(IntakeKind.of(bytes: Array("Název;Strana\nVltava;3\n".utf8)), .text, "a header of unknown words is text")
        XCTAssertEqual(IntakeKind.of(bytes: Array("Title;Page\nVltava;3\n".utf8)), .csv)
        XCTAssertEqual(IntakeKind.of(bytes: Array("\u{FEFF}Filename,Title,Start Page (Bookmark)\nA.pdf,Ἀθηνᾶ,1\n".utf8)), .csv)
        XCTAssertEqual(IntakeKind.of(bytes: Array("Ой, то не вечер\nто не вечер\n".utf8)), .text)
        XCTAssertEqual(IntakeKind.of(bytes: Array("%PDF-1.7\n".utf8)), .pdf)
        XCTAssertNil(IntakeKind.of(bytes: [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]))
        XCTAssertNil(IntakeKind.of(bytes: [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]), "a ZIP that is no office text")
        XCTAssertNil(IntakeKind.of(bytes: IntakeKind.compoundSignature + Array(repeating: 0, count: 600)), "a compound file without WordDocument")
    }

    /// A ZIP built here (stored entries): names leading out, encryption, sizes past the
    /// limits and DTDs are refused; a clean DOCX passes.
    func testOfficePackagesAreCheckedBeforeConversion() throws {
        let clean = Self.zip([("[Content_Types].xml", Array("<Types/>".utf8)), ("word/document.xml", Array("<w:document>Ahoj světe</w:document>".utf8))])
        let package = try OfficePackage(bytes: clean)
        XCTAssertEqual(package.format, .docx)
        XCTAssertNoThrow(try package.check())
        XCTAssertEqual(IntakeKind.of(bytes: clean), .docx)
        let odt = Self.zip([("mimetype", Array("application/vnd.oasis.opendocument.text".utf8)), ("content.xml", Array("<office/>".utf8))])
        XCTAssertEqual(try OfficePackage(bytes: odt).format, .odt)
        XCTAssertEqual(IntakeKind.of(bytes: odt), .odt)
        XCTAssertThrowsError(try OfficePackage(bytes: Self.zip([("../evil.xml", [])]))) { XCTAssertTrue("\($0)".contains("leads out")) }
        XCTAssertThrowsError(try OfficePackage(bytes: Self.zip([("/etc/passwd", [])]))) { XCTAssertTrue("\($0)".contains("absolute")) }
        XCTAssertThrowsError(try OfficePackage(bytes: Self.zip([("a.xml", []), ("a.xml", [])]))) { XCTAssertTrue("\($0)".contains("twice")) }
        XCTAssertThrowsError(try OfficePackage(bytes: Self.zip([("word/document.xml", [])], flags: 1))) { XCTAssertTrue("\($0)".contains("encrypted")) }
        XCTAssertThrowsError(try OfficePackage(bytes: Self.zip([("big.bin", [])], declaredSize: 300 << 20))) {
            XCTAssertTrue("\($0)".contains("valid: up to \(OfficePackage.maxEntrySize)"), "\($0)")
        }
        let lying = try OfficePackage(bytes: Self.zip([("word/document.xml", Array("<w:document/>".utf8))], declaredSize: 3))
        XCTAssertThrowsError(try lying.check()) { XCTAssertTrue("\($0)".contains("not the 3 it declares"), "\($0)") }
        let entities = try OfficePackage(bytes: Self.zip([("word/document.xml", Array(#"<!DOCTYPE d [<!ENTITY a "x">]><d>&a;</d>"#.utf8))]))
        XCTAssertThrowsError(try entities.check()) { XCTAssertTrue("\($0)".contains("DTD or entities")) }
        XCTAssertThrowsError(try OfficePackage(bytes: Array("PK\u{3}\u{4} nothing like a central directory here".utf8))) { XCTAssertTrue("\($0)".contains("no ZIP end record")) }
    }

    /// A ZIP of stored entries, with a general-purpose flag and a declared size to lie with.
    static func zip(_ entries: [(String, [UInt8])], flags: UInt16 = 0, declaredSize: Int? = nil) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        var body: [UInt8] = [], directory: [UInt8] = []
        for (name, data) in entries {
            let offset = body.count, raw = Array(name.utf8), size = declaredSize ?? data.count
            body += u32(0x0403_4B50) + u16(20) + u16(Int(flags)) + u16(0) + u32(0) + u32(0) + u32(data.count) + u32(size)
                + u16(raw.count) + u16(0) + raw + data
            directory += u32(0x0201_4B50) + u16(20) + u16(20) + u16(Int(flags)) + u16(0) + u32(0) + u32(0) + u32(data.count)
                + u32(size) + u16(raw.count) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(offset) + raw
        }
        return body + directory + u32(0x0605_4B50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count)
            + u32(directory.count) + u32(body.count) + u16(0)
    }
}
