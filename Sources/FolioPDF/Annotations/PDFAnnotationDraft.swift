/// The kinds of annotation Folio writes, with their appearance streams.
///
/// ```swift
/// PDFAnnotationKind(rawValue: "highlight")?.subtype   // "Highlight"
/// ```
public enum PDFAnnotationKind: String, Sendable, CaseIterable {
    case freeText = "freetext"
    case square, circle, highlight, underline
    case strikeOut = "strikeout"
    case squiggly, ink, line, note, stamp

    /// The PDF subtype.
    public var subtype: String {
        switch self {
        case .freeText: "FreeText"
        case .square: "Square"
        case .circle: "Circle"
        case .highlight: "Highlight"
        case .underline: "Underline"
        case .strikeOut: "StrikeOut"
        case .squiggly: "Squiggly"
        case .ink: "Ink"
        case .line: "Line"
        case .note: "Text"
        case .stamp: "Stamp"
        }
    }

    /// The kind whose subtype this is; nil for subtypes Folio does not write.
    public init?(subtype: String) {
        guard let kind = PDFAnnotationKind.allCases.first(where: { $0.subtype == subtype }) else { return nil }
        self = kind
    }

    /// Text markup: the annotation covers quads of text.
    public var isTextMarkup: Bool { [.highlight, .underline, .strikeOut, .squiggly].contains(self) }
}

/// Text alignment in a FreeText box (`/Q`).
///
/// ```swift
/// var draft = PDFAnnotationDraft(kind: .freeText)
/// draft.rect = PDFRect(x1: 72, y1: 700, x2: 272, y2: 724)
/// draft.contents = "dolce — sehr ruhig"
/// draft.alignment = .center
/// ```
public enum PDFTextAlignment: Int, Sendable, CaseIterable {
    case left = 0, center = 1, right = 2
}

/// A new annotation, in user space, before it is written.
///
/// What each kind needs: `rect` for FreeText, Square, Circle, Stamp (and optionally Note:
/// its icon's box); `quads` for the text markups; `strokes` for Ink; `points` (two) for
/// Line. Every new annotation gets `/NM` (a UUID unless `name` is set), `/M`, `/T`, `/P`,
/// `/F` print, an explicit border width and an appearance stream.
///
/// ```swift
/// var draft = PDFAnnotationDraft(kind: .square)
/// draft.rect = PDFRect(x1: 100, y1: 600, x2: 220, y2: 660)
/// draft.color = try PDFColor(hex: "#d00000")
/// let added = try doc.addAnnotation(draft, toPage: 0)
/// ```
public struct PDFAnnotationDraft: Sendable {
    public var kind: PDFAnnotationKind
    public var rect: PDFRect?
    public var quads: [PDFRect] = []
    public var strokes: [[PDFPoint]] = []
    public var points: [PDFPoint] = []
    /// `/Contents`: the FreeText's text, a note's text, a comment on anything else.
    public var contents: String?
    /// Stroke colour; for FreeText the text colour.
    public var color: PDFColor?
    /// Interior colour; for FreeText the background.
    public var fill: PDFColor?
    public var opacity: Double = 1
    /// Line or border width in points.
    public var width: Double?
    /// FreeText font size in points.
    public var fontSize: Double = 12
    public var alignment: PDFTextAlignment = .left
    /// Line endings of a Line (`/LE`): "None", "OpenArrow", "ClosedArrow", "Circle", "Square".
    public var lineEndings: [String] = ["None", "None"]
    /// Icon of a note (`/Name`): "Comment", "Note", "Key", "Help", "Insert", "Paragraph", "NewParagraph".
    public var icon: String = "Comment"
    /// A Stamp's art.
    public var stampArt: PDFStampArt?
    public var author: String?
    /// `/NM`; a new UUID when nil.
    public var name: String?
    /// `/OC`: the layer (optional content group) that shows or hides it, see
    /// ``PDFDocument/optionalContentGroup(named:visible:)``.
    public var optionalContent: PDFReference?
    /// Hidden (`/F` bit 2): kept, but no viewer shows or prints it.
    public var isHidden = false
    /// Further entries of the annotation's dictionary, as text strings: an application's own
    /// keys (ISO 32000 lets a dictionary carry keys a viewer does not know), read back through
    /// ``PDFAnnotation/dictionary``. A key the annotation already has is not overwritten.
    public var entries: [String: String] = [:]

    public init(kind: PDFAnnotationKind) {
        self.kind = kind
    }

    static let lineEndingNames: Set<String> = ["None", "OpenArrow", "ClosedArrow", "Circle", "Square", "Butt"]
    static let noteIcons: Set<String> = ["Comment", "Note", "Key", "Help", "Insert", "Paragraph", "NewParagraph"]
}

/// A change to an existing annotation; nil fields stay as they are.
///
/// ```swift
/// var change = PDFAnnotationChange()
/// change.color = try PDFColor(hex: "#0000ff")
/// change.rect = PDFRect(x1: 100, y1: 100, x2: 200, y2: 150)   // moves and resizes
/// try doc.editAnnotation(id: "obj-12", change)
/// ```
public struct PDFAnnotationChange: Sendable {
    public var contents: String?
    public var color: PDFColor?
    public var fill: PDFColor?
    public var opacity: Double?
    /// The new `/Rect`: points, quads and strokes move and scale with it.
    public var rect: PDFRect?
    public var width: Double?
    public var fontSize: Double?
    public var alignment: PDFTextAlignment?
    public var author: String?

    public init() {}

    public var isEmpty: Bool {
        contents == nil && color == nil && fill == nil && opacity == nil && rect == nil && width == nil
            && fontSize == nil && alignment == nil && author == nil
    }
}
