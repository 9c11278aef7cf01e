/// Applies a stream's /Filter chain. Image codecs (DCT, JPX, JBIG2, CCITT) are passed
/// through: decoding stops before the first of them and returns the data still encoded
/// with it, which is what a writer or an image extractor needs.
///
/// ```swift
/// StreamDecoder.filters(of: ["Filter": .array([.name("FlateDecode"), .name("DCTDecode")])])
/// // ["FlateDecode", "DCTDecode"]; PDFDocument.decodedData(of:) stops before DCTDecode
/// ```
public enum StreamDecoder {
    /// Filters whose output Folio passes through undecoded.
    public static let imageFilters: Set<String> = ["DCTDecode", "DCT", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "CCF"]

    /// The filter names of a stream, abbreviations expanded.
    public static func filters(of dictionary: PDFDictionary) -> [String] {
        let names: [String]
        switch dictionary["Filter"] {
        case .name(let name)?: names = [name]
        case .array(let items)?: names = items.compactMap(\.nameValue)
        default: names = []
        }
        return names.map { abbreviations[$0] ?? $0 }
    }

    private static let abbreviations = [
        "AHx": "ASCIIHexDecode", "A85": "ASCII85Decode", "LZW": "LZWDecode", "Fl": "FlateDecode",
        "RL": "RunLengthDecode", "CCF": "CCITTFaxDecode", "DCT": "DCTDecode",
    ]

    /// The stream's data with its filters undone, at most `limit` bytes. With a document's
    /// log, the output is also charged to the document's budget
    /// (``PDFReadOptions/maxTotalDecodedBytes``), unfiltered streams included.
    static func decode(_ stream: PDFStream, limit: Int, log: WarningLog?) throws -> [UInt8] {
        let data = try undoFilters(stream, limit: log?.decodeLimit(perStream: limit) ?? limit, log: log)
        try log?.chargeDecoded(data.count)
        return data
    }

    private static func undoFilters(_ stream: PDFStream, limit: Int, log: WarningLog?) throws -> [UInt8] {
        let filters = filters(of: stream.dictionary)
        if filters.isEmpty { return stream.encodedData }
        let parameters: [PDFObject]
        switch stream.dictionary["DecodeParms"] ?? stream.dictionary["DP"] {
        case .array(let items)?: parameters = items
        case let single?: parameters = [single]
        case nil: parameters = []
        }
        var data = stream.encodedData
        for (index, filter) in filters.enumerated() {
            let parms = index < parameters.count ? (parameters[index].dictionaryValue ?? [:]) : [:]
            switch filter {
            case "FlateDecode":
                data = try Predictor.decode(FlateFilter.decode(data, limit: limit, log: log), parameters: parms, log: log)
            case "LZWDecode":
                let early = (parms["EarlyChange"]?.intValue ?? 1) != 0
                data = try Predictor.decode(LZWFilter.decode(data, earlyChange: early, limit: limit, log: log),
                                            parameters: parms, log: log)
            case "ASCIIHexDecode":
                data = try ASCIIHexFilter.decode(data, log: log)
            case "ASCII85Decode":
                data = try ASCII85Filter.decode(data, log: log)
            case "RunLengthDecode":
                data = try RunLengthFilter.decode(data, limit: limit, log: log)
            case "Crypt":
                // Encryption is undone when the object is loaded; an Identity crypt filter is a no-op.
                continue
            case _ where imageFilters.contains(filter):
                return data
            default:
                throw PDFError(.filter, "unknown filter /\(filter)")
            }
            if data.count > limit {
                throw PDFError(.limitExceeded, "decoded data exceeds the limit of \(limit) bytes (a decompression bomb?)")
            }
        }
        return data
    }
}
