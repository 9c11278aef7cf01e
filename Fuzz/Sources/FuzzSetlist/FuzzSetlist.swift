import FolioScore
import FuzzSupport

/// 4SS setlists (XML) and pasted setlist text.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    if let setlist = try? OpenSetlist(bytes: bytes) { _ = setlist.xml() }
    _ = SetlistText.parse(String(decoding: bytes, as: UTF8.self))
    return 0
}

@_cdecl("FuzzSetlist_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
