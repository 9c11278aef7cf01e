import FolioScore
import Foundation
import FuzzSupport

/// Audio told by content (ID3 tags skipped, MPEG and ADTS frame headers, MPEG-4 brands) and a
/// WAV's chunks as a metronome sample is checked; the input is the file, read at any offset.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    _ = AudioKind.sniff { offset, length in
        guard offset >= 0, offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + length)])
    }
    _ = try? WAVFormat.sample(bytes)
    return 0
}

@_cdecl("FuzzAudio_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
