import FolioPDF
import FolioScore
import FuzzSupport

/// Text and ChordPro files to PDF (and a link's place, PAGE:x,y,w,h): encoding detection, chord charts, ChordPro parsing, layout
/// (right-to-left lines in visual order, Arabic joining, line breaks between CJK characters).
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard let (text, _) = try? TextDecoding.decode(bytes) else { return 0 }
    let song = ChordProSong(parsing: text)
    _ = song.edit(fallbackTitle: "fuzz")
    _ = ChordSymbol.looksLikeChordChart(text.split(separator: "\n").prefix(500).map(String.init))
    for line in text.split(separator: "\n").prefix(200) {
        let line = String(line.prefix(2000))
        let shaped = ArabicShaping.shape(line) { _ in true }
        _ = BidiText.visualOrder(shaped, direction: BidiText.direction(of: line) ?? .rightToLeft)
        _ = PDFTypeface.standard(.helvetica).wrap(line, size: 12, maxWidth: 60)
    }
    // A place as `folio links add --from` takes it.
    _ = try? ScoreLink.place(String(text.prefix(200)))
    _ = try? TextScore.pdf([(bytes.first.map { $0 & 1 == 0 } ?? true ? "f.txt" : "f.cho", bytes)])
    return 0
}

@_cdecl("FuzzText_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
