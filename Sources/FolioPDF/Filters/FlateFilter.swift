import CZlib

/// FlateDecode through zlib, capped in output size. Damaged data yields what could be
/// inflated, with a warning, as qpdf and pdf.js do.
enum FlateFilter {
    static func decode(_ input: [UInt8], limit: Int, log: WarningLog?) throws -> [UInt8] {
        do {
            return try inflate(input, windowBits: 15, limit: limit, log: log)
        } catch let error as PDFError where error.code == .filter {
            // Some writers emit raw deflate data without the zlib header.
            if let raw = try? inflate(input, windowBits: -15, limit: limit, log: log) {
                log?.add("flate stream has no zlib header; read as raw deflate")
                return raw
            }
            throw error
        }
    }

    /// Inflates `input`; `strict` turns a truncated or damaged stream into an error
    /// instead of what could be recovered (gzip members in transport formats).
    static func inflate(_ input: [UInt8], windowBits: Int32, limit: Int, log: WarningLog?, strict: Bool = false,
                        what: String = "flate") throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PDFError(.filter, "zlib could not be initialised")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(max(input.count * 4, 1024), limit))
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var status: Int32 = Z_OK
        try input.withUnsafeBufferPointer { inputBuffer in
            stream.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress)
            stream.avail_in = UInt32(inputBuffer.count)
            repeat {
                let produced: Int
                (status, produced) = inflateStep(&stream, into: &chunk)
                if output.count + produced > limit {
                    throw PDFError(.limitExceeded,
                                   "\(what) data inflates past the limit of \(limit) bytes (a decompression bomb?)")
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { break }
                if strict, status == Z_BUF_ERROR || status == Z_OK, stream.avail_in == 0, produced < chunkSize {
                    throw PDFError(.filter, "\(what) data is truncated after \(output.count) bytes")
                }
                if strict, status != Z_OK, status != Z_BUF_ERROR {
                    throw PDFError(.filter, "\(what) data is damaged (zlib error \(status))")
                }
                if status == Z_BUF_ERROR && stream.avail_in == 0 {
                    if !input.isEmpty { log?.add("flate stream is truncated; \(output.count) bytes recovered") }
                    break
                }
                if status != Z_OK && status != Z_BUF_ERROR {
                    if output.isEmpty {
                        throw PDFError(.filter, "flate data is invalid (zlib error \(status))")
                    }
                    log?.add("flate stream is damaged; \(output.count) bytes recovered")
                    break
                }
            } while true
        }
        return output
    }

    /// One call of zlib's inflate into the whole of `chunk`: its status and the bytes it wrote.
    static func inflateStep(_ stream: inout z_stream, into chunk: inout [UInt8]) -> (status: Int32, produced: Int) {
        chunk.withUnsafeMutableBufferPointer { buffer in
            stream.next_out = buffer.baseAddress
            stream.avail_out = UInt32(buffer.count)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            return (status, buffer.count - Int(stream.avail_out))
        }
    }

    /// Compresses `input` (zlib format; gzip with `windowBits` 31), for writers.
    static func encode(_ input: [UInt8], level: Int32 = 6, windowBits: Int32 = 15) throws -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PDFError(.filter, "zlib could not be initialised")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        let written: Int = try input.withUnsafeBufferPointer { inputBuffer in
            try output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress)
                stream.avail_in = UInt32(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputBuffer.count)
                guard CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END else {
                    throw PDFError(.filter, "zlib could not compress the data")
                }
                return outputBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<written])
    }
}
