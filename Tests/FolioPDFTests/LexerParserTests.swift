import XCTest

@testable import FolioPDF

final class LexerParserTests: XCTestCase {
    private func parse(_ text: String, log: WarningLog? = nil) throws -> PDFObject {
        let source = ByteSource(data: Array(text.utf8))
        var parser = Parser(bytes: source.bytes, log: log)
        return try withExtendedLifetime(source) { try parser.parseObject() }
    }

    private func parse(bytes: [UInt8]) throws -> PDFObject {
        let source = ByteSource(data: bytes)
        var parser = Parser(bytes: source.bytes)
        return try withExtendedLifetime(source) { try parser.parseObject() }
    }

    func testNumbers() throws {
        XCTAssertEqual(try parse("123"), .integer(123))
        XCTAssertEqual(try parse("-17"), .integer(-17))
        XCTAssertEqual(try parse("+5"), .integer(5))
        XCTAssertEqual(try parse(".5").doubleValue, 0.5)
        XCTAssertEqual(try parse("-.002").doubleValue, -0.002)
        XCTAssertEqual(try parse("4.").doubleValue, 4.0)
        // Real-world double sign, read as Acrobat does.
        XCTAssertEqual(try parse("--3").intValue, 3)
        // Integer overflow becomes a real rather than wrapping.
        XCTAssertEqual(try parse("99999999999999999999").doubleValue, 1e20)
    }

    func testRealKeepsItsText() throws {
        guard case .real(let real) = try parse("0.1000") else { return XCTFail("not a real") }
        XCTAssertEqual(real.text, "0.1000")
        XCTAssertEqual(real.value, 0.1)
    }

    func testLiteralStringEscapes() throws {
        // A backslash before a line end continues the line.
        let text = #"(a\nb\tc\(d\)e\\f\053\0536\7 (nested) \q end\"# + "\ncontinued)"
        let value = try parse(text)
        let expected = Array("a\nb\tc(d)e\\f++6\u{07} (nested) q endcontinued".utf8)
        XCTAssertEqual(value.stringValue?.bytes, expected)
    }

    func testLiteralStringLineEndsBecomeLF() throws {
        XCTAssertEqual(try parse(bytes: Array("(a\r\nb\rc)".utf8)).stringValue?.bytes, Array("a\nb\nc".utf8))
    }

    func testHexStrings() throws {
        XCTAssertEqual(try parse("<48 65 6c 6C 6f>").stringValue?.bytes, Array("Hello".utf8))
        // An odd final digit is padded with 0.
        XCTAssertEqual(try parse("<414>").stringValue?.bytes, [0x41, 0x40])
        XCTAssertEqual(try parse("<414>").stringValue?.isHex, true)
    }

    func testNames() throws {
        XCTAssertEqual(try parse("/Type"), .name("Type"))
        XCTAssertEqual(try parse("/A#20B"), .name("A B"))
        XCTAssertEqual(try parse("/F#c3#bcnf"), .name("Fünf"))
        // An invalid escape is kept literally.
        XCTAssertEqual(try parse("/A#zz"), .name("A#zz"))
        XCTAssertEqual(try parse("/"), .name(""))
    }

    func testArraysDistinguishReferencesFromNumbers() throws {
        let value = try parse("[1 2 R 3 4 5 0 R 6]")
        XCTAssertEqual(value, .array([
            .reference(PDFReference(number: 1, generation: 2)), .integer(3), .integer(4),
            .reference(PDFReference(number: 5, generation: 0)), .integer(6),
        ]))
    }

    func testDictionaryWithCommentsAndNesting() throws {
        let value = try parse("<< /A 1 % comment >>\n /B << /C [true false null] >> /D (x) /E 2 0 R >>")
        XCTAssertEqual(value["A"], .integer(1))
        XCTAssertEqual(value["B"]?["C"], .array([.boolean(true), .boolean(false), .null]))
        XCTAssertEqual(value["D"]?.stringValue?.bytes, [0x78])
        XCTAssertEqual(value["E"], .reference(PDFReference(number: 2)))
        XCTAssertEqual(value.dictionaryValue?.keys, ["A", "B", "D", "E"])
    }

    func testNullValueRemovesKey() throws {
        let value = try parse("<< /A null /B 1 >>")
        XCTAssertNil(value["A"])
        XCTAssertEqual(value.dictionaryValue?.count, 1)
    }

    func testUnterminatedDictionaryIsRecoveredWithWarning() throws {
        let log = WarningLog()
        let value = try parse("<< /A 1 /B [2 3 endobj", log: log)
        XCTAssertEqual(value["A"], .integer(1))
        XCTAssertEqual(value["B"], .array([.integer(2), .integer(3)]))
        XCTAssertTrue(log.warnings.contains { $0.message.contains("unterminated") })
    }

    func testKeyWithoutValueAndGarbageKeyword() throws {
        let log = WarningLog()
        let value = try parse("<< /A garbage /B 2 /C >>", log: log)
        XCTAssertEqual(value["B"], .integer(2))
        XCTAssertNil(value["A"])
        XCTAssertGreaterThanOrEqual(log.total, 2)
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000)
        XCTAssertThrowsError(try parse(text)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .syntax)
        }
        let dictionaries = String(repeating: "<< /A ", count: 50_000)
        XCTAssertThrowsError(try parse(dictionaries))
    }

    func testHugeHexStringIsLinear() throws {
        // 8 MB of hex digits: a quadratic lexer (pdfcpu's bug) would take minutes.
        var bytes: [UInt8] = [UInt8(ascii: "<")]
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 8 << 20)
        bytes.append(UInt8(ascii: ">"))
        XCTAssertEqual(try parse(bytes: bytes).stringValue?.bytes.count, 4 << 20)
    }
}
