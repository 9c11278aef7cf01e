import FolioPDF
import Foundation

/// Plain text files as they come from editors, phones and old PCs: UTF-8 with or without a
/// byte-order mark, UTF-16 with one, else Windows-1252 (which every byte decodes in). Line
/// ends are made "\n", tabs expanded to stops of eight.
///
/// ```swift
/// let (text, encoding) = try TextDecoding.decode(bytes)   // encoding: .utf8, .utf16BE, ...
/// ```
public enum TextDecoding {
    /// The encodings text files are read in.
    ///
    /// ```swift
    /// let (text, encoding) = try TextDecoding.decode([0xFF, 0xFE, 0x2F, 0x04])   // ("Я", .utf16LE)
    /// ```
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
            text = PDFTextString.utf16Text(bytes[2...], bigEndian: bigEndian)
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

    /// Windows-1252 (the WinAnsiEncoding the standard fonts use); its five unassigned codes
    /// and the controls stay the code points Latin-1 gives them.
    private static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        StandardFont.character(forWinAnsiCode: byte) ?? Unicode.Scalar(byte)
    }
}
