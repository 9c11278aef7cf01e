import FolioPDF
import FolioScore
import FuzzSupport

/// Opens a PDF from the input and calls every read API: info, pages with inherited
/// attributes, outline and destinations, annotations (counted by subtype, then read) and links' targets, XMP and score metadata, bookmarks,
/// page labels, content bounds and text lines (with the composer a page heading names), the
/// structure check.
func fuzz(_ input: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = input else { return 0 }
    var options = PDFReadOptions()
    options.maxDecodedBytes = 32 << 20
    guard let document = try? PDFDocument(bytes: Array(UnsafeBufferPointer(start: data, count: count)), options: options) else {
        return 0
    }
    _ = document.info
    let count = document.pageCount
    let pages = document.pages()
    for page in pages.prefix(64) {
        _ = (page.mediaBox, page.cropBox, page.rotation, page.resources)
        _ = PDFPageGeometry(page: page).displaySize
    }
    _ = document.outline()
    _ = TableOfContents.bookmarks(from: document.outline(), pageCount: count)
    // Counts by subtype first, while no annotation is loaded: each is lexed to its keys.
    _ = document.annotationCounts()
    for index in 0..<min(pages.count, 64) {
        _ = try? document.annotations(onPage: index)
        // Links and where they lead (destinations, named ones, actions), point-and-click sources.
        _ = (try? ScoreLink.list(document, page: index + 1))?.map(\.sourcePath)
    }
    _ = ScoreMetadata.read(from: document)
    _ = XMPBookmarkProvider(document: document).bookmarks
    _ = document.pageLabels()
    for index in 0..<min(pages.count, 4) {
        _ = try? document.contentBounds(ofPage: index)
        _ = try? document.textLines(ofPage: index)
    }
    _ = ProducerConventions.people(of: document)
    _ = document.checkStructure()
    return 0
}

@_cdecl("FuzzPDF_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzz)
}
