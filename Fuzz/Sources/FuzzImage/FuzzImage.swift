import FolioPDF
import FuzzSupport

/// JPEG and PNG images as `folio make` reads them (headers, EXIF, PNG decoding) and the PNG decoder.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    _ = try? PDFImage(bytes: bytes, maxPixels: 4_000_000)
    _ = try? PNGImage(bytes: bytes, maxPixels: 4_000_000)
    return 0
}

@_cdecl("FuzzImage_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
