import FolioPDF
import Foundation

/// Scores merged into one PDF for printing or sharing: the pages in order, an outline
/// entry per piece (titled with the piece's title, the piece's own outline nested under
/// it) and a page-range bookmark per piece carrying its metadata, so forScore, Preview and
/// Nutrient show each piece; the pieces' own bookmarks come along, moved to their pages.
///
/// ```swift
/// let merged = try ScoreMerge.merge([
///     ScoreMerge.Piece(document: try PDFDocument(path: "Allemande.pdf"), name: "Allemande.pdf"),
///     ScoreMerge.Piece(document: try PDFDocument(path: "Book.pdf"), name: "Book.pdf", pages: 4...7, title: "Gigue"),
/// ], title: "Friday")
/// try SafeFile.create(at: "Friday.pdf", bytes: merged.bytes)
/// ```
public enum ScoreMerge {
    /// Pages of one document and how the merged file names them.
    ///
    /// ```swift
    /// let gigue = ScoreMerge.Piece(document: try ScoreFile("Bach – Suity.pdf").open(), name: "Bach – Suity.pdf",
    ///                              pages: 8...9, title: "Gigue")   // 0-based: the ninth and tenth pages
    /// ```
    public struct Piece {
        public var document: PDFDocument
        /// The file name, the title of last resort.
        public var name: String
        /// 0-based pages; nil for all.
        public var pages: ClosedRange<Int>?
        /// The title; nil for the document's own title, else the file name without extension.
        public var title: String?

        public init(document: PDFDocument, name: String, pages: ClosedRange<Int>? = nil, title: String? = nil) {
            self.document = document
            self.name = name
            self.pages = pages
            self.title = title
        }
    }

    /// The merged file and what it holds.
    ///
    /// ```swift
    /// let merged = try ScoreMerge.merge([ScoreMerge.Piece(document: allemande, name: "Allemande.pdf")], title: "Suita")
    /// merged.pieces.map(\.title)   // ["Allemande"]
    /// ```
    public struct Result {
        public var bytes: [UInt8]
        /// Each piece's title and 1-based pages in the merged file.
        public var pieces: [PageRangeBookmark]
        public var warnings: [String]
    }

    public static func merge(_ pieces: [Piece], title: String? = nil, date: Date = Date()) throws -> Result {
        var parts: [PDFMergePart] = []
        var outline: [PDFOutlineItem] = []
        var bookmarks: [Bookmark] = []
        var placed: [PageRangeBookmark] = []
        var warnings: [String] = []
        var offset = 0
        for piece in pieces {
            let count = piece.document.pageCount
            guard count > 0 else { throw ScoreError(.invalidValue, "\(piece.name) has no pages") }
            let pages = piece.pages ?? 0...(count - 1)
            guard pages.lowerBound >= 0, pages.upperBound < count else {
                throw ScoreError(.outOfRange, "\(piece.name): pages \(pages.lowerBound + 1)–\(pages.upperBound + 1) "
                    + "are out of range (valid: 1 to \(count))")
            }
            let (metadata, readWarnings) = ScoreMetadata.read(from: piece.document)
            warnings += readWarnings.map { "\(piece.name): \($0)" }
            let pieceTitle = piece.title ?? metadata.title ?? ScoreMetadata.title(forFile: piece.name)
            let shift = offset - pages.lowerBound
            parts.append(PDFMergePart(document: piece.document, pages: pages, title: pieceTitle))
            outline.append(PDFOutlineItem(title: pieceTitle, target: .page(index: offset),
                                          children: PDFOutlineItem.slice(piece.document.outline(), pages: pages, shift: shift)))
            var own = metadata
            own.title = nil
            let range = (offset + 1)...(offset + pages.count)
            bookmarks.append(Bookmark(name: pieceTitle, action: .page(index: offset), pages: range, metadata: own))
            placed.append(PageRangeBookmark(title: pieceTitle, start: range.lowerBound, end: range.upperBound))
            for bookmark in XMPBookmarkProvider(document: piece.document).bookmarks {
                guard let span = bookmark.pages, pages.contains(span.lowerBound - 1) else { continue }
                let start = span.lowerBound + shift, end = min(span.upperBound - 1, pages.upperBound) + shift + 1
                bookmarks.append(Bookmark(name: bookmark.name, action: .page(index: start - 1), pages: start...end,
                                          metadata: bookmark.metadata))
            }
            offset += pages.count
        }
        guard !parts.isEmpty else { throw ScoreError(.invalidValue, "nothing to merge: no files were given") }
        let merged = try NewScoreFile.finish(try PDFMerger.merge(parts, outline: outline), edit: NewScoreFile.titled(title),
                                             bookmarks: bookmarks, date: date)
        return Result(bytes: merged.bytes, pieces: placed, warnings: warnings + merged.warnings)
    }
}
