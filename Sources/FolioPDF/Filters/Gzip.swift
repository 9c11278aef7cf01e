import CZlib

/// gzip members (RFC 1952) through zlib, for the transport formats around PDFs (forScore's
/// 4SB records and 4SC containers). Output is capped, so a bomb fails early.
///
/// ```swift
/// let packed = try Gzip.compress(Array("hello".utf8))
/// let back = try Gzip.decompress(packed, limit: 1 << 20)   // "hello"
/// ```
public enum Gzip {
    /// Inflates one gzip member. Throws `.limitExceeded` past `limit` bytes of output and
    /// `.filter` for data that is not gzip or is cut short.
    public static func decompress(_ input: [UInt8], limit: Int) throws -> [UInt8] {
        guard input.count >= 18, input[0] == 0x1F, input[1] == 0x8B else {
            throw PDFError(.filter, "the data is not gzip (no 1F 8B signature)")
        }
        // Window bits 15 + 16: zlib reads the gzip header and checks the CRC and length.
        return try FlateFilter.inflate(input, windowBits: 31, limit: limit, log: nil, strict: true, what: "gzip")
    }

    /// One gzip member of `input`.
    public static func compress(_ input: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        try FlateFilter.encode(input, level: level, windowBits: 31)
    }
}
