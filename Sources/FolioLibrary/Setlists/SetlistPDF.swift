import FolioPDF
import FolioScore
import Foundation

extension LibraryCatalog {
    /// What a setlist's merged PDF holds and what it left out.
    ///
    /// ```swift
    /// let made = try catalog.setlistPDF(named: "Koncert – Praha")
    /// try ExportFile.create(made.bytes, at: "Koncert.pdf")
    /// print("\(made.pieces) pieces, \(made.pages) pages; skipped: \(made.skipped)")
    /// ```
    public struct SetlistPDF: Sendable {
        public var bytes: [UInt8]
        public var pieces: Int
        public var pages: Int
        /// Placeholders (no file) and entries whose file could not be read, with why.
        public var skipped: [String]
    }

    /// The setlist's scores and bookmark page ranges, in order, as one PDF titled with the
    /// setlist's name, with an outline entry and a page-range bookmark per piece (see
    /// `ScoreMerge`). Each file is opened once however often it appears, through
    /// ``files`` (a file swapped for a link that leads out of the library is skipped) and
    /// with `options`' limits.
    public func setlistPDF(named name: String, options: PDFReadOptions = PDFReadOptions()) throws -> SetlistPDF {
        let setlist = try setlist(named: name)
        var documents: [String: PDFDocument] = [:]
        var parts: [ScoreMerge.Piece] = []
        var skipped: [String] = []
        for (index, entry) in setlist.entries.enumerated() {
            guard let path = entry.path else {
                skipped.append("\(index + 1). \(entry.title): a placeholder, no file")
                continue
            }
            let document: PDFDocument
            if let open = documents[path] {
                document = open
            } else {
                guard let absolute = files.resolve(path) else {
                    skipped.append("\(index + 1). \(entry.title): \(path) is not a file inside the library")
                    continue
                }
                do {
                    document = try PDFDocument(path: absolute, options: options)
                } catch {
                    skipped.append("\(index + 1). \(entry.title): \(path) cannot be read (\(error))")
                    continue
                }
                documents[path] = document
            }
            let count = document.pageCount
            guard count > 0 else {
                skipped.append("\(index + 1). \(entry.title): \(path) has no pages")
                continue
            }
            var pages = 0...(count - 1)
            if entry.kind == .bookmark, let start = entry.start {
                let end = entry.end ?? start
                guard start >= 1, end >= start, end <= count else {
                    skipped.append("\(index + 1). \(entry.title): pages \(start)–\(end) are outside \(path) (1 to \(count))")
                    continue
                }
                pages = (start - 1)...(end - 1)
            }
            parts.append(ScoreMerge.Piece(document: document, name: path, pages: pages, title: entry.title))
        }
        guard !parts.isEmpty else {
            throw LibraryError(.invalidArgument, "setlist \(name) has no pages to merge" + (skipped.isEmpty ? "" : ": " + skipped.joined(separator: "; ")))
        }
        let merged = try ScoreMerge.merge(parts, title: name)
        return SetlistPDF(bytes: merged.bytes, pieces: parts.count, pages: merged.pieces.last?.end ?? 0, skipped: skipped)
    }
}
