/// Byte classes of PDF syntax (ISO 32000-1 §7.2).
enum ByteClass {
    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x00
    }

    @inline(__always) static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "/"), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    @inline(__always) static func isRegular(_ byte: UInt8) -> Bool {
        !isWhitespace(byte) && !isDelimiter(byte)
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}

/// One lexical token.
enum Token: Equatable {
    case integer(Int)
    case real(PDFReal)
    case string(PDFString)
    case name(String)
    case keyword(String)
    case arrayOpen, arrayClose, dictOpen, dictClose, braceOpen, braceClose
    case eof
}

/// Splits PDF bytes into tokens. Never fails: malformed syntax becomes a warning and the
/// most plausible token, as real readers do.
///
/// The buffer must outlive the lexer; the ``ByteSource`` that owns it is kept by the caller.
struct Lexer {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    let log: WarningLog?

    init(bytes: UnsafeRawBufferPointer, position: Int = 0, log: WarningLog? = nil) {
        self.bytes = bytes
        self.position = position
        self.log = log
    }

    var isAtEnd: Bool { position >= bytes.count }

    @inline(__always) func byte(at index: Int) -> UInt8? {
        index >= 0 && index < bytes.count ? bytes[index] : nil
    }

    /// Skips white space and comments.
    mutating func skipWhitespace() {
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            if ByteClass.isWhitespace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "%") {
                while position < count, bytes[position] != 0x0A, bytes[position] != 0x0D {
                    position += 1
                }
            } else {
                return
            }
        }
    }

    mutating func next() -> Token {
        skipWhitespace()
        guard position < bytes.count else { return .eof }
        switch bytes[position] {
        case UInt8(ascii: "["):
            position += 1
            return .arrayOpen
        case UInt8(ascii: "]"):
            position += 1
            return .arrayClose
        case UInt8(ascii: "{"):
            position += 1
            return .braceOpen
        case UInt8(ascii: "}"):
            position += 1
            return .braceClose
        case UInt8(ascii: "<"):
            if self.byte(at: position + 1) == UInt8(ascii: "<") {
                position += 2
                return .dictOpen
            }
            return .string(readHexString())
        case UInt8(ascii: ">"):
            if self.byte(at: position + 1) == UInt8(ascii: ">") {
                position += 2
                return .dictClose
            }
            log?.add("unexpected '>'", offset: position)
            position += 1
            return next()
        case UInt8(ascii: "("):
            return .string(readLiteralString())
        case UInt8(ascii: ")"):
            log?.add("unexpected ')'", offset: position)
            position += 1
            return next()
        case UInt8(ascii: "/"):
            return .name(readName())
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return readNumber()
        default:
            return .keyword(readKeyword())
        }
    }

    /// Skips one object's tokens (an array or dictionary with everything in it, at most 64
    /// levels deep and 100,000 tokens); false at the end of the bytes, at a token that
    /// cannot start or close a value there, or past those bounds.
    mutating func skipValue() -> Bool {
        var depth = 0
        for _ in 0..<100_000 {
            switch next() {
            case .arrayOpen, .dictOpen:
                depth += 1
                guard depth <= 64 else { return false }
            case .arrayClose, .dictClose:
                depth -= 1
                guard depth >= 0 else { return false }
            case .eof, .braceOpen, .braceClose:
                return false
            case .integer:
                // "12 0 R" is one value: its other two tokens follow.
                if depth == 0 { _ = readReferenceTail() }
            default:
                break
            }
            if depth == 0 { return true }
        }
        return false
    }

    /// Reads a run of regular characters.
    mutating func readKeyword() -> String {
        let start = position
        while position < bytes.count, ByteClass.isRegular(bytes[position]) {
            position += 1
        }
        if position == start {
            // A byte that is neither regular nor a token start: skip it so we progress.
            position += 1
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    static let powersOfTen: [Double] = (0...15).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

    mutating func readNumber() -> Token {
        let start = position
        var negative = false
        var sawSign = false
        // Producers write "--5", "+-3": take the last sign, as Acrobat does.
        while position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            if bytes[position] == UInt8(ascii: "-") { negative.toggle() }
            sawSign = true
            position += 1
        }
        var integer = 0
        var overflow = false
        var digits = 0
        while position < bytes.count, ByteClass.isDigit(bytes[position]) {
            let (mul, o1) = integer.multipliedReportingOverflow(by: 10)
            let (sum, o2) = mul.addingReportingOverflow(Int(bytes[position] - 0x30))
            if o1 || o2 { overflow = true }
            integer = sum
            digits += 1
            position += 1
        }
        var isReal = false
        var fractionDigits = 0
        // Integer and fraction digits as one whole number, while it stays exact in a Double.
        var mantissa = overflow || digits > 15 ? -1 : integer
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isReal = true
            position += 1
            while position < bytes.count, ByteClass.isDigit(bytes[position]) {
                if mantissa >= 0 {
                    mantissa = digits + fractionDigits < 15 ? mantissa * 10 + Int(bytes[position] - 0x30) : -1
                }
                position += 1
                fractionDigits += 1
            }
        }
        // Trailing junk such as "12.5.3" or "4-2": swallow it into the token, with a warning.
        var junk = false
        while position < bytes.count, ByteClass.isRegular(bytes[position]) {
            junk = true
            position += 1
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if junk {
            // "5ilter", "1.2.3": not a number; qpdf reads such tokens as garbage too.
            log?.add("malformed number '\(text.prefix(40))'", offset: start)
            return .keyword(text)
        }
        if digits == 0 && fractionDigits == 0 {
            if !sawSign && !isReal { return .keyword(text) }
            log?.add("number without digits '\(text.prefix(40))', read as 0", offset: start)
            return .integer(0)
        }
        if !isReal && !overflow {
            return .integer(negative ? -integer : integer)
        }
        // Both exact, so one division rounds correctly: the value strtod gives.
        if mantissa >= 0, fractionDigits <= 15 {
            let value = Double(mantissa) / Lexer.powersOfTen[fractionDigits]
            return .real(PDFReal(negative ? -value : value, text: text))
        }
        let cleaned = text.filter { $0 == "." || ByteClass.isDigit($0.asciiValue ?? 0) }
        let value = (Double(cleaned.hasPrefix(".") ? "0" + cleaned : cleaned) ?? 0) * (negative ? -1 : 1)
        return .real(PDFReal(value, text: junk ? nil : text))
    }

    mutating func readName() -> String {
        position += 1  // "/"
        let start = position
        var hasEscape = false
        while position < bytes.count, ByteClass.isRegular(bytes[position]) {
            if bytes[position] == UInt8(ascii: "#") { hasEscape = true }
            position += 1
        }
        let raw = bytes[start..<position]
        if !hasEscape {
            return String(decoding: raw, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "#"), index + 2 < raw.endIndex,
                let high = ByteClass.hexValue(raw[index + 1]), let low = ByteClass.hexValue(raw[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else if byte == UInt8(ascii: "#"), index + 1 < raw.endIndex {
                // A stray '#' keeps the character after it literally, as qpdf reads it
                // ("/##00##" stays "##00##" rather than gaining a NUL).
                decoded.append(byte)
                decoded.append(raw[index + 1])
                index += 2
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return Lexer.nameString(decoded)
    }

    /// Name bytes as a String: UTF-8 when valid, otherwise byte-per-scalar (Latin-1) so no
    /// byte is lost.
    static func nameString(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// The longest string kept; the rest of a longer one is read past and dropped, with a warning.
    static let maxStringBytes = 32 << 20

    /// Drops the byte just appended past ``maxStringBytes`` (each step appends at most one),
    /// warning once.
    private func capped(_ result: inout [UInt8], _ truncated: inout Bool, start: Int) {
        guard result.count > Lexer.maxStringBytes else { return }
        result.removeLast()
        if !truncated { log?.add("string longer than \(Lexer.maxStringBytes) bytes cut there", offset: start) }
        truncated = true
    }

    mutating func readLiteralString() -> PDFString {
        let start = position
        position += 1  // "("
        var depth = 1
        var result: [UInt8] = []
        var truncated = false
        let count = bytes.count
        while position < count {
            capped(&result, &truncated, start: start)
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
                result.append(byte)
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return PDFString(result) }
                result.append(byte)
            case 0x0D:
                // An end-of-line inside a string is read as a single LF.
                if position < count, bytes[position] == 0x0A { position += 1 }
                result.append(0x0A)
            case UInt8(ascii: "\\"):
                guard position < count else { break }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"): result.append(escaped)
                case 0x0D:
                    if position < count, bytes[position] == 0x0A { position += 1 }
                case 0x0A:
                    break
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(escaped - 0x30)
                    var digits = 1
                    while digits < 3, position < count, bytes[position] >= 0x30, bytes[position] <= 0x37 {
                        value = value * 8 + Int(bytes[position] - 0x30)
                        position += 1
                        digits += 1
                    }
                    result.append(UInt8(truncatingIfNeeded: value))
                default:
                    // An unknown escape: the backslash is ignored (ISO 32000-1 §7.3.4.2).
                    result.append(escaped)
                }
            default:
                result.append(byte)
            }
        }
        capped(&result, &truncated, start: start)
        log?.add("unterminated literal string", offset: start)
        return PDFString(result)
    }

    mutating func readHexString() -> PDFString {
        let start = position
        position += 1  // "<"
        var result: [UInt8] = []
        var high: UInt8?
        var warned = false
        var truncated = false
        while position < bytes.count {
            capped(&result, &truncated, start: start)
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ">") {
                if let high { result.append(high << 4) }
                return PDFString(result, isHex: true)
            }
            if ByteClass.isWhitespace(byte) { continue }
            guard let value = ByteClass.hexValue(byte) else {
                if !warned {
                    log?.add("invalid character in hex string", offset: position - 1)
                    warned = true
                }
                continue
            }
            if let pending = high {
                result.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        capped(&result, &truncated, start: start)
        log?.add("unterminated hex string", offset: start)
        if let high { result.append(high << 4) }
        return PDFString(result, isHex: true)
    }

    /// If the bytes at the current position read `G R` (the tail of a reference whose object
    /// number was just read), consumes them and returns G. Works on bytes directly, so the
    /// common case of a plain number in an array costs no extra tokens.
    mutating func readReferenceTail() -> Int? {
        var index = position
        let count = bytes.count
        while index < count, ByteClass.isWhitespace(bytes[index]) { index += 1 }
        let genStart = index
        var generation = 0
        while index < count, ByteClass.isDigit(bytes[index]), index - genStart < 10 {
            generation = generation * 10 + Int(bytes[index] - 0x30)
            index += 1
        }
        guard index > genStart, index < count, ByteClass.isWhitespace(bytes[index]) else { return nil }
        while index < count, ByteClass.isWhitespace(bytes[index]) { index += 1 }
        guard index < count, bytes[index] == UInt8(ascii: "R") else { return nil }
        let after = index + 1
        if after < count, ByteClass.isRegular(bytes[after]) { return nil }
        position = after
        return generation
    }

    /// Whether `pattern` stands at `index` (which must leave room for it).
    @inline(__always) private func matches(_ pattern: [UInt8], at index: Int) -> Bool {
        var k = 0
        while k < pattern.count {
            if bytes[index + k] != pattern[k] { return false }
            k += 1
        }
        return true
    }

    /// Finds `pattern` at or after `from`, up to `limit` (exclusive). Linear for the short
    /// keywords it is used with.
    func find(_ pattern: [UInt8], from: Int, limit: Int? = nil) -> Int? {
        let end = min(limit ?? bytes.count, bytes.count)
        guard let first = pattern.first, end - from >= pattern.count else { return nil }
        var index = max(from, 0)
        let last = end - pattern.count
        while index <= last {
            if bytes[index] == first, matches(pattern, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// Finds the last `pattern` that starts before `before` and at or after `floor`.
    func findLast(_ pattern: [UInt8], before: Int, floor: Int = 0) -> Int? {
        guard let first = pattern.first else { return nil }
        var index = min(before, bytes.count - pattern.count)
        while index >= max(floor, 0) {
            if bytes[index] == first, matches(pattern, at: index) { return index }
            index -= 1
        }
        return nil
    }
}
