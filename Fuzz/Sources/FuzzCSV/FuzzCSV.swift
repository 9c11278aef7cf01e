import FolioScore
import FuzzSupport

/// The CSV index reader (bookmarks from a table of contents) and forScore's library CSV.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    _ = try? CSVIndex.read(text, pageCount: 120)
    _ = try? CSVIndex.read(text, options: CSVIndex.Options(headerRows: 1, pageOffset: 2, strict: true), pageCount: 40)
    _ = try? LibraryCSV.read(text)
    return 0
}

@_cdecl("FuzzCSV_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
