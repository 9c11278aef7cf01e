import FolioScore
import Foundation
import FuzzSupport

/// A dropped file's kind by content, and the office package checks (ZIP central directory,
/// bounded inflation of every entry, entity scan) that run before LibreOffice sees a file.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    _ = IntakeKind.of(bytes: bytes)
    if let package = try? OfficePackage(bytes: bytes) { try? package.check() }
    return 0
}

@_cdecl("FuzzIntake_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
