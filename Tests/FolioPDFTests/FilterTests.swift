import FolioTestSupport
import XCTest

@testable import FolioPDF

final class FilterTests: XCTestCase {
    private func decode(_ dictionary: PDFDictionary, _ data: [UInt8], limit: Int = 1 << 26) throws -> [UInt8] {
        try StreamDecoder.decode(PDFStream(dictionary: dictionary, encodedData: data), limit: limit, log: nil)
    }

    func testFlateRoundTrip() throws {
        let text = Array(String(repeating: "Folio reads scores. ", count: 500).utf8)
        let encoded = try FlateFilter.encode(text)
        XCTAssertLessThan(encoded.count, text.count / 10)
        XCTAssertEqual(try decode(["Filter": .name("FlateDecode")], encoded), text)
        // The abbreviation and the array form mean the same.
        XCTAssertEqual(try decode(["Filter": .array([.name("Fl")])], encoded), text)
    }

    func testFlateTruncatedDataGivesWhatWasInflated() throws {
        let text = Array(String(repeating: "abcdefghij", count: 10_000).utf8)
        let encoded = try FlateFilter.encode(text)
        let log = WarningLog()
        let partial = try FlateFilter.decode(Array(encoded.prefix(encoded.count / 2)), limit: 1 << 26, log: log)
        XCTAssertFalse(partial.isEmpty)
        XCTAssertEqual(Array(text.prefix(partial.count)), partial)
        XCTAssertTrue(log.warnings.contains { $0.message.contains("truncated") })
    }

    func testFlateGarbageIsAnError() {
        XCTAssertThrowsError(try decode(["Filter": .name("FlateDecode")], Array("not zlib at all".utf8))) { error in
            XCTAssertEqual((error as? PDFError)?.code, .filter)
        }
    }

    func testDecompressionBombIsRefused() throws {
        let zeros = [UInt8](repeating: 0, count: 20 << 20)
        let bomb = try FlateFilter.encode(zeros, level: 9)
        XCTAssertLessThan(bomb.count, 100_000)
        XCTAssertThrowsError(try decode(["Filter": .name("FlateDecode")], bomb, limit: 1 << 20)) { error in
            XCTAssertEqual((error as? PDFError)?.code, .limitExceeded)
        }
    }

    /// Encodes rows with each PNG filter type, the way a writer would, and checks the
    /// predictor undoes every one of them.
    func testPNGPredictorsAllRowTypes() throws {
        let columns = 5, colors = 3
        let rowLength = columns * colors
        var generator = SeededGenerator(#function)
        let rows = (0..<10).map { _ in (0..<rowLength).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        var encoded: [UInt8] = []
        var previous = [UInt8](repeating: 0, count: rowLength)
        for (index, row) in rows.enumerated() {
            let type = UInt8(index % 5)
            encoded.append(type)
            for i in 0..<rowLength {
                let a = i >= colors ? Int(row[i - colors]) : 0
                let b = Int(previous[i])
                let c = i >= colors ? Int(previous[i - colors]) : 0
                let predicted: Int
                switch type {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                default:
                    let p = a + b - c
                    let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                }
                encoded.append(row[i] &- UInt8(predicted))
            }
            previous = row
        }
        let parameters: PDFDictionary = ["Predictor": .integer(15), "Columns": .integer(columns), "Colors": .integer(colors)]
        let decoded = try decode(
            ["Filter": .name("FlateDecode"), "DecodeParms": .dictionary(parameters)], try FlateFilter.encode(encoded))
        XCTAssertEqual(decoded, rows.flatMap { $0 })
    }

    func testTIFFPredictor() throws {
        let parameters: PDFDictionary = ["Predictor": .integer(2), "Columns": .integer(4), "Colors": .integer(1)]
        let decoded = try Predictor.decode([10, 1, 1, 253, 5, 5, 0, 0], parameters: parameters, log: nil)
        XCTAssertEqual(decoded, [10, 11, 12, 9, 5, 10, 10, 10])
    }

    func testUnknownPredictorIsAnError() {
        XCTAssertThrowsError(try Predictor.decode([1, 2], parameters: ["Predictor": .integer(7)], log: nil))
        XCTAssertThrowsError(try Predictor.decode([1, 2], parameters: ["Predictor": .integer(12), "BitsPerComponent": .integer(3)], log: nil))
    }

    /// The example of ISO 32000-1 §7.4.4.2.
    func testLZWSpecExample() throws {
        let encoded: [UInt8] = [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01]
        XCTAssertEqual(try decode(["Filter": .name("LZWDecode")], encoded), Array("-----A---B".utf8))
    }

    func testLZWLongInputCrossesCodeWidths() throws {
        // Encode with a straightforward LZW encoder (EarlyChange 1) and decode it back.
        var generator = SeededGenerator(#function)
        let input = (0..<20_000).map { _ in UInt8.random(in: 65...70, using: &generator) }
        XCTAssertEqual(try decode(["Filter": .name("LZWDecode")], lzwEncode(input)), input)
    }

    func testASCIIHex() throws {
        XCTAssertEqual(try decode(["Filter": .name("ASCIIHexDecode")], Array("48 65 6C6c6F>ignored".utf8)), Array("Hello".utf8))
        XCTAssertEqual(try decode(["Filter": .name("AHx")], Array("414>".utf8)), [0x41, 0x40])
        XCTAssertThrowsError(try decode(["Filter": .name("AHx")], Array("4G>".utf8)))
    }

    func testASCII85() throws {
        // The expected text was produced by Python's base64.a85encode.
        let encoded = Array("87cURD_*#-6q/;CDfTZ)+T~>".utf8)
        XCTAssertEqual(try decode(["Filter": .name("ASCII85Decode")], encoded), Array("Hello, PDF world!".utf8))
        XCTAssertEqual(try decode(["Filter": .name("A85")], Array("z~>".utf8)), [0, 0, 0, 0])
        XCTAssertThrowsError(try decode(["Filter": .name("A85")], Array("87c{~>".utf8)))
    }

    func testRunLength() throws {
        let encoded: [UInt8] = [2, 0x61, 0x62, 0x63, 254, 0x78, 128, 0x7A]
        XCTAssertEqual(try decode(["Filter": .name("RunLengthDecode")], encoded), Array("abcxxx".utf8))
    }

    func testFilterChain() throws {
        let text = Array("chained filters".utf8)
        let flate = try FlateFilter.encode(text)
        let hex = Array((flate.map { String(format: "%02X", $0) }.joined() + ">").utf8)
        let dictionary: PDFDictionary = ["Filter": .array([.name("ASCIIHexDecode"), .name("FlateDecode")])]
        XCTAssertEqual(try decode(dictionary, hex), text)
    }

    func testImageCodecsPassThrough() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
        XCTAssertEqual(try decode(["Filter": .name("DCTDecode")], jpeg), jpeg)
        let hex = Array("FFD8FFE0010203>".utf8)
        XCTAssertEqual(try decode(["Filter": .array([.name("AHx"), .name("DCTDecode")])], hex), jpeg)
    }

    func testUnknownFilterIsAnError() {
        XCTAssertThrowsError(try decode(["Filter": .name("BogusDecode")], [1, 2, 3])) { error in
            XCTAssertEqual((error as? PDFError)?.code, .filter)
        }
    }

    private func lzwEncode(_ input: [UInt8]) -> [UInt8] {
        var table: [[UInt8]: Int] = [:]
        func reset() {
            table = [:]
            for i in 0..<256 { table[[UInt8(i)]] = i }
        }
        reset()
        var next = 258, width = 9
        var bits = 0, bitCount = 0
        var output: [UInt8] = []
        func emit(_ code: Int) {
            bits = bits << width | code
            bitCount += width
            while bitCount >= 8 {
                output.append(UInt8((bits >> (bitCount - 8)) & 0xFF))
                bitCount -= 8
            }
            bits &= (1 << bitCount) - 1
        }
        emit(256)
        var current: [UInt8] = []
        for byte in input {
            let extended = current + [byte]
            if table[extended] != nil {
                current = extended
                continue
            }
            emit(table[current]!)
            table[extended] = next
            next += 1
            if next + 1 > (1 << width) {
                if width == 12 {
                    emit(256)
                    reset()
                    next = 258
                    width = 9
                } else {
                    width += 1
                }
            }
            current = [byte]
        }
        if !current.isEmpty { emit(table[current]!) }
        emit(257)
        if bitCount > 0 { output.append(UInt8((bits << (8 - bitCount)) & 0xFF)) }
        return output
    }
}
