import Foundation

/// A content stream being drawn: path, colour, text and state operators, with the fonts
/// and graphics states it uses collected for the form's resources.
///
/// ```swift
/// var drawing = PDFDrawing()
/// drawing.setStrokeColor(.black)
/// drawing.setLineWidth(2)
/// drawing.move(to: PDFPoint(x: 0, y: 0))
/// drawing.line(to: PDFPoint(x: 10, y: 10))
/// drawing.stroke()
/// ```
public struct PDFDrawing: Sendable, Equatable {
    /// The operators written so far.
    public private(set) var content: [UInt8] = []
    /// Standard fonts used, by resource name.
    public private(set) var fonts: [String: StandardFont] = [:]
    /// Graphics states used, by resource name.
    public private(set) var graphicsStates: [String: PDFDictionary] = [:]
    /// Image XObjects used, by resource name.
    public private(set) var images: [String: PDFReference] = [:]
    /// Optional content groups marked in the content, by resource name (`/Properties`).
    public private(set) var layers: [String: PDFReference] = [:]
    /// TrueType fonts used, by resource name, with the glyphs shown: embedded as subsets
    /// when the drawing is stored (``resources(embedding:)``).
    public private(set) var trueTypeFonts: [String: EmbeddedFont] = [:]

    /// A TrueType font a drawing shows text in, and the glyphs it shows with the characters
    /// each stands for (for the font's ToUnicode map).
    ///
    /// ```swift
    /// for (name, used) in drawing.trueTypeFonts { print(name, used.font.postScriptName, used.glyphs.count) }
    /// ```
    public struct EmbeddedFont: Sendable, Equatable {
        public var font: TrueTypeFont
        public var glyphs: [UInt16: String]
    }

    public init() {}

    private mutating func emit(_ operands: [Double], _ op: String) {
        for operand in operands {
            content += Array(PDFDrawing.number(operand).utf8)
            content.append(0x20)
        }
        content += Array(op.utf8)
        content.append(0x0A)
    }

    /// Numbers with at most three decimals, as content streams usually carry them.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 1000).rounded() / 1000
        return PDFSerializer.format(rounded == 0 ? 0 : rounded)
    }

    public mutating func save() { emit([], "q") }
    public mutating func restore() { emit([], "Q") }
    public mutating func transform(_ matrix: PDFMatrix) { emit(matrix.array, "cm") }
    public mutating func setLineWidth(_ width: Double) { emit([width], "w") }
    /// 0 butt, 1 round, 2 square.
    public mutating func setLineCap(_ cap: Int) { emit([Double(cap)], "J") }
    /// 0 miter, 1 round, 2 bevel.
    public mutating func setLineJoin(_ join: Int) { emit([Double(join)], "j") }
    public mutating func setStrokeColor(_ color: PDFColor) { emit(color.components, "RG") }
    public mutating func setFillColor(_ color: PDFColor) { emit(color.components, "rg") }
    public mutating func move(to point: PDFPoint) { emit([point.x, point.y], "m") }
    public mutating func line(to point: PDFPoint) { emit([point.x, point.y], "l") }
    public mutating func curve(_ control1: PDFPoint, _ control2: PDFPoint, to end: PDFPoint) {
        emit([control1.x, control1.y, control2.x, control2.y, end.x, end.y], "c")
    }
    public mutating func closePath() { emit([], "h") }
    public mutating func rectangle(_ rect: PDFRect) { emit([rect.x1, rect.y1, rect.width, rect.height], "re") }
    public mutating func stroke() { emit([], "S") }
    public mutating func fill() { emit([], "f") }
    public mutating func fillAndStroke() { emit([], "B") }
    public mutating func clip() { emit([], "W n") }

    /// Sets opacity (and a blend mode) through an ExtGState; nothing for plain opaque
    /// drawing.
    public mutating func setOpacity(_ opacity: Double, blendMode: String? = nil) {
        guard opacity < 1 || blendMode != nil else { return }
        var state: PDFDictionary = ["Type": .name("ExtGState"), "CA": .real(PDFReal(opacity)), "ca": .real(PDFReal(opacity))]
        if let blendMode { state["BM"] = .name(blendMode) }
        let name = "GS\(graphicsStates.count)"
        graphicsStates[name] = state
        content += Array("/\(name) gs\n".utf8)
    }

    /// An ellipse inscribed in `rect`, as four Bézier arcs.
    public mutating func ellipse(in rect: PDFRect) {
        let k = 0.5522847498
        let (cx, cy) = ((rect.x1 + rect.x2) / 2, (rect.y1 + rect.y2) / 2)
        let (rx, ry) = (rect.width / 2, rect.height / 2)
        move(to: PDFPoint(x: cx + rx, y: cy))
        curve(PDFPoint(x: cx + rx, y: cy + k * ry), PDFPoint(x: cx + k * rx, y: cy + ry), to: PDFPoint(x: cx, y: cy + ry))
        curve(PDFPoint(x: cx - k * rx, y: cy + ry), PDFPoint(x: cx - rx, y: cy + k * ry), to: PDFPoint(x: cx - rx, y: cy))
        curve(PDFPoint(x: cx - rx, y: cy - k * ry), PDFPoint(x: cx - k * rx, y: cy - ry), to: PDFPoint(x: cx, y: cy - ry))
        curve(PDFPoint(x: cx + k * rx, y: cy - ry), PDFPoint(x: cx + rx, y: cy - k * ry), to: PDFPoint(x: cx + rx, y: cy))
        closePath()
    }

    /// A smooth curve through every point (Catmull–Rom turned into cubic Béziers), as a
    /// pen stroke is drawn; a single point becomes a dot.
    public mutating func smoothPath(through points: [PDFPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        guard points.count > 1 else {
            line(to: PDFPoint(x: first.x + 0.01, y: first.y))
            return
        }
        for index in 0..<(points.count - 1) {
            let p0 = points[max(index - 1, 0)], p1 = points[index]
            let p2 = points[index + 1], p3 = points[min(index + 2, points.count - 1)]
            let c1 = PDFPoint(x: p1.x + (p2.x - p0.x) / 6, y: p1.y + (p2.y - p0.y) / 6)
            let c2 = PDFPoint(x: p2.x - (p3.x - p1.x) / 6, y: p2.y - (p3.y - p1.y) / 6)
            curve(c1, c2, to: p2)
        }
    }

    /// Shows encoded text with its baseline starting at `origin`.
    public mutating func text(_ encoded: [UInt8], font: StandardFont, size: Double, at origin: PDFPoint) {
        fonts[font.resourceName] = font
        content += Array("BT\n/\(font.resourceName) \(PDFDrawing.number(size)) Tf\n".utf8)
        emit([origin.x, origin.y], "Td")
        PDFSerializer.writeLiteral(encoded, to: &content)
        content += Array(" Tj\nET\n".utf8)
    }

    /// Shows `text` in a TrueType font (resource `name`) with its baseline starting at
    /// `origin`: two-byte glyph numbers, the glyphs noted for the font's subset. A character
    /// the font lacks is an ``PDFError/Code/invalidArgument`` error naming it.
    ///
    /// ```swift
    /// try drawing.text("Dvořák", trueType: dejaVu, name: "FolioU0", size: 12, at: PDFPoint(x: 4, y: 8))
    /// ```
    public mutating func text(_ text: String, trueType font: TrueTypeFont, name: String, size: Double, at origin: PDFPoint) throws {
        let encoded = try PDFTypeface.trueType(font).encode(text)
        FontEmbedding.note(encoded, for: text, in: &trueTypeFonts[name, default: EmbeddedFont(font: font, glyphs: [:])].glyphs)
        content += Array("BT\n/\(name) \(PDFDrawing.number(size)) Tf\n".utf8)
        emit([origin.x, origin.y], "Td")
        PDFSerializer.writeLiteral(encoded, to: &content)
        content += Array(" Tj\nET\n".utf8)
    }

    /// Shows one line in a chain of TrueType fonts starting at `origin`: each piece
    /// (``PDFTypeface/segments(_:)``) in its font, resource `FolioU` and the font's place in
    /// `fonts`, one after the other; returns the line's width. Give the line in the order it
    /// is drawn (``PDFTypeface/visualLine(_:direction:)``).
    ///
    /// ```swift
    /// let width = try drawing.text("Dvořák 新世界", chain: [dejaVu, droid], size: 12, at: PDFPoint(x: 4, y: 8))
    /// ```
    @discardableResult
    public mutating func text(_ line: String, chain fonts: [TrueTypeFont], size: Double, at origin: PDFPoint) throws -> Double {
        var x = origin.x
        for (piece, pieceText) in PDFTypeface.chain(fonts).segments(line) {
            guard case .trueType(let font) = piece else { continue }
            try text(pieceText, trueType: font, name: "FolioU\(fonts.firstIndex(of: font) ?? 0)", size: size, at: PDFPoint(x: x, y: origin.y))
            x += piece.width(of: pieceText, size: size)
        }
        return x - origin.x
    }

    /// Paints the image XObject `image` (see `PDFDocument.addImage(_:)`) into `rect`.
    public mutating func image(_ image: PDFReference, in rect: PDFRect) {
        let name = PDFDrawing.resourceName(of: image, in: images, prefix: "Im")
        images[name] = image
        save()
        emit([rect.width, 0, 0, rect.height, rect.x1, rect.y1], "cm")
        content += Array("/\(name) Do\n".utf8)
        restore()
    }

    /// Marks what follows, up to ``endLayer()``, as belonging to the optional content group
    /// `group` (`/OC /name BDC`): viewers hide it with that layer, also where they ignore an
    /// annotation's own `/OC`.
    public mutating func beginLayer(_ group: PDFReference) {
        let name = PDFDrawing.resourceName(of: group, in: layers, prefix: "OC")
        layers[name] = group
        content += Array("/OC /\(name) BDC\n".utf8)
    }

    /// Ends the layer ``beginLayer(_:)`` began.
    public mutating func endLayer() {
        content += Array("EMC\n".utf8)
    }

    /// Draws another drawing, with its fonts and graphics states, in the current state.
    public mutating func append(_ other: PDFDrawing) {
        var renamed = other.content
        for (name, group) in other.layers.sorted(by: { $0.key < $1.key }) {
            let newName = PDFDrawing.resourceName(of: group, in: layers, prefix: "OC")
            layers[newName] = group
            if newName != name { renamed = PDFDrawing.replace("/OC /\(name) BDC", with: "/OC /\(newName) BDC", in: renamed) }
        }
        for (name, state) in other.graphicsStates.sorted(by: { $0.key < $1.key }) {
            let newName = "GS\(graphicsStates.count)"
            graphicsStates[newName] = state
            if newName != name { renamed = PDFDrawing.replace("/\(name) gs", with: "/\(newName) gs", in: renamed) }
        }
        for (name, image) in other.images.sorted(by: { $0.key < $1.key }) {
            let newName = PDFDrawing.resourceName(of: image, in: images, prefix: "Im")
            images[newName] = image
            if newName != name { renamed = PDFDrawing.replace("/\(name) Do", with: "/\(newName) Do", in: renamed) }
        }
        fonts.merge(other.fonts) { current, _ in current }
        for (name, used) in other.trueTypeFonts {
            trueTypeFonts[name, default: EmbeddedFont(font: used.font, glyphs: [:])].glyphs.merge(used.glyphs) { current, _ in current }
        }
        content += renamed
    }

    /// The resource name `object` already has in `table`, else the next free one (`Im0`, `Im1`…).
    private static func resourceName(of object: PDFReference, in table: [String: PDFReference], prefix: String) -> String {
        table.first { $0.value == object }?.key ?? "\(prefix)\(table.count)"
    }

    private static func replace(_ target: String, with replacement: String, in bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        return Array(text.replacingOccurrences(of: target, with: replacement).utf8)
    }

    /// The `/Resources` dictionary this drawing needs, its TrueType fonts embedded by `embed`
    /// (which stores a font's objects and returns the reference of its Type0 font).
    ///
    /// ```swift
    /// let resources = try drawing.resources { used in try document.embedFont(used.font, glyphs: used.glyphs) }
    /// ```
    public func resources(embedding embed: (EmbeddedFont) throws -> PDFReference) throws -> PDFDictionary {
        var resources = self.resources
        guard !trueTypeFonts.isEmpty else { return resources }
        var fontDictionary = resources["Font"]?.dictionaryValue ?? PDFDictionary()
        for (name, used) in trueTypeFonts.sorted(by: { $0.key < $1.key }) { fontDictionary[name] = .reference(try embed(used)) }
        resources["Font"] = .dictionary(fontDictionary)
        return resources
    }

    /// The `/Resources` dictionary this drawing needs (TrueType fonts left out: see
    /// ``resources(embedding:)``).
    public var resources: PDFDictionary {
        var resources = PDFDictionary()
        if !fonts.isEmpty {
            var fontDictionary = PDFDictionary()
            for (name, font) in fonts.sorted(by: { $0.key < $1.key }) { fontDictionary[name] = .dictionary(font.dictionary) }
            resources["Font"] = .dictionary(fontDictionary)
        }
        if !graphicsStates.isEmpty {
            var states = PDFDictionary()
            for (name, state) in graphicsStates.sorted(by: { $0.key < $1.key }) { states[name] = .dictionary(state) }
            resources["ExtGState"] = .dictionary(states)
        }
        if !images.isEmpty {
            var objects = PDFDictionary()
            for (name, image) in images.sorted(by: { $0.key < $1.key }) { objects[name] = .reference(image) }
            resources["XObject"] = .dictionary(objects)
        }
        if !layers.isEmpty {
            var properties = PDFDictionary()
            for (name, group) in layers.sorted(by: { $0.key < $1.key }) { properties[name] = .reference(group) }
            resources["Properties"] = .dictionary(properties)
        }
        return resources
    }
}

/// Vector art of a fixed natural size that a Stamp annotation scales into its rectangle
/// (keeping the aspect ratio), drawn in the box `[0, 0, width, height]` with y up.
///
/// ```swift
/// var art = PDFDrawing()
/// art.ellipse(in: PDFRect(x1: 0, y1: 0, x2: 10, y2: 10)); art.fill()
/// let dot = PDFStampArt(name: "Dot", width: 10, height: 10, drawing: art)
/// ```
public struct PDFStampArt: Sendable, Equatable {
    /// The stamp's `/Name` (a PDF name without the slash).
    public var name: String
    public var width: Double
    public var height: Double
    /// Drawn in the colour the annotation sets beforehand (stroke and fill).
    public var drawing: PDFDrawing

    public init(name: String, width: Double, height: Double, drawing: PDFDrawing) {
        self.name = name
        self.width = width
        self.height = height
        self.drawing = drawing
    }
}
