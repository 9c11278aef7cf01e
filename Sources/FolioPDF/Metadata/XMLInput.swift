import Foundation

/// XML bytes made safe for Foundation's `XMLParser`, which on Linux stops the whole process
/// (a trap in its element callback) when a name is not valid UTF-8 — `<\u{FF}cp:` is enough
/// (found by Fuzz/FuzzXMP). Everything is handed over as UTF-8 with a declaration that says so:
/// UTF-16 and UTF-32 (by byte-order mark) and declared Latin-1, Windows-1252 or ASCII are
/// transcoded; other bytes that are not valid UTF-8 become U+FFFD. A processing instruction
/// without data (`<?name?>`) gets a space before `?>`: XMLParser reads a null pointer for its
/// data otherwise (found by Fuzz/FuzzXMP and FuzzSetlist).
///
/// ```swift
/// let parser = XMLParser(data: Data(XMLInput.utf8(bytes)))
/// ```
public enum XMLInput {
    /// What Folio hands an XML parser: `bytes` as UTF-8 (see ``utf8(_:)``), refused when,
    /// after that, they declare a DTD or entities (how entity-expansion and external-entity
    /// attacks begin, and never needed by XMP or 4SS), hold NUL bytes (UTF-16 or UTF-32
    /// without a byte order mark, which the parser would read in its own way, past this
    /// check), or do not begin with `<`. The check runs on the transcoded text, so a DTD in
    /// UTF-16 or UTF-32 is found as surely as one in UTF-8.
    ///
    /// ```swift
    /// let xml = try XMLInput.parserInput(bytes)   // throws PDFError(.syntax, "…declares a DTD…")
    /// ```
    public static func parserInput(_ bytes: [UInt8]) throws -> [UInt8] {
        let text = utf8(bytes)
        if text.contains(0) {
            throw PDFError(.syntax, "the XML holds NUL bytes (UTF-16 or UTF-32 without a byte order mark?); refused")
        }
        if let first = text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first != UInt8(ascii: "<") {
            throw PDFError(.syntax, "the XML does not begin with '<' (an encoding Folio does not read?); refused")
        }
        let declares = text.withUnsafeBytes { buffer in
            let lexer = Lexer(bytes: buffer)
            return lexer.find(Array("<!DOCTYPE".utf8), from: 0) != nil || lexer.find(Array("<!ENTITY".utf8), from: 0) != nil
        }
        if declares { throw PDFError(.syntax, "the XML declares a DTD or entities; refused") }
        return text
    }

    public static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        var text: String
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            let big = bytes[0] == 0
            let scalars = stride(from: 4, to: bytes.count - 3, by: 4).map { index -> Unicode.Scalar in
                let value = big
                    ? UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
                    : UInt32(bytes[index + 3]) << 24 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index])
                return Unicode.Scalar(value) ?? "\u{FFFD}"
            }
            text = String(String.UnicodeScalarView(scalars))
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            text = PDFTextString.utf16Text(bytes[2...], bigEndian: bytes[0] == 0xFE)
        } else if let valid = String(bytes: bytes, encoding: .utf8) {
            guard declaredEncoding(valid) != nil else { return instructionsWithData(bytes) }
            text = valid
        } else if let declared = declaredEncoding(String(decoding: bytes.prefix(200), as: UTF8.self)),
                  ["iso-8859-1", "latin1", "latin-1", "windows-1252", "cp1252", "us-ascii", "ascii"].contains(declared) {
            text = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        } else {
            text = String(decoding: bytes, as: UTF8.self)
        }
        // The declaration, if any, now says UTF-8.
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
            let declaration = String(text[..<end.lowerBound])
            let rewritten = declaration.replacingOccurrences(of: #"encoding\s*=\s*["'][^"']*["']"#, with: "encoding=\"UTF-8\"",
                                                             options: .regularExpression)
            text = rewritten + text[end.lowerBound...]
        }
        return instructionsWithData(Array(text.utf8))
    }

    /// `bytes` with a space added inside every `<?target?>`, wherever it stands: libxml2
    /// recovering from a broken comment or CDATA section may still report one found inside
    /// it (FuzzSetlist crash-9cf4…), so none is skipped; a comment that quotes `<?x?>` gets
    /// `<?x ?>`, which is harmless.
    public static func instructionsWithData(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var copied = 0
        var index = 0
        let count = bytes.count
        while index + 1 < count {
            guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else { index += 1; continue }
            var end = index + 2
            while end < count, ![UInt8(ascii: "?"), UInt8(ascii: "<"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[end]) {
                end += 1
            }
            if end > index + 2, end + 1 < count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") {
                if out.isEmpty { out.reserveCapacity(count + 16) }
                out += bytes[copied..<end]
                out.append(0x20)
                copied = end
            }
            // `<?<?x?>`: the second `<?` is looked at too (FuzzXMP crash-e3d0…).
            index += 2
        }
        if copied == 0 { return bytes }
        out += bytes[copied...]
        return out
    }

    /// The encoding an XML declaration names, lower-cased; nil without one.
    private static func declaredEncoding(_ text: String) -> String? {
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>"),
              let match = text[..<end.lowerBound].range(of: #"encoding\s*=\s*["'][^"']*["']"#, options: .regularExpression)
        else { return nil }
        let value = text[match].split(separator: "=", maxSplits: 1).last ?? ""
        let name = value.trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")).lowercased()
        return name == "utf-8" || name == "utf8" ? nil : name
    }
}
