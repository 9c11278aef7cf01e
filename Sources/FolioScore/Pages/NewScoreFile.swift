import FolioPDF
import Foundation

/// A file Folio has just built — merged, split, extracted or made from images — finished as a
/// score: its metadata written into Info and XMP and its bookmarks stored, as one update on
/// top of the new file.
enum NewScoreFile {
    static func finish(_ bytes: [UInt8], edit: ScoreEdit?, bookmarks: [Bookmark] = [], date: Date) throws
        -> (bytes: [UInt8], warnings: [String])
    {
        let document = try PDFDocument(bytes: bytes)
        var warnings: [String] = []
        if let edit {
            warnings += try ScoreWriter.write(edit, to: document, options: ScoreWriter.Options(allowComma: true, date: date))
        }
        if !bookmarks.isEmpty {
            var provider = XMPBookmarkProvider(document: document)
            for bookmark in bookmarks { _ = provider.add(bookmark) }
            warnings += try provider.write(to: document, date: date)
        }
        return (try PDFSaver.incrementalBytes(document), warnings)
    }

    /// An edit that sets the title alone; nil for no title.
    static func titled(_ title: String?) -> ScoreEdit? {
        title.map(ScoreEdit.init(title:))
    }
}
