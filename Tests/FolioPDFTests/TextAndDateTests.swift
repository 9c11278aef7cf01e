import XCTest

@testable import FolioPDF

final class TextStringTests: XCTestCase {
    func testPDFDocEncodingIsNotLatin1() {
        // 0x80 bullet, 0x84 em dash, 0x8D/0x8E curly quotes, 0x92 trade mark, 0xA0 euro, 0x18 breve.
        XCTAssertEqual(PDFTextString.decode([0x80, 0x84, 0x8D, 0x41, 0x8E, 0x92, 0xA0, 0x18]), "•—“A”™€˘")
        // Latin-1 range above 0xA0 is the same.
        XCTAssertEqual(PDFTextString.decode([0x46, 0x72, 0xE9, 0x64, 0xE9, 0x72, 0x69, 0x63]), "Frédéric")
    }

    func testUTF16BigEndianWithBOM() {
        XCTAssertEqual(PDFTextString.decode([0xFE, 0xFF, 0x00, 0x4E, 0x21, 0x16, 0x00, 0x20, 0x00, 0x32]), "N№ 2")
        // A surrogate pair (𝄞, U+1D11E).
        XCTAssertEqual(PDFTextString.decode([0xFE, 0xFF, 0xD8, 0x34, 0xDD, 0x1E]), "𝄞")
    }

    func testUTF16LanguageEscapeIsDropped() {
        let bytes: [UInt8] = [0xFE, 0xFF, 0x00, 0x1B, 0x00, 0x65, 0x00, 0x6E, 0x00, 0x1B, 0x00, 0x48, 0x00, 0x69]
        XCTAssertEqual(PDFTextString.decode(bytes), "Hi")
    }

    func testUTF8WithBOMAndRawUTF8() {
        XCTAssertEqual(PDFTextString.decode([0xEF, 0xBB, 0xBF] + Array("Clair de Lune – Debussy".utf8)), "Clair de Lune – Debussy")
        XCTAssertEqual(PDFTextString.decode(Array("Après un Rêve".utf8)), "Après un Rêve")
    }

    func testEncodeASCIIAsIsOtherwiseUTF16() {
        XCTAssertEqual(PDFTextString.encode("Sonata"), Array("Sonata".utf8))
        let encoded = PDFTextString.encode("Nocturne Op. 90 № 2")
        XCTAssertEqual(Array(encoded.prefix(2)), [0xFE, 0xFF])
        XCTAssertEqual(PDFTextString.decode(encoded), "Nocturne Op. 90 № 2")
        XCTAssertEqual(PDFTextString.decode(PDFTextString.encode("Frédéric Chopin 𝄞")), "Frédéric Chopin 𝄞")
    }
}

final class PDFDateTests: XCTestCase {
    func testFullDateWithOffset() {
        let date = PDFDate(parsing: "D:20220403180542+02'00'")
        XCTAssertEqual(date?.iso8601, "2022-04-03T18:05:42+02:00")
        XCTAssertEqual(date?.pdfString, "D:20220403180542+02'00'")
    }

    func testPartialAndOddForms() {
        XCTAssertEqual(PDFDate(parsing: "D:2022")?.iso8601, "2022-01-01T00:00:00")
        XCTAssertEqual(PDFDate(parsing: "D:202204")?.iso8601, "2022-04-01T00:00:00")
        XCTAssertEqual(PDFDate(parsing: "20220403")?.iso8601, "2022-04-03T00:00:00", "without D:")
        XCTAssertEqual(PDFDate(parsing: "D:20220403180542Z")?.iso8601, "2022-04-03T18:05:42+00:00")
        XCTAssertEqual(PDFDate(parsing: "D:20220403180542Z00'00'")?.utcOffsetMinutes, 0)
        XCTAssertEqual(PDFDate(parsing: "D:20220415133024-01'00'")?.utcOffsetMinutes, -60)
        XCTAssertEqual(PDFDate(parsing: "D:20220403180542+0530")?.utcOffsetMinutes, 330, "no apostrophes")
        XCTAssertEqual(PDFDate(parsing: "D:20220403180542+05'30")?.utcOffsetMinutes, 330, "no trailing apostrophe")
        XCTAssertEqual(PDFDate(parsing: "2022-04-03T18:05:42+02:00")?.iso8601, "2022-04-03T18:05:42+02:00")
        XCTAssertEqual(PDFDate(parsing: "D: 20220403")?.day, 3, "space after D:")
    }

    func testGarbage() {
        XCTAssertNil(PDFDate(parsing: ""))
        XCTAssertNil(PDFDate(parsing: "yesterday"))
        XCTAssertNil(PDFDate(parsing: "D:"))
        // A month of 13 keeps the year but not the month.
        XCTAssertEqual(PDFDate(parsing: "D:20221340")?.month, 1)
    }

    func testWritingZ() {
        XCTAssertEqual(PDFDate(year: 2026, month: 11, day: 21, utcOffsetMinutes: 0).pdfString, "D:20261121000000Z")
        XCTAssertEqual(PDFDate(year: 2026, month: 1, day: 2, hour: 3, utcOffsetMinutes: -330).pdfString,
                       "D:20260102030000-05'30'")
    }

    /// The arithmetic civil date agrees with Foundation's calendar across eras and leap days.
    func testDateFromUnixTime() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let samples: [TimeInterval] = [0, -1, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800, 1_795_000_000.7]
            + (0..<200).map { TimeInterval($0) * 15_778_463.3 - 1_500_000_000 }
        for sample in samples {
            let date = Date(timeIntervalSince1970: sample)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = PDFDate(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0,
                                   hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0,
                                   utcOffsetMinutes: 0)
            XCTAssertEqual(PDFDate(date), expected, "\(sample)")
        }
        XCTAssertEqual(PDFDate(Date(timeIntervalSince1970: 1_795_000_000)).pdfString, "D:20261118110640Z", "python3: datetime.fromtimestamp(1795000000, utc)")
    }
}
