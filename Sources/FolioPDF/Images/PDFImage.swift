/// An image file made ready for a PDF page without changing its pixels: a JPEG's bytes
/// embedded as they are (DCTDecode), a PNG's compressed data passed through with its PNG
/// predictors (any bit depth, palettes as Indexed colour), and only a PNG with an alpha
/// channel, a transparency chunk or interlacing decoded (to 8 bits, alpha as a soft mask).
///
/// ```swift
/// let image = try PDFImage(bytes: Array(try Data(contentsOf: url)))
/// print(image.width, image.height, image.orientation, image.dpi ?? (96, 96))
/// ```
public struct PDFImage: Sendable {
    /// What the image's bytes are, read from their signature.
    ///
    /// ```swift
    /// let image = try PDFImage(bytes: pngBytes)
    /// image.format   // .png
    /// ```
    public enum Format: String, Sendable { case jpeg, png }

    public let format: Format
    public let width: Int
    public let height: Int
    /// The image XObject (without /SMask; see ``mask``).
    public let stream: PDFStream
    /// The soft mask of a PNG with transparency.
    public let mask: PDFStream?
    /// Pixels per inch from the file (JFIF density, PNG pHYs), when it says.
    public let dpi: (x: Double, y: Double)?
    /// The EXIF orientation, 1 (upright) to 8.
    public let orientation: Int

    /// Recognises the format by its signature.
    public init(bytes: [UInt8], maxPixels: Int = PNGImage.maxPixels) throws {
        if bytes.starts(with: [0xFF, 0xD8]) {
            try self.init(jpeg: bytes, maxPixels: maxPixels)
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            try self.init(png: bytes, maxPixels: maxPixels)
        } else {
            throw PDFError(.invalidArgument, "the image is neither a JPEG nor a PNG (unknown signature)")
        }
    }

    // MARK: - JPEG

    init(jpeg bytes: [UInt8], maxPixels: Int) throws {
        var offset = 2
        var frame: (width: Int, height: Int, components: Int, precision: Int)?
        var adobe = false
        var density: (x: Double, y: Double)?
        var orientation = 1
        var exifDensity: (x: Double, y: Double)?
        func be16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        while frame == nil {
            // Fill bytes may precede a marker.
            while offset < bytes.count, bytes[offset] == 0xFF, offset + 1 < bytes.count, bytes[offset + 1] == 0xFF { offset += 1 }
            guard offset + 4 <= bytes.count, bytes[offset] == 0xFF else {
                throw PDFError(.damaged, "JPEG has no frame header before offset \(offset)")
            }
            let marker = bytes[offset + 1]
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            let length = be16(offset + 2)
            let start = offset + 4
            guard length >= 2, offset + 2 + length <= bytes.count else {
                throw PDFError(.damaged, "JPEG segment FF\(String(marker, radix: 16, uppercase: true)) at offset \(offset) runs past the end")
            }
            let end = offset + 2 + length
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard length >= 8 else { throw PDFError(.damaged, "JPEG frame header at offset \(offset) is too short") }
                frame = (be16(start + 3), be16(start + 1), Int(bytes[start + 5]), Int(bytes[start]))
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                throw PDFError(.invalidArgument, "JPEG uses a coding (SOF\(marker - 0xC0)) PDF readers do not decode; "
                    + "only baseline and progressive JPEGs are embedded")
            case 0xDA, 0xD9:
                throw PDFError(.damaged, "JPEG reaches its scan data without a frame header")
            case 0xE0 where length >= 14 && Array(bytes[start..<(start + 5)]) == Array("JFIF\0".utf8):
                let unit = bytes[start + 7], x = Double(be16(start + 8)), y = Double(be16(start + 10))
                if x > 0, y > 0, unit == 1 { density = (x, y) }
                if x > 0, y > 0, unit == 2 { density = (x * 2.54, y * 2.54) }
            case 0xE1 where length >= 16 && Array(bytes[start..<(start + 6)]) == Array("Exif\0\0".utf8):
                let exif = PDFImage.exif(Array(bytes[(start + 6)..<end]))
                orientation = exif.orientation ?? 1
                exifDensity = exif.density
            case 0xEE where length >= 12 && Array(bytes[start..<(start + 5)]) == Array("Adobe".utf8):
                adobe = true
            default:
                break
            }
            offset = end
        }
        guard let frame else { throw PDFError(.damaged, "JPEG has no frame header") }
        guard frame.width > 0, frame.height > 0, frame.width * frame.height <= maxPixels else {
            throw PDFError(.limitExceeded, "JPEG of \(frame.width) × \(frame.height) pixels is out of range (valid: up to \(maxPixels) pixels)")
        }
        guard frame.precision == 8 else {
            throw PDFError(.invalidArgument, "JPEG with \(frame.precision)-bit samples: PDF readers decode 8-bit JPEGs only")
        }
        var dictionary: PDFDictionary = [
            "Type": .name("XObject"), "Subtype": .name("Image"),
            "Width": .integer(frame.width), "Height": .integer(frame.height), "BitsPerComponent": .integer(8),
            "Filter": .name("DCTDecode"), "Length": .integer(bytes.count),
        ]
        switch frame.components {
        case 1: dictionary["ColorSpace"] = .name("DeviceGray")
        case 3: dictionary["ColorSpace"] = .name("DeviceRGB")
        case 4:
            dictionary["ColorSpace"] = .name("DeviceCMYK")
            // Photoshop writes CMYK JPEGs inverted and says so with its Adobe segment.
            if adobe { dictionary["Decode"] = .array([1, 0, 1, 0, 1, 0, 1, 0].map { .integer($0) }) }
        default:
            throw PDFError(.invalidArgument, "JPEG with \(frame.components) colour components (valid: 1, 3 or 4)")
        }
        format = .jpeg
        width = frame.width
        height = frame.height
        stream = PDFStream(dictionary: dictionary, encodedData: bytes)
        mask = nil
        // Without a JFIF density, EXIF's resolution counts (72 dpi when EXIF gives none, as its standard says).
        dpi = density ?? exifDensity
        self.orientation = orientation
    }

    /// The Orientation (0x0112) and resolution (0x011A, 0x011B, 0x0128) of IFD0 in a
    /// TIFF-structured EXIF block; the resolution defaults to 72 dpi, as EXIF specifies.
    static func exif(_ tiff: [UInt8]) -> (orientation: Int?, density: (x: Double, y: Double)?) {
        guard tiff.count >= 8, tiff[0] == tiff[1], tiff[0] == 0x49 || tiff[0] == 0x4D else { return (nil, nil) }
        let little = tiff[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        func rational(_ at: Int) -> Double? {
            guard let offset = u32(at), let numerator = u32(offset), let denominator = u32(offset + 4), denominator > 0 else { return nil }
            let value = Double(numerator) / Double(denominator)
            return value > 0 ? value : nil
        }
        guard let ifd = u32(4), let count = u16(ifd), count < 1000 else { return (nil, nil) }
        var orientation: Int?
        var x = 72.0, y = 72.0, unit = 2
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            switch u16(at) {
            case 0x0112: orientation = u16(at + 8).flatMap { (1...8).contains($0) ? $0 : nil }
            case 0x011A: x = rational(at + 8) ?? x
            case 0x011B: y = rational(at + 8) ?? y
            case 0x0128: unit = u16(at + 8) ?? unit
            default: break
            }
        }
        let scale = unit == 3 ? 2.54 : 1
        return (orientation, unit == 1 ? nil : (x * scale, y * scale))
    }

    // MARK: - PNG

    /// A decoded PNG: 8-bit samples, Flate-compressed, the alpha as a soft mask.
    public init(decoded image: PNGImage, dpi: (x: Double, y: Double)? = nil) throws {
        func stream(_ samples: [UInt8], colorSpace: String) throws -> PDFStream {
            let data = try FlateFilter.encode(samples)
            return PDFStream(dictionary: [
                "Type": .name("XObject"), "Subtype": .name("Image"),
                "Width": .integer(image.width), "Height": .integer(image.height),
                "ColorSpace": .name(colorSpace), "BitsPerComponent": .integer(8),
                "Filter": .name("FlateDecode"), "Length": .integer(data.count),
            ], encodedData: data)
        }
        format = .png
        width = image.width
        height = image.height
        orientation = 1
        self.dpi = dpi
        self.stream = try stream(image.pixels, colorSpace: image.components == 3 ? "DeviceRGB" : "DeviceGray")
        mask = try image.alpha.map { try stream($0, colorSpace: "DeviceGray") }
    }

    init(png bytes: [UInt8], maxPixels: Int) throws {
        let chunks = try PNGChunks(bytes: bytes, maxPixels: maxPixels)
        let header = chunks.header
        let resolution = chunks.pixelsPerMeter.flatMap { $0.x > 0 && $0.y > 0 ? (Double($0.x) * 0.0254, Double($0.y) * 0.0254) : nil }
        let hasAlpha = header.colorType == 4 || header.colorType == 6 || !chunks.transparency.isEmpty
        if hasAlpha || header.interlace != 0 {
            self = try PDFImage(decoded: try PNGImage(bytes: bytes, maxPixels: maxPixels), dpi: resolution)
            return
        }
        let colors: Int
        let colorSpace: PDFObject
        switch header.colorType {
        case 0:
            colors = 1
            colorSpace = .name("DeviceGray")
        case 2:
            colors = 3
            colorSpace = .name("DeviceRGB")
        case 3:
            guard !chunks.palette.isEmpty, chunks.palette.count % 3 == 0, chunks.palette.count <= 768 else {
                throw PDFError(.damaged, "paletted PNG has a PLTE chunk of \(chunks.palette.count) bytes (valid: 3 to 768, a multiple of 3)")
            }
            colors = 1
            colorSpace = .array([.name("Indexed"), .name("DeviceRGB"), .integer(chunks.palette.count / 3 - 1),
                                 .string(PDFString(chunks.palette, isHex: true))])
        default:
            throw PDFError(.invalidArgument, "PNG colour type \(header.colorType) is not a valid PNG colour type")
        }
        guard [1, 2, 4, 8, 16].contains(header.depth), header.colorType != 2 || header.depth >= 8,
              header.colorType != 3 || header.depth <= 8 else {
            throw PDFError(.invalidArgument, "PNG colour type \(header.colorType) at bit depth \(header.depth) is not valid")
        }
        // The zlib stream with PNG's row filters is what FlateDecode with predictor 15 reads.
        let stream = PDFStream(dictionary: [
            "Type": .name("XObject"), "Subtype": .name("Image"),
            "Width": .integer(header.width), "Height": .integer(header.height),
            "ColorSpace": colorSpace, "BitsPerComponent": .integer(header.depth),
            "Filter": .name("FlateDecode"), "Length": .integer(chunks.data.count),
            "DecodeParms": .dictionary([
                "Predictor": .integer(15), "Colors": .integer(colors),
                "BitsPerComponent": .integer(header.depth), "Columns": .integer(header.width),
            ]),
        ], encodedData: chunks.data)
        self = PDFImage(format: .png, width: header.width, height: header.height, stream: stream, mask: nil, dpi: resolution,
                        orientation: 1)
    }

    private init(format: Format, width: Int, height: Int, stream: PDFStream, mask: PDFStream?,
                 dpi: (x: Double, y: Double)?, orientation: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.stream = stream
        self.mask = mask
        self.dpi = dpi
        self.orientation = orientation
    }
}
