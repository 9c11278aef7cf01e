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
        var stream = z_stream()
        // 15 + 16: zlib reads the gzip header and checks the CRC and length trailer.
        guard inflateInit2_(&stream, 31, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PDFError(.filter, "zlib could not be initialised")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(input.count * 4, limit))
        let chunkSize = 256 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        try input.withUnsafeBufferPointer { inputBuffer in
            stream.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress)
            stream.avail_in = UInt32(inputBuffer.count)
            while true {
                var status: Int32 = Z_OK
                let produced: Int = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(chunkSize)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return chunkSize - Int(stream.avail_out)
                }
                if output.count + produced > limit {
                    throw PDFError(.limitExceeded, "gzip data inflates past the limit of \(limit) bytes (a decompression bomb?)")
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return }
                if status == Z_BUF_ERROR && stream.avail_in == 0 || status == Z_OK && stream.avail_in == 0 && produced < chunkSize {
                    throw PDFError(.filter, "gzip data is truncated after \(output.count) bytes")
                }
                if status != Z_OK && status != Z_BUF_ERROR {
                    throw PDFError(.filter, "gzip data is damaged (zlib error \(status))")
                }
            }
        }
        return output
    }

    /// One gzip member of `input`.
    public static func compress(_ input: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        try FlateFilter.encode(input, level: level, windowBits: 31)
    }
}
