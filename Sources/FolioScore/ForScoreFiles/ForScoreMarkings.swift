import FolioPDF
import Foundation

/// Writes what forScore knew about a file into the PDF itself, so every viewer sees it:
/// metadata (Info and XMP, as ``ScoreWriter`` stores it), bookmarks (XMP, as Preview and
/// Nutrient read them), text boxes as FreeText annotations, and each page's drawing layer
/// as a Stamp annotation whose appearance is that PNG, over the page as forScore showed it.
///
/// ```swift
/// let notes = try ForScoreMarkings.apply(file, to: document)   // then save the document
/// ```
public enum ForScoreMarkings {
    /// What was written, for a report.
    ///
    /// ```swift
    /// let applied = try ForScoreMarkings.apply(file, to: document)
    /// print("\(applied.bookmarks) bookmarks, \(applied.textBoxes) text boxes")
    /// ```
    public struct Applied: Sendable, Equatable {
        public var fields: Int = 0
        public var bookmarks: Int = 0
        public var textBoxes: Int = 0
        public var drawingLayers: Int = 0
        /// Markings that could not be written, each with why.
        public var skipped: [String] = []
    }

    public static func apply(_ file: ForScoreLibraryData.File, to document: PDFDocument, date: Date = Date()) throws -> Applied {
        var applied = Applied()
        if file.hasMetadata {
            var metadata = file.metadata
            // Out-of-range values are reported, not written.
            if let rating = metadata.rating, !(0...5).contains(rating) {
                applied.skipped.append("rating \(rating) (valid: 0 to 5)")
                metadata.rating = nil
            }
            if let difficulty = metadata.difficulty, !(0...3).contains(difficulty) {
                applied.skipped.append("difficulty \(difficulty) (valid: 0 to 3)")
                metadata.difficulty = nil
            }
            let edit = ScoreEdit(setting: metadata)
            applied.fields = edit.setFields.count
            try ScoreWriter.write(edit, to: document, options: ScoreWriter.Options(allowComma: true, date: date))
        }
        let pageCount = document.pageCount
        if !file.bookmarks.isEmpty {
            var provider = XMPBookmarkProvider(document: document)
            for bookmark in file.bookmarks {
                guard bookmark.first <= pageCount else {
                    applied.skipped.append("bookmark \(bookmark.title): page \(bookmark.first) is past the last page (\(pageCount))")
                    continue
                }
                let last = min(bookmark.last, pageCount)
                if provider.add(Bookmark(name: bookmark.title, action: .page(index: bookmark.first - 1),
                                         pages: bookmark.first...last, metadata: bookmark.metadata)) {
                    applied.bookmarks += 1
                }
            }
            _ = try provider.write(to: document, date: date)
        }
        for (page, boxes) in file.textBoxes.sorted(by: { $0.key < $1.key }) {
            guard page <= pageCount else {
                applied.skipped.append("\(boxes.count) text box(es) on page \(page), past the last page (\(pageCount))")
                continue
            }
            let geometry = PDFPageGeometry(page: try document.page(at: page - 1))
            let size = geometry.displaySize
            for box in boxes {
                var draft = PDFAnnotationDraft(kind: .freeText)
                let x = min(max(box.x, 0), 1), y = min(max(box.y, 0), 1)
                draft.rect = geometry.toUser(x: x * size.width, y: y * size.height,
                                             width: min(box.width, 1 - x) * size.width, height: min(box.height, 1 - y) * size.height)
                draft.contents = box.text
                draft.fontSize = min(max(box.fontSize, 1), 400)
                draft.color = box.color.map { PDFColor(red: $0[0], green: $0[1], blue: $0[2]) }
                draft.author = "forScore"
                do {
                    try document.addAnnotation(draft, toPage: page - 1, date: date)
                    applied.textBoxes += 1
                } catch {
                    applied.skipped.append("text box \"\(box.text.prefix(40))\" on page \(page): \(error)")
                }
            }
        }
        for (page, png) in file.drawingLayers.sorted(by: { $0.key < $1.key }) {
            guard page <= pageCount else {
                applied.skipped.append("drawing layer of page \(page), past the last page (\(pageCount))")
                continue
            }
            do {
                try addLayer(png, page: page - 1, to: document, date: date)
                applied.drawingLayers += 1
            } catch {
                applied.skipped.append("drawing layer of page \(page): \(error)")
            }
        }
        return applied
    }

    /// The PNG stretched over the whole page as shown.
    static func addLayer(_ png: [UInt8], page: Int, to document: PDFDocument, date: Date) throws {
        let image = try PNGImage(bytes: png)
        let geometry = PDFPageGeometry(page: try document.page(at: page))
        let size = geometry.displaySize
        guard image.alpha != nil || image.width > 0 else { return }
        let reference = try document.addImage(image)
        var art = PDFDrawing()
        art.image(reference, in: PDFRect(x1: 0, y1: 0, x2: size.width, y2: size.height))
        var draft = PDFAnnotationDraft(kind: .stamp)
        draft.rect = geometry.toUser(x: 0, y: 0, width: size.width, height: size.height)
        draft.stampArt = PDFStampArt(name: "forScoreDrawing", width: size.width, height: size.height, drawing: art)
        draft.author = "forScore"
        draft.contents = "forScore drawing layer"
        try document.addAnnotation(draft, toPage: page, date: date)
    }
}
