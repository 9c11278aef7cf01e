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

    /// Inflates one gzip member read piece by piece: `read(n)` returns up to `n` more bytes (as
    /// few as one, as a network read may; none at the end), `write` takes each inflated piece as
    /// it comes. Memory stays at one piece of each, whatever the member inflates to; output past
    /// `limit` bytes fails with `.limitExceeded` as soon as it is produced, and a member that is
    /// damaged, cut short or followed by more data fails with `.filter`. Returns the bytes written.
    ///
    /// ```swift
    /// var rest = try Gzip.compress(Array("hello".utf8))[...]
    /// var out: [UInt8] = []
    /// let count = try Gzip.decompress(limit: 1 << 20, read: { n in
    ///     defer { rest = rest.dropFirst(n) }
    ///     return Array(rest.prefix(n))
    /// }, write: { out += $0 })   // 5
    /// ```
    @discardableResult
    public static func decompress(limit: Int, read: (Int) throws -> [UInt8], write: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        var stream = z_stream()
        guard inflateInit2_(&stream, 31, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PDFError(.filter, "zlib could not be initialised")
        }
        defer { inflateEnd(&stream) }
        let pieceSize = 256 * 1024
        var output = [UInt8](repeating: 0, count: pieceSize)
        var total = 0
        // The signature's bytes seen so far: a read may return any number of bytes, one included.
        var signature = 0
        while true {
            let input = try read(pieceSize)
            for byte in input.prefix(2 - signature) {
                guard byte == (signature == 0 ? 0x1F : 0x8B) else { throw PDFError(.filter, "the data is not gzip (no 1F 8B signature)") }
                signature += 1
            }
            guard !input.isEmpty else {
                throw PDFError(.filter, signature < 2 ? "the data is not gzip (no 1F 8B signature)" : "gzip data is truncated after \(total) bytes")
            }
            var status: Int32 = Z_OK
            try input.withUnsafeBufferPointer { inputBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress)
                stream.avail_in = UInt32(inputBuffer.count)
                repeat {
                    let produced: Int
                    (status, produced) = FlateFilter.inflateStep(&stream, into: &output)
                    guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && stream.avail_in == 0) else {
                        throw PDFError(.filter, "gzip data is damaged (zlib error \(status))")
                    }
                    guard produced <= limit - total else {
                        throw PDFError(.limitExceeded, "gzip data inflates past the limit of \(limit) bytes (a decompression bomb?)")
                    }
                    total += produced
                    try output.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
                } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
            }
            if status == Z_STREAM_END {
                guard stream.avail_in == 0, try read(1).isEmpty else {
                    throw PDFError(.filter, "gzip data goes on after its member ends")
                }
                return total
            }
        }
    }

    /// One gzip member of `input`.
    public static func compress(_ input: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        try FlateFilter.encode(input, level: level, windowBits: 31)
    }
}
