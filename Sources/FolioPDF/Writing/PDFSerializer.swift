import Foundation

/// Turns objects back into PDF syntax. Unchanged values keep their form: reals their
/// original text, strings their bytes and hex-ness, dictionaries their key order.
///
/// ```swift
/// var out: [UInt8] = []
/// try PDFSerializer.write(.dictionary(["Type": .name("Page")]), to: &out)   // "<</Type /Page\n>>"
/// ```
public enum PDFSerializer {
    /// Appends `object` to `out`. `encryptString` transforms string bytes (for writing
    /// into an encrypted file); `renumber` maps references (for a full rewrite).
    public static func write(
        _ object: PDFObject, to out: inout [UInt8],
        encryptString: (([UInt8]) throws -> [UInt8])? = nil,
        renumber: ((PDFReference) -> PDFReference?)? = nil
    ) throws {
        switch object {
        case .null:
            append("null", to: &out)
        case .boolean(let value):
            append(value ? "true" : "false", to: &out)
        case .integer(let value):
            append(String(value), to: &out)
        case .real(let real):
            append(real.text ?? format(real.value), to: &out)
        case .string(let string):
            let bytes = try encryptString?(string.bytes) ?? string.bytes
            // Encrypted bytes are binary: hex keeps them safe from EOL normalisation.
            if string.isHex || encryptString != nil {
                writeHex(bytes, to: &out)
            } else {
                writeLiteral(bytes, to: &out)
            }
        case .name(let name):
            writeName(name, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(0x20) }
                try write(item, to: &out, encryptString: encryptString, renumber: renumber)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let dictionary):
            try writeDictionary(dictionary, to: &out, encryptString: encryptString, renumber: renumber)
        case .stream(let stream):
            // Streams are written by the writers, which own /Length and encryption.
            try writeDictionary(stream.dictionary, to: &out, encryptString: encryptString, renumber: renumber)
        case .reference(let reference):
            if let renumber {
                // A reference to an object the rewrite does not carry (it is missing or
                // null) is written as null, never as a dangling reference.
                guard let target = renumber(reference) else { return append("null", to: &out) }
                append("\(target.number) \(target.generation) R", to: &out)
            } else {
                append("\(reference.number) \(reference.generation) R", to: &out)
            }
        }
    }

    static func writeDictionary(
        _ dictionary: PDFDictionary, to out: inout [UInt8], encryptString: (([UInt8]) throws -> [UInt8])?,
        renumber: ((PDFReference) -> PDFReference?)?
    ) throws {
        append("<<", to: &out)
        for (key, value) in dictionary.entries {
            // A key whose value is a reference the rewrite drops is left out: a null value
            // means an absent key, and some readers treat an explicit null worse.
            if case .reference(let reference) = value, let renumber, renumber(reference) == nil { continue }
            writeName(key, to: &out)
            out.append(0x20)
            try write(value, to: &out, encryptString: encryptString, renumber: renumber)
            out.append(0x0A)
        }
        append(">>", to: &out)
    }

    /// A real without exponent and without trailing zeros ("0.5", "612", "-0.0001").
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    static func writeName(_ name: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "/"))
        for byte in name.utf8 {
            if byte < 0x21 || byte > 0x7E || byte == UInt8(ascii: "#") || ByteClass.isDelimiter(byte) {
                out.append(UInt8(ascii: "#"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            } else {
                out.append(byte)
            }
        }
    }

    static func writeLiteral(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "("))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x0D:
                append("\\r", to: &out)
            case 0x0A:
                append("\\n", to: &out)
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: ")"))
    }

    static func writeHex(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        for byte in bytes {
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0x0F))
        }
        out.append(UInt8(ascii: ">"))
    }

    @inline(__always) static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x41 + value - 10
    }

    @inline(__always) static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }
}
