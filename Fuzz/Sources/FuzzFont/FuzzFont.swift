import FolioPDF
import FuzzSupport

/// TrueType fonts read for embedding, cut down to their first glyphs (composites followed),
/// then a page set in the font written (which embeds a subset of the glyphs it shows).
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    guard let font = try? TrueTypeFont(bytes: Array(UnsafeBufferPointer(start: data, count: count))) else { return 0 }
    _ = try? TrueTypeSubset(font, glyphs: Set(0..<64)).cidToGID
    let face = PDFTypeface.trueType(font)
    let text = "Allegro é ř Ψ"
    _ = face.width(of: text, size: 12)
    _ = face.wrap(text + " " + text, size: 12, maxWidth: 40)
    let shown = String(text.unicodeScalars.filter { font.glyph(for: $0) != nil })
    var pdf = PDFNewDocument()
    guard (try? pdf.addTextPage(width: 200, height: 200, runs: [PDFTextRun(text: shown, face: face, size: 12, x: 10, y: 100)])) != nil
    else { return 0 }
    _ = try? pdf.bytes()
    return 0
}

@_cdecl("FuzzFont_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
