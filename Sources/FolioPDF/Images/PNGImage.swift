/// A PNG decoded to 8-bit samples, for placing in a PDF as an image XObject: colour
/// (gray or RGB) and, when the PNG has transparency, a separate alpha plane (the soft mask).
///
/// PNGs of every colour type are read, interlaced (Adam7) or not (bit depth 8, 16 reduced to
/// 8, and palettes of 1 to 8 bits); pixel count and chunk sizes are bounded.
///
/// ```swift
/// let png = try PNGImage(bytes: Array(try Data(contentsOf: url)))
/// print(png.width, png.height, png.alpha != nil)
/// ```
public struct PNGImage: Sendable {
    public let width: Int
    public let height: Int
    /// 1 (DeviceGray) or 3 (DeviceRGB).
    public let components: Int
    /// `width × height × components` samples, rows top to bottom.
    public let pixels: [UInt8]
    /// `width × height` alpha samples, nil when every pixel is opaque.
    public let alpha: [UInt8]?

    /// The largest image read: 64 megapixels (a full page at 600 dpi is about 35).
    public static let maxPixels = 64_000_000

    public init(bytes: [UInt8], maxPixels: Int = PNGImage.maxPixels) throws {
        let chunks = try PNGChunks(bytes: bytes, maxPixels: maxPixels)
        let (header, palette, transparency, data) = (chunks.header, chunks.palette, chunks.transparency, chunks.data)
        guard header.interlace <= 1 else { throw PDFError(.damaged, "PNG interlace method \(header.interlace) is unknown") }
        let channels: Int
        switch (header.colorType, header.depth) {
        case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16): channels = 1
        case (2, 8), (2, 16): channels = 3
        case (3, 1), (3, 2), (3, 4), (3, 8): channels = 1
        case (4, 8), (4, 16): channels = 2
        case (6, 8), (6, 16): channels = 4
        default:
            throw PDFError(.invalidArgument, "PNG colour type \(header.colorType) at bit depth \(header.depth) is not supported")
        }
        if header.colorType == 3, palette.isEmpty { throw PDFError(.damaged, "paletted PNG has no PLTE chunk") }
        let bitsPerPixel = channels * header.depth
        let stride = (header.width * bitsPerPixel + 7) / 8
        let passes = header.interlace == 1 ? PNGImage.adam7 : [(0, 0, 1, 1)]
        // Each pass is a small image of its own, rows filtered separately.
        let sizes = passes.map { pass -> (width: Int, height: Int) in
            ((header.width - pass.0 + pass.2 - 1) / pass.2, (header.height - pass.1 + pass.3 - 1) / pass.3)
        }
        let expected = sizes.reduce(0) { total, size in
            size.width == 0 || size.height == 0 ? total : total + ((size.width * bitsPerPixel + 7) / 8 + 1) * size.height
        }
        let raw = try FlateFilter.decode(data, limit: expected, log: nil)
        guard raw.count == expected else {
            throw PDFError(.damaged, "PNG image data has \(raw.count) bytes, expected \(expected)")
        }
        let rows: [UInt8]
        if header.interlace == 0 {
            rows = try PNGImage.unfilter(raw, stride: stride, height: header.height, bytesPerPixel: max(1, bitsPerPixel / 8))
        } else {
            var full = [UInt8](repeating: 0, count: stride * header.height)
            var offset = 0
            for (pass, size) in zip(passes, sizes) where size.width > 0 && size.height > 0 {
                let passStride = (size.width * bitsPerPixel + 7) / 8
                let length = (passStride + 1) * size.height
                let pixels = try PNGImage.unfilter(Array(raw[offset..<(offset + length)]), stride: passStride, height: size.height,
                                                   bytesPerPixel: max(1, bitsPerPixel / 8))
                offset += length
                for py in 0..<size.height {
                    let y = pass.1 + py * pass.3
                    for px in 0..<size.width {
                        let x = pass.0 + px * pass.2
                        if bitsPerPixel >= 8 {
                            let bytes = bitsPerPixel / 8
                            for byte in 0..<bytes { full[y * stride + x * bytes + byte] = pixels[py * passStride + px * bytes + byte] }
                        } else {
                            let sourceBit = px * bitsPerPixel, targetBit = x * bitsPerPixel
                            let mask = (1 << bitsPerPixel) - 1
                            let value = Int(pixels[py * passStride + sourceBit / 8] >> (8 - bitsPerPixel - sourceBit % 8)) & mask
                            full[y * stride + targetBit / 8] |= UInt8(value << (8 - bitsPerPixel - targetBit % 8))
                        }
                    }
                }
            }
            rows = full
        }

        let count = header.width * header.height
        let colour = header.colorType == 2 || header.colorType == 6 || header.colorType == 3 ? 3 : 1
        var pixels = [UInt8](repeating: 0, count: count * colour)
        var alpha = [UInt8](repeating: 255, count: count)
        let sampleBytes = header.depth == 16 ? 2 : 1
        // 8-bit RGB and RGBA (what drawings and most stamps are): rows hold the samples in
        // order with no padding, copied over raw buffers.
        let direct = header.depth == 8 && (header.colorType == 2 || header.colorType == 6) && rows.count >= count * channels
        if direct {
            rows.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { rgb in
                    alpha.withUnsafeMutableBufferPointer { mask in
                        for index in 0..<count {
                            let base = index * channels
                            rgb[index * 3] = source[base]
                            rgb[index * 3 + 1] = source[base + 1]
                            rgb[index * 3 + 2] = source[base + 2]
                            if channels == 4 { mask[index] = source[base + 3] }
                        }
                    }
                }
            }
        }
        for y in 0..<(direct ? 0 : header.height) {
            let row = y * stride
            for x in 0..<header.width {
                let index = y * header.width + x
                if header.colorType == 3 {
                    let bit = x * header.depth
                    let byte = rows[row + bit / 8]
                    let entry = Int(byte >> (8 - header.depth - bit % 8)) & ((1 << header.depth) - 1)
                    if entry * 3 + 2 < palette.count {
                        pixels[index * 3] = palette[entry * 3]
                        pixels[index * 3 + 1] = palette[entry * 3 + 1]
                        pixels[index * 3 + 2] = palette[entry * 3 + 2]
                    }
                    if entry < transparency.count { alpha[index] = transparency[entry] }
                    continue
                }
                if header.depth < 8 {
                    // Gray below 8 bits, stretched to 0…255.
                    let bit = x * header.depth
                    let value = Int(rows[row + bit / 8] >> (8 - header.depth - bit % 8)) & ((1 << header.depth) - 1)
                    pixels[index] = UInt8(value * 255 / ((1 << header.depth) - 1))
                    continue
                }
                let base = row + x * channels * sampleBytes
                // 16-bit samples keep their high byte.
                let sample = { (channel: Int) in rows[base + channel * sampleBytes] }
                for channel in 0..<colour { pixels[index * colour + channel] = sample(channel) }
                if channels == 2 || channels == 4 { alpha[index] = sample(channels - 1) }
            }
        }
        width = header.width
        height = header.height
        components = colour
        self.pixels = pixels
        self.alpha = alpha.allSatisfy { $0 == 255 } ? nil : alpha
    }

    private init(width: Int, height: Int, components: Int, pixels: [UInt8], alpha: [UInt8]?) {
        self.width = width
        self.height = height
        self.components = components
        self.pixels = pixels
        self.alpha = alpha
    }

    /// The part from column `x`, row `y` (from the top left), `width` × `height` pixels,
    /// clamped to the image; nil when none of it lies inside. A part with no transparent
    /// pixel has no alpha plane.
    ///
    /// ```swift
    /// let corner = png.cropped(x: 0, y: 0, width: 100, height: 100)
    /// ```
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> PNGImage? {
        let left = max(0, x), top = max(0, y)
        let right = min(self.width, x + width), bottom = min(self.height, y + height)
        guard right > left, bottom > top else { return nil }
        let columns = right - left
        var pixels: [UInt8] = []
        pixels.reserveCapacity(columns * (bottom - top) * components)
        var alpha: [UInt8] = []
        for row in top..<bottom {
            let start = (row * self.width + left) * components
            pixels += self.pixels[start..<start + columns * components]
            if let source = self.alpha { alpha += source[row * self.width + left..<row * self.width + right] }
        }
        let mask = self.alpha == nil || alpha.allSatisfy({ $0 == 255 }) ? nil : alpha
        return PNGImage(width: columns, height: bottom - top, components: components, pixels: pixels, alpha: mask)
    }

    /// Adam7's passes: first column and row, then the steps between columns and rows.
    private static let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    /// Undoes PNG's per-row filters (None, Sub, Up, Average, Paeth).
    private static func unfilter(_ raw: [UInt8], stride: Int, height: Int, bytesPerPixel bpp: Int) throws -> [UInt8] {
        guard raw.count >= (stride + 1) * height else { throw PDFError(.damaged, "PNG image data is cut short") }
        var out = [UInt8](repeating: 0, count: stride * height)
        // Row by row, one loop per filter type, over raw buffers (the sizes were checked above):
        // a full page of pixels is tens of millions of bytes.
        try raw.withUnsafeBufferPointer { source in
            try out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let filter = source[y * (stride + 1)]
                    let input = y * (stride + 1) + 1, row = y * stride, above = row - stride
                    switch filter {
                    case 0:
                        for i in 0..<stride { target[row + i] = source[input + i] }
                    case 1:
                        for i in 0..<min(bpp, stride) { target[row + i] = source[input + i] }
                        if stride > bpp { for i in bpp..<stride { target[row + i] = source[input + i] &+ target[row + i - bpp] } }
                    case 2:
                        if y == 0 {
                            for i in 0..<stride { target[row + i] = source[input + i] }
                        } else {
                            for i in 0..<stride { target[row + i] = source[input + i] &+ target[above + i] }
                        }
                    case 3:
                        for i in 0..<stride {
                            let a = i >= bpp ? Int(target[row + i - bpp]) : 0
                            let b = y > 0 ? Int(target[above + i]) : 0
                            target[row + i] = source[input + i] &+ UInt8(truncatingIfNeeded: (a + b) / 2)
                        }
                    case 4:
                        for i in 0..<stride {
                            let a = i >= bpp ? Int(target[row + i - bpp]) : 0
                            let b = y > 0 ? Int(target[above + i]) : 0
                            let c = y > 0 && i >= bpp ? Int(target[above + i - bpp]) : 0
                            let p = a + b - c
                            let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                            let predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                            target[row + i] = source[input + i] &+ UInt8(truncatingIfNeeded: predicted)
                        }
                    default:
                        throw PDFError(.damaged, "PNG row \(y) has unknown filter type \(filter)")
                    }
                }
            }
        }
        return out
    }
}

/// The chunks of a PNG that matter for a PDF: the header (checked against the pixel limit
/// before anything is decoded), palette, transparency, resolution and the image data.
struct PNGChunks {
    var header: (width: Int, height: Int, depth: Int, colorType: Int, interlace: Int)
    var palette: [UInt8] = []
    var transparency: [UInt8] = []
    var data: [UInt8] = []
    /// pHYs in pixels per metre, when given in metres.
    var pixelsPerMeter: (x: Int, y: Int)?

    init(bytes: [UInt8], maxPixels: Int) throws {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            throw PDFError(.invalidArgument, "the image is not a PNG (no PNG signature)")
        }
        var offset = 8
        var header: (width: Int, height: Int, depth: Int, colorType: Int, interlace: Int)?
        func be32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        while offset + 12 <= bytes.count {
            let length = be32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length >= 0, start + length + 4 <= bytes.count else {
                throw PDFError(.damaged, "PNG chunk \(type) at offset \(offset) runs past the end of the file")
            }
            let body = bytes[start..<(start + length)]
            switch type {
            case "IHDR":
                guard length == 13 else { throw PDFError(.damaged, "PNG header has length \(length), not 13") }
                let found = (be32(start), be32(start + 4), Int(bytes[start + 8]), Int(bytes[start + 9]), Int(bytes[start + 12]))
                // Checked at once: a header claiming 100,000 × 100,000 pixels stops here.
                guard found.0 > 0, found.1 > 0, found.0 <= 1 << 20, found.1 <= 1 << 20, found.0 * found.1 <= maxPixels else {
                    throw PDFError(.limitExceeded, "PNG of \(found.0) × \(found.1) pixels is out of range (valid: up to \(maxPixels) pixels)")
                }
                header = found
            case "PLTE": palette = Array(body)
            case "tRNS": transparency = Array(body)
            case "pHYs" where length == 9 && bytes[start + 8] == 1: pixelsPerMeter = (be32(start), be32(start + 4))
            case "IDAT":
                guard header != nil else { throw PDFError(.damaged, "PNG image data comes before its IHDR header") }
                data.append(contentsOf: body)
            case "IEND": offset = bytes.count
            default: break
            }
            offset = min(bytes.count, start + length + 4)
        }
        guard let header else { throw PDFError(.damaged, "PNG has no IHDR header") }
        guard !data.isEmpty else { throw PDFError(.damaged, "PNG has no image data (IDAT)") }
        self.header = header
    }
}
