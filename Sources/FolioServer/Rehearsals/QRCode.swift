import FolioLibrary
/// A QR code (ISO/IEC 18004) of a short text, drawn by the server so a rehearsal's join link
/// can be scanned from the leader's screen: byte mode, error correction level M (15 % of the
/// code may be lost), versions 1 to 10 (up to 213 bytes), the mask with the lowest penalty.
///
/// ```swift
/// let code = try QRCode(text: "http://192.0.2.7:8080/rehearse/K7M3QX")
/// code.size          // 29 modules a side (version 3)
/// let svg = code.svg() // with the 4-module quiet zone
/// ```
public struct QRCode: Sendable, Equatable {
    /// The longest text taken, in UTF-8 bytes (version 10, level M).
    public static let maxBytes = 213

    public let version: Int
    /// Modules a side: 17 + 4 × version.
    public let size: Int
    /// Dark modules, row by row (`modules[y * size + x]`).
    public let modules: [Bool]

    /// Whether the module at column `x`, row `y` is dark.
    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// Encodes `text` as UTF-8 in the smallest version that holds it; throws when it is
    /// longer than ``maxBytes``.
    public init(text: String) throws(LibraryError) {
        let bytes = Array(text.utf8)
        guard let version = (1...10).first(where: { Self.blocks[$0 - 1].dataBytes >= bytes.count + ($0 >= 10 ? 3 : 2) }) else {
            throw LibraryError(.tooLarge, "a QR code holds at most \(Self.maxBytes) bytes; this text has \(bytes.count)")
        }
        var grid = Grid(version: version)
        grid.drawFunctionPatterns()
        grid.drawCodewords(Self.codewords(bytes, version: version))
        var best = grid
        var lowest = Int.max
        for mask in 0..<8 {
            var candidate = grid
            candidate.apply(mask: mask)
            candidate.drawFormat(mask: mask)
            let penalty = candidate.penalty()
            if penalty < lowest { (lowest, best) = (penalty, candidate) }
        }
        self.version = version
        size = grid.size
        modules = best.dark
    }

    /// The code as SVG: one path of dark modules on white, `quietZone` modules of margin,
    /// `scale` user units a module.
    public func svg(quietZone: Int = 4, scale: Int = 8) -> String {
        let side = (size + 2 * quietZone) * scale
        var path = ""
        for y in 0..<size {
            for x in 0..<size where isDark(x: x, y: y) {
                path += "M\((x + quietZone) * scale) \((y + quietZone) * scale)h\(scale)v\(scale)h-\(scale)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(side)" height="\(side)" viewBox="0 0 \(side) \(side)" \
            shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    // MARK: - Codewords

    /// Each version's blocks at level M: error correction bytes per block, and the data bytes
    /// of each block (short blocks first).
    struct Blocks {
        let ecPerBlock: Int
        let dataPerBlock: [Int]
        var dataBytes: Int { dataPerBlock.reduce(0, +) }
    }

    static let blocks: [Blocks] = [
        Blocks(ecPerBlock: 10, dataPerBlock: [16]),
        Blocks(ecPerBlock: 16, dataPerBlock: [28]),
        Blocks(ecPerBlock: 26, dataPerBlock: [44]),
        Blocks(ecPerBlock: 18, dataPerBlock: [32, 32]),
        Blocks(ecPerBlock: 24, dataPerBlock: [43, 43]),
        Blocks(ecPerBlock: 16, dataPerBlock: [27, 27, 27, 27]),
        Blocks(ecPerBlock: 18, dataPerBlock: [31, 31, 31, 31]),
        Blocks(ecPerBlock: 22, dataPerBlock: [38, 38, 39, 39]),
        Blocks(ecPerBlock: 22, dataPerBlock: [36, 36, 36, 37, 37]),
        Blocks(ecPerBlock: 26, dataPerBlock: [43, 43, 43, 43, 44]),
    ]

    /// The data (mode, count, bytes, terminator, padding) split into blocks, each with its
    /// Reed–Solomon bytes, interleaved.
    static func codewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        let layout = blocks[version - 1]
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) } }
        append(0b0100, 4)
        append(bytes.count, version >= 10 ? 16 : 8)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = layout.dataBytes * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var data: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while data.count < layout.dataBytes { data.append(pad); pad = pad == 0xEC ? 0x11 : 0xEC }

        let divisor = ReedSolomon.divisor(degree: layout.ecPerBlock)
        var dataBlocks: [[UInt8]] = []
        var start = 0
        for count in layout.dataPerBlock {
            dataBlocks.append(Array(data[start..<start + count]))
            start += count
        }
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, divisor: divisor) }
        var result: [UInt8] = []
        for index in 0..<(layout.dataPerBlock.max() ?? 0) {
            for block in dataBlocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<layout.ecPerBlock {
            for block in ecBlocks { result.append(block[index]) }
        }
        return result
    }

    /// Reed–Solomon over GF(2⁸) with the polynomial x⁸ + x⁴ + x³ + x² + 1.
    enum ReedSolomon {
        static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
            var result = 0
            for i in stride(from: 7, through: 0, by: -1) {
                result = (result << 1) ^ ((result >> 7) * 0x11D)
                result ^= ((Int(y) >> i) & 1) * Int(x)
            }
            return UInt8(result & 0xFF)
        }

        static func divisor(degree: Int) -> [UInt8] {
            var result = [UInt8](repeating: 0, count: degree)
            result[degree - 1] = 1
            var root: UInt8 = 1
            for _ in 0..<degree {
                for j in 0..<degree {
                    result[j] = multiply(result[j], root)
                    if j + 1 < degree { result[j] ^= result[j + 1] }
                }
                root = multiply(root, 0x02)
            }
            return result
        }

        static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
            var result = [UInt8](repeating: 0, count: divisor.count)
            for byte in data {
                let factor = byte ^ result[0]
                result.removeFirst()
                result.append(0)
                for i in 0..<divisor.count { result[i] ^= multiply(divisor[i], factor) }
            }
            return result
        }
    }

    // MARK: - The grid

    struct Grid: Equatable {
        let version: Int
        let size: Int
        var dark: [Bool]
        var function: [Bool]

        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            dark = Array(repeating: false, count: size * size)
            function = Array(repeating: false, count: size * size)
        }

        mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
            dark[y * size + x] = value
            function[y * size + x] = true
        }

        mutating func drawFunctionPatterns() {
            for i in 0..<size {
                set(6, i, i % 2 == 0)
                set(i, 6, i % 2 == 0)
            }
            for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(x, y) }
            let centres = alignmentCentres
            for (i, x) in centres.enumerated() {
                for (j, y) in centres.enumerated() {
                    let corner = (i == 0 && j == 0) || (i == 0 && j == centres.count - 1) || (i == centres.count - 1 && j == 0)
                    if !corner { drawAlignment(x, y) }
                }
            }
            drawFormat(mask: 0)  // reserves the format areas; drawn again with the chosen mask
            if version >= 7 {
                var remainder = version
                for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
                let bits = version << 12 | remainder
                for i in 0..<18 {
                    let bit = (bits >> i) & 1 == 1
                    let a = size - 11 + i % 3, b = i / 3
                    set(a, b, bit)
                    set(b, a, bit)
                }
            }
        }

        var alignmentCentres: [Int] {
            let table: [[Int]] = [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]]
            return table[version - 1]
        }

        mutating func drawFinder(_ cx: Int, _ cy: Int) {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = cx + dx, y = cy + dy
                    guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                    let distance = max(abs(dx), abs(dy))
                    set(x, y, distance != 2 && distance != 4)
                }
            }
        }

        mutating func drawAlignment(_ cx: Int, _ cy: Int) {
            for dy in -2...2 {
                for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
            }
        }

        /// Level M (bits 00) and the mask, with their BCH bits, in both copies; and the dark module.
        mutating func drawFormat(mask: Int) {
            let data = 0b00 << 3 | mask
            var remainder = data
            for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
            let bits = (data << 10 | remainder) ^ 0x5412
            func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
            for i in 0...5 { set(8, i, bit(i)) }
            set(8, 7, bit(6))
            set(8, 8, bit(7))
            set(7, 8, bit(8))
            for i in 9..<15 { set(14 - i, 8, bit(i)) }
            for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
            for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
            set(8, size - 8, true)
        }

        /// The codewords' bits in the zigzag of two-module columns, right to left.
        mutating func drawCodewords(_ codewords: [UInt8]) {
            var index = 0
            var right = size - 1
            while right >= 1 {
                if right == 6 { right = 5 }
                for vertical in 0..<size {
                    for j in 0..<2 {
                        let x = right - j
                        let upward = (right + 1) & 2 == 0
                        let y = upward ? size - 1 - vertical : vertical
                        guard !function[y * size + x], index < codewords.count * 8 else { continue }
                        dark[y * size + x] = (codewords[index >> 3] >> (7 - index & 7)) & 1 == 1
                        index += 1
                    }
                }
                right -= 2
            }
        }

        mutating func apply(mask: Int) {
            for y in 0..<size {
                for x in 0..<size where !function[y * size + x] {
                    let flip = switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                    if flip { dark[y * size + x].toggle() }
                }
            }
        }

        /// The standard's penalty: runs of five or more, 2×2 blocks, finder-like patterns,
        /// and the balance of dark and light.
        func penalty() -> Int {
            var total = 0
            func line(_ at: (Int) -> Bool) {
                var run = 1
                for i in 1..<size {
                    if at(i) == at(i - 1) { run += 1 } else { if run >= 5 { total += run - 2 }; run = 1 }
                }
                if run >= 5 { total += run - 2 }
                // 1:1:3:1:1 with four light on either side.
                let pattern: [Bool] = [true, false, true, true, true, false, true]
                for i in 0..<(size - 6) where (0..<7).allSatisfy({ at(i + $0) == pattern[$0] }) {
                    let before = (max(0, i - 4)..<i).allSatisfy { !at($0) } && i >= 4
                    let after = ((i + 7)..<min(size, i + 11)).allSatisfy { !at($0) } && i + 11 <= size
                    if before || after { total += 40 }
                }
            }
            for y in 0..<size { line { dark[y * size + $0] } }
            for x in 0..<size { line { dark[$0 * size + x] } }
            for y in 0..<(size - 1) {
                for x in 0..<(size - 1) {
                    let value = dark[y * size + x]
                    if dark[y * size + x + 1] == value, dark[(y + 1) * size + x] == value, dark[(y + 1) * size + x + 1] == value { total += 3 }
                }
            }
            let darkCount = dark.filter { $0 }.count
            let percent = darkCount * 100 / (size * size)
            total += abs(percent - 50) / 5 * 10
            return total
        }
    }
}
