@testable import FolioServer
import FolioTestSupport
import Foundation
import XCTest

/// The server's QR codes read back by zbarimg (ZBar, a reader nobody here wrote): join links in
/// every version from 1 to 10, Unicode text, and a text too long refused with the limit.
final class QRCodeTests: XCTestCase {
    /// The code as a binary PGM, 4 pixels a module, with its quiet zone; what zbarimg reads.
    private func decoded(_ code: QRCode) throws -> String {
        let scale = 4, margin = 4, side = (code.size + 2 * margin) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<code.size {
            for x in 0..<code.size where code.isDark(x: x, y: y) {
                for dy in 0..<scale {
                    for dx in 0..<scale { pixels[((y + margin) * scale + dy) * side + (x + margin) * scale + dx] = 0 }
                }
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: file) }
        try (Data("P5\n\(side) \(side)\n255\n".utf8) + Data(pixels)).write(to: file)
        let result = try TestEnvironment.runTool("zbarimg", ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    func testCodesReadBack() throws {
        let texts = ["http://127.0.0.1:8080/rehearse/K7M3QX",
                     "http://[2001:db8::7]:8080/rehearse/ABCDEF",
                     "https://notenarchiv.example.org/rehearse/Q2W3E4?Chór=Dvořák&Хор=Чайковский&合唱=さくら",
                     String(repeating: "rehearse/", count: 13),
                     String(repeating: "x", count: QRCode.maxBytes)]
        var versions = Set<Int>()
        for text in texts {
            let code = try QRCode(text: text)
            versions.insert(code.version)
            XCTAssertEqual(code.size, 17 + 4 * code.version)
            XCTAssertEqual(try decoded(code), text)
        }
        XCTAssertTrue(versions.contains(10), "\(versions)")
        XCTAssertTrue(versions.contains { $0 >= 7 }, "version information drawn: \(versions)")
        for length in [1, 14, 30, 60, 84, 106, 122, 152, 180] {
            let text = String((0..<length).map { Character(UnicodeScalar(0x61 + $0 % 26)!) })
            XCTAssertEqual(try decoded(QRCode(text: text)), text, "\(length) bytes")
        }
        XCTAssertThrowsError(try QRCode(text: String(repeating: "x", count: QRCode.maxBytes + 1))) { error in
            XCTAssertTrue("\(error)".contains("at most \(QRCode.maxBytes) bytes"), "\(error)")
        }
        let svg = try QRCode(text: "K7M3QX").svg()
        XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }
}
