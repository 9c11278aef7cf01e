import FolioScore
import Foundation
import FuzzSupport

/// forScore's Open In dictionary: JSON, XML or binary property list.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    _ = try? OpenInDictionary.edit(from: Data(bytes: data, count: count))
    return 0
}

@_cdecl("FuzzOpenIn_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
