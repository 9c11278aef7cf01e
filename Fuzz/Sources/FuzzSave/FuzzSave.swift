import FolioPDF
import FuzzSupport

/// A small edit saved incrementally, then the result reopened and read: the writer must
/// cope with whatever the reader accepted.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    var options = PDFReadOptions()
    options.maxDecodedBytes = 32 << 20
    guard let document = try? PDFDocument(bytes: Array(UnsafeBufferPointer(start: data, count: count)), options: options),
          (try? document.setInfo("Title", to: "Fuzz — é")) != nil,
          let saved = try? PDFSaver.incrementalBytes(document)
    else { return 0 }
    guard let reopened = try? PDFDocument(bytes: saved, options: options) else { return 0 }
    _ = reopened.info
    _ = reopened.pageCount
    return 0
}

@_cdecl("FuzzSave_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
