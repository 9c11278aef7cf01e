/// Raw deflate data (RFC 1951, no zlib or gzip wrapper), as ZIP entries store it — for the
/// office documents (DOCX, ODT) checked before a converter sees them. Output is capped, so a
/// bomb fails early.
///
/// ```swift
/// let xml = try RawDeflate.decompress(entryData, limit: 16 << 20)
/// ```
public enum RawDeflate {
    /// Inflates one raw deflate stream. Throws `.limitExceeded` past `limit` bytes of output
    /// and `.filter` for data that is damaged or cut short.
    public static func decompress(_ input: [UInt8], limit: Int) throws -> [UInt8] {
        try FlateFilter.inflate(input, windowBits: -15, limit: limit, log: nil, strict: true, what: "deflate")
    }
}
