@testable import FolioPDF
import FolioTestSupport
import Foundation
import XCTest

/// TrueType fonts read for embedding: widths as MuPDF measures them, damaged and truncated
/// files refused with an error (never a crash), licences that forbid embedding respected.
final class TypesettingTests: XCTestCase {
    private let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    func testTrueTypeWidthsAgreeWithPyMuPDF() throws {
        let font = try TrueTypeFont(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: dejaVu))))
        XCTAssertEqual(font.postScriptName, "DejaVuSans")
        let samples = ["Měsíčku na nebi hlubokém", "Ψαλμός", "Чайковский", "Allegro ma non troppo"]
        let script = """
            import json, sys, pymupdf
            font = pymupdf.Font(fontfile=sys.argv[1])
            print(json.dumps([font.text_length(t, fontsize=12) for t in json.loads(sys.argv[2])]))
            """
        let argument = String(decoding: try JSONSerialization.data(withJSONObject: samples), as: UTF8.self)
        let run = try TestEnvironment.runTool("python3", ["-c", script, dejaVu, argument])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        let widths = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [Double])
        for (text, width) in zip(samples, widths) {
            XCTAssertNil(PDFTypeface.trueType(font).firstMissing(in: text), text)
            XCTAssertEqual(PDFTypeface.trueType(font).width(of: text, size: 12), width, accuracy: 0.05, text)
        }
        XCTAssertEqual(PDFTypeface.trueType(font).firstMissing(in: "♩ 𝄞"), "𝄞")
    }

    func testDamagedFontsAreRefusedNeverCrash() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dejaVu)))
        var refused = 0
        // Every prefix length up to the tables' ends, and bytes flipped through the directory and tables.
        for length in stride(from: 0, to: 60_000, by: 613) {
            if (try? TrueTypeFont(bytes: Array(bytes.prefix(length)))) == nil { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 90)
        var generator = SeededGenerator(#function)
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<8 {
                let at = Int.random(in: 0..<min(damaged.count, 4096), using: &generator)
                damaged[at] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? TrueTypeFont(bytes: damaged)
        }
        XCTAssertThrowsError(try TrueTypeFont(bytes: Array("OTTO".utf8) + [UInt8](repeating: 0, count: 20))) { error in
            XCTAssertTrue("\(error)".contains("CFF"))
        }
        XCTAssertThrowsError(try TrueTypeFont(bytes: Array("ttcf".utf8) + [UInt8](repeating: 0, count: 20)))
    }

    func testRestrictedLicenceIsRespected() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dejaVu)))
        // The OS/2 table's fsType (offset 8 in the table) set to 2: restricted licence embedding.
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        for index in 0..<count {
            let record = 12 + 16 * index
            guard String(decoding: bytes[record..<(record + 4)], as: UTF8.self) == "OS/2" else { continue }
            let offset = Int(bytes[record + 8]) << 24 | Int(bytes[record + 9]) << 16 | Int(bytes[record + 10]) << 8 | Int(bytes[record + 11])
            bytes[offset + 8] = 0
            bytes[offset + 9] = 2
        }
        XCTAssertThrowsError(try TrueTypeFont(bytes: bytes)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .notPermitted)
        }
    }
}
