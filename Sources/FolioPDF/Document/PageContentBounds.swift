import Foundation

/// The box a page's content draws into: paths that are stroked or filled (in a colour other
/// than white), text that is not invisible (measured with the font's widths and ascent and
/// descent), images, and forms (clipped to their /BBox), in default user space. What an
/// auto-crop keeps. Clipping paths are not followed, so the box may be larger, never smaller,
/// than what shows — except for marks painted in white, which are taken as paper.
///
/// ```swift
/// if let box = try doc.contentBounds(ofPage: 0) { print(box.array) }   // [72.1, 96.4, 523.8, 770.2]
/// ```
extension PDFDocument {
    /// The bounding box of what page `index` (0-based) draws, nil when it draws nothing.
    public func contentBounds(ofPage index: Int) throws -> PDFRect? {
        try contentBounds(of: try page(at: index))
    }

    /// The bounding box of what `page` draws, for callers that walked the page tree already.
    public func contentBounds(of page: PDFPage) throws -> PDFRect? {
        var walker = ContentBoundsWalker(document: self)
        let data = try contentData(page.dictionary["Contents"])
        try walker.walk(data, resources: dictionary(page.resources), matrix: PDFMatrix(1, 0, 0, 1, 0, 0), depth: 0)
        return walker.bounds
    }

    /// A page's content streams decoded and joined by a newline (an operator may not span them).
    func contentData(_ contents: PDFObject?) throws -> [UInt8] {
        switch resolve(contents) {
        case .stream(let stream):
            return try decodedData(of: stream)
        case .array(let parts):
            var data: [UInt8] = []
            for part in parts {
                if case .stream(let stream) = resolve(part) {
                    data += try decodedData(of: stream)
                    data.append(0x0A)
                }
            }
            return data
        default:
            return []
        }
    }
}

/// Runs a content stream through a small interpreter that only tracks geometry — and, when
/// `glyphs` is not nil, collects the glyphs text shows (``PDFDocument/textLines(ofPage:)``).
struct ContentBoundsWalker {
    let document: PDFDocument
    var bounds: PDFRect?
    var glyphs: [PDFGlyph]?
    /// The most glyphs collected from one page.
    static let maxGlyphs = 200_000
    private var forms = Set<Int>()
    private var fonts: [String: FontMetrics] = [:]

    init(document: PDFDocument) {
        self.document = document
    }

    private struct GraphicsState {
        var matrix: PDFMatrix
        var lineWidth = 1.0
        var fillWhite = false
        var strokeWhite = false
        var font: FontMetrics?
        var fontSize = 0.0
        var characterSpacing = 0.0
        var wordSpacing = 0.0
        var horizontalScale = 1.0
        var leading = 0.0
        var rise = 0.0
        var renderMode = 0
    }

    /// Widths and vertical extent of a font, enough to box its text.
    struct FontMetrics {
        var widths: [Int: Double] = [:]
        var defaultWidth = 500.0
        var twoByte = false
        var ascent = 0.8
        var descent = -0.2
        /// Glyph space to text space (1/1000, or a Type 3 font's matrix).
        var scale = 0.001
        /// Codes to text (the ToUnicode map), read only when text is collected.
        var unicode: [Int: String] = [:]
        /// A simple font's /Differences: codes to glyph names.
        var differences: [Int: String] = [:]
    }

    /// Most nested forms followed.
    static let maxDepth = 12

    private mutating func include(_ rect: PDFRect, _ matrix: PDFMatrix) {
        guard let box = PDFRect(enclosing: rect.corners.map(matrix.apply)),
              [box.x1, box.y1, box.x2, box.y2].allSatisfy(\.isFinite) else { return }
        bounds = bounds.map { $0.union(box) } ?? box
    }

    mutating func walk(_ data: [UInt8], resources: PDFDictionary?, matrix: PDFMatrix, depth: Int) throws {
        var state = GraphicsState(matrix: matrix)
        var stack: [GraphicsState] = []
        var operands: [PDFObject] = []
        var path: PDFRect?
        var textMatrix = PDFMatrix(1, 0, 0, 1, 0, 0), lineMatrix = textMatrix
        func numbers() -> [Double] { operands.compactMap(\.doubleValue) }
        func addPoint(_ x: Double, _ y: Double) {
            let point = PDFRect(x1: x, y1: y, x2: x, y2: y)
            path = path.map { $0.union(point) } ?? point
        }
        func isWhite(_ values: [Double]) -> Bool {
            values.count == 4 ? values.allSatisfy { $0 == 0 } : !values.isEmpty && values.allSatisfy { $0 == 1 }
        }

        try data.withUnsafeBytes { buffer in
            var lexer = Lexer(bytes: buffer)
            var arrayDepth = 0, array: [PDFObject] = []
            while true {
                let token = lexer.next()
                try document.log.chargeTime(1)
                switch token {
                case .eof:
                    return
                case .integer(let value):
                    if arrayDepth > 0 { array.append(.integer(value)) } else { operands.append(.integer(value)) }
                case .real(let value):
                    if arrayDepth > 0 { array.append(.real(value)) } else { operands.append(.real(value)) }
                case .string(let value):
                    if arrayDepth > 0 { array.append(.string(value)) } else { operands.append(.string(value)) }
                case .name(let value):
                    if arrayDepth == 0 { operands.append(.name(value)) }
                case .arrayOpen:
                    arrayDepth += 1
                    if arrayDepth == 1 { array = [] }
                case .arrayClose:
                    arrayDepth = max(0, arrayDepth - 1)
                    if arrayDepth == 0 { operands.append(.array(array)) }
                case .dictOpen:
                    // Inline property lists (BDC, DP) tell nothing about geometry.
                    var level = 1
                    while level > 0 {
                        switch lexer.next() {
                        case .dictOpen: level += 1
                        case .dictClose: level -= 1
                        case .eof: return
                        default: break
                        }
                    }
                    operands.append(.null)
                case .dictClose, .braceOpen, .braceClose:
                    break
                case .keyword(let op):
                    let values = numbers()
                    switch op {
                    case "q":
                        if stack.count < 1000 { stack.append(state) }
                    case "Q":
                        if let saved = stack.popLast() { state = saved }
                    case "cm" where values.count == 6:
                        state.matrix = PDFMatrix(values[0], values[1], values[2], values[3], values[4], values[5])
                            .concatenating(state.matrix)
                    case "w" where values.count == 1:
                        state.lineWidth = abs(values[0])
                    case "g", "rg", "k":
                        state.fillWhite = isWhite(values)
                    case "G", "RG", "K":
                        state.strokeWhite = isWhite(values)
                    case "sc", "scn":
                        state.fillWhite = operands.count == values.count && isWhite(values)
                    case "SC", "SCN":
                        state.strokeWhite = operands.count == values.count && isWhite(values)
                    case "cs":
                        state.fillWhite = false
                    case "CS":
                        state.strokeWhite = false
                    case "m", "l":
                        if values.count == 2 { addPoint(values[0], values[1]) }
                    case "c", "v", "y":
                        for pair in stride(from: 0, to: values.count - 1, by: 2) { addPoint(values[pair], values[pair + 1]) }
                    case "re" where values.count == 4:
                        addPoint(values[0], values[1])
                        addPoint(values[0] + values[2], values[1] + values[3])
                    case "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n":
                        let strokes = ["S", "s", "B", "B*", "b", "b*"].contains(op) && !state.strokeWhite
                        let fills = ["f", "F", "f*", "B", "B*", "b", "b*"].contains(op) && !state.fillWhite
                        if let box = path, strokes || fills {
                            let half = strokes ? state.lineWidth / 2 : 0
                            include(box.insetBy(-half), state.matrix)
                        }
                        path = nil
                    case "BT":
                        textMatrix = PDFMatrix(1, 0, 0, 1, 0, 0)
                        lineMatrix = textMatrix
                    case "Tf" where operands.count == 2:
                        if case .name(let name) = operands[0] { state.font = metrics(name, resources: resources) }
                        state.fontSize = values.last ?? 0
                    case "Tc" where values.count == 1: state.characterSpacing = values[0]
                    case "Tw" where values.count == 1: state.wordSpacing = values[0]
                    case "Tz" where values.count == 1: state.horizontalScale = values[0] / 100
                    case "TL" where values.count == 1: state.leading = values[0]
                    case "Ts" where values.count == 1: state.rise = values[0]
                    case "Tr" where values.count == 1: state.renderMode = (0...7).contains(values[0]) ? Int(values[0]) : 0
                    case "Td", "TD":
                        if values.count == 2 {
                            if op == "TD" { state.leading = -values[1] }
                            lineMatrix = PDFMatrix(1, 0, 0, 1, values[0], values[1]).concatenating(lineMatrix)
                            textMatrix = lineMatrix
                        }
                    case "Tm" where values.count == 6:
                        lineMatrix = PDFMatrix(values[0], values[1], values[2], values[3], values[4], values[5])
                        textMatrix = lineMatrix
                    case "T*":
                        lineMatrix = PDFMatrix(1, 0, 0, 1, 0, -state.leading).concatenating(lineMatrix)
                        textMatrix = lineMatrix
                    case "Tj", "'", "\"", "TJ":
                        if op != "Tj" && op != "TJ" {
                            lineMatrix = PDFMatrix(1, 0, 0, 1, 0, -state.leading).concatenating(lineMatrix)
                            textMatrix = lineMatrix
                            if op == "\"", values.count >= 2 {
                                state.wordSpacing = values[0]
                                state.characterSpacing = values[1]
                            }
                        }
                        let pieces: [PDFObject] = op == "TJ" ? (operands.last?.arrayValue ?? []) : operands.suffix(1)
                        showText(pieces, state: state, textMatrix: &textMatrix)
                    case "Do" where operands.count == 1:
                        if case .name(let name) = operands[0] {
                            try draw(name, resources: resources, matrix: state.matrix, depth: depth)
                        }
                    case "BI":
                        // An inline image fills the unit square; skip its data to "EI".
                        include(PDFRect(x1: 0, y1: 0, x2: 1, y2: 1), state.matrix)
                        var found = false
                        while !lexer.isAtEnd {
                            if case .keyword("ID") = lexer.next() {
                                found = true
                                break
                            }
                        }
                        guard found else { return }
                        var from = lexer.position, ended = false
                        while let end = lexer.find(Array("EI".utf8), from: from) {
                            from = end + 2
                            let after = lexer.byte(at: end + 2), before = lexer.byte(at: end - 1)
                            if after.map(ByteClass.isWhitespace) ?? true, before.map(ByteClass.isWhitespace) ?? true {
                                ended = true
                                break
                            }
                        }
                        guard ended else { return }
                        lexer.position = from
                    default:
                        break
                    }
                    operands.removeAll(keepingCapacity: true)
                }
            }
        }

        func showText(_ pieces: [PDFObject], state: GraphicsState, textMatrix: inout PDFMatrix) {
            let font = state.font ?? FontMetrics()
            let size = state.fontSize
            var advance = 0.0
            // Collecting text: where each glyph starts and ends on the baseline, in user space.
            let drawn = textMatrix.concatenating(state.matrix)
            let readable = glyphs != nil && state.renderMode != 3 && state.renderMode != 7 && drawn.a > 0
                && abs(drawn.b) <= 0.18 * drawn.a && (glyphs?.count ?? 0) < Self.maxGlyphs
            let drawnSize = abs(size) * (drawn.c * drawn.c + drawn.d * drawn.d).squareRoot()
            for piece in pieces {
                switch piece {
                case .string(let string):
                    let bytes = string.bytes
                    let step = font.twoByte ? 2 : 1
                    var index = 0
                    while index + step <= bytes.count {
                        let code = font.twoByte ? Int(bytes[index]) << 8 | Int(bytes[index + 1]) : Int(bytes[index])
                        let width = (font.widths[code] ?? font.defaultWidth) * font.scale * size
                        let spacing = state.characterSpacing + (!font.twoByte && code == 32 ? state.wordSpacing : 0)
                        if readable {
                            let text = font.unicode[code] ?? (font.twoByte ? "" : SimpleFontText.text(UInt8(code), differences: font.differences))
                            let start = drawn.apply(PDFPoint(x: advance, y: state.rise))
                            let end = drawn.apply(PDFPoint(x: advance + width * state.horizontalScale, y: state.rise))
                            if !text.isEmpty, [start.x, start.y, end.x].allSatisfy(\.isFinite) {
                                glyphs?.append(PDFGlyph(text: text, x0: start.x, x1: end.x, y: start.y, size: drawnSize))
                            }
                        }
                        advance += (width + spacing) * state.horizontalScale
                        index += step
                    }
                default:
                    if let kern = piece.doubleValue { advance -= kern / 1000 * size * state.horizontalScale }
                }
            }
            // Invisible text (render modes 3 and 7, as OCR layers over scans use) shows nothing.
            if state.renderMode != 3, state.renderMode != 7, advance != 0 {
                let box = PDFRect(x1: 0, y1: font.descent * size + state.rise, x2: advance, y2: font.ascent * size + state.rise)
                include(box, textMatrix.concatenating(state.matrix))
            }
            textMatrix = PDFMatrix(1, 0, 0, 1, advance, 0).concatenating(textMatrix)
        }
    }

    /// An XObject: an image fills the unit square; a form is walked, clipped to its box.
    private mutating func draw(_ name: String, resources: PDFDictionary?, matrix: PDFMatrix, depth: Int) throws {
        let reference = document.dictionary(resources?["XObject"])?[name]
        guard case .stream(let stream) = document.resolve(reference) else { return }
        switch document.resolve(stream.dictionary["Subtype"]).nameValue {
        case "Image":
            include(PDFRect(x1: 0, y1: 0, x2: 1, y2: 1), matrix)
        case "Form":
            guard depth < ContentBoundsWalker.maxDepth else { return }
            if let number = reference?.referenceValue?.number {
                guard !forms.contains(number) else { return }
                forms.insert(number)
            }
            defer { if let number = reference?.referenceValue?.number { forms.remove(number) } }
            let values = document.resolve(stream.dictionary["Matrix"]).arrayValue?.compactMap { document.resolve($0).doubleValue } ?? []
            let form = values.count == 6 ? PDFMatrix(values[0], values[1], values[2], values[3], values[4], values[5]) : PDFMatrix(1, 0, 0, 1, 0, 0)
            let total = form.concatenating(matrix)
            let outer = bounds
            bounds = nil
            let formResources = document.dictionary(stream.dictionary["Resources"]) ?? resources
            try walk(try document.decodedData(of: stream), resources: formResources, matrix: total, depth: depth + 1)
            var inner = bounds
            let box = document.resolve(stream.dictionary["BBox"]).arrayValue?.compactMap { document.resolve($0).doubleValue } ?? []
            if let drawn = inner, box.count == 4, let clip = PDFRect(enclosing: PDFRect(x1: box[0], y1: box[1], x2: box[2], y2: box[3]).corners.map(total.apply)) {
                let x1 = max(drawn.x1, clip.x1), y1 = max(drawn.y1, clip.y1), x2 = min(drawn.x2, clip.x2), y2 = min(drawn.y2, clip.y2)
                inner = x1 <= x2 && y1 <= y2 ? PDFRect(x1: x1, y1: y1, x2: x2, y2: y2) : nil
            }
            bounds = outer
            if let inner { bounds = bounds.map { $0.union(inner) } ?? inner }
        default:
            return
        }
    }

    /// The metrics of font resource `name`, read once per walk.
    private mutating func metrics(_ name: String, resources: PDFDictionary?) -> FontMetrics {
        let font = document.dictionary(document.dictionary(resources?["Font"])?[name])
        let key = name + ":" + String(describing: document.dictionary(resources?["Font"])?[name]?.referenceValue?.number)
        if let known = fonts[key] { return known }
        var metrics = FontMetrics()
        guard let font else { return metrics }
        let subtype = document.resolve(font["Subtype"]).nameValue
        var descriptor = document.dictionary(font["FontDescriptor"])
        if subtype == "Type0" {
            metrics.twoByte = true
            let descendant = document.dictionary(document.resolve(font["DescendantFonts"]).arrayValue?.first)
            descriptor = document.dictionary(descendant?["FontDescriptor"])
            metrics.defaultWidth = document.resolve(descendant?["DW"]).doubleValue ?? 1000
            let list = document.resolve(descendant?["W"]).arrayValue ?? []
            var index = 0
            while index < list.count, metrics.widths.count < 65_536 {
                guard let first = document.resolve(list[index]).intValue else { break }
                if index + 1 < list.count, let run = document.resolve(list[index + 1]).arrayValue {
                    for (offset, width) in run.enumerated() { metrics.widths[first + offset] = document.resolve(width).doubleValue }
                    index += 2
                } else if index + 2 < list.count, let last = document.resolve(list[index + 1]).intValue,
                          let width = document.resolve(list[index + 2]).doubleValue {
                    if last >= first, last - first < 65_536 { for code in first...last { metrics.widths[code] = width } }
                    index += 3
                } else {
                    break
                }
            }
        } else {
            let first = document.resolve(font["FirstChar"]).intValue ?? 0
            let widths = document.resolve(font["Widths"]).arrayValue ?? []
            for (offset, width) in widths.prefix(256).enumerated() { metrics.widths[first + offset] = document.resolve(width).doubleValue }
            if widths.isEmpty, let base = document.resolve(font["BaseFont"]).nameValue,
               let standard = [StandardFont.helvetica, .helveticaBold, .timesRoman, .timesBold, .timesItalic, .timesBoldItalic,
                               .courier, .courierBold].first(where: { base.hasPrefix($0.baseFont) }) {
                for code in 32..<256 { metrics.widths[code] = Double(standard.glyphWidth(UInt8(code))) }
            }
            if subtype == "Type3" {
                let matrix = document.resolve(font["FontMatrix"]).arrayValue?.compactMap { document.resolve($0).doubleValue } ?? []
                if matrix.count == 6 { metrics.scale = matrix[0] }
                let box = document.resolve(font["FontBBox"]).arrayValue?.compactMap { document.resolve($0).doubleValue } ?? []
                if box.count == 4, matrix.count == 6 {
                    metrics.descent = min(box[1], box[3]) * matrix[3]
                    metrics.ascent = max(box[1], box[3]) * matrix[3]
                }
            }
        }
        if glyphs != nil {
            if case .stream(let map) = document.resolve(font["ToUnicode"]),
               let data = try? document.decodedData(of: map, limit: 1 << 20) {
                metrics.unicode = ToUnicodeMap.parse(data)
            }
            if let differences = document.resolve(document.dictionary(font["Encoding"])?["Differences"]).arrayValue {
                var code = 0
                for item in differences.prefix(1_024) {
                    switch document.resolve(item) {
                    case .integer(let value): code = value
                    case .name(let name):
                        if (0..<256).contains(code) { metrics.differences[code] = name }
                        code += code < 256 ? 1 : 0
                    default: break
                    }
                }
            }
        }
        if subtype != "Type3", let descriptor {
            let box = document.resolve(descriptor["FontBBox"]).arrayValue?.compactMap { document.resolve($0).doubleValue } ?? []
            let ascent = document.resolve(descriptor["Ascent"]).doubleValue ?? (box.count == 4 ? box[3] : nil)
            let descent = document.resolve(descriptor["Descent"]).doubleValue ?? (box.count == 4 ? box[1] : nil)
            // Music fonts draw far above and below their ascent (stems, beams): the font box bounds them better.
            if box.count == 4 {
                metrics.ascent = max(ascent ?? 0, box[3]) / 1000
                metrics.descent = min(descent ?? 0, box[1]) / 1000
            } else {
                if let ascent { metrics.ascent = ascent / 1000 }
                if let descent { metrics.descent = descent / 1000 }
            }
        }
        fonts[key] = metrics
        return metrics
    }
}
