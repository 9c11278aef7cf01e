/// The annotation flags of `/F` (ISO 32000-1 §12.5.3).
///
/// ```swift
/// let flags: PDFAnnotationFlags = [.print, .locked]
/// flags.names   // ["print", "locked"]
/// ```
public struct PDFAnnotationFlags: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let invisible = PDFAnnotationFlags(rawValue: 1)
    public static let hidden = PDFAnnotationFlags(rawValue: 2)
    public static let print = PDFAnnotationFlags(rawValue: 4)
    public static let noZoom = PDFAnnotationFlags(rawValue: 8)
    public static let noRotate = PDFAnnotationFlags(rawValue: 16)
    public static let noView = PDFAnnotationFlags(rawValue: 32)
    public static let readOnly = PDFAnnotationFlags(rawValue: 64)
    public static let locked = PDFAnnotationFlags(rawValue: 128)
    public static let toggleNoView = PDFAnnotationFlags(rawValue: 256)
    public static let lockedContents = PDFAnnotationFlags(rawValue: 512)

    static let named: [(String, PDFAnnotationFlags)] = [
        ("invisible", .invisible), ("hidden", .hidden), ("print", .print), ("noZoom", .noZoom),
        ("noRotate", .noRotate), ("noView", .noView), ("readOnly", .readOnly), ("locked", .locked),
        ("toggleNoView", .toggleNoView), ("lockedContents", .lockedContents),
    ]

    /// The names of the flags set, in bit order.
    public var names: [String] { PDFAnnotationFlags.named.filter { contains($0.1) }.map(\.0) }
}

/// What a FreeText annotation's default appearance string (`/DA`) says: font resource
/// name, size and text colour.
///
/// ```swift
/// let da = PDFDefaultAppearance(parsing: "/Helv 12 Tf 1 0 0 rg")
/// da?.font    // "Helv"
/// da?.size    // 12
/// ```
public struct PDFDefaultAppearance: Sendable, Equatable {
    public var font: String?
    public var size: Double?
    public var color: PDFColor?

    public init(font: String?, size: Double?, color: PDFColor?) {
        self.font = font
        self.size = size
        self.color = color
    }

    /// Reads the last `Tf` and colour operator; nil when there is neither.
    public init?(parsing text: String) {
        // Split on the bytes, not on characters: a form reads one of these per field, and
        // breaking it into graphemes was 7% of listing a form's widgets.
        let tokens = text.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }).map { Substring($0) }
        var operands: [Substring] = []
        var font: String?
        var size: Double?
        var color: PDFColor?
        for token in tokens {
            switch token {
            case "Tf":
                if operands.count >= 2 {
                    font = operands[operands.count - 2].hasPrefix("/") ? String(operands[operands.count - 2].dropFirst()) : nil
                    size = Double(operands[operands.count - 1])
                }
                operands = []
            case "g", "rg", "k":
                let count = token == "g" ? 1 : token == "rg" ? 3 : 4
                let numbers = operands.suffix(count).compactMap { Double($0) }
                if numbers.count == count { color = PDFColor(components: numbers) }
                operands = []
            default:
                if let byte = token.utf8.first, byte < 0x80 ? (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A : token.first?.isLetter == true {
                    operands = []   // another operator
                } else {
                    operands.append(token)
                }
            }
        }
        guard font != nil || size != nil || color != nil else { return nil }
        self.init(font: font, size: size, color: color)
    }
}

/// One annotation of a page as read from the file.
///
/// Every field is decoded from the annotation dictionary; ``dictionary`` keeps the whole
/// thing (references unresolved) so nothing Folio does not model is lost.
///
/// ```swift
/// for annotation in doc.annotations(onPage: 0) {
///     print(annotation.id, annotation.subtype, annotation.rect.array, annotation.contents ?? "")
/// }
/// ```
public struct PDFAnnotation: Sendable {
    /// A stable identifier: `/NM` when it is unique on the page, else `obj-N` for an
    /// indirect annotation or `p<page>-<index>` (1-based) for a direct one.
    public var id: String
    /// 0-based page index.
    public var pageIndex: Int
    /// Position in the page's `/Annots` array.
    public var index: Int
    /// The annotation object; nil for a direct dictionary inside `/Annots`.
    public var reference: PDFReference?
    /// The subtype without the slash ("FreeText"); "Unknown" when missing.
    public var subtype: String
    /// `/Rect`, normalised; an empty rect at the origin when missing.
    public var rect: PDFRect
    public var contents: String?
    /// `/T`, the author.
    public var author: String?
    /// `/NM`, the annotation name.
    public var name: String?
    /// `/M` as written.
    public var modified: String?
    public var flags: PDFAnnotationFlags
    /// `/C`: stroke colour (the icon or border), or for FreeText the background.
    public var color: PDFColor?
    /// `/IC`: interior (fill) colour.
    public var interiorColor: PDFColor?
    /// `/CA`, 1 when absent.
    public var opacity: Double
    /// Border width from `/BS /W`, else the third number of `/Border`.
    public var borderWidth: Double?
    /// Border style from `/BS /S` ("S", "D", "B", "I", "U").
    public var borderStyle: String?
    public var quadPoints: [Double]
    /// `/InkList`: each stroke's points.
    public var inkList: [[PDFPoint]]
    /// `/L` of a Line: start and end.
    public var line: [PDFPoint]
    /// `/LE` of a Line or polyline: the two line endings.
    public var lineEndings: [String]
    /// `/Vertices` of a Polygon or PolyLine.
    public var vertices: [PDFPoint]
    /// `/Name`: icon of a Text note, Stamp or FileAttachment.
    public var iconName: String?
    /// `/DA` of a FreeText (or Widget).
    public var defaultAppearance: PDFDefaultAppearance?
    /// `/Q`: 0 left, 1 centred, 2 right.
    public var alignment: Int?
    public var popup: PDFReference?
    /// `/IRT`: the annotation this one replies to.
    public var inReplyTo: PDFReference?
    /// `/Parent` of a Popup.
    public var parent: PDFReference?
    public var hasAppearance: Bool
    public var dictionary: PDFDictionary

    /// Whether viewers keep it upright on a turned page: the NoRotate flag, which Text
    /// notes behave as if always set (ISO 32000-1 §12.5.6.4).
    public var staysUpright: Bool { flags.contains(.noRotate) || subtype == "Text" }

    /// Link and Widget annotations are listed but never edited unless named explicitly.
    public var isMarkup: Bool { !["Link", "Widget", "Popup"].contains(subtype) }
}
