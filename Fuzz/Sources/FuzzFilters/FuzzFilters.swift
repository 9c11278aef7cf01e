import FolioPDF
import FuzzSupport

/// The first bytes choose a filter chain and its parameters, the rest is the encoded data.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard bytes.count >= 4, let document = FilterHost.document() else { return 0 }
    let filters = ["FlateDecode", "LZWDecode", "ASCII85Decode", "ASCIIHexDecode", "RunLengthDecode", "DCTDecode"]
    let first = filters[Int(bytes[0]) % filters.count]
    var dictionary: PDFDictionary = ["Length": .integer(bytes.count - 4)]
    if bytes[0] & 0x80 != 0 {
        // A chain: ASCII first, then the chosen filter.
        dictionary["Filter"] = .array([.name(bytes[0] & 0x40 != 0 ? "ASCIIHexDecode" : "ASCII85Decode"), .name(first)])
    } else {
        dictionary["Filter"] = .name(first)
    }
    let predictor = [1, 2, 10, 11, 12, 13, 14, 15][Int(bytes[1]) % 8]
    dictionary["DecodeParms"] = .dictionary([
        "Predictor": .integer(predictor), "Colors": .integer(Int(bytes[2] % 5)), "BitsPerComponent": .integer([1, 2, 4, 8, 16][Int(bytes[3]) % 5]),
        "Columns": .integer(Int(bytes[2]) * 3 + 1), "EarlyChange": .integer(Int(bytes[3] & 1)),
    ])
    _ = try? document.decodedData(of: PDFStream(dictionary: dictionary, encodedData: Array(bytes.dropFirst(4))))
    return 0
}

enum FilterHost {
    /// An empty file whose reader decodes the streams (its limits apply); made per input,
    /// since a document is not shared between threads.
    static func document() -> PDFDocument? {
        let body = "%PDF-1.7\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[]/Count 0>> endobj\n"
        let xref = body.utf8.count
        let text = body + "xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000054 00000 n \ntrailer <</Size 3/Root 1 0 R>>\nstartxref\n\(xref)\n%%EOF\n"
        var options = PDFReadOptions()
        options.maxDecodedBytes = 32 << 20
        return try? PDFDocument(bytes: Array(text.utf8), options: options)
    }
}

@_cdecl("FuzzFilters_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
