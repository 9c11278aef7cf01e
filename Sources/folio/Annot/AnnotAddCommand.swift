import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

extension PDFAnnotationKind: ExpressibleByArgument {}
extension MusicalSymbol: ExpressibleByArgument {}
extension PDFTextAlignment: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(named: argument)
    }

    public static var allValueStrings: [String] { names }
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
        }
        if let points { _ = try Self.numbers(points, option: "points", multipleOf: 2) }
        for value in stroke { _ = try Self.numbers(value, option: "stroke", multipleOf: 2) }
    }
}

/// Style options shared by add and edit.
struct AnnotStyleOptions: ParsableArguments {
    @Option(help: "Colour #RRGGBB: stroke, highlight or icon colour; for freetext the text colour.") var color: String?
    @Option(help: "Fill colour #RRGGBB (square, circle, line heads; a freetext's background).") var fill: String?
    @Option(parsing: .unconditional, help: "Opacity from 0 to 1.") var opacity: Double?
    @Option(parsing: .unconditional, help: "Line or border width in points (0 to 100).") var width: Double?
    @Option(parsing: .unconditional, help: "Font size of a freetext in points (1 to 400).") var size: Double?
    @Option(help: "Alignment of a freetext: left, center or right.") var align: PDFTextAlignment?
    @Option(help: "The author (/T); default: $FOLIO_AUTHOR or the user's name.") var author: String?
    @Option(help: "A TrueType font (.ttf) a freetext is drawn in (embedded as a subset; the installed fonts draw what it lacks).")
    var fontFile: String?

    /// The style options into an added or an edited mark; a font file that cannot be read
    /// or is no font Folio can embed is an invalid value naming it.
    func apply<Mark: AnnotationStyling>(to mark: inout Mark) throws {
        mark.font = try fontFile.map(TextFont.read)
        mark.color = color
        mark.fill = fill
        mark.opacity = opacity
        mark.width = width
        mark.size = size
        mark.alignment = align
        mark.author = author
    }
}

extension AnnotationRequest.Arrow: ExpressibleByArgument {}

/// `folio annot add`.
struct AnnotAddCommand: ParsableCommand {
    // The symbols are spelled out (every command's configuration is built at start-up; a list
    // made from `MusicalSymbol.allCases` cost each a fifth of a millisecond). A test holds the
    // text to the values `--symbol` takes.
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an annotation with its appearance stream (incremental update); prints its id.",
        discussion: """
            What each type needs: freetext --rect --text [--size --align --fill --width --font-file]; \
            square, circle --rect [--fill]; highlight, underline, strikeout, squiggly one or more --rect; ink one or more --stroke; \
            line --points x1,y1,x2,y2 [--arrow end]; note --points x,y (or --rect) [--text]; stamp --symbol --rect, or \
            stamp --text --rect (a stamp of words, any script), or stamp --image F.png --rect (a picture of your \
            own, PNG with transparency or JPEG, up to 16 megapixels, drawn in the rectangle in its proportions). \
            Symbols: fermata, breath, caesura, accent, staccato, tenuto, pp, p, mp, mf, f, ff, sfz, cresc, dim, cresc-text, \
            dim-text, vs. \
            Coordinates: points from the top-left of the page as displayed, y down (see `folio annot --help`).
            Example: folio annot add part.pdf --page 2 --type freetext --rect 40,60,160,30 --text "Cut to bar 48"
            Exit codes: 0 saved; 1 the file could not be read, written or annotated (untouched); 64 invalid value \
            such as a page out of range or a rectangle outside the page (untouched).
            """
    )

    @OptionGroup var options: EditFileOptions
    @Option(parsing: .unconditional, help: "The page, 1-based.") var page: Int
    @Option(help: "freetext, square, circle, highlight, underline, strikeout, squiggly, ink, line, note or stamp.")
    var type: PDFAnnotationKind
    @OptionGroup var place: AnnotPlaceOptions
    @OptionGroup var style: AnnotStyleOptions
    @Option(help: "The text: a freetext's text, a note's text, a comment on anything else.") var text: String?
    @Option(help: "The musical mark of a stamp.") var symbol: MusicalSymbol?
    @Option(help: "A stamp's picture: a PNG (its transparency kept) or JPEG file.") var image: String?
    @Option(help: "A note's icon: Comment, Note, Key, Help, Insert, Paragraph, NewParagraph.") var icon: String?
    @Option(help: "Arrow heads of a line: none, start, end or both.") var arrow: AnnotationRequest.Arrow = .none
    @Option(help: "The annotation's name (/NM); default a new UUID.") var name: String?
    @Flag(help: "Print {\"file\",\"id\",\"page\",\"type\"} on one line instead of the id alone.") var json = false

    func validate() throws {
        do { try request().validate() } catch let error as ScoreError { throw ValidationError(error.message) }
    }

    /// What the options ask for, as the one request both the CLI and the server add marks by.
    func request() throws -> AnnotationRequest {
        var request = AnnotationRequest(kind: type, page: page)
        request.rects = try place.rect.map { try AnnotPlaceOptions.numbers($0, option: "rect", multipleOf: 4) }
        request.points = try place.points.map { try AnnotPlaceOptions.numbers($0, option: "points", multipleOf: 2) } ?? []
        request.strokes = try place.stroke.map { try AnnotPlaceOptions.numbers($0, option: "stroke", multipleOf: 2) }
        request.userSpace = place.userSpace
        request.text = text
        request.symbol = symbol
        if let image {
            let size = (try? FileManager.default.attributesOfItem(atPath: image)[.size] as? Int) ?? 0
            guard size <= ImageStamp.maxBytes else {
                throw ValidationError("--image \(image) has \(size) bytes (valid: up to \(ImageStamp.maxBytes))")
            }
            guard let data = FileManager.default.contents(atPath: image) else { throw ValidationError("--image \(image): no such file") }
            request.image = Array(data)
        }
        request.icon = icon
        try style.apply(to: &request)
        request.arrow = arrow
        request.author = style.author ?? EditAuthor.current()
        request.name = name
        return request
    }

    func run() throws {
        let request = try request()
        let id = try AnnotCommand.edit("add", options) { document in try request.add(to: document) }
        if json {
            print(JSONValue.object([("file", .string(options.file)), ("id", .string(id)), ("page", .int(page)),
                                    ("type", .string(type.markName))]) as String)
        } else {
            print(id)
        }
    }
}
