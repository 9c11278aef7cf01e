import Foundation

/// The audio formats a score's tracks may be in — MP3, AAC (ADTS), M4A (MPEG-4 audio), WAV,
/// FLAC, Ogg (Vorbis, Opus) — told by the file's content, never by its name: a `.mp3` that
/// is a PDF is not audio, and a WAV named `.mp3` is served as WAV.
///
/// ```swift
/// let head = Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8)
/// AudioKind.sniff(head)                  // .wav
/// AudioKind.wav.mimeType                 // "audio/wav"
/// AudioKind.isCandidate("Vltava.flac")   // true: a scan reads its head
/// ```
public enum AudioKind: String, Sendable, Codable, CaseIterable {
    case mp3, aac, m4a, wav, flac, ogg

    /// The media type the file is served as.
    public var mimeType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .aac: "audio/aac"
        case .m4a: "audio/mp4"
        case .wav: "audio/wav"
        case .flac: "audio/flac"
        case .ogg: "audio/ogg"
        }
    }

    /// The formats, as an error message names them.
    public static let described = "MP3, AAC, M4A, WAV, FLAC or Ogg"

    /// File name extensions a scan reads the head of (the content decides).
    static let extensions: Set<String> = ["mp3", "aac", "adts", "m4a", "m4b", "mp4", "wav", "wave", "flac", "ogg", "oga", "opus"]

    /// Whether a scan looks into the file `name` (by its extension; what it is, the content says).
    public static func isCandidate(_ name: String) -> Bool {
        extensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// How many bytes of a file's head ``sniff(_:)`` needs after an ID3 tag.
    public static let headBytes = 4096
    /// The largest ID3 tag skipped (a tag with a big cover picture); past it, not audio.
    static let maxTag = 16 << 20

    /// The format `head` (a file's first bytes, ``headBytes`` of them where the file has
    /// them) starts with, or nil. A head that begins with an ID3 tag is told by what
    /// follows the tag: use ``sniff(reading:)``, which skips it.
    public static func sniff(_ head: [UInt8]) -> AudioKind? {
        func ascii(_ offset: Int, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if (ascii(0, "RIFF") || ascii(0, "RF64") || ascii(0, "BW64")) && ascii(8, "WAVE") { return .wav }
        if ascii(0, "fLaC") { return .flac }
        if ascii(0, "OggS"), head.count > 5, head[4] == 0 { return .ogg }
        if ascii(4, "ftyp"), head.count >= 12 {
            // The major brand and the compatible ones: any MPEG-4 audio brand, or the generic ones.
            let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            let end = min(head.count, max(12, min(size, 256)))
            let brands = stride(from: 8, to: end - 3, by: 4).map { String(decoding: head[$0..<$0 + 4], as: UTF8.self) }
            let audio: Set<String> = ["M4A ", "M4B ", "M4P ", "mp42", "mp41", "isom", "iso2", "iso4", "iso5", "iso6", "dash", "f4a "]
            return brands.contains(where: audio.contains) ? .m4a : nil
        }
        return MPEGFrames.kind(of: head)
    }

    /// The format of the file `read` gives bytes of (`read(offset, count)`: at most `count`
    /// bytes from `offset`, fewer at the end): its head, after ID3 tags (however many, up
    /// to 16 MiB in all).
    ///
    /// ```swift
    /// let handle = try FileHandle(forReadingFrom: url)
    /// let kind = try AudioKind.sniff { offset, count in
    ///     try handle.seek(toOffset: UInt64(offset)); return Array(try handle.read(upToCount: count) ?? Data())
    /// }
    /// ```
    public static func sniff(reading read: (_ offset: Int, _ count: Int) throws -> [UInt8]) rethrows -> AudioKind? {
        var offset = 0
        for _ in 0..<8 {
            let head = try read(offset, headBytes)
            guard head.count >= 10, head[0] == 0x49, head[1] == 0x44, head[2] == 0x33 else {
                return sniff(head)
            }
            // ID3v2: a 10-byte header, the size in four 7-bit bytes, a footer when flagged.
            guard head[3] < 0xFF, head[4] < 0xFF, head[6...9].allSatisfy({ $0 < 0x80 }) else { return nil }
            let size = head[6...9].reduce(0) { $0 << 7 | Int($1) } + 10 + (head[5] & 0x10 != 0 ? 10 : 0)
            offset += size
            guard offset <= maxTag else { return nil }
        }
        return nil
    }

    /// The format of the file at `path`; nil when it is none of these.
    public static func sniff(fileAt path: String) throws -> AudioKind? {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        return try sniff { offset, count in
            try handle.seek(toOffset: UInt64(offset))
            return Array(try handle.read(upToCount: count) ?? Data())
        }
    }
}

/// MPEG audio frames (MP3 and the rest of layers I–III) and AAC's ADTS frames: a head is
/// one of these when it starts with a valid frame header and, where the head reaches that
/// far, the next frame starts where the first one says it ends.
enum MPEGFrames {
    static func kind(of head: [UInt8]) -> AudioKind? {
        guard let first = frame(head, at: 0) else { return nil }
        guard first.length < head.count - 4 else { return head.count >= 4 ? first.kind : nil }
        guard let second = frame(head, at: first.length), second.kind == first.kind else { return nil }
        return first.kind
    }

    /// The frame header at `offset`: its format and length in bytes.
    static func frame(_ head: [UInt8], at offset: Int) -> (kind: AudioKind, length: Int)? {
        guard offset >= 0, head.count >= offset + 7, head[offset] == 0xFF, head[offset + 1] & 0xE0 == 0xE0 else { return nil }
        let b1 = Int(head[offset + 1]), b2 = Int(head[offset + 2])
        let version = (b1 >> 3) & 3, layer = (b1 >> 1) & 3
        if layer == 0 {
            // ADTS: MPEG-4 or MPEG-2 AAC; the frame length is 13 bits over bytes 3 to 5.
            guard b1 & 0xF6 == 0xF0, (b2 >> 2) & 0xF < 13 else { return nil }
            let length = (Int(head[offset + 3]) & 3) << 11 | Int(head[offset + 4]) << 3 | Int(head[offset + 5]) >> 5
            return length >= 7 ? (.aac, length) : nil
        }
        guard version != 1 else { return nil }
        let bitrateIndex = b2 >> 4, rateIndex = (b2 >> 2) & 3, padding = (b2 >> 1) & 1
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let bitrates: [Int]
        switch (mpeg1, layer) {
        case (true, 3): bitrates = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): bitrates = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): bitrates = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): bitrates = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let baseRate = [44_100, 48_000, 32_000][rateIndex]
        let rate = mpeg1 ? baseRate : (version == 2 ? baseRate / 2 : baseRate / 4)
        let bitrate = bitrates[bitrateIndex] * 1000
        let length: Int
        if layer == 3 {
            length = (12 * bitrate / rate + padding) * 4   // layer I: slots of 4 bytes
        } else {
            let samples = (layer == 1 && !mpeg1) ? 576 : 1152   // layer III in MPEG-2/2.5 has half the samples
            length = samples / 8 * bitrate / rate + padding
        }
        return length >= 4 ? (.mp3, length) : nil
    }
}
