import FolioTestSupport
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

    /// Reals are read from their digits without making text when they fit 15 digits:
    /// every value must be exactly what the standard library's decimal parser gives,
    /// short and long, with leading zeros, signs and no integer part.
    func testRealsEqualTheStandardParser() throws {
        var generator = SeededGenerator(#function)
        var samples = ["0.1", "0.2", "0.30000000000000004", "1.0000000000000002", "123456789012345.6", "12345678901234.56",
                       "-0.0", ".000000000000001", "999999999999999.9", "0000000000000001.5", "7.123456789012345",
                       "-.1234567890123456", "4503599627370497.5", "0.1234567890123456789"]
        for _ in 0..<20_000 {
            let whole = String(UInt64.random(in: 0...999_999_999, using: &generator))
            let fraction = String(UInt64.random(in: 0...9_999_999_999, using: &generator)).prefix(Int.random(in: 1...10, using: &generator))
            samples.append((Bool.random(using: &generator) ? "-" : "") + whole.prefix(Int.random(in: 0...9, using: &generator)) + "." + fraction)
        }
        for text in samples {
            let expected = Double(text.hasPrefix(".") || text.hasPrefix("-.") ? text.replacingOccurrences(of: ".", with: "0.") : text)
            XCTAssertEqual(try parse(text).doubleValue, expected, text)
            XCTAssertEqual(try parse(text).doubleValue?.sign, expected?.sign, text)
        }
    }

    /// Dictionaries keep file order, find keys small or large (past 16 keys an index is
    /// kept), replace in place, drop removed and null keys, and compare without regard to order.
    func testDictionariesKeepOrderAndFindEveryKey() {
        var large = PDFDictionary()
        let names = (0..<40).map { "Klíč\($0)" } + ["Ωμέγα", "Ключ", "鍵"]
        for (index, name) in names.enumerated() { large[name] = .integer(index) }
        XCTAssertEqual(large.keys, names)
        for (index, name) in names.enumerated() { XCTAssertEqual(large[name], .integer(index), name) }
        large["Klíč3"] = .name("Nový")
        large["Klíč5"] = nil
        large["Ключ"] = .null
        for index in 6..<35 { large["Klíč\(index)"] = nil }   // back below the index's threshold
        var expected = names.filter { $0 != "Klíč5" && $0 != "Ключ" }
        expected.removeAll { name in (6..<35).contains { "Klíč\($0)" == name } }
        XCTAssertEqual(large.keys, expected)
        XCTAssertEqual(large["Klíč3"], .name("Nový"))
        XCTAssertNil(large["Klíč5"])
        XCTAssertNil(large["Klíč20"])
        XCTAssertEqual(large["鍵"], .integer(42))
        large["Klíč20"] = .integer(20)
        XCTAssertEqual(large.keys.last, "Klíč20")
        var reversed = PDFDictionary()
        for name in large.keys.reversed() { reversed[name] = large[name] }
        XCTAssertEqual(reversed, large)
        reversed["鍵"] = .integer(0)
        XCTAssertNotEqual(reversed, large)
        let small: PDFDictionary = ["Type": .name("Annot"), "Subtype": .name("Link")]
        XCTAssertEqual(small, ["Subtype": .name("Link"), "Type": .name("Annot")])
        XCTAssertNotEqual(small, ["Type": .name("Annot")])
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

    func testStringsPastTheLimitAreCutWithAWarning() throws {
        let log = WarningLog()
        let text = "(" + String(repeating: "a", count: Lexer.maxStringBytes + 10) + ")"
        XCTAssertEqual(try parse(text, log: log).stringValue?.bytes.count, Lexer.maxStringBytes)
        XCTAssertTrue(log.warnings.contains { $0.message.contains("cut") }, "\(log.warnings)")
        let hex = "<" + String(repeating: "ab", count: Lexer.maxStringBytes + 1)
        XCTAssertEqual(try parse(hex).stringValue?.bytes.count, Lexer.maxStringBytes)
    }

    func testArraysPastTheLimitAreAnError() {
        let text = "[" + String(repeating: "0 ", count: Parser.maxItems + 1) + "]"
        XCTAssertThrowsError(try parse(text)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .limitExceeded)
        }
    }

    func testEveryParsedObjectIsChargedToTheDocumentBudget() throws {
        let log = WarningLog(maxParsedObjects: 10)
        XCTAssertNoThrow(try parse("[1 2 3 4 5 6 7 8 9]", log: log))  // the array and nine numbers
        XCTAssertThrowsError(try parse("1", log: log)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .limitExceeded)
        }
        // In a document the object that overdraws the budget reads as null, with a warning.
        var body = "%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
        body += "2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
        body += "3 0 obj [" + String(repeating: "1 ", count: 500) + "] endobj\ntrailer << /Root 1 0 R /Size 4 >>\n%%EOF\n"
        var options = PDFReadOptions()
        options.maxParsedObjects = 100
        let document = try PDFDocument(bytes: Array(body.utf8), options: options)
        XCTAssertEqual(document.object(PDFReference(number: 3)), .null)
        XCTAssertTrue(document.warnings.contains { $0.message.contains("objects parsed") }, "\(document.warnings)")
    }

    func testAllStreamsOfADocumentShareOneDecodingBudget() throws {
        var body = "%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
        for number in 3...5 {
            body += "\(number) 0 obj << /Length 1000 >> stream\n" + String(repeating: "x", count: 1000) + "\nendstream endobj\n"
        }
        body += "trailer << /Root 1 0 R /Size 6 >>\n%%EOF\n"
        var options = PDFReadOptions()
        options.maxTotalDecodedBytes = 2500
        let document = try PDFDocument(bytes: Array(body.utf8), options: options)
        func decode(_ number: Int) throws -> Int {
            guard case .stream(let stream) = document.object(PDFReference(number: number)) else { return -1 }
            return try document.decodedData(of: stream).count
        }
        XCTAssertEqual(try decode(3), 1000)
        XCTAssertEqual(try decode(4), 1000)
        XCTAssertThrowsError(try decode(5)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .limitExceeded)
        }
    }
}
