import FolioPDF
import FolioScore
import Foundation
import FuzzSupport

/// 4SB/4SC files: archive records read from a file, their payloads and metadata; the
/// 4SC container and forScore's library property list read from bytes.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    _ = try? ForScoreContainer(bytes: bytes, limit: 16 << 20)
    // What a library's metadata says is also applied to a small PDF of two page sizes:
    // page turns, crops, layers, drawings registered on the canvas.
    if let library = try? ForScoreLibraryData(plist: bytes, source: "fuzz"), let name = library.fileNames.first,
       let file = library.files[name], let document = blankDocument() {
        _ = try? ForScoreMarkings.apply(file, to: document, date: Date(timeIntervalSince1970: 0))
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("folio-fuzz-\(getpid()).4sb").path
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return 0 }
    defer { try? FileManager.default.removeItem(atPath: path) }
    if let archive = try? ForScoreArchive(path: path) {
        let extracted = path + ".record"
        defer { try? FileManager.default.removeItem(atPath: extracted) }
        for record in archive.records.prefix(16) {
            _ = record.drawingLayer
            _ = try? archive.payload(of: record, limit: 16 << 20)
            _ = try? archive.extract(record, to: extracted, limit: 16 << 20)
            try? FileManager.default.removeItem(atPath: extracted)
        }
        // The metadata under the server's bound, then applied as an import applies it.
        if let library = try? archive.metadata(limit: 16 << 20), let name = library.fileNames.first, let file = library.files[name],
           let document = blankDocument() {
            _ = try? ForScoreMarkings.apply(file, to: document, date: Date(timeIntervalSince1970: 0))
        }
    }
    return 0
}

/// A two-page PDF (Letter and a landscape page), opened for editing.
private func blankDocument() -> PDFDocument? {
    var pdf = PDFNewDocument()
    guard (try? pdf.addPage(width: 612, height: 792, content: [], resources: [:])) != nil,
          (try? pdf.addPage(width: 842, height: 595, content: [], resources: [:])) != nil,
          let bytes = try? pdf.bytes() else { return nil }
    return try? PDFDocument(bytes: bytes)
}

@_cdecl("FuzzForScore_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
