import FolioPDF
import FolioScore
import Foundation
import XCTest

/// Inputs the fuzz targets (Fuzz/) found, each kept in Tests/FuzzRegressions/<target>/ and
/// read here the way its target reads it: each must give a clear error (or a result), never a
/// crash. `crash-*` stopped the process before the fix; `leak-*` leaked in Foundation's XML
/// parser (suppressed in Fuzz/lsan.supp) and must still read cleanly.
final class FuzzRegressionTests: XCTestCase {
    private func inputs(_ target: String) throws -> [(String, [UInt8])] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertFalse(names.isEmpty, target)
        return try names.map { ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    func testPartNamesThatCrashed() throws {
        for (_, bytes) in try inputs("FuzzParts") {
            let text = String(decoding: bytes, as: UTF8.self)
            let parsed = PartName(file: text)
            XCTAssertFalse(parsed.song.contains("/"), "the last path component: \(parsed.song.debugDescription)")
            _ = parsed.songKey
            for label in [parsed.label, PartLabel(text), PartLabel(userLabel: text)].compactMap({ $0 }) {
                _ = label.serves(PartLabel(userLabel: text) ?? label)
            }
        }
    }

    func testOpenInDictionariesThatCrashedPropertyListDecoder() throws {
        for (name, bytes) in try inputs("FuzzOpenIn") {
            XCTAssertThrowsError(try OpenInDictionary.edit(from: Data(bytes)), name) { error in
                XCTAssertEqual((error as? ScoreError)?.code, .invalidValue, name)
            }
        }
    }

    func testXMLThatIsNotUTF8NeverReachesXMLParserUnrepaired() throws {
        for (name, bytes) in try inputs("FuzzXMP") {
            // Either a packet or a syntax error; before the fix the crash-* inputs stopped the process.
            do { _ = try XMPPacket(bytes: bytes) } catch let error as PDFError {
                XCTAssertEqual(error.code, .syntax, name)
            }
            XCTAssertThrowsError(try OpenSetlist(bytes: bytes), name)
        }
        // Latin-1 declared and written stays Latin-1 text, not replacement characters.
        let latin = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><forScore kind=\"setlist\" version=\"1.0\" title=\"Caf".utf8)
            + [0xE9] + Array("\"></forScore>".utf8)
        XCTAssertEqual(try OpenSetlist(bytes: latin).title, "Café")
        let utf16: [UInt8] = [0xFF, 0xFE] + "<forScore kind=\"setlist\" version=\"1.0\" title=\"Ré\"></forScore>".utf16.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        XCTAssertEqual(try OpenSetlist(bytes: utf16).title, "Ré")
    }

    func testSetlistsThatCrashedXMLParser() throws {
        for (name, bytes) in try inputs("FuzzSetlist") {
            XCTAssertThrowsError(try OpenSetlist(bytes: bytes), name)
        }
    }

    func testInstructionsWithoutDataGetASpaceEverywhere() throws {
        // `<?w?>` made XMLParser read a null pointer (crash-7d37…), even inside a broken comment (crash-9cf4…).
        let bytes = Array("<?x?><!-- <?y?> --><r xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><![CDATA[<?z?>]]><?w?></r>".utf8)
        XCTAssertEqual(String(decoding: XMLInput.instructionsWithData(bytes), as: UTF8.self),
                       "<?x ?><!-- <?y ?> --><r xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><![CDATA[<?z ?>]]><?w ?></r>")
        let packet = try XMPPacket(bytes: bytes)
        let written = String(decoding: packet.serialized(), as: UTF8.self)
        XCTAssertTrue(written.contains("<?x"), written)
        XCTAssertTrue(written.contains("<![CDATA[<?z ?>]]>"), written)
        XCTAssertEqual(Array(XMLInput.instructionsWithData(Array("<a>no instruction</a>".utf8))), Array("<a>no instruction</a>".utf8))
        XCTAssertEqual(String(decoding: XMLInput.instructionsWithData(Array("<?<?a?><?".utf8)), as: UTF8.self), "<?<?a ?><?")
    }
}

/// Folio's binary property list reader against Foundation's, on what Foundation writes.
final class PropertyListTests: XCTestCase {
    func testBinaryPropertyListsReadAsFoundationReadsThem() throws {
        let nested: [String: Any] = ["inner": ["a", 1, 2.5, true] as [Any], "é": "ünïcödé — “quotes” 𝄞"]
        let root: [String: Any] = [
            "string": "Sonatina", "unicode": "Dvořák", "small": 3, "negative": -42, "large": 1 << 40, "huge": Int.max,
            "real": 0.1, "float": 2.5, "yes": true, "no": false, "date": Date(timeIntervalSinceReferenceDate: 123_456.5),
            "data": Data((0..<300).map { UInt8($0 % 256) }), "empty": [Any](), "array": Array(0..<40), "nested": nested,
            "long": String(repeating: "x", count: 70_000),
        ]
        let bytes = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
        let ours = try XCTUnwrap(try PropertyList.read(Array(bytes)) as? NSDictionary)
        let theirs = try XCTUnwrap(try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil) as? NSDictionary)
        XCTAssertEqual(ours, theirs)
        XCTAssertEqual(ours["huge"] as? Int, Int.max)
        XCTAssertEqual(ours["negative"] as? Int, -42)
        XCTAssertTrue(type(of: ours["yes"] ?? 0) == Bool.self || (ours["yes"] as? Bool) == true)
    }

    func testDamagedBinaryPropertyListsAreErrors() throws {
        let bytes = Array(try PropertyListSerialization.data(fromPropertyList: ["a": ["b", "c", 1]], format: .binary, options: 0))
        // Every truncation and every single-byte change: an error or a value, never a crash.
        for length in 0..<bytes.count { _ = try? PropertyList.read(Array(bytes.prefix(length))) }
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0x0F, 0x7F, 0xAF, 0xDF, 0xFF] {
                var damaged = bytes
                damaged[index] = value
                _ = try? PropertyList.read(damaged)
            }
        }
        // An array that contains itself is a nesting error, not a hang.
        var cyclic = Array("bplist00".utf8) + [0xA1, 0x00]
        let table = cyclic.count
        cyclic += [8]
        cyclic += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        XCTAssertThrowsError(try PropertyList.read(cyclic)) { error in
            XCTAssertEqual((error as? ScoreError)?.code, .limitExceeded)
        }
    }
}
