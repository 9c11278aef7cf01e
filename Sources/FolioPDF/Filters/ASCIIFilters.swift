/// ASCIIHexDecode: hex digits, white space ignored, `>` ends the data.
enum ASCIIHexFilter {
    static func decode(_ input: [UInt8], log: WarningLog?) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 2)
        var high: UInt8?
        for byte in input {
            if byte == UInt8(ascii: ">") { break }
            if ByteClass.isWhitespace(byte) { continue }
            guard let value = ByteClass.hexValue(byte) else {
                throw PDFError(.filter, "ASCIIHexDecode: invalid character 0x\(String(byte, radix: 16))")
            }
            if let pending = high {
                output.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        if let high { output.append(high << 4) }
        return output
    }
}

/// ASCII85Decode: base-85 groups, `z` for four zeros, `~>` ends the data.
enum ASCII85Filter {
    static func decode(_ input: [UInt8], log: WarningLog?) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 4 / 5)
        var group: [UInt32] = []
        group.reserveCapacity(5)
        var index = 0
        // Tolerate a leading "<~" as some producers write it into the data.
        if input.count >= 2, input[0] == UInt8(ascii: "<"), input[1] == UInt8(ascii: "~") { index = 2 }
        while index < input.count {
            let byte = input[index]
            index += 1
            if byte == UInt8(ascii: "~") { break }
            if ByteClass.isWhitespace(byte) { continue }
            if byte == UInt8(ascii: "z") {
                guard group.isEmpty else {
                    throw PDFError(.filter, "ASCII85Decode: 'z' inside a group")
                }
                output.append(contentsOf: [0, 0, 0, 0])
                continue
            }
            guard byte >= 0x21, byte <= 0x75 else {
                throw PDFError(.filter, "ASCII85Decode: invalid character 0x\(String(byte, radix: 16))")
            }
            group.append(UInt32(byte - 0x21))
            if group.count == 5 {
                var value: UInt64 = 0
                for digit in group { value = value * 85 + UInt64(digit) }
                guard value <= UInt64(UInt32.max) else {
                    throw PDFError(.filter, "ASCII85Decode: group value out of range")
                }
                output.append(contentsOf: [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF),
                                           UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
                group.removeAll(keepingCapacity: true)
            }
        }
        if group.count == 1 {
            log?.add("ASCII85Decode: final group of one character ignored")
        } else if group.count > 1 {
            let kept = group.count - 1
            while group.count < 5 { group.append(84) }
            var value: UInt64 = 0
            for digit in group { value = value * 85 + UInt64(digit) }
            let bytes = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
                         UInt8(value & 0xFF)]
            output.append(contentsOf: bytes[0..<kept])
        }
        return output
    }
}

/// RunLengthDecode: a length byte, then a literal run or one repeated byte; 128 ends.
enum RunLengthFilter {
    static func decode(_ input: [UInt8], limit: Int, log: WarningLog?) throws -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < input.count {
            let length = Int(input[index])
            index += 1
            if length == 128 { break }
            if length < 128 {
                let end = min(index + length + 1, input.count)
                output.append(contentsOf: input[index..<end])
                index = end
            } else {
                guard index < input.count else { break }
                output.append(contentsOf: repeatElement(input[index], count: 257 - length))
                index += 1
            }
            if output.count > limit {
                throw PDFError(.limitExceeded, "decompressed data exceeds the limit of \(limit) bytes (a decompression bomb?)")
            }
        }
        return output
    }
}
