import Foundation

/// Appearance streams for the kinds Folio writes, computed from the annotation dictionary
/// alone (so an edit regenerates exactly what an add wrote).
///
/// Each is drawn in the annotation's upright frame — origin at the bottom-left of `/Rect`
/// as the page is shown, y up for the viewer — and the form's `/Matrix` turns that frame
/// back for a page with `/Rotate`, so text and icons read upright everywhere. The form's
/// `/BBox`, transformed by `/Matrix`, has exactly the size of `/Rect`, so the mapping of
/// ISO 32000-1 §12.5.5 is a pure translation in every viewer.
enum AnnotationAppearance {
    /// Padding between a FreeText box's border and its text.
    static let textPadding = 2.0
    /// Helvetica's ascender, as a fraction of the font size.
    static let ascent = 0.718
    static let lineHeight = 1.16

    /// The form XObject for `annotation` on a page shown with `geometry`; nil for a kind
    /// Folio cannot draw (or a Stamp whose art is unknown).
    static func form(for annotation: PDFAnnotation, geometry: PDFPageGeometry, stampArt: PDFStampArt?,
                     fonts: (String) -> TrueTypeFont?, first: TrueTypeFont? = nil,
                     embed: (PDFDrawing.EmbeddedFont) throws -> PDFReference) throws -> PDFStream?
    {
        guard let kind = PDFAnnotationKind(subtype: annotation.subtype) else { return nil }
        let rect = annotation.rect
        // A NoRotate annotation is turned upright by the viewer itself.
        let frame = annotation.staysUpright
            ? PDFPageGeometry(cropBox: geometry.cropBox, rotation: 0).uprightFrame(for: rect)
            : geometry.uprightFrame(for: rect)
        guard let toLocal = frame.toUser.inverted else { return nil }
        let (width, height) = frame.size
        let local: (PDFPoint) -> PDFPoint = { toLocal.apply($0) }
        var drawing = PDFDrawing()
        let stroke = annotation.color ?? .black
        let lineWidth = annotation.borderWidth ?? 1
        let opacity = annotation.opacity
        // An annotation in a layer draws inside that layer's marked content too: viewers that
        // ignore an annotation's own /OC (pdf.js 2.x) hide it with the layer all the same.
        let layer = annotation.dictionary["OC"]?.referenceValue
        if let layer { drawing.beginLayer(layer) }
        drawing.save()
        switch kind {
        case .square, .circle:
            drawing.setOpacity(opacity)
            let box = PDFRect(x1: 0, y1: 0, x2: width, y2: height).insetBy(lineWidth / 2)
            if let fill = annotation.interiorColor { drawing.setFillColor(fill) }
            drawing.setStrokeColor(stroke)
            drawing.setLineWidth(lineWidth)
            if kind == .square { drawing.rectangle(box) } else { drawing.ellipse(in: box) }
            switch (annotation.interiorColor != nil, lineWidth > 0) {
            case (true, true): drawing.fillAndStroke()
            case (true, false): drawing.fill()
            default: drawing.stroke()
            }
        case .freeText:
            try drawFreeText(annotation, into: &drawing, width: width, height: height, first: first, fonts: fonts)
        case .highlight, .underline, .strikeOut, .squiggly:
            drawing.setOpacity(opacity, blendMode: kind == .highlight ? "Multiply" : nil)
            for quad in quads(of: annotation) {
                let corners = quad.map(local)
                guard let box = PDFRect(enclosing: corners) else { continue }
                switch kind {
                case .highlight:
                    drawing.setFillColor(stroke)
                    // Upper-left, upper-right, lower-left, lower-right: drawn as a polygon around.
                    drawing.move(to: corners[0])
                    drawing.line(to: corners[1])
                    drawing.line(to: corners[3])
                    drawing.line(to: corners[2])
                    drawing.closePath()
                    drawing.fill()
                case .underline, .strikeOut:
                    let thickness = max(0.5, box.height * 0.07)
                    let y = kind == .underline ? box.y1 + thickness : box.y1 + box.height * 0.42
                    drawing.setStrokeColor(stroke)
                    drawing.setLineWidth(thickness)
                    drawing.move(to: PDFPoint(x: box.x1, y: y))
                    drawing.line(to: PDFPoint(x: box.x2, y: y))
                    drawing.stroke()
                default:
                    let amplitude = max(0.75, box.height * 0.06)
                    let step = max(1.5, box.height / 6)
                    drawing.setStrokeColor(stroke)
                    drawing.setLineWidth(max(0.5, box.height * 0.05))
                    var x = box.x1
                    var up = true
                    drawing.move(to: PDFPoint(x: x, y: box.y1 + amplitude))
                    while x < box.x2 {
                        x = min(box.x2, x + step)
                        up.toggle()
                        drawing.line(to: PDFPoint(x: x, y: box.y1 + (up ? 2 * amplitude : 0) + amplitude * 0.5))
                    }
                    drawing.stroke()
                }
            }
        case .ink:
            drawing.setOpacity(opacity)
            drawing.setStrokeColor(stroke)
            drawing.setLineWidth(lineWidth)
            drawing.setLineCap(1)
            drawing.setLineJoin(1)
            for path in annotation.inkList where !path.isEmpty {
                drawing.smoothPath(through: path.map(local))
                drawing.stroke()
            }
        case .line:
            drawing.setOpacity(opacity)
            guard annotation.line.count == 2 else { return nil }
            let start = local(annotation.line[0]), end = local(annotation.line[1])
            drawing.setStrokeColor(stroke)
            drawing.setFillColor(annotation.interiorColor ?? stroke)
            drawing.setLineWidth(lineWidth)
            drawing.setLineCap(1)
            drawing.setLineJoin(1)
            drawing.move(to: start)
            drawing.line(to: end)
            drawing.stroke()
            let endings = annotation.lineEndings + ["None", "None"]
            drawEnding(endings[0], at: start, from: end, width: lineWidth, into: &drawing)
            drawEnding(endings[1], at: end, from: start, width: lineWidth, into: &drawing)
        case .note:
            drawing.setOpacity(opacity)
            drawNoteIcon(color: stroke, width: width, height: height, into: &drawing)
        case .stamp:
            guard let art = stampArt, art.width > 0, art.height > 0 else { return nil }
            drawing.setOpacity(opacity)
            let scale = min(width / art.width, height / art.height)
            drawing.transform(PDFMatrix(scale, 0, 0, scale, (width - art.width * scale) / 2,
                                        (height - art.height * scale) / 2))
            drawing.setStrokeColor(stroke)
            drawing.setFillColor(stroke)
            drawing.append(art.drawing)
        }
        drawing.restore()
        if layer != nil { drawing.endLayer() }
        let matrix = frame.toUser
        var dictionary: PDFDictionary = [
            "Type": .name("XObject"), "Subtype": .name("Form"), "FormType": .integer(1),
            "BBox": numbers([0, 0, width, height]),
            "Matrix": numbers([matrix.a, matrix.b, matrix.c, matrix.d, 0, 0]),
            "Resources": .dictionary(try drawing.resources(embedding: embed)),
        ]
        let encoded = try FlateFilter.encode(drawing.content)
        dictionary["Filter"] = .name("FlateDecode")
        dictionary["Length"] = .integer(encoded.count)
        return PDFStream(dictionary: dictionary, encodedData: encoded)
    }

    static func numbers(_ values: [Double]) -> PDFObject {
        .array(values.map { value in
            let rounded = (value * 1000).rounded() / 1000
            return rounded == rounded.rounded() && abs(rounded) < 1e9 ? .integer(Int(rounded)) : .real(PDFReal(rounded))
        })
    }

    /// The quads of a markup in user space, each as upper-left, upper-right, lower-left,
    /// lower-right; the rectangle itself when QuadPoints are missing.
    static func quads(of annotation: PDFAnnotation) -> [[PDFPoint]] {
        let values = annotation.quadPoints
        guard values.count >= 8 else {
            let r = annotation.rect
            return [[PDFPoint(x: r.x1, y: r.y2), PDFPoint(x: r.x2, y: r.y2), PDFPoint(x: r.x1, y: r.y1),
                     PDFPoint(x: r.x2, y: r.y1)]]
        }
        return stride(from: 0, to: values.count - 7, by: 8).map { start in
            (0..<4).map { PDFPoint(x: values[start + 2 * $0], y: values[start + 2 * $0 + 1]) }
        }
    }

    private static func drawFreeText(_ annotation: PDFAnnotation, into drawing: inout PDFDrawing, width: Double,
                                     height: Double, first: TrueTypeFont?, fonts load: (String) -> TrueTypeFont?) throws {
        let appearance = annotation.defaultAppearance
        let size = appearance?.size.flatMap { $0 > 0 ? $0 : nil } ?? 12
        let textColor = appearance?.color ?? .black
        let border = annotation.borderWidth ?? 0
        drawing.setOpacity(annotation.opacity)
        let box = PDFRect(x1: 0, y1: 0, x2: width, y2: height)
        if let fill = annotation.interiorColor ?? annotation.color {
            drawing.setFillColor(fill)
            drawing.rectangle(box)
            drawing.fill()
        }
        if border > 0 {
            drawing.setStrokeColor(textColor)
            drawing.setLineWidth(border)
            drawing.rectangle(box.insetBy(border / 2))
            drawing.stroke()
        }
        let padding = textPadding + border
        let text = annotation.contents ?? ""
        let face = try freeTextFace(for: text, first: first, load: load)
        drawing.save()
        drawing.rectangle(box.insetBy(border))
        drawing.clip()
        drawing.setFillColor(textColor)
        var baseline = height - padding - ascent * size
        let alignment = PDFTextAlignment(rawValue: annotation.alignment ?? 0) ?? .left
        func left(_ lineWidth: Double) -> Double {
            switch alignment {
            case .left: padding
            case .center: (width - lineWidth) / 2
            case .right: width - padding - lineWidth
            }
        }
        switch face {
        case .standard(let font):
            for line in try font.wrap(text, size: size, maxWidth: max(1, width - 2 * padding)) {
                if !line.isEmpty { drawing.text(line, font: font, size: size, at: PDFPoint(x: left(font.width(ofEncoded: line, size: size)), y: baseline)) }
                baseline -= size * lineHeight
            }
        case .trueType, .chain:
            // Each piece of a line in the first font of the chain that has it, one after the other.
            let fonts: [TrueTypeFont] = switch face {
            case .trueType(let font): [font]
            case .chain(let fonts): fonts
            case .standard: []
            }
            let paragraphs = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            for paragraph in paragraphs {
                // Hebrew and Arabic: joined, and each line put in the order it is drawn.
                let direction = BidiText.direction(of: String(paragraph)) ?? .leftToRight
                for logical in face.wrap(String(paragraph), size: size, maxWidth: max(1, width - 2 * padding)) {
                    let line = face.visualLine(logical, direction: direction)
                    try drawing.text(line, chain: fonts, size: size, at: PDFPoint(x: left(face.width(of: line, size: size)), y: baseline))
                    baseline -= size * lineHeight
                }
            }
        }
        drawing.restore()
    }

    /// The face a FreeText's text is drawn in: the document's chosen font (`first`) then the
    /// installed ones for what it lacks; without one, Helvetica (a standard font, not
    /// embedded) for text WinAnsiEncoding holds, else the installed fonts (``SystemFonts``),
    /// embedded as subsets. A character no font has is an ``PDFError/Code/invalidArgument``
    /// error naming it and the packages that would draw it.
    static func freeTextFace(for text: String, first: TrueTypeFont? = nil, load: (String) -> TrueTypeFont?) throws -> PDFTypeface {
        if first == nil, (try? StandardFont.helvetica.encode(text)) != nil { return .standard(.helvetica) }
        return .chain(try SystemFonts.covering(text, style: .regular, first: first, load: load))
    }

    /// The font `/DA` names for a FreeText of `text`: Helvetica's resource for WinAnsi text,
    /// else the first embedded font's (as the appearance's resources name it).
    static func defaultAppearanceFont(for text: String, first: TrueTypeFont? = nil, load: (String) -> TrueTypeFont?) throws -> String {
        if case .standard(let font) = try freeTextFace(for: text, first: first, load: load) { return font.resourceName }
        return "FolioU0"
    }

    /// An arrow head, circle or square at `point` of a line coming from `from`.
    private static func drawEnding(_ ending: String, at point: PDFPoint, from: PDFPoint, width: Double,
                                   into drawing: inout PDFDrawing) {
        let length = hypot(point.x - from.x, point.y - from.y)
        guard length > 0, ending != "None" else { return }
        let size = max(6, width * 4)
        let (ux, uy) = ((point.x - from.x) / length, (point.y - from.y) / length)
        switch ending {
        case "OpenArrow", "ClosedArrow":
            let back = PDFPoint(x: point.x - ux * size, y: point.y - uy * size)
            let left = PDFPoint(x: back.x - uy * size / 2, y: back.y + ux * size / 2)
            let right = PDFPoint(x: back.x + uy * size / 2, y: back.y - ux * size / 2)
            drawing.move(to: left)
            drawing.line(to: point)
            drawing.line(to: right)
            if ending == "ClosedArrow" {
                drawing.closePath()
                drawing.fillAndStroke()
            } else {
                drawing.stroke()
            }
        case "Circle":
            drawing.ellipse(in: PDFRect(x1: point.x - size / 2, y1: point.y - size / 2, x2: point.x + size / 2,
                                        y2: point.y + size / 2))
            drawing.fillAndStroke()
        case "Square":
            drawing.rectangle(PDFRect(x1: point.x - size / 2, y1: point.y - size / 2, x2: point.x + size / 2,
                                      y2: point.y + size / 2))
            drawing.fillAndStroke()
        case "Butt":
            drawing.move(to: PDFPoint(x: point.x - uy * size / 2, y: point.y + ux * size / 2))
            drawing.line(to: PDFPoint(x: point.x + uy * size / 2, y: point.y - ux * size / 2))
            drawing.stroke()
        default:
            break
        }
    }

    /// A sticky note: a folded sheet in the note's colour with three lines of "text".
    private static func drawNoteIcon(color: PDFColor, width: Double, height: Double, into drawing: inout PDFDrawing) {
        let box = PDFRect(x1: 0, y1: 0, x2: width, y2: height).insetBy(0.5)
        let fold = min(box.width, box.height) * 0.3
        drawing.setFillColor(color)
        drawing.setStrokeColor(PDFColor(red: 0.2, green: 0.2, blue: 0.2))
        drawing.setLineWidth(1)
        drawing.setLineJoin(1)
        drawing.move(to: PDFPoint(x: box.x1, y: box.y1))
        drawing.line(to: PDFPoint(x: box.x2 - fold, y: box.y1))
        drawing.line(to: PDFPoint(x: box.x2, y: box.y1 + fold))
        drawing.line(to: PDFPoint(x: box.x2, y: box.y2))
        drawing.line(to: PDFPoint(x: box.x1, y: box.y2))
        drawing.closePath()
        drawing.fillAndStroke()
        for step in 1...3 {
            let y = box.y2 - box.height * Double(step) / 4.2
            drawing.move(to: PDFPoint(x: box.x1 + box.width * 0.18, y: y))
            drawing.line(to: PDFPoint(x: box.x2 - box.width * (step == 3 ? 0.4 : 0.18), y: y))
        }
        drawing.stroke()
    }
}
