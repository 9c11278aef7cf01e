import Foundation

/// What a WAV file holds, read from its chunks: the encoding, channels, sample rate, bits
/// and length. It checks a metronome sample (a short click of the user's own, as forScore
/// takes them) before the library keeps it.
///
/// ```swift
/// let format = try WAVFormat(bytes: Array(try Data(contentsOf: url)))
/// print(format.channels, format.sampleRate, format.seconds)   // 1 44100 0.05
/// ```
public struct WAVFormat: Sendable, Equatable {
    /// 1 for integer PCM, 3 for floating point (an extensible header's subformat).
    public var encoding: Int
    public var channels: Int
    public var sampleRate: Int
    public var bitsPerSample: Int
    /// Sample frames in the data chunk.
    public var frames: Int

    /// The length in seconds.
    public var seconds: Double { Double(frames) / Double(sampleRate) }

    /// The longest metronome sample, in seconds, and the largest file.
    public static let maxSampleSeconds = 5.0
    public static let maxSampleBytes = 4 << 20

    /// Reads the RIFF/WAVE header and its `fmt ` and `data` chunks (at most 64 chunks).
    /// Throws ``ScoreError`` `.malformed` for anything that is not a WAV file of PCM or
    /// floating-point samples a browser plays (1 to 8 channels, 8 000 to 192 000 Hz, 8 to
    /// 32 bits).
    public init(bytes: [UInt8]) throws {
        func fail(_ why: String) -> ScoreError { ScoreError(.malformed, "not a WAV file a browser plays: \(why)") }
        func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func long(_ at: Int) -> Int { word(at) | word(at + 2) << 16 }
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WAVE".utf8) else {
            throw fail("it does not start with RIFF…WAVE")
        }
        var offset = 12
        var format: (encoding: Int, channels: Int, rate: Int, bits: Int, block: Int)?
        var dataBytes: Int?
        for _ in 0..<64 where offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self), size = long(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                guard size >= 16, body + 16 <= bytes.count else { throw fail("its fmt chunk is short") }
                var encoding = word(body)
                if encoding == 0xFFFE {
                    guard size >= 40, body + 26 <= bytes.count else { throw fail("its extensible fmt chunk is short") }
                    encoding = word(body + 24)
                }
                format = (encoding, word(body + 2), long(body + 4), word(body + 14), word(body + 12))
            } else if id == "data" {
                dataBytes = min(size, bytes.count - body)
                break
            }
            offset = body + size + (size & 1)
        }
        guard let format else { throw fail("it has no fmt chunk") }
        guard let dataBytes else { throw fail("it has no data chunk") }
        guard format.encoding == 1 || format.encoding == 3 else {
            throw fail("its samples are encoded as \(format.encoding) (valid: 1, PCM, or 3, floating point)")
        }
        guard (1...8).contains(format.channels) else { throw fail("\(format.channels) channels (valid: 1 to 8)") }
        guard (8000...192_000).contains(format.rate) else { throw fail("\(format.rate) Hz (valid: 8000 to 192000)") }
        guard [8, 16, 24, 32].contains(format.bits), format.encoding == 1 || format.bits == 32 else {
            throw fail("\(format.bits) bits per sample (valid: 8, 16, 24 or 32; floating point 32)")
        }
        let block = format.channels * format.bits / 8
        encoding = format.encoding
        channels = format.channels
        sampleRate = format.rate
        bitsPerSample = format.bits
        frames = dataBytes / block
    }

    /// Checks `bytes` as a metronome sample: a WAV file (see ``init(bytes:)``) of at most
    /// ``maxSampleBytes`` and ``maxSampleSeconds``, with at least one frame.
    @discardableResult
    public static func sample(_ bytes: [UInt8]) throws -> WAVFormat {
        guard bytes.count <= maxSampleBytes else {
            throw ScoreError(.limitExceeded, "the sample is \(bytes.count) bytes (valid: up to \(maxSampleBytes), a short click)")
        }
        let format = try WAVFormat(bytes: bytes)
        guard format.frames > 0 else { throw ScoreError(.invalidValue, "the sample holds no sound (its data chunk is empty)") }
        guard format.seconds <= maxSampleSeconds else {
            throw ScoreError(.outOfRange, String(format: "the sample lasts %.1f s (valid: up to %.0f s, a short click)", format.seconds, maxSampleSeconds))
        }
        return format
    }
}
