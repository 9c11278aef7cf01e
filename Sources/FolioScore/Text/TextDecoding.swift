import Foundation

/// Plain text files as they come from editors, phones and old PCs: UTF-8 with or without a
/// byte-order mark, UTF-16 with one, else Windows-1252 (which every byte decodes in). Line
/// ends are made "\n", tabs expanded to stops of eight.
///
/// ```swift
/// let (text, encoding) = try TextDecoding.decode(bytes)   // encoding: .utf8, .utf16BE, ...
/// ```
public enum TextDecoding {
    public enum Encoding: String, Sendable {
        case utf8 = "UTF-8", utf16BE = "UTF-16BE", utf16LE = "UTF-16LE", windows1252 = "Windows-1252"
    }

    /// Text files larger than this are refused (a book of lyrics is a few hundred kilobytes).
    public static let maxBytes = 32 << 20

    /// The text of a file and the encoding it was read in. A NUL byte outside UTF-16 means a
    /// binary file, which is refused.
    public static func decode(_ bytes: [UInt8]) throws -> (text: String, encoding: Encoding) {
        guard bytes.count <= maxBytes else {
            throw ScoreError(.limitExceeded, "the text file is \(bytes.count) bytes; at most \(maxBytes) are read")
        }
        let text: String, encoding: Encoding
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            let bigEndian = bytes[0] == 0xFE
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { (index: Int) -> UInt16 in
                let high = UInt16(bytes[bigEndian ? index : index + 1]), low = UInt16(bytes[bigEndian ? index + 1 : index])
                return high << 8 | low
            }
            text = String(decoding: units, as: UTF16.self)
            encoding = bigEndian ? .utf16BE : .utf16LE
        } else {
            guard !bytes.contains(0) else { throw ScoreError(.invalidValue, "the file holds NUL bytes: it is not a text file") }
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            if let utf8 = String(bytes: body, encoding: .utf8) {
                text = utf8
                encoding = .utf8
            } else {
                text = String(String.UnicodeScalarView(body.map(windows1252)))
                encoding = .windows1252
            }
        }
        return (normalised(text), encoding)
    }

    /// Line ends as "\n" and tabs expanded to the next multiple of eight columns.
    static func normalised(_ text: String) -> String {
        let unified = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        guard unified.contains("\t") else { return unified }
        var out = ""
        out.reserveCapacity(unified.utf8.count)
        var column = 0
        for character in unified {
            switch character {
            case "\t":
                let spaces = 8 - column % 8
                out += String(repeating: " ", count: spaces)
                column += spaces
            case "\n":
                out.append(character)
                column = 0
            default:
                out.append(character)
                column += 1
            }
        }
        return out
    }

    /// Windows-1252: Latin-1 with printable characters in 0x80–0x9F; its five unassigned
    /// codes stay the C1 controls Latin-1 gives them.
    private static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        let high: [UInt32] = [0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                              0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
                              0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178]
        return Unicode.Scalar(high[Int(byte) - 0x80]) ?? Unicode.Scalar(byte)
    }
}
