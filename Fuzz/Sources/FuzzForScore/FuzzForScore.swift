import FolioScore
import Foundation
import FuzzSupport

/// 4SB/4SC files: archive records read from a file, their payloads and metadata; the
/// 4SC container and forScore's library property list read from bytes.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    _ = try? ForScoreContainer(bytes: bytes, limit: 16 << 20)
    _ = try? ForScoreLibraryData(plist: bytes, source: "fuzz")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fuzz-\(getpid()).4sb").path
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return 0 }
    defer { try? FileManager.default.removeItem(atPath: path) }
    if let archive = try? ForScoreArchive(path: path) {
        for record in archive.records.prefix(16) { _ = try? archive.payload(of: record, limit: 16 << 20) }
        _ = try? archive.metadata()
    }
    return 0
}

@_cdecl("FuzzForScore_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
