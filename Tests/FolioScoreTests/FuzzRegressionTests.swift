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
}
