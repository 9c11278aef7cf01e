/// LZWDecode (ISO 32000-1 §7.4.4), with /EarlyChange, capped in output size.
enum LZWFilter {
    static func decode(_ input: [UInt8], earlyChange: Bool, limit: Int, log: WarningLog?) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(input.count * 3, limit))
        // The table stores each entry as (prefix index, last byte, length) so adding an
        // entry is O(1); strings are materialised when emitted.
        var prefix = [Int](repeating: -1, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var length = [Int](repeating: 1, count: 4096)
        for i in 0..<256 { suffix[i] = UInt8(i) }
        var nextCode = 258
        var codeWidth = 9
        var previous = -1
        var bitBuffer = 0
        var bitCount = 0
        var scratch = [UInt8](repeating: 0, count: 4096)

        func emit(_ code: Int) throws -> UInt8 {
            let count = length[code]
            if output.count + count > limit {
                throw PDFError(.limitExceeded, "decompressed data exceeds the limit of \(limit) bytes (a decompression bomb?)")
            }
            var c = code
            var i = count - 1
            while i >= 0 {
                scratch[i] = suffix[c]
                c = prefix[c]
                i -= 1
            }
            output.append(contentsOf: scratch[0..<count])
            return scratch[0]
        }

        for byte in input {
            bitBuffer = (bitBuffer << 8) | Int(byte)
            bitCount += 8
            while bitCount >= codeWidth {
                let code = (bitBuffer >> (bitCount - codeWidth)) & ((1 << codeWidth) - 1)
                bitCount -= codeWidth
                bitBuffer &= (1 << bitCount) - 1
                if code == 256 {
                    nextCode = 258
                    codeWidth = 9
                    previous = -1
                    continue
                }
                if code == 257 { return output }
                if previous == -1 {
                    guard code < 256 else {
                        log?.add("LZW stream starts with an undefined code; decoding stopped")
                        return output
                    }
                    _ = try emit(code)
                    previous = code
                    continue
                }
                var first: UInt8
                if code < nextCode {
                    first = try emit(code)
                } else if code == nextCode {
                    // The KwKwK case: the string is previous + its own first byte.
                    let head = try emit(previous)
                    output.append(head)
                    first = head
                } else {
                    log?.add("LZW stream has an undefined code; decoding stopped")
                    return output
                }
                if nextCode < 4096 {
                    prefix[nextCode] = previous
                    suffix[nextCode] = first
                    length[nextCode] = length[previous] + 1
                    nextCode += 1
                }
                previous = code
                let threshold = nextCode + (earlyChange ? 1 : 0)
                if threshold >= 512 && codeWidth == 9 { codeWidth = 10 }
                if threshold >= 1024 && codeWidth == 10 { codeWidth = 11 }
                if threshold >= 2048 && codeWidth == 11 { codeWidth = 12 }
            }
        }
        return output
    }
}
