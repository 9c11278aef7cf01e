/// JSON text written straight into UTF-8 bytes, for output made in bulk (a listing of tens
/// of thousands of annotations, a catalog's lists of names), where JSONEncoder and joined
/// strings cost more than reading the files.
///
/// ```swift
/// var out: [UInt8] = []
/// JSONText.quote("Antonín \"Tonda\" Dvořák", to: &out)   // "Antonín \"Tonda\" Dvořák", quoted
/// JSONText.strings(["Чайковский", "武満 徹"])              // ["Чайковский","武満 徹"]
/// ```
public enum JSONText {
    /// `text` quoted and escaped (RFC 8259 §7: quote, backslash, control characters),
    /// appended as UTF-8. Bytes of multi-byte characters are never below 0x80, so escaping
    /// byte by byte is escaping character by character.
    public static func quote(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var clean = 0   // start of the bytes not yet copied
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[clean..<index])
                clean = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                }
            }
            out.append(contentsOf: bytes[clean...])
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A list of strings as JSON text.
    public static func strings(_ values: [String]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            quote(value, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }
}
