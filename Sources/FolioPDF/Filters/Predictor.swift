/// Undoes the PNG (10–15) and TIFF (2) predictors of Flate and LZW streams.
enum Predictor {
    static func decode(_ data: [UInt8], parameters: PDFDictionary, log: WarningLog?) throws -> [UInt8] {
        let predictor = parameters["Predictor"]?.intValue ?? 1
        if predictor <= 1 { return data }
        let colors = max(1, min(parameters["Colors"]?.intValue ?? 1, 32))
        let bits = parameters["BitsPerComponent"]?.intValue ?? 8
        let columns = max(1, min(parameters["Columns"]?.intValue ?? 1, 1 << 24))
        guard [1, 2, 4, 8, 16].contains(bits) else {
            throw PDFError(.filter, "predictor /BitsPerComponent \(bits) is invalid (valid: 1, 2, 4, 8, 16)")
        }
        let bytesPerPixel = max(1, colors * bits / 8)
        let rowLength = (colors * bits * columns + 7) / 8
        if predictor == 2 {
            return tiff(data, rowLength: rowLength, colors: colors, bits: bits)
        }
        guard predictor >= 10 else {
            throw PDFError(.filter, "unknown predictor \(predictor) (valid: 1, 2, 10–15)")
        }
        return png(data, rowLength: rowLength, bytesPerPixel: bytesPerPixel, log: log)
    }

    private static func png(_ data: [UInt8], rowLength: Int, bytesPerPixel: Int, log: WarningLog?) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(data.count)
        var previous = [UInt8](repeating: 0, count: rowLength)
        var row = [UInt8](repeating: 0, count: rowLength)
        var position = 0
        var warned = false
        while position < data.count {
            let type = data[position]
            position += 1
            let available = min(rowLength, data.count - position)
            for i in 0..<rowLength { row[i] = i < available ? data[position + i] : 0 }
            position += available
            switch type {
            case 0:
                break
            case 1:
                for i in bytesPerPixel..<max(bytesPerPixel, rowLength) { row[i] = row[i] &+ row[i - bytesPerPixel] }
            case 2:
                for i in 0..<rowLength { row[i] = row[i] &+ previous[i] }
            case 3:
                for i in 0..<rowLength {
                    let left = i >= bytesPerPixel ? Int(row[i - bytesPerPixel]) : 0
                    row[i] = row[i] &+ UInt8((left + Int(previous[i])) / 2)
                }
            case 4:
                for i in 0..<rowLength {
                    let a = i >= bytesPerPixel ? Int(row[i - bytesPerPixel]) : 0
                    let b = Int(previous[i])
                    let c = i >= bytesPerPixel ? Int(previous[i - bytesPerPixel]) : 0
                    let p = a + b - c
                    let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    let predicted = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                    row[i] = row[i] &+ UInt8(predicted)
                }
            default:
                if !warned {
                    log?.add("invalid PNG predictor row type \(type); row copied as is")
                    warned = true
                }
            }
            // A short last row is zero-padded to a full row, as qpdf does.
            output.append(contentsOf: row)
            swap(&previous, &row)
        }
        return output
    }

    private static func tiff(_ data: [UInt8], rowLength: Int, colors: Int, bits: Int) -> [UInt8] {
        var output = data
        var rowStart = 0
        while rowStart < output.count {
            let rowEnd = min(rowStart + rowLength, output.count)
            switch bits {
            case 8:
                var i = rowStart + colors
                while i < rowEnd {
                    output[i] = output[i] &+ output[i - colors]
                    i += 1
                }
            case 16:
                var i = rowStart + 2 * colors
                while i + 1 < rowEnd {
                    let value = (UInt16(output[i]) << 8 | UInt16(output[i + 1]))
                        &+ (UInt16(output[i - 2 * colors]) << 8 | UInt16(output[i - 2 * colors + 1]))
                    output[i] = UInt8(value >> 8)
                    output[i + 1] = UInt8(value & 0xFF)
                    i += 2
                }
            default:
                // Sub-byte samples: unpack, add the sample `colors` to the left, repack.
                let mask = (1 << bits) - 1
                let samples = (rowEnd - rowStart) * 8 / bits
                func sample(_ k: Int) -> Int {
                    let bit = k * bits
                    let byte = Int(output[rowStart + bit / 8])
                    return (byte >> (8 - bits - bit % 8)) & mask
                }
                func setSample(_ k: Int, _ value: Int) {
                    let bit = k * bits
                    let shift = 8 - bits - bit % 8
                    let index = rowStart + bit / 8
                    output[index] = UInt8((Int(output[index]) & ~(mask << shift)) | ((value & mask) << shift))
                }
                if samples > colors {
                    for k in colors..<samples { setSample(k, sample(k) + sample(k - colors)) }
                }
            }
            rowStart += rowLength
        }
        return output
    }
}
