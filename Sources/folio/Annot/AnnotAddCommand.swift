import ArgumentParser
import FolioPDF
import FolioScore
import Foundation

extension PDFAnnotationKind: ExpressibleByArgument {}
extension MusicalSymbol: ExpressibleByArgument {}
extension PDFTextAlignment: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument {
        case "left": self = .left
        case "center", "centre": self = .center
        case "right": self = .right
        default: return nil
        }
    }

    public static var allValueStrings: [String] { ["left", "center", "right"] }
}

/// Where an annotation goes: rectangles, points and strokes in display coordinates (or
/// user space with --user-space).
struct AnnotPlaceOptions: ParsableArguments {
    @Option(help: "A rectangle x,y,w,h (repeat for several highlighted lines).") var rect: [String] = []
    @Option(help: "Points x1,y1,x2,y2,... (a line's two ends, a note's corner).") var points: String?
    @Option(help: "An ink stroke x1,y1,x2,y2,... (repeat for several strokes).") var stroke: [String] = []
    @Flag(help: "Coordinates are PDF user space (origin bottom-left, y up) instead of the page as displayed.")
    var userSpace = false

    static func numbers(_ text: String, option: String, multipleOf count: Int) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let values = parts.compactMap(Double.init)
        guard values.count == parts.count, values.allSatisfy(\.isFinite), !values.isEmpty, values.count % count == 0 else {
            throw ValidationError("--\(option) \(text): give \(count == 4 ? "x,y,w,h" : "x,y pairs") as numbers separated by commas")
        }
        return values
    }

    func validate() throws {
        for value in rect {
            let numbers = try Self.numbers(value, option: "rect", multipleOf: 4)
            guard numbers.count == 4 else { throw ValidationError("--rect takes exactly x,y,w,h") }
            guard numbers[2] > 0, numbers[3] > 0 else {
                throw ValidationError("--rect \(value): width and height must be above 0")
            }
        }
        if let points { _ = try Self.numbers(points, option: "points", multipleOf: 2) }
        for value in stroke { _ = try Self.numbers(value, option: "stroke", multipleOf: 2) }
    }

    /// A point in user space.
    func point(_ x: Double, _ y: Double, _ geometry: PDFPageGeometry) -> PDFPoint {
        userSpace ? PDFPoint(x: x, y: y) : geometry.toUser(PDFPoint(x: x, y: y))
    }

    func rects(_ geometry: PDFPageGeometry) throws -> [PDFRect] {
        try rect.map { value in
            let n = try Self.numbers(value, option: "rect", multipleOf: 4)
            return userSpace ? PDFRect(x1: n[0], y1: n[1], x2: n[0] + n[2], y2: n[1] + n[3])
                : geometry.toUser(x: n[0], y: n[1], width: n[2], height: n[3])
        }
    }

    func pointList(_ text: String?, option: String, _ geometry: PDFPageGeometry) throws -> [PDFPoint] {
        guard let text else { return [] }
        let n = try Self.numbers(text, option: option, multipleOf: 2)
        return stride(from: 0, to: n.count, by: 2).map { point(n[$0], n[$0 + 1], geometry) }
    }
}

/// Style options shared by add and edit.
struct AnnotStyleOptions: ParsableArguments {
    @Option(help: "Colour #RRGGBB: stroke, highlight or icon colour; for freetext the text colour.") var color: String?
    @Option(help: "Fill colour #RRGGBB (square, circle, line heads; a freetext's background).") var fill: String?
    @Option(help: "Opacity from 0 to 1.") var opacity: Double?
    @Option(help: "Line or border width in points (0 to 100).") var width: Double?
    @Option(help: "Font size of a freetext in points (1 to 400).") var size: Double?
    @Option(help: "Alignment of a freetext: left, center or right.") var align: PDFTextAlignment?
    @Option(help: "The author (/T); default: $FOLIO_AUTHOR or the user's name.") var author: String?

    func validate() throws {
        if let opacity, !(opacity.isFinite && (0...1).contains(opacity)) {
            throw ValidationError("--opacity \(opacity) is out of range (valid: 0 to 1)")
        }
        if let width, !(width.isFinite && (0...100).contains(width)) {
            throw ValidationError("--width \(width) is out of range (valid: 0 to 100)")
        }
        if let size, !(size.isFinite && (1...400).contains(size)) {
            throw ValidationError("--size \(size) is out of range (valid: 1 to 400)")
        }
        _ = try colors()
    }

    func colors() throws -> (color: PDFColor?, fill: PDFColor?) {
        do {
            return (try color.map { try PDFColor(hex: $0) }, try fill.map { try PDFColor(hex: $0) })
        } catch let error as PDFError {
            throw ValidationError(error.message)
        }
    }
}

/// Line endings of `--arrow`.
enum AnnotArrow: String, ExpressibleByArgument, CaseIterable {
    case none, start, end, both
}

/// `folio annot add`.
struct AnnotAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an annotation with its appearance stream (incremental update); prints its id.",
        discussion: """
            What each type needs: freetext --rect --text [--size --align --fill --width]; square, circle --rect
            [--fill]; highlight, underline, strikeout, squiggly one or more --rect; ink one or more --stroke;
            line --points x1,y1,x2,y2 [--arrow end]; note --points x,y (or --rect) [--text]; stamp --symbol --rect.
            Symbols: \(MusicalSymbol.allCases.map(\.rawValue).joined(separator: ", ")).
            Coordinates: points from the top-left of the page as displayed, y down (see `folio annot --help`).
            Example: folio annot add part.pdf --page 2 --type freetext --rect 40,60,160,30 --text "Cut to bar 48"
            Exit codes: 0 saved; 1 the file could not be read, written or annotated (untouched); 64 invalid value
            such as a page out of range or a rectangle outside the page (untouched).
            """
    )

    @OptionGroup var options: EditFileOptions
    @Option(help: "The page, 1-based.") var page: Int
    @Option(help: "freetext, square, circle, highlight, underline, strikeout, squiggly, ink, line, note or stamp.")
    var type: PDFAnnotationKind
    @OptionGroup var place: AnnotPlaceOptions
    @OptionGroup var style: AnnotStyleOptions
    @Option(help: "The text: a freetext's text, a note's text, a comment on anything else.") var text: String?
    @Option(help: "The musical mark of a stamp.") var symbol: MusicalSymbol?
    @Option(help: "A note's icon: Comment, Note, Key, Help, Insert, Paragraph, NewParagraph.") var icon: String?
    @Option(help: "Arrow heads of a line: none, start, end or both.") var arrow: AnnotArrow = .none
    @Option(help: "The annotation's name (/NM); default a new UUID.") var name: String?

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page \(page) is out of range (valid: 1 or more)") }
        if type == .stamp, symbol == nil {
            throw ValidationError("a stamp needs --symbol (valid: \(MusicalSymbol.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        if symbol != nil, type != .stamp { throw ValidationError("--symbol goes with --type stamp") }
        if type == .freeText, (text ?? "").isEmpty { throw ValidationError("a freetext needs --text") }
        if type == .ink, place.stroke.isEmpty { throw ValidationError("an ink annotation needs at least one --stroke") }
        if type.isTextMarkup || [.freeText, .square, .circle, .stamp].contains(type), place.rect.isEmpty {
            throw ValidationError("a \(type.rawValue) needs --rect x,y,w,h")
        }
        if type == .line, place.points == nil { throw ValidationError("a line needs --points x1,y1,x2,y2") }
        if type == .note, place.points == nil, place.rect.isEmpty { throw ValidationError("a note needs --points x,y") }
        if !type.isTextMarkup, place.rect.count > 1 { throw ValidationError("only text markups take several --rect") }
    }

    func run() throws {
        let (color, fill) = try style.colors()
        let id = try AnnotCommand.edit("add", options) { document in
            let pageIndex = page - 1
            let pages = document.pages()
            guard pages.indices.contains(pageIndex) else {
                throw PDFError.pageOutOfRange(page, count: pages.count)
            }
            let geometry = PDFPageGeometry(page: pages[pageIndex])
            var draft = PDFAnnotationDraft(kind: type)
            let rects = try place.rects(geometry)
            if type.isTextMarkup { draft.quads = rects } else { draft.rect = rects.first }
            draft.strokes = try place.stroke.map { try place.pointList($0, option: "stroke", geometry) }
            draft.points = try place.pointList(place.points, option: "points", geometry)
            if type == .note, !place.rect.isEmpty { draft.points = [] }
            draft.contents = text
            draft.color = color
            draft.fill = fill
            draft.opacity = style.opacity ?? 1
            draft.width = style.width
            draft.fontSize = style.size ?? 12
            draft.alignment = style.align ?? .left
            draft.author = style.author ?? AnnotCommand.defaultAuthor
            draft.name = name
            if let icon { draft.icon = icon }
            draft.stampArt = symbol?.art
            let head = type == .line ? "OpenArrow" : "None"
            draft.lineEndings = [arrow == .start || arrow == .both ? head : "None", arrow == .end || arrow == .both ? head : "None"]
            return try document.addAnnotation(draft, toPage: pageIndex).id
        }
        print(id)
    }
}
