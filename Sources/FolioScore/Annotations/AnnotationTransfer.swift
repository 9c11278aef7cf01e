import FolioPDF
import Foundation

/// A score's markings as a portable JSON document: exported from one copy of a score and
/// applied to another copy of the same score (same pages, same coordinates).
///
/// Coordinates are PDF user space, so a copy with the same page boxes gets the marks at
/// the same places. Annotations are identified by `/NM`: importing twice adds nothing new.
///
/// ```swift
/// let json = try AnnotationTransfer.export(from: teacherCopy)
/// let report = try AnnotationTransfer.apply(json, to: studentCopy)
/// report.added.count
/// ```
public enum AnnotationTransfer {
    /// One annotation in the exchange format.
    ///
    /// ```swift
    /// AnnotationTransfer.items(from: document).map(\.subtype)   // ["FreeText", "Ink"]
    /// ```
    public struct Item: Codable, Sendable, Equatable {
        /// 1-based page.
        public var page: Int
        /// The PDF subtype ("FreeText", "Ink", ...).
        public var subtype: String
        /// `/Rect` in user space, `[x1, y1, x2, y2]`.
        public var rect: [Double]
        public var contents: String?
        public var author: String?
        public var name: String?
        public var color: String?
        public var fill: String?
        public var opacity: Double?
        public var width: Double?
        public var quadPoints: [Double]?
        public var inkList: [[Double]]?
        public var line: [Double]?
        public var lineEndings: [String]?
        public var icon: String?
        public var fontSize: Double?
        public var textColor: String?
        public var alignment: Int?
        /// A musical stamp's symbol (`fermata`, `mf`, ...).
        public var symbol: String?
    }

    /// The whole document.
    ///
    /// ```swift
    /// let exchange = try AnnotationTransfer.read(try Data(contentsOf: URL(fileURLWithPath: "marks.json")))
    /// exchange.annotations.count
    /// ```
    public struct Document: Codable, Sendable, Equatable {
        public var format: String
        public var version: Int
        public var annotations: [Item]

        public init(annotations: [Item]) {
            format = "folio-annotations"
            version = 1
            self.annotations = annotations
        }
    }

    /// What an import did.
    ///
    /// ```swift
    /// let report = try AnnotationTransfer.apply(exchange, to: document)
    /// print("\(report.added.count) added, \(report.present) already there")
    /// ```
    public struct Report: Sendable, Equatable {
        /// Ids of the annotations added.
        public var added: [String] = []
        /// Items already present (same `/NM` on the same page).
        public var present = 0
        /// Items of kinds Folio does not write, each with its reason.
        public var skipped: [String] = []
    }

    /// Most bytes an import reads.
    public static let maxBytes = 64 << 20

    /// The markup annotations of `document` (not Links, Widgets or Popups), in page order.
    public static func items(from document: PDFDocument) -> [Item] {
        document.annotations().filter(\.isMarkup).map { item in
            let isFreeText = item.subtype == "FreeText"
            return Item(
                page: item.pageIndex + 1, subtype: item.subtype, rect: item.rect.array, contents: item.contents,
                author: item.author, name: item.name, color: isFreeText ? nil : item.color?.hex,
                fill: item.interiorColor?.hex ?? (isFreeText ? item.color?.hex : nil),
                opacity: item.opacity < 1 ? item.opacity : nil, width: item.borderWidth,
                quadPoints: item.quadPoints.isEmpty ? nil : item.quadPoints,
                inkList: item.inkList.isEmpty ? nil : item.inkList.map { $0.flatMap { [$0.x, $0.y] } },
                line: item.line.isEmpty ? nil : item.line.flatMap { [$0.x, $0.y] },
                lineEndings: item.lineEndings.isEmpty ? nil : item.lineEndings,
                icon: item.subtype == "Stamp" ? nil : item.iconName,
                fontSize: isFreeText ? item.defaultAppearance?.size : nil,
                textColor: isFreeText ? item.defaultAppearance?.color?.hex : nil, alignment: item.alignment,
                symbol: item.iconName.flatMap(MusicalSymbol.init(stampName:))?.rawValue)
        }
    }

    /// The exchange document as pretty-printed JSON.
    public static func export(from document: PDFDocument) throws -> Data {
        try JSONCoding.data(Document(annotations: items(from: document)), pretty: true)
    }

    /// Reads an exchange document; a wrong format or a value of the wrong kind is a
    /// ``ScoreError`` naming it.
    public static func read(_ data: Data) throws -> Document {
        guard data.count <= maxBytes else {
            throw ScoreError(.outOfRange, "the annotation file is \(data.count) bytes (valid: up to \(maxBytes))")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
                let DecodingError.keyNotFound(_, context)
        {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            throw ScoreError(.invalidValue, "the annotation file is not valid at \(path.isEmpty ? "the top" : path): \(context.debugDescription)")
        } catch {
            throw ScoreError(.invalidValue, "the annotation file is not JSON in Folio's annotation format")
        }
        guard document.format == "folio-annotations", document.version == 1 else {
            throw ScoreError(.invalidValue, "the annotation file's format is \(document.format) version \(document.version) (valid: folio-annotations version 1)")
        }
        return document
    }

    /// Adds the items to `document` (each page checked first: nothing is added when one is
    /// out of range). Items whose `/NM` is already on their page are left out.
    public static func apply(_ exchange: Document, to document: PDFDocument) throws -> Report {
        let pageCount = document.pages().count
        for item in exchange.annotations where !(1...max(1, pageCount)).contains(item.page) || pageCount == 0 {
            throw ScoreError(.outOfRange, "an annotation is on page \(item.page) (valid: 1 to \(pageCount))")
        }
        var report = Report()
        for item in exchange.annotations {
            let existing = try document.annotations(onPage: item.page - 1)
            if let name = item.name, existing.contains(where: { $0.name == name }) {
                report.present += 1
                continue
            }
            guard let draft = try draft(for: item) else {
                report.skipped.append("page \(item.page): \(item.subtype)\(item.name.map { " \($0)" } ?? "") is a kind Folio does not write")
                continue
            }
            report.added.append(try document.addAnnotation(draft, toPage: item.page - 1).id)
        }
        return report
    }

    static func draft(for item: Item) throws -> PDFAnnotationDraft? {
        guard let kind = PDFAnnotationKind(subtype: item.subtype), item.rect.count == 4 else { return nil }
        func color(_ text: String?) throws -> PDFColor? {
            do { return try text.map { try PDFColor(hex: $0) } } catch let error as PDFError {
                throw ScoreError(.invalidValue, error.message)
            }
        }
        func points(_ values: [Double]) -> [PDFPoint] {
            stride(from: 0, to: values.count - 1, by: 2).map { PDFPoint(x: values[$0], y: values[$0 + 1]) }
        }
        var draft = PDFAnnotationDraft(kind: kind)
        let rect = PDFRect(x1: item.rect[0], y1: item.rect[1], x2: item.rect[2], y2: item.rect[3])
        draft.rect = rect
        draft.contents = item.contents
        draft.author = item.author
        draft.name = item.name
        draft.color = try color(kind == .freeText ? item.textColor : item.color)
        draft.fill = try color(item.fill)
        draft.opacity = item.opacity ?? 1
        draft.width = item.width
        if let size = item.fontSize { draft.fontSize = size }
        if let alignment = item.alignment { draft.alignment = PDFTextAlignment(rawValue: alignment) ?? .left }
        if let icon = item.icon { draft.icon = icon }
        switch kind {
        case .highlight, .underline, .strikeOut, .squiggly:
            let values = item.quadPoints ?? []
            draft.quads = values.count >= 8
                ? stride(from: 0, to: values.count - 7, by: 8).compactMap { PDFRect(enclosing: points(Array(values[$0..<($0 + 8)]))) }
                : [rect]
        case .ink:
            draft.strokes = (item.inkList ?? []).map(points)
        case .line:
            draft.points = points(item.line ?? [])
            if let endings = item.lineEndings { draft.lineEndings = endings }
        case .note:
            // A note hangs from its upper-left corner in user space.
            draft.rect = nil
            draft.points = [PDFPoint(x: rect.x1, y: rect.y2)]
        case .stamp:
            guard let symbol = item.symbol.flatMap(MusicalSymbol.init(rawValue:)) else { return nil }
            draft.stampArt = symbol.art
        default:
            break
        }
        return draft
    }
}
