import FolioPDF

/// What a listing tells of one annotation, as plain values: its id and page, what it is and
/// says, who made it, its colours, geometry and appearance. The one record `folio annot list`
/// prints and the server's annotation API answers from, so neither reads the engine.
///
/// ```swift
/// for shown in try AnnotationListing.list(try ScoreFile("Ηχοι.pdf").open(), page: 1) {
///     let details = shown.details
///     print(details.page, details.subtype, details.color ?? "-", details.author ?? "")
/// }
/// ```
public struct AnnotationDetails: Sendable, Equatable {
    /// The id the edit and remove operations take (`obj-12`, or a page-scoped id for a direct object).
    public var id: String
    /// Its object number, when it is an indirect object.
    public var object: Int?
    /// The page, 1-based.
    public var page: Int
    /// PDF's subtype: `Square`, `FreeText`, `Ink`, `Stamp`…
    public var subtype: String
    /// The rectangle in PDF user space: left, bottom, right, top.
    public var rect: [Double]
    /// x, y, width, height on the displayed page, from its top-left corner.
    public var display: [Double]
    public var contents: String?
    public var author: String?
    /// The annotation's name (/NM).
    public var name: String?
    /// When it was last modified, as the file writes it.
    public var modified: String?
    /// Its colour as `#rrggbb`.
    public var color: String?
    /// Its interior colour as `#rrggbb`.
    public var fill: String?
    public var opacity: Double
    /// The border's or line's width in points.
    public var width: Double?
    /// The names of its flags (`Print`, `NoRotate`…).
    public var flags: [String]
    public var quadPoints: [Double]
    /// Each stroke of an ink annotation as x, y pairs.
    public var inkList: [[Double]]
    /// A line's two ends as x, y pairs.
    public var line: [Double]
    public var lineEndings: [String]
    /// A polygon's corners as x, y pairs.
    public var vertices: [Double]
    /// A note's or stamp's icon name.
    public var icon: String?
    /// The font, size and colour of a text box's default appearance.
    public var font: String?
    public var fontSize: Double?
    public var textColor: String?
    /// A text box's alignment: 0 left, 1 centred, 2 right.
    public var alignment: Int?
    /// The id of its popup window, and of the annotation it replies to.
    public var popup: String?
    public var inReplyTo: String?
    /// Whether it carries its own appearance.
    public var hasAppearance: Bool
}

extension AnnotationListing.Shown {
    /// The annotation's details (see ``AnnotationDetails``).
    public var details: AnnotationDetails {
        let item = annotation
        let appearance = item.defaultAppearance
        func pairs(_ points: [PDFPoint]) -> [Double] { points.flatMap { [$0.x, $0.y] } }
        return AnnotationDetails(
            id: item.id, object: item.reference?.number, page: item.pageIndex + 1, subtype: item.subtype,
            rect: item.rect.array, display: display, contents: item.contents, author: item.author, name: item.name,
            modified: item.modified, color: item.color?.hex, fill: item.interiorColor?.hex, opacity: item.opacity,
            width: item.borderWidth, flags: item.flags.names, quadPoints: item.quadPoints, inkList: item.inkList.map(pairs),
            line: pairs(item.line), lineEndings: item.lineEndings, vertices: pairs(item.vertices), icon: item.iconName,
            font: appearance?.font, fontSize: appearance?.size, textColor: appearance?.color?.hex, alignment: item.alignment,
            popup: item.popup.map { "obj-\($0.number)" }, inReplyTo: item.inReplyTo.map { "obj-\($0.number)" },
            hasAppearance: item.hasAppearance)
    }
}
