import FolioPDF

/// An annotation as a musician asks for it — which page, where on the page as displayed
/// (points from its top-left corner, y down; or PDF user space), what it says, how it
/// looks — and the one way both `folio annot add` and the server add a mark: every value is
/// checked here (``ScoreError`` naming the valid range), and the defaults are set here: a
/// red 2-point pen for rectangles, circles, lines and strokes, a yellow highlighter, 12-point
/// left-aligned text, fully opaque.
///
/// ```swift
/// var request = AnnotationRequest(kind: .freeText, page: 2)
/// request.rects = [[40, 60, 160, 30]]
/// request.text = "Dvořák: ritardando"
/// let id = try request.add(to: document)   // saved by the caller, e.g. inside PDFSaver.update
/// ```
public struct AnnotationRequest: Sendable, Equatable {
    /// Arrow heads of a line.
    ///
    /// ```swift
    /// var request = AnnotationRequest(kind: .line, page: 1)
    /// request.arrow = .end
    /// ```
    public enum Arrow: String, Sendable, CaseIterable {
        case none, start, end, both
    }

    public var kind: PDFAnnotationKind
    /// 1-based.
    public var page: Int
    /// Rectangles `[x, y, width, height]`; several only for text markups (one per line).
    public var rects: [[Double]] = []
    /// Points `x1, y1, x2, y2, …`: a line's two ends, a note's corner.
    public var points: [Double] = []
    /// Ink strokes, each `x1, y1, x2, y2, …`.
    public var strokes: [[Double]] = []
    /// The coordinates are PDF user space (origin bottom-left, y up), not the page as displayed.
    public var userSpace = false
    /// A freetext's or note's text; a comment on anything else (at most 10,000 characters).
    public var text: String?
    /// The musical mark of a stamp; without one, a stamp shows ``text`` (``TextStamp``).
    public var symbol: MusicalSymbol?
    /// A stamp's picture (PNG or JPEG bytes, see ``ImageStamp``); its ``text`` is then a comment.
    public var image: [UInt8]?
    /// A note's icon (Comment, Note, Key, Help, Insert, Paragraph, NewParagraph).
    public var icon: String?
    /// `#RRGGBB`: stroke, highlight or icon colour; a freetext's text colour.
    public var color: String?
    /// `#RRGGBB`: the fill of squares, circles and line heads; a freetext's background.
    public var fill: String?
    /// 0 to 1.
    public var opacity: Double?
    /// Line or border width in points, 0 to 100.
    public var width: Double?
    /// A freetext's font size in points, 1 to 400.
    public var size: Double?
    /// A freetext's alignment; when nil, right for text whose first letter is Hebrew or
    /// Arabic, else left.
    public var alignment: PDFTextAlignment?
    public var arrow: Arrow = .none
    /// The author (/T).
    public var author: String?
    /// A freetext's font, the installed fonts drawing what it lacks; nil: Helvetica for
    /// Latin-1 text, the installed fonts for any other script.
    public var font: TextFont?
    /// The annotation's name (/NM); a new UUID when nil.
    public var name: String?
    /// The layer (optional content group, `/OC`) the mark goes into, made when the document
    /// has none of that name: every standard viewer lets the reader show or hide it.
    public var layer: String?
    /// What makes ``layer`` someone's own: the group whose dictionary holds these entries is
    /// the layer (found by them, whatever it is called now; made with ``layer`` as its name,
    /// numbered when another group has that name). Empty: the layer is found by its name.
    public var layerEntries: [String: String] = [:]
    /// The mark's own further entries (text): who made it, by an id that outlives their name.
    public var entries: [String: String] = [:]

    /// The longest text taken.
    public static let maxText = 10_000
    /// The most ink strokes in one annotation.
    public static let maxStrokes = 1000

    public init(kind: PDFAnnotationKind, page: Int) {
        self.kind = kind
        self.page = page
    }

    /// Checks every value without a document: what each kind needs, and each number's range.
    public func validate() throws {
        _ = try checked()
    }

    /// ``validate()``, returning the colours it read.
    private func checked() throws -> (color: PDFColor?, fill: PDFColor?) {
        guard page >= 1 else { throw ScoreError(.outOfRange, "page \(page) is out of range (valid: 1 or more)") }
        for rect in rects { try Self.checkRect(rect) }
        guard points.count % 2 == 0, points.allSatisfy(\.isFinite) else {
            throw ScoreError(.invalidValue, "points are x, y pairs of numbers")
        }
        guard strokes.count <= Self.maxStrokes,
              strokes.allSatisfy({ $0.count >= 2 && $0.count % 2 == 0 && $0.allSatisfy(\.isFinite) }) else {
            throw ScoreError(.invalidValue, "strokes are 1 to \(Self.maxStrokes) lists of x, y pairs")
        }
        let colors = try Self.checkedStyle(text: text, color: color, fill: fill, opacity: opacity, width: width, size: size)
        switch kind {
        case .stamp where symbol == nil && image == nil && (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
            throw ScoreError(.invalidValue, "a stamp needs a symbol (valid: \(MusicalSymbol.allCases.map(\.rawValue).joined(separator: ", "))), an image or text")
        case .freeText where (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
            throw ScoreError(.invalidValue, "a freetext needs text")
        case .ink where strokes.isEmpty:
            throw ScoreError(.invalidValue, "an ink annotation needs at least one stroke")
        case .line where points.count != 4:
            throw ScoreError(.invalidValue, "a line needs points x1, y1, x2, y2")
        case .note where points.isEmpty && rects.isEmpty:
            throw ScoreError(.invalidValue, "a note needs points x, y")
        default:
            break
        }
        if kind != .stamp, symbol != nil { throw ScoreError(.invalidValue, "a symbol goes with a stamp") }
        if kind != .stamp, image != nil { throw ScoreError(.invalidValue, "an image goes with a stamp") }
        if symbol != nil, image != nil { throw ScoreError(.invalidValue, "a stamp shows a symbol or an image, not both") }
        if kind.isTextMarkup || [.freeText, .square, .circle, .stamp].contains(kind), rects.isEmpty {
            throw ScoreError(.invalidValue, "a \(kind.rawValue) needs a rectangle x, y, width, height")
        }
        if !kind.isTextMarkup, rects.count > 1 { throw ScoreError(.invalidValue, "only text markups take several rectangles") }
        return colors
    }

    /// The engine's draft for a page of `geometry`, with the defaults filled in.
    public func draft(on geometry: PDFPageGeometry) throws -> PDFAnnotationDraft {
        let (color, fill) = try checked()
        func point(_ values: [Double], _ index: Int) -> PDFPoint {
            let point = PDFPoint(x: values[index], y: values[index + 1])
            return userSpace ? point : geometry.toUser(point)
        }
        let boxes = rects.map { r in
            userSpace ? PDFRect(x1: r[0], y1: r[1], x2: r[0] + r[2], y2: r[1] + r[3])
                : geometry.toUser(x: r[0], y: r[1], width: r[2], height: r[3])
        }
        var draft = PDFAnnotationDraft(kind: kind)
        if kind.isTextMarkup { draft.quads = boxes } else { draft.rect = boxes.first }
        draft.strokes = strokes.map { values in stride(from: 0, to: values.count, by: 2).map { point(values, $0) } }
        draft.points = kind == .note && !rects.isEmpty ? [] : stride(from: 0, to: points.count, by: 2).map { point(points, $0) }
        draft.contents = text
        draft.color = color ?? Self.defaultColor(kind)
        draft.fill = fill
        draft.opacity = opacity ?? 1
        draft.width = width ?? ([.square, .circle, .ink, .line].contains(kind) ? 2 : nil)
        draft.fontSize = size ?? 12
        draft.alignment = alignment ?? (text.flatMap(BidiText.direction(of:)) == .rightToLeft ? .right : .left)
        draft.author = author
        draft.name = name
        if let icon { draft.icon = icon }
        // A stamp of words when no symbol is given: the words are its art and its /Contents.
        // (A stamp of an image gets its art when the image is added to the document.)
        draft.stampArt = try symbol?.art ?? (kind == .stamp && image == nil ? text.map(TextStamp.art) : nil)
        let head = kind == .line ? "OpenArrow" : "None"
        draft.lineEndings = [arrow == .start || arrow == .both ? head : "None", arrow == .end || arrow == .both ? head : "None"]
        return draft
    }

    /// The id of the mark this request added already: the annotation with its ``name`` on its
    /// page, when `isOwn` says it is the asker's; nil when no annotation in the document has
    /// the name (or the request has none). A request sent again after its answer was lost finds
    /// its mark this way instead of adding it twice. A name held by another mark — on another
    /// page, or someone else's — is ``ScoreError`` `.taken`: names are unique in a score, so a
    /// mark's id (its name) never comes to name two marks, nor another's.
    ///
    /// ```swift
    /// let id = try request.existing(in: document, isOwn: { $0.author == "Anna" }) ?? request.add(to: document)
    /// ```
    public func existing(in document: PDFDocument, isOwn: (PDFAnnotation) -> Bool) throws -> String? {
        guard let name, let (pageIndex, mark) = document.annotation(named: name) else { return nil }
        guard pageIndex == page - 1, isOwn(mark) else {
            throw ScoreError(.taken, "the name \(name) is another mark's in this score (page \(pageIndex + 1)); a new mark needs a name of its own")
        }
        return mark.id
    }

    /// Adds the annotation to its page of `document` (not saved); returns its id. A page
    /// past the document's end is `PDFError` `pageOutOfRange`.
    public func add(to document: PDFDocument) throws -> String {
        let pages = document.pages()
        guard page >= 1, page <= pages.count else { throw PDFError.pageOutOfRange(page, count: pages.count) }
        if let font { document.textFont = font.font }
        var draft = try draft(on: PDFPageGeometry(page: pages[page - 1]))
        if let image {
            let prepared = try ImageStamp.prepared(image)
            draft.stampArt = ImageStamp.art(for: prepared, reference: document.addImage(prepared))
        }
        if let layer {
            draft.optionalContent = layerEntries.isEmpty ? try document.optionalContentGroup(named: layer)
                : try document.optionalContentGroup(marked: layerEntries, named: layer)
        }
        draft.entries = entries
        return try document.addAnnotation(draft, toPage: page - 1).id
    }

    /// The colour a mark gets when none is asked for: a yellow highlighter, a red pen.
    static func defaultColor(_ kind: PDFAnnotationKind) -> PDFColor? {
        switch kind {
        case .highlight: PDFColor(red: 1, green: 0xE9 / 255.0, blue: 0x4D / 255.0)
        case .square, .circle, .ink, .line: PDFColor(red: 0xD6 / 255.0, green: 0x28 / 255.0, blue: 0x28 / 255.0)
        default: nil
        }
    }

    /// Checks a rectangle as an added or an edited mark takes it: x, y, width, height, the
    /// width and height above 0.
    static func checkRect(_ rect: [Double]) throws {
        guard rect.count == 4, rect.allSatisfy(\.isFinite), rect[2] > 0, rect[3] > 0 else {
            throw ScoreError(.invalidValue, "a rectangle is x, y, width, height, with width and height above 0")
        }
    }

    /// Checks what an added or an edited mark shares — text length, opacity, width, size —
    /// and reads its colours ("#RRGGBB"); throws naming the valid range.
    static func checkedStyle(text: String?, color: String?, fill: String?, opacity: Double?, width: Double?,
                             size: Double?) throws -> (color: PDFColor?, fill: PDFColor?) {
        if let text, text.count > maxText {
            throw ScoreError(.outOfRange, "the text has \(text.count) characters (valid: up to \(maxText))")
        }
        for (name, value, range) in [("opacity", opacity, 0.0...1.0), ("width", width, 0...100), ("size", size, 1...400)] {
            if let value, !(value.isFinite && range.contains(value)) {
                throw ScoreError(.outOfRange, "\(name) \(value) is out of range (valid: \(Int(range.lowerBound)) to \(Int(range.upperBound)))")
            }
        }
        do {
            return (try color.map { try PDFColor(hex: $0) }, try fill.map { try PDFColor(hex: $0) })
        } catch let error as PDFError {
            throw ScoreError(.invalidValue, error.message)
        }
    }
}
