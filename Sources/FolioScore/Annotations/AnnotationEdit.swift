import FolioPDF

/// A change to one annotation as a musician asks for it — the one both `folio annot edit`
/// and the server's `PATCH /api/scores/{id}/annotations/{annotation}` make: a new place
/// (x, y, width, height from the displayed page's top-left, as ``AnnotationListing`` shows
/// marks, or in user space), new text, new colours and style. Its appearance is drawn
/// again; ink strokes, highlight quads and line ends follow a new place.
///
/// ```swift
/// var edit = AnnotationEdit(id: "6f1c…")
/// edit.rect = [72, 90, 180, 40]
/// edit.text = "Cut to bar 52 — až do taktu 52"
/// edit.color = "#0050c0"
/// try edit.apply(to: document)   // then save, e.g. through PDFSaver.update
/// ```
public struct AnnotationEdit: Sendable, Equatable {
    /// The annotation's id (/NM, or the object number `annot list` shows).
    public var id: String
    /// The 1-based page the id is on, needed only when it names annotations on several.
    public var page: Int?
    /// The new rectangle: x, y, width, height.
    public var rect: [Double]?
    /// Whether ``rect`` is in PDF user space (origin bottom-left, y up) rather than display
    /// coordinates.
    public var userSpace = false
    /// New contents (a freetext's text).
    public var text: String?
    /// Colours as "#RRGGBB".
    public var color: String?
    public var fill: String?
    public var opacity: Double?
    public var width: Double?
    public var size: Double?
    public var alignment: PDFTextAlignment?
    public var author: String?
    /// A freetext's font (see ``AnnotationRequest/font``): its text is redrawn in it.
    public var font: TextFont?

    public init(id: String) {
        self.id = id
    }

    /// Whether the edit changes anything.
    public var isEmpty: Bool {
        rect == nil && text == nil && color == nil && fill == nil && opacity == nil && width == nil && size == nil
            && alignment == nil && author == nil && font == nil
    }

    /// Throws for a value out of its range (naming the valid one) or an edit that changes
    /// nothing.
    public func validate() throws {
        try checkPage()
        _ = try checked()
    }

    private func checkPage() throws {
        if let page, page < 1 { throw ScoreError(.outOfRange, "page \(page) is out of range (valid: 1 or more)") }
    }

    /// ``validate()`` but for the page, returning the colours it read.
    private func checked() throws -> (color: PDFColor?, fill: PDFColor?) {
        if let rect { try AnnotationRequest.checkRect(rect) }
        let colors = try AnnotationRequest.checkedStyle(text: text, color: color, fill: fill, opacity: opacity,
                                                        width: width, size: size)
        if isEmpty {
            throw ScoreError(.invalidValue, "nothing to change: give a rectangle, text, colour, fill, opacity, width, "
                + "size, alignment, author or font")
        }
        return colors
    }

    /// Applies the edit to `document` (unsaved). ``ScoreErrorCode/notFound`` when no annotation
    /// has the id (on `page`, when given), before the edit's values are weighed.
    public func apply(to document: PDFDocument) throws {
        // The mark must exist before what is asked of it is weighed: an unknown id is notFound.
        try checkPage()
        try document.requireAnnotations([id], page: page)
        let colors = try checked()
        let pageIndex = page.map { $0 - 1 }
        var change = PDFAnnotationChange()
        if let rect {
            if userSpace {
                change.rect = PDFRect(x1: rect[0], y1: rect[1], x2: rect[0] + rect[2], y2: rect[1] + rect[3])
            } else {
                let (target, found) = try document.locateAnnotation(id: id, onPage: pageIndex)
                change.rect = PDFPageGeometry(page: target).toUser(x: rect[0], y: rect[1], width: rect[2], height: rect[3],
                                                                   noRotate: found.staysUpright)
            }
        }
        (change.color, change.fill) = colors
        change.contents = text
        change.opacity = opacity
        change.width = width
        change.fontSize = size
        change.alignment = alignment
        change.author = author
        if let font { document.textFont = font.font }
        try document.editAnnotation(id: id, onPage: pageIndex, change, stampArt: TextStamp.resolve)
    }
}

/// What an added mark (``AnnotationRequest``) and an edited one (``AnnotationEdit``) are
/// styled by, so a shell fills either from the same options.
///
/// ```swift
/// func restyle<T: AnnotationStyling>(_ mark: inout T) { mark.color = "#c00000"; mark.width = 1.5 }
/// ```
public protocol AnnotationStyling {
    var color: String? { get set }
    var fill: String? { get set }
    var opacity: Double? { get set }
    var width: Double? { get set }
    var size: Double? { get set }
    var alignment: PDFTextAlignment? { get set }
    var author: String? { get set }
    var font: TextFont? { get set }
}

extension AnnotationEdit: AnnotationStyling {}
extension AnnotationRequest: AnnotationStyling {}
