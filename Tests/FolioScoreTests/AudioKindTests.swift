import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// Audio told by content: recordings encoded by ffmpeg in every format a track may be in,
/// with ID3 tags before MP3 and AAC, are recognised, and what is not audio (a PDF named
/// .mp3, text, truncated or garbled heads, an endless chain of ID3 tags) is not. WAV samples
/// are read as ffprobe reads them; times parse as musicians write them.
final class AudioKindTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `ffmpeg` makes `name` from a 440 Hz tone of `seconds` with `arguments`.
    private func encode(_ name: String, seconds: Double = 1, _ arguments: [String] = []) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try TestEnvironment.recording(at: path, seconds: seconds, ["-metadata", "title=Vltava – Влтава – ヴルタヴァ"] + arguments)
        return path
    }

    /// What ffprobe calls the file's format and its first stream's codec.
    private func probe(_ path: String) throws -> (format: String, codec: String) {
        let run = try TestEnvironment.runTool("ffprobe", ["-v", "error", "-show_entries", "format=format_name:stream=codec_name",
                                                          "-of", "json", path])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let format = ((json["format"] as? [String: Any])?["format_name"] as? String) ?? ""
        let codec = (((json["streams"] as? [[String: Any]])?.first)?["codec_name"] as? String) ?? ""
        return (format, codec)
    }

    func testEveryFormatByContent() throws {
        // The kind Folio tells, for what ffprobe says each file is.
        let cases: [(String, [String], AudioKind)] = [
            ("a.mp3", [], .mp3), ("b.mp3", ["-id3v2_version", "3", "-b:a", "320k"], .mp3),
            ("c.mp3", ["-ar", "22050", "-b:a", "32k"], .mp3),            // MPEG-2 layer III
            ("d.mp2", ["-c:a", "mp2"], .mp3),                            // layer II
            ("e.aac", [], .aac), ("f.m4a", [], .m4a), ("g.wav", [], .wav), ("h.wav", ["-c:a", "pcm_f32le"], .wav),
            ("i.flac", [], .flac), ("j.ogg", [], .ogg), ("k.opus", [], .ogg), ("l.oga", ["-c:a", "flac"], .ogg),
        ]
        for (name, arguments, expected) in cases {
            let path = try encode(name, arguments)
            let probed = try probe(path)
            XCTAssertEqual(try AudioKind.sniff(fileAt: path), expected, "\(name): ffprobe says \(probed)")
            // Named as something else, it is still what it is.
            let renamed = folder.appendingPathComponent("renamed-\(name).bin").path
            try TestEnvironment.copy(atPath: path, toPath: renamed)
            XCTAssertEqual(try AudioKind.sniff(fileAt: renamed), expected, name)
        }
        XCTAssertEqual(AudioKind.m4a.mimeType, "audio/mp4")
        XCTAssertTrue(AudioKind.isCandidate("Smetana/Vltava – Влтава.FLAC"))
        XCTAssertFalse(AudioKind.isCandidate("Vltava.pdf"))
    }

    func testWhatIsNotAudio() throws {
        let pdf = folder.appendingPathComponent("Ukolébavka.mp3")
        try Data("%PDF-1.7\n1 0 obj << >> endobj\n".utf8).write(to: pdf)
        XCTAssertNil(try AudioKind.sniff(fileAt: pdf.path))
        XCTAssertNil(AudioKind.sniff(Array("Ноты, не звук".utf8)))
        XCTAssertNil(AudioKind.sniff([]))
        XCTAssertNil(AudioKind.sniff([0xFF]))
        // A frame header that is not followed by a frame where it says the next one starts.
        var garbled = try Array(Data(contentsOf: URL(fileURLWithPath: try encode("x.mp3", ["-write_xing", "0", "-id3v2_version", "0"]))))
        XCTAssertEqual(AudioKind.sniff(garbled), .mp3)
        garbled.replaceSubrange(4..<garbled.count, with: repeatElement(0x20, count: garbled.count - 4))
        XCTAssertNil(AudioKind.sniff(garbled))
        // RIFF that is not WAVE (an AVI), an ftyp of a brand that is no audio.
        XCTAssertNil(AudioKind.sniff(Array("RIFF\u{10}\0\0\0AVI LIST".utf8)))
        XCTAssertNil(AudioKind.sniff(Array("\0\0\0\u{14}ftypheic\0\0\0\0heicmif1".utf8)))
        // ID3 tags chained past 16 MiB, or a tag size that is not synchsafe: not audio, and no endless read.
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F]
        var reads = 0
        XCTAssertNil(AudioKind.sniff { _, _ in reads += 1; return tag + Array(repeating: 0, count: 100) })
        XCTAssertLessThanOrEqual(reads, 8)
        XCTAssertNil(AudioKind.sniff(Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0]))
    }

    func testWAVSamples() throws {
        for (name, arguments, bits, encoding) in [("s16.wav", ["-ar", "44100"], 16, 1), ("u8.wav", ["-c:a", "pcm_u8"], 8, 1),
                                                  ("s24.wav", ["-c:a", "pcm_s24le", "-ac", "2"], 24, 1),
                                                  ("f32.wav", ["-c:a", "pcm_f32le", "-ar", "48000"], 32, 3),
                                                  ("ext.wav", ["-c:a", "pcm_s24le", "-ac", "3"], 24, 1)] {
            let path = try encode(name, seconds: 0.25, arguments)
            let format = try WAVFormat.sample(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            let run = try TestEnvironment.runTool("ffprobe", ["-v", "error", "-show_entries",
                                                              "stream=sample_rate,channels,duration_ts", "-of", "json", path])
            let stream = try XCTUnwrap(((try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])?["streams"] as? [[String: Any]])?.first)
            XCTAssertEqual(format.sampleRate, Int(stream["sample_rate"] as? String ?? ""), name)
            XCTAssertEqual(format.channels, stream["channels"] as? Int, name)
            XCTAssertEqual(format.frames, stream["duration_ts"] as? Int, name)
            XCTAssertEqual(format.bitsPerSample, bits, name)
            XCTAssertEqual(format.encoding, encoding, name)
        }
        // Too long, ADPCM, empty, not WAV: refused with what is valid.
        let long = try Array(Data(contentsOf: URL(fileURLWithPath: try encode("long.wav", seconds: 6, ["-ar", "8000"]))))
        XCTAssertThrowsError(try WAVFormat.sample(long)) { XCTAssertTrue("\($0)".contains("valid: up to 5 s"), "\($0)") }
        let adpcm = try Array(Data(contentsOf: URL(fileURLWithPath: try encode("adpcm.wav", ["-c:a", "adpcm_ms"]))))
        XCTAssertThrowsError(try WAVFormat.sample(adpcm)) { XCTAssertTrue("\($0)".contains("valid: 1, PCM, or 3"), "\($0)") }
        // A header of ffmpeg's with its data cut off: no frames.
        var empty = try Array(Data(contentsOf: URL(fileURLWithPath: try encode("empty.wav", seconds: 0.01, ["-ar", "8000"]))))
        let data = try XCTUnwrap((0..<(empty.count - 4)).first { Array(empty[$0..<$0 + 4]) == Array("data".utf8) })
        empty = Array(empty[..<(data + 4)]) + [0, 0, 0, 0]
        XCTAssertThrowsError(try WAVFormat.sample(empty)) { XCTAssertTrue("\($0)".contains("holds no sound"), "\($0)") }
        XCTAssertThrowsError(try WAVFormat.sample(Array("RIFF\0\0\0\0WAVEdata\u{4}\0\0\0abcd".utf8))) {
            XCTAssertTrue("\($0)".contains("no fmt chunk"), "\($0)")
        }
        XCTAssertThrowsError(try WAVFormat.sample(Array(repeating: 0, count: WAVFormat.maxSampleBytes + 1)))
    }

    func testTimes() throws {
        XCTAssertEqual(try TrackTime.seconds(parsing: "62.5"), 62.5)
        XCTAssertEqual(try TrackTime.seconds(parsing: "1:02.5"), 62.5)
        XCTAssertEqual(try TrackTime.seconds(parsing: "1:01:02"), 3662)
        XCTAssertEqual(try TrackTime.seconds(parsing: "75:00"), 4500)
        for bad in ["", "1:60", "-3", "1:2:3:4", "a:10", "1:61:00", "nan", "inf"] {
            XCTAssertThrowsError(try TrackTime.seconds(parsing: bad), bad)
        }
        XCTAssertEqual(TrackTime.text(62.5), "1:02.5")
        XCTAssertEqual(TrackTime.text(95), "1:35")
    }
}
