/// Text strings (ISO 32000-2 §7.9.2.2): PDFDocEncoding, UTF-16BE with BOM, or UTF-8 with
/// BOM; and the encoding Folio writes (ASCII as is, anything else UTF-16BE with BOM).
///
/// ```swift
/// PDFTextString.decode([0xFE, 0xFF, 0x00, 0x41])   // "A"
/// PDFTextString.encode("Frédéric")                  // FE FF 00 46 00 72 ...
/// ```
public enum PDFTextString {
    /// Decodes text string bytes.
    ///
    /// Bytes without a BOM that form valid UTF-8 with at least one multi-byte sequence are
    /// read as UTF-8: producers write raw UTF-8, and such text is implausible as PDFDocEncoding.
    public static func decode(_ bytes: [UInt8]) -> String {
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            return utf16(bytes[2...], bigEndian: true)
        }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
            // Not allowed by the standard, but written by some producers.
            return utf16(bytes[2...], bigEndian: false)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return String(decoding: bytes[3...], as: UTF8.self)
        }
        if bytes.contains(where: { $0 >= 0x80 }), let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        return pdfDocEncoding(bytes)
    }

    /// Decodes bytes as PDFDocEncoding, undefined codes becoming U+FFFD.
    public static func pdfDocEncoding<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            let value: UInt32
            switch byte {
            case 0x18...0x1F: value = low[Int(byte - 0x18)]
            case 0x7F: value = 0xFFFD
            case 0x80...0xA0: value = high[Int(byte - 0x80)]
            case 0xAD: value = 0xFFFD
            default: value = UInt32(byte)
            }
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// Encodes text as Folio writes it: printable ASCII as is, anything else UTF-16BE with BOM.
    public static func encode(_ text: String) -> [UInt8] {
        if text.unicodeScalars.allSatisfy({ $0.value < 0x80 && ($0.value >= 0x20 || $0 == "\n" || $0 == "\r" || $0 == "\t") }) {
            return Array(text.utf8)
        }
        var bytes: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 {
            bytes.append(UInt8(unit >> 8))
            bytes.append(UInt8(unit & 0xFF))
        }
        return bytes
    }

    /// UTF-16 code units in either byte order (a BOM already removed) as text; a trailing odd
    /// byte is dropped, unpaired surrogates become U+FFFD. Text files and XML share it.
    public static func utf16Text(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        // Language escape sequences (U+001B … U+001B) carry no text.
        var text = utf16Text(bytes, bigEndian: bigEndian)
        while let start = text.firstIndex(of: "\u{1B}") {
            guard let end = text[text.index(after: start)...].firstIndex(of: "\u{1B}") else { break }
            text.removeSubrange(start...end)
        }
        return text
    }

    private static let low: [UInt32] = [0x02D8, 0x02C7, 0x02C6, 0x02D9, 0x02DD, 0x02DB, 0x02DA, 0x02DC]
    private static let high: [UInt32] = [
        0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044, 0x2039, 0x203A, 0x2212, 0x2030,
        0x201E, 0x201C, 0x201D, 0x2018, 0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160,
        0x0178, 0x017D, 0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0xFFFD, 0x20AC,
    ]
}
