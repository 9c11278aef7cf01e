import FolioPDF
import Foundation

/// Writes what forScore knew about a file into the PDF itself, so every viewer sees it:
/// metadata (Info and XMP, as ``ScoreWriter`` stores it), bookmarks (XMP, as Preview and
/// Nutrient read them; iCloud's duplicates dropped), page turns (`/Rotate`), crops
/// (`/CropBox`), half-page-turn splits (Folio's XMP), text boxes as FreeText annotations, and
/// each drawing as a Stamp annotation showing the part of forScore's canvas
/// (``ForScoreCanvas``) that the page covers, registered, never stretched. Named layers
/// become optional content groups that viewers list and toggle.
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
        /// Bookmarks dropped as copies of another (same title, pages and fields): iCloud sync
        /// makes them by the thousand.
        public var duplicateBookmarks: Int = 0
        public var textBoxes: Int = 0
        public var drawingLayers: Int = 0
        /// Named layers made (optional content groups).
        public var layers: Int = 0
        public var rotatedPages: Int = 0
        /// Audio tracks kept (``AudioTrackLink``).
        public var tracks: Int = 0
        public var croppedPages: Int = 0
        /// Markings that could not be written, each with why.
        public var skipped: [String] = []
        /// Markings written where forScore's placement could not be derived with confidence,
        /// each with why.
        public var approximated: [String] = []
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
            var seen = Set<String>()
            for bookmark in file.bookmarks {
                guard bookmark.first <= pageCount else {
                    applied.skipped.append("bookmark \(bookmark.title): page \(bookmark.first) is past the last page (\(pageCount))")
                    continue
                }
                let made = Bookmark(name: bookmark.title, action: .page(index: bookmark.first - 1),
                                    pages: bookmark.first...min(bookmark.last, pageCount), metadata: bookmark.metadata)
                guard seen.insert(made.contentKey).inserted else {
                    applied.duplicateBookmarks += 1
                    continue
                }
                if provider.add(made) {
                    applied.bookmarks += 1
                }
            }
            _ = try provider.write(to: document, date: date)
        }
        if !file.tracks.isEmpty {
            var kept = AudioTrackLink.links(of: document)
            for track in file.tracks {
                if let refusal = track.refusal { applied.skipped.append(refusal); continue }
                applied.tracks += 1
                if !kept.contains(track) { kept.append(track) }
            }
            try AudioTrackLink.write(Array(kept.prefix(AudioTrackLink.maxTracks)), to: document)
        }
        let approximate = try applyPages(file, to: document, applied: &applied)
        var layers = Layers(file: file, document: document)
        for (page, boxes) in file.textBoxes.sorted(by: { $0.key < $1.key }) {
            guard page <= pageCount else {
                applied.skipped.append("\(boxes.count) text box(es) on page \(page), past the last page (\(pageCount))")
                continue
            }
            let geometry = PDFPageGeometry(page: try document.page(at: page - 1))
            let size = geometry.displaySize
            for box in boxes {
                var draft = PDFAnnotationDraft(kind: .freeText)
                var (x, y, width, height) = (box.x, box.y, box.width, box.height)
                if box.inCanvasPoints {
                    // Canvas points → the page as shown.
                    let region = ForScoreCanvas.region(ofPageWidth: size.width, height: size.height,
                                                       canvasWidth: ForScoreCanvas.points.width, canvasHeight: ForScoreCanvas.points.height)
                    let scale = region.width / size.width
                    (x, y, width, height) = ((x - region.x) / scale / size.width, (y - region.y) / scale / size.height,
                                             width / scale / size.width, height / scale / size.height)
                }
                x = min(max(x, 0), 1)
                y = min(max(y, 0), 1)
                draft.rect = geometry.toUser(x: x * size.width, y: y * size.height,
                                             width: max(min(width, 1 - x), 0.001) * size.width, height: max(min(height, 1 - y), 0.001) * size.height)
                draft.contents = box.text
                draft.fontSize = min(max(box.fontSize, 1), 400)
                draft.color = box.color.map { PDFColor(red: $0[0], green: $0[1], blue: $0[2]) }
                draft.author = "forScore"
                draft.isHidden = box.isHidden
                do {
                    draft.optionalContent = try box.layer.map { try layers.group($0, applied: &applied) }
                    try document.addAnnotation(draft, toPage: page - 1, date: date)
                    applied.textBoxes += 1
                    if approximate.contains(page) { applied.approximated.append("text box \"\(box.text.prefix(40))\" on page \(page): placed on the uncropped page") }
                } catch {
                    applied.skipped.append("text box \"\(box.text.prefix(40))\" on page \(page): \(error)")
                }
            }
        }
        for drawing in file.drawings.sorted(by: { ($0.page, $0.layer ?? "") < ($1.page, $1.layer ?? "") }) {
            let what = "drawing of page \(drawing.page)" + (drawing.layer.map { " (layer \(layers.name(of: $0)))" } ?? "")
            guard drawing.page <= pageCount else {
                applied.skipped.append("\(what): past the last page (\(pageCount))")
                continue
            }
            do {
                let layer = try drawing.layer.map { try layers.group($0, applied: &applied) }
                if try addDrawing(drawing.png, page: drawing.page - 1, layer: layer, to: document, date: date) {
                    applied.drawingLayers += 1
                    if approximate.contains(drawing.page) {
                        applied.approximated.append("\(what): the page's crop (zoom and offset) is not derived; placed over the uncropped page")
                    }
                } else {
                    applied.skipped.append("\(what): nothing is drawn over the page")
                }
            } catch let error as ScoreError {
                applied.skipped.append("\(what): \(error.message)")
            } catch let error as PDFError {
                applied.skipped.append("\(what): \(error.message)")
            }
        }
        return applied
    }

    /// Turns, crops and half-turn splits; returns the pages whose crop could not be derived.
    private static func applyPages(_ file: ForScoreLibraryData.File, to document: PDFDocument, applied: inout Applied) throws -> Set<Int> {
        let pageCount = document.pageCount
        var approximate = Set<Int>()
        var halves = HalfTurns.splits(of: document)
        for (number, page) in file.pages.sorted(by: { $0.key < $1.key }) {
            guard number <= pageCount else {
                applied.skipped.append("page \(number)'s settings: past the last page (\(pageCount))")
                continue
            }
            if let rotation = page.rotation, rotation != 0 {
                try document.rotatePages([number - 1], by: rotation)
                applied.rotatedPages += 1
            }
            switch page.crop {
            case .rect(let x, let y, let width, let height, let normalized)?:
                let geometry = PDFPageGeometry(page: try document.page(at: number - 1))
                let size = geometry.displaySize
                let scale = normalized ? (size.width, size.height) : (1, 1)
                let left = min(max(x * scale.0, 0), size.width), top = min(max(y * scale.1, 0), size.height)
                let right = min(left + width * scale.0, size.width), bottom = min(top + height * scale.1, size.height)
                guard right - left >= 1, bottom - top >= 1 else {
                    applied.skipped.append("page \(number)'s crop: it leaves nothing of the page")
                    break
                }
                try document.setCropBoxes([(number - 1, geometry.toUser(x: left, y: top, width: right - left, height: bottom - top))])
                applied.croppedPages += 1
            case .zoom(let factor, let offset)?:
                approximate.insert(number)
                applied.approximated.append("page \(number): cropped in forScore by zoom \(factor) and offset \(offset.map { String($0) }.joined(separator: ", ")), "
                    + "which the public decodings do not pin down; the page is kept whole")
            case nil:
                break
            }
            if page.croppedLandscape { applied.skipped.append("page \(number): forScore's landscape crop is not applied") }
            if let half = page.half { halves[number] = half }
        }
        if file.pages.values.contains(where: { $0.half != nil }) { try HalfTurns.write(halves, to: document) }
        return approximate
    }

    /// The optional content groups of a file's named layers, made on first use.
    private struct Layers {
        let file: ForScoreLibraryData.File
        let document: PDFDocument
        var made: [String: PDFReference] = [:]

        init(file: ForScoreLibraryData.File, document: PDFDocument) {
            self.file = file
            self.document = document
        }

        func name(of id: String) -> String {
            file.layers.first { $0.id == id }?.name ?? "Layer \(id)"
        }

        mutating func group(_ id: String, applied: inout Applied) throws -> PDFReference {
            if let group = made[id] { return group }
            let visible = file.layers.first { $0.id == id }?.isVisible ?? true
            let existing = document.optionalContentGroups.count
            let group = try document.optionalContentGroup(named: name(of: id), visible: visible)
            if document.optionalContentGroups.count > existing { applied.layers += 1 }
            made[id] = group
            return group
        }
    }

    /// Places the part of the canvas picture `png` that page `page` (0-based) covers over
    /// that page as shown; false when that part is fully transparent. Throws for a picture
    /// that is not forScore's canvas.
    static func addDrawing(_ png: [UInt8], page: Int, layer: PDFReference?, to document: PDFDocument, date: Date) throws -> Bool {
        let image: PNGImage
        do { image = try PNGImage(bytes: png, maxPixels: ForScoreCanvas.maxPixels) } catch let error as PDFError {
            throw ScoreError(error.code == .limitExceeded ? .limitExceeded : .malformed,
                             "not a PNG forScore draws: \(error.message)")
        }
        guard ForScoreCanvas.hasCanvasShape(width: image.width, height: image.height) else {
            throw ScoreError(.malformed, "a picture of \(image.width) × \(image.height) pixels is not forScore's canvas "
                + "(valid: \(ForScoreCanvas.width) × \(ForScoreCanvas.height) or the same shape)")
        }
        let geometry = PDFPageGeometry(page: try document.page(at: page))
        let size = geometry.displaySize
        let region = ForScoreCanvas.region(ofPageWidth: size.width, height: size.height,
                                           canvasWidth: Double(image.width), canvasHeight: Double(image.height))
        // A page's size comes from its file: a region that is no part of the canvas (an empty or
        // absurd media box) draws nothing rather than reaching the conversions below.
        let canvas = 0...Double(max(image.width, image.height))
        guard [region.x, region.y, region.x + region.width, region.y + region.height].allSatisfy({ $0.isFinite && canvas.contains($0) })
        else { return false }
        let left = Int(region.x.rounded(.down)), top = Int(region.y.rounded(.down))
        let right = min(image.width, Int((region.x + region.width).rounded(.up)))
        let bottom = min(image.height, Int((region.y + region.height).rounded(.up)))
        guard let part = image.cropped(x: left, y: top, width: right - left, height: bottom - top),
              part.alpha.map({ $0.contains { $0 != 0 } }) ?? true else { return false }
        // Canvas pixels → points on the page as shown.
        let scale = region.width / size.width
        let shown = (x: (Double(left) - region.x) / scale, y: (Double(top) - region.y) / scale,
                     width: Double(part.width) / scale, height: Double(part.height) / scale)
        let reference = try document.addImage(part)
        var art = PDFDrawing()
        if let layer { art.beginLayer(layer) }
        art.image(reference, in: PDFRect(x1: 0, y1: 0, x2: shown.width, y2: shown.height))
        if layer != nil { art.endLayer() }
        var draft = PDFAnnotationDraft(kind: .stamp)
        draft.rect = geometry.toUser(x: shown.x, y: shown.y, width: shown.width, height: shown.height)
        draft.stampArt = PDFStampArt(name: "forScoreDrawing", width: shown.width, height: shown.height, drawing: art)
        draft.author = "forScore"
        draft.contents = "forScore drawing layer"
        draft.optionalContent = layer
        try document.addAnnotation(draft, toPage: page, date: date)
        return true
    }
}
