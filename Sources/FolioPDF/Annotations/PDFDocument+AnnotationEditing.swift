import Foundation

/// Adding, editing and removing annotations. Each change touches only the annotation, its
/// appearance, and the page (or its `/Annots` array): an incremental save appends those.
///
/// ```swift
/// try PDFSaver.update(path: "score.pdf") { doc in
///     var draft = PDFAnnotationDraft(kind: .freeText)
///     draft.rect = PDFRect(x1: 72, y1: 700, x2: 272, y2: 740)
///     draft.contents = "Cut to bar 48"
///     return try doc.addAnnotation(draft, toPage: 0).id
/// }
/// ```
extension PDFDocument {
    /// Most points in one ink annotation, quads in one markup.
    public static let maxAnnotationPoints = 100_000
    /// Width and height of a note's icon.
    public static let noteIconSize = 20.0

    /// Throws when the file's permissions forbid annotating and it was not opened with the
    /// owner password (ISO 32000-1 Table 22, bit 6).
    public func checkMayAnnotate() throws {
        guard let encryption, !encryption.openedAsOwner, encryption.permissions & 32 == 0 else { return }
        throw PDFError(.notPermitted,
                       "the file's permissions forbid adding or changing annotations; open it with the owner password")
    }

    /// The page at `pageIndex`, with an error naming the valid range.
    public func page(at pageIndex: Int) throws -> PDFPage {
        let pages = pages()
        guard pages.indices.contains(pageIndex) else {
            throw PDFError.pageOutOfRange(pageIndex + 1, count: pages.count)
        }
        return pages[pageIndex]
    }

    /// Adds an annotation to page `pageIndex` (0-based) and returns it as it will read
    /// back. `date` and the generated `/NM` can be fixed for reproducible output.
    @discardableResult
    public func addAnnotation(_ draft: PDFAnnotationDraft, toPage pageIndex: Int, date: Date = Date()) throws
        -> PDFAnnotation
    {
        try checkMayAnnotate()
        let page = try page(at: pageIndex)
        guard let pageReference = page.reference else {
            throw PDFError(.damaged, "page \(pageIndex + 1) is not an indirect object; annotations cannot point to it")
        }
        if let name = draft.name, let (holder, _) = annotation(named: name) {
            throw PDFError(.invalidArgument, "an annotation named \(name) is already on page \(holder + 1) (names are unique in a document)")
        }
        let geometry = PDFPageGeometry(page: page)
        var dictionary = try annotationDictionary(for: draft, geometry: geometry, date: date)
        dictionary["P"] = .reference(pageReference)
        let reference = add(.dictionary(dictionary))
        var added = annotation(dictionary, reference: reference, pageIndex: pageIndex, index: 0)
        try attachAppearance(to: &added, geometry: geometry, stampArt: draft.stampArt)
        var entries: [PDFObject] = [.reference(reference)]
        if draft.kind == .note {
            // The note's text shows in a popup beside the icon; viewers draw popups themselves.
            let size = geometry.displaySize
            let shown = geometry.toDisplay(added.rect, noRotate: true)
            let popupRect = geometry.toUser(x: min(shown.x + shown.width + 4, max(0, size.width - 180)),
                                            y: min(shown.y, max(0, size.height - 120)), width: 180, height: 120)
            let popup: PDFDictionary = [
                "Type": .name("Annot"), "Subtype": .name("Popup"), "Rect": AnnotationAppearance.numbers(popupRect.array),
                "Parent": .reference(reference), "Open": .boolean(false), "F": .integer(PDFAnnotationFlags.print.rawValue),
                "P": .reference(pageReference),
            ]
            let popupReference = add(.dictionary(popup))
            added.dictionary["Popup"] = .reference(popupReference)
            added.popup = popupReference
            replace(reference, with: .dictionary(added.dictionary))
            entries.append(.reference(popupReference))
        }
        var annots = resolve(page.dictionary["Annots"]).arrayValue ?? []
        added.index = annots.count
        annots += entries
        try setAnnots(annots, of: page, pageIndex: pageIndex)
        added.id = added.name.flatMap { PDFDocument.isUsableIdentifier($0) ? $0 : nil } ?? "obj-\(reference.number)"
        return added
    }

    /// Changes an annotation and regenerates its appearance. Points, quads and strokes
    /// move and scale with a new rectangle; a Stamp is redrawn from the art `stampArt` gives
    /// for its `/Name` and (new) `/Contents` — an error it throws for new contents refuses
    /// the edit, one for the contents the stamp has leaves it undrawn as before. Links,
    /// Widgets and Popups are refused.
    @discardableResult
    public func editAnnotation(id: String, onPage pageIndex: Int? = nil, _ change: PDFAnnotationChange,
                               stampArt: (_ name: String, _ contents: String?) throws -> PDFStampArt? = { _, _ in nil },
                               date: Date = Date()) throws
        -> PDFAnnotation
    {
        try checkMayAnnotate()
        let (page, found) = try locateAnnotation(id: id, onPage: pageIndex)
        guard found.isMarkup else {
            throw PDFError(.invalidArgument, "annotation \(id) is a \(found.subtype); Folio does not edit those")
        }
        let geometry = PDFPageGeometry(page: page)
        var edited = found
        var dictionary = found.dictionary
        if let rect = change.rect {
            guard !rect.isEmpty else { throw PDFError(.invalidArgument, "the new rectangle of \(id) is empty") }
            try checkInside(found.staysUpright ? PDFRect(x1: rect.x1, y1: rect.y2, x2: rect.x1, y2: rect.y2) : rect, geometry: geometry)
            let old = found.rect
            let sx = old.width > 0 ? rect.width / old.width : 1
            let sy = old.height > 0 ? rect.height / old.height : 1
            let map = { (p: PDFPoint) in PDFPoint(x: rect.x1 + (p.x - old.x1) * sx, y: rect.y1 + (p.y - old.y1) * sy) }
            func mapped(_ values: [Double]) -> PDFObject {
                AnnotationAppearance.numbers(stride(from: 0, to: values.count - 1, by: 2).flatMap {
                    let p = map(PDFPoint(x: values[$0], y: values[$0 + 1]))
                    return [p.x, p.y]
                })
            }
            dictionary["Rect"] = AnnotationAppearance.numbers(rect.array)
            if !found.quadPoints.isEmpty { dictionary["QuadPoints"] = mapped(found.quadPoints) }
            if !found.line.isEmpty { dictionary["L"] = mapped(found.line.flatMap { [$0.x, $0.y] }) }
            if !found.vertices.isEmpty { dictionary["Vertices"] = mapped(found.vertices.flatMap { [$0.x, $0.y] }) }
            if !found.inkList.isEmpty {
                dictionary["InkList"] = .array(found.inkList.map { mapped($0.flatMap { [$0.x, $0.y] }) })
            }
            dictionary["RD"] = nil
        }
        if let contents = change.contents {
            if found.subtype == "FreeText" { _ = try AnnotationAppearance.freeTextFace(for: contents, first: textFont, load: systemFont) }
            dictionary["Contents"] = .string(PDFString(PDFTextString.encode(contents)))
        }
        if let author = change.author { dictionary["T"] = .string(PDFString(PDFTextString.encode(author))) }
        let isFreeText = found.subtype == "FreeText"
        if let color = change.color, !isFreeText { dictionary["C"] = AnnotationAppearance.numbers(color.components) }
        if let fill = change.fill {
            dictionary["IC"] = AnnotationAppearance.numbers(fill.components)
            if isFreeText { dictionary["C"] = AnnotationAppearance.numbers(fill.components) }
        }
        if let opacity = change.opacity {
            try PDFDocument.checkOpacity(opacity)
            dictionary["CA"] = .real(PDFReal(opacity))
        }
        if let width = change.width {
            try PDFDocument.checkWidth(width)
            dictionary["BS"] = PDFDocument.border(width: width)
            dictionary["Border"] = nil
        }
        if let size = change.fontSize {
            guard isFreeText else { throw PDFError(.invalidArgument, "a font size applies to FreeText annotations only") }
            try PDFDocument.checkFontSize(size)
        }
        if isFreeText, change.fontSize != nil || change.color != nil || change.contents != nil || textFont != nil {
            // The text's font (Helvetica, or the embedded font new text needs), size and colour live together in /DA.
            let size = change.fontSize ?? found.defaultAppearance?.size ?? 12
            let color = change.color ?? found.defaultAppearance?.color ?? .black
            let font = try AnnotationAppearance.defaultAppearanceFont(for: change.contents ?? found.contents ?? "", first: textFont, load: systemFont)
            dictionary["DA"] = .string(PDFString(Array(PDFDocument.defaultAppearance(size: size, color: color, font: font).utf8)))
        }
        if let alignment = change.alignment { dictionary["Q"] = .integer(alignment.rawValue) }
        dictionary["M"] = .string(PDFString(Array(PDFDate(date).pdfString.utf8)))
        edited = annotation(dictionary, reference: found.reference, pageIndex: found.pageIndex, index: found.index)
        edited.id = found.id
        let art: PDFStampArt? = try found.iconName.flatMap { name in
            // New words must be drawable; the stamp's own, should they no longer be, leave it undrawn.
            if let contents = change.contents { return try stampArt(name, contents) }
            return try? stampArt(name, found.contents)
        }
        let kind = PDFAnnotationKind(subtype: found.subtype)
        let drawable = kind != nil && (kind != .stamp || art != nil)
        let restyled = change.color != nil || change.fill != nil || change.opacity != nil || change.width != nil
            || change.fontSize != nil || change.alignment != nil || (isFreeText && change.contents != nil)
        if drawable {
            try attachAppearance(to: &edited, geometry: geometry, stampArt: art)
        } else if restyled {
            throw PDFError(.invalidArgument,
                           "Folio cannot redraw \(id) (\(found.subtype)\(found.iconName.map { " \($0)" } ?? "")); only its rectangle, text and author can change")
        }
        // Otherwise the old appearance stays: viewers map its box onto the new rectangle.
        try store(edited, on: page)
        return edited
    }

    /// Removes annotations by id, each with its popup and the replies to it (recursively).
    /// Returns the ids removed (the ones asked for first).
    @discardableResult
    public func removeAnnotations(ids: [String], onPage pageIndex: Int? = nil) throws -> [String] {
        try checkMayAnnotate()
        var targets: [Int: [PDFAnnotation]] = [:]
        for id in ids {
            let (_, found) = try locateAnnotation(id: id, onPage: pageIndex)
            targets[found.pageIndex, default: []].append(found)
        }
        return try remove(targets)
    }

    /// Removes annotations as listed (by ``annotations(onPage:)`` or ``annotations()``), each
    /// with its popup and replies, in one pass per page however many there are (hundreds of
    /// links a page). Returns the ids removed.
    ///
    /// ```swift
    /// let links = document.annotations().filter { $0.subtype == "Link" }
    /// try document.removeAnnotations(links)
    /// ```
    @discardableResult
    public func removeAnnotations(_ annotations: [PDFAnnotation]) throws -> [String] {
        try checkMayAnnotate()
        return try remove(Dictionary(grouping: annotations, by: \.pageIndex))
    }

    /// Removes every markup annotation of the given subtypes (all markup subtypes when
    /// empty) on one page or all. Links and Widgets go only when named in `subtypes`.
    @discardableResult
    public func removeAllAnnotations(subtypes: Set<String> = [], onPage pageIndex: Int? = nil) throws -> [String] {
        try checkMayAnnotate()
        var targets: [Int: [PDFAnnotation]] = [:]
        let pages = pages()
        if let pageIndex, !pages.indices.contains(pageIndex) {
            throw PDFError.pageOutOfRange(pageIndex + 1, count: pages.count)
        }
        for (index, page) in pages.enumerated() where pageIndex == nil || pageIndex == index {
            let chosen = annotations(of: page, pageIndex: index).filter {
                subtypes.isEmpty ? $0.isMarkup : subtypes.contains($0.subtype)
            }
            if !chosen.isEmpty { targets[index] = chosen }
        }
        return try remove(targets)
    }

    func remove(_ targets: [Int: [PDFAnnotation]]) throws -> [String] {
        let pages = pages()
        var removed: [String] = []
        for (pageIndex, chosen) in targets.sorted(by: { $0.key < $1.key }) {
            let page = pages[pageIndex]
            let all = annotations(of: page, pageIndex: pageIndex)
            var gone = Set(chosen.map(\.index))
            var goneNumbers = Set(chosen.compactMap { $0.reference?.number })
            // Popups and replies follow the annotation they belong to, until nothing more joins.
            var grew = true
            while grew {
                grew = false
                for item in all where !gone.contains(item.index) {
                    let linked = [item.parent, item.inReplyTo].compactMap { $0?.number }.contains(where: goneNumbers.contains)
                        || chosen.contains { $0.popup != nil && $0.popup == item.reference }
                    if linked {
                        gone.insert(item.index)
                        if let number = item.reference?.number { goneNumbers.insert(number) }
                        grew = true
                    }
                }
            }
            removed += chosen.map(\.id) + all.filter { gone.contains($0.index) && !chosen.map(\.index).contains($0.index) }.map(\.id)
            let entries = resolve(page.dictionary["Annots"]).arrayValue ?? []
            let kept = entries.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
            try setAnnots(kept, of: page, pageIndex: pageIndex)
        }
        return removed
    }

    /// The first annotation whose `/NM` is `name`, with its page's index; nil when none has it.
    ///
    /// ```swift
    /// if let (pageIndex, mark) = document.annotation(named: "3F2504E0-4F89") { print(pageIndex + 1, mark.id) }
    /// ```
    public func annotation(named name: String) -> (pageIndex: Int, annotation: PDFAnnotation)? {
        for (index, page) in pages().enumerated() {
            if let found = annotations(of: page, pageIndex: index).first(where: { $0.name == name }) { return (index, found) }
        }
        return nil
    }

    /// The annotation with this id and its page, on `pageIndex` or on any page (an id found on more
    /// than one page needs the page).
    public func locateAnnotation(id: String, onPage pageIndex: Int? = nil) throws -> (PDFPage, PDFAnnotation) {
        let pages = pages()
        if let pageIndex, !pages.indices.contains(pageIndex) {
            throw PDFError.pageOutOfRange(pageIndex + 1, count: pages.count)
        }
        var matches: [(PDFPage, PDFAnnotation)] = []
        for (index, page) in pages.enumerated() where pageIndex == nil || pageIndex == index {
            for item in annotations(of: page, pageIndex: index) where item.id == id { matches.append((page, item)) }
        }
        guard let first = matches.first else {
            throw PDFError(.invalidArgument, "no annotation has the id \(id)\(pageIndex.map { " on page \($0 + 1)" } ?? ""); `folio annot list` shows the ids")
        }
        guard matches.count == 1 else {
            throw PDFError(.invalidArgument, "the id \(id) names annotations on pages \(matches.map { String($0.1.pageIndex + 1) }.joined(separator: ", ")); give the page")
        }
        return first
    }

    /// Writes an edited annotation back: its own object, or its slot in `/Annots`.
    private func store(_ annotation: PDFAnnotation, on page: PDFPage) throws {
        if let reference = annotation.reference {
            replace(reference, with: .dictionary(annotation.dictionary))
            return
        }
        var entries = resolve(page.dictionary["Annots"]).arrayValue ?? []
        guard entries.indices.contains(annotation.index) else { return }
        entries[annotation.index] = .dictionary(annotation.dictionary)
        try setAnnots(entries, of: page, pageIndex: annotation.pageIndex)
    }

    /// Stores the page's new `/Annots`: in its own array object when only this page uses
    /// it, else (or when it was direct) in the page dictionary.
    func setAnnots(_ entries: [PDFObject], of page: PDFPage, pageIndex: Int) throws {
        guard let pageReference = page.reference else {
            throw PDFError(.damaged, "page \(pageIndex + 1) is not an indirect object and cannot be changed")
        }
        var pageDictionary = page.dictionary
        if case .reference(let arrayReference)? = pageDictionary["Annots"] {
            let sharers = pages().filter { $0.dictionary["Annots"]?.referenceValue == arrayReference }.count
            if sharers <= 1 {
                replace(arrayReference, with: .array(entries))
                return
            }
        }
        pageDictionary["Annots"] = entries.isEmpty ? nil : .array(entries)
        replace(pageReference, with: .dictionary(pageDictionary))
    }

    /// Generates the appearance for `annotation` and stores it as a new stream, pointed
    /// to by `/AP /N` (and the annotation object updated).
    private func attachAppearance(to annotation: inout PDFAnnotation, geometry: PDFPageGeometry,
                                  stampArt: PDFStampArt?) throws {
        guard let form = try AnnotationAppearance.form(for: annotation, geometry: geometry, stampArt: stampArt, fonts: systemFont, first: textFont,
                                                       embed: { try embedFont($0.font, glyphs: $0.glyphs) }) else {
            return
        }
        let formReference = add(.stream(form))
        annotation.dictionary["AP"] = .dictionary(["N": .reference(formReference)])
        annotation.dictionary["AS"] = nil
        annotation.hasAppearance = true
        if let reference = annotation.reference { replace(reference, with: .dictionary(annotation.dictionary)) }
    }

    /// A solid border of `width` points.
    static func border(width: Double) -> PDFObject {
        .dictionary(["Type": .name("Border"), "W": AnnotationAppearance.numbers([width]).arrayValue?.first ?? .integer(1),
                     "S": .name("S")])
    }

    static func defaultAppearance(size: Double, color: PDFColor, font: String = StandardFont.helvetica.resourceName) -> String {
        "/\(font) \(PDFDrawing.number(size)) Tf "
            + color.components.map(PDFDrawing.number).joined(separator: " ") + " rg"
    }

    static func checkOpacity(_ value: Double) throws {
        guard value.isFinite, (0...1).contains(value) else {
            throw PDFError(.invalidArgument, "opacity \(value) is out of range (valid: 0 to 1)")
        }
    }

    static func checkWidth(_ value: Double) throws {
        guard value.isFinite, (0...100).contains(value) else {
            throw PDFError(.invalidArgument, "width \(value) is out of range (valid: 0 to 100 points)")
        }
    }

    static func checkFontSize(_ value: Double) throws {
        guard value.isFinite, (1...400).contains(value) else {
            throw PDFError(.invalidArgument, "font size \(value) is out of range (valid: 1 to 400 points)")
        }
    }

    func checkInside(_ rect: PDFRect, geometry: PDFPageGeometry) throws {
        guard geometry.cropBox.contains(rect, tolerance: 0.5) else {
            let shown = geometry.toDisplay(rect)
            let size = geometry.displaySize
            throw PDFError(.invalidArgument, String(
                format: "the annotation (x %.1f, y %.1f, %.1f × %.1f as shown) is not inside the page (valid: x 0 to %.1f, y 0 to %.1f)",
                shown.x, shown.y, shown.width, shown.height, size.width, size.height))
        }
    }

    /// The dictionary of a new annotation, validated, without `/P` and `/AP`.
    func annotationDictionary(for draft: PDFAnnotationDraft, geometry: PDFPageGeometry, date: Date) throws
        -> PDFDictionary
    {
        try PDFDocument.checkOpacity(draft.opacity)
        if let width = draft.width { try PDFDocument.checkWidth(width) }
        let width = draft.width ?? (draft.kind == .freeText ? 0 : draft.kind == .ink ? 2 : 1)
        var dictionary: PDFDictionary = ["Type": .name("Annot"), "Subtype": .name(draft.kind.subtype)]
        if let layer = draft.optionalContent { dictionary["OC"] = .reference(layer) }
        let rect: PDFRect
        // What must lie on the page: the rectangle, or the points a stroke or line passes through.
        var drawn: PDFRect?
        switch draft.kind {
        case .freeText, .square, .circle, .stamp:
            guard let given = draft.rect else { throw PDFError(.invalidArgument, "a \(draft.kind.rawValue) needs a rectangle") }
            rect = given
        case .highlight, .underline, .strikeOut, .squiggly:
            guard !draft.quads.isEmpty else {
                throw PDFError(.invalidArgument, "a \(draft.kind.rawValue) needs at least one rectangle to cover")
            }
            guard draft.quads.count <= PDFDocument.maxAnnotationPoints else {
                throw PDFError(.invalidArgument, "too many rectangles (valid: 1 to \(PDFDocument.maxAnnotationPoints))")
            }
            for quad in draft.quads where quad.isEmpty {
                throw PDFError(.invalidArgument, "a rectangle to \(draft.kind.rawValue) is empty")
            }
            rect = draft.quads.dropFirst().reduce(draft.quads[0]) { $0.union($1) }
            // Upper-left, upper-right, lower-left, lower-right of each as shown, as viewers read them.
            dictionary["QuadPoints"] = AnnotationAppearance.numbers(draft.quads.flatMap { quad in
                PDFPageGeometry.uprightCorners(of: quad, geometry: geometry).flatMap { [$0.x, $0.y] }
            })
        case .ink:
            let strokes = draft.strokes.filter { !$0.isEmpty }
            guard !strokes.isEmpty else { throw PDFError(.invalidArgument, "an ink annotation needs at least one stroke of points") }
            let all = strokes.flatMap { $0 }
            guard all.count <= PDFDocument.maxAnnotationPoints else {
                throw PDFError(.invalidArgument, "too many points (valid: 1 to \(PDFDocument.maxAnnotationPoints))")
            }
            guard let bounds = PDFRect(enclosing: all) else { throw PDFError(.invalidArgument, "empty ink") }
            rect = bounds.insetBy(-(width / 2 + 1))
            drawn = bounds
            dictionary["InkList"] = .array(strokes.map { stroke in
                AnnotationAppearance.numbers(stroke.flatMap { [$0.x, $0.y] })
            })
        case .line:
            guard draft.points.count == 2 else { throw PDFError(.invalidArgument, "a line needs exactly two points") }
            guard draft.points[0] != draft.points[1] else { throw PDFError(.invalidArgument, "a line's two points are the same") }
            for ending in draft.lineEndings where !PDFAnnotationDraft.lineEndingNames.contains(ending) {
                throw PDFError(.invalidArgument, "line ending \(ending) is unknown (valid: \(PDFAnnotationDraft.lineEndingNames.sorted().joined(separator: ", ")))")
            }
            let reach = draft.lineEndings.allSatisfy { $0 == "None" } ? width / 2 + 1 : max(6, width * 4) + width
            guard let bounds = PDFRect(enclosing: draft.points) else { throw PDFError(.invalidArgument, "empty line") }
            rect = bounds.insetBy(-reach)
            drawn = bounds
            dictionary["L"] = AnnotationAppearance.numbers(draft.points.flatMap { [$0.x, $0.y] })
            dictionary["LE"] = .array(draft.lineEndings.prefix(2).map { .name($0) })
        case .note:
            guard PDFAnnotationDraft.noteIcons.contains(draft.icon) else {
                throw PDFError(.invalidArgument, "note icon \(draft.icon) is unknown (valid: \(PDFAnnotationDraft.noteIcons.sorted().joined(separator: ", ")))")
            }
            // Notes behave as if NoZoom and NoRotate were set (ISO 32000-1 §12.5.6.4): the
            // icon hangs upright from the corner that is upper-left in user space.
            let anchor: PDFPoint
            if let given = draft.rect {
                let shown = geometry.toDisplay(given)
                anchor = geometry.toUser(PDFPoint(x: shown.x, y: shown.y))
            } else if let point = draft.points.first {
                anchor = point
            } else {
                throw PDFError(.invalidArgument, "a note needs a point or a rectangle")
            }
            rect = PDFRect(x1: anchor.x, y1: anchor.y - PDFDocument.noteIconSize, x2: anchor.x + PDFDocument.noteIconSize,
                           y2: anchor.y)
            drawn = PDFRect(x1: anchor.x, y1: anchor.y, x2: anchor.x, y2: anchor.y)
            dictionary["Name"] = .name(draft.icon)
            dictionary["Open"] = .boolean(false)
        }
        guard !rect.isEmpty else { throw PDFError(.invalidArgument, "the annotation's rectangle is empty (give a width and a height above 0)") }
        try checkInside(drawn ?? rect, geometry: geometry)
        dictionary["Rect"] = AnnotationAppearance.numbers(rect.array)
        switch draft.kind {
        case .freeText:
            guard let text = draft.contents, !text.isEmpty else { throw PDFError(.invalidArgument, "a freetext needs text") }
            let font = try AnnotationAppearance.defaultAppearanceFont(for: text, first: textFont, load: systemFont)
            try PDFDocument.checkFontSize(draft.fontSize)
            dictionary["DA"] = .string(PDFString(Array(PDFDocument.defaultAppearance(size: draft.fontSize, color: draft.color ?? .black,
                                                                                     font: font).utf8)))
            dictionary["Q"] = .integer(draft.alignment.rawValue)
            if let fill = draft.fill {
                dictionary["C"] = AnnotationAppearance.numbers(fill.components)
                dictionary["IC"] = AnnotationAppearance.numbers(fill.components)
            }
        case .stamp:
            guard let art = draft.stampArt else { throw PDFError(.invalidArgument, "a stamp needs its art") }
            dictionary["Name"] = .name(art.name)
            dictionary["C"] = AnnotationAppearance.numbers((draft.color ?? .black).components)
        default:
            let fallback: PDFColor = draft.kind == .highlight ? .yellow : draft.kind == .note ? .yellow : PDFColor(red: 0.85, green: 0, blue: 0)
            dictionary["C"] = AnnotationAppearance.numbers((draft.color ?? fallback).components)
            if let fill = draft.fill, [.square, .circle, .line].contains(draft.kind) {
                dictionary["IC"] = AnnotationAppearance.numbers(fill.components)
            }
        }
        if let contents = draft.contents { dictionary["Contents"] = .string(PDFString(PDFTextString.encode(contents))) }
        let name = draft.name ?? UUID().uuidString.lowercased()
        dictionary["NM"] = .string(PDFString(PDFTextString.encode(name)))
        dictionary["M"] = .string(PDFString(Array(PDFDate(date).pdfString.utf8)))
        if let author = draft.author { dictionary["T"] = .string(PDFString(PDFTextString.encode(author))) }
        var flags: PDFAnnotationFlags = draft.kind == .note ? [.print, .noZoom, .noRotate] : .print
        if draft.isHidden { flags = flags.subtracting(.print).union(.hidden) }
        dictionary["F"] = .integer(flags.rawValue)
        dictionary["BS"] = PDFDocument.border(width: width)
        if draft.opacity < 1 { dictionary["CA"] = .real(PDFReal(draft.opacity)) }
        for (key, value) in draft.entries where dictionary[key] == nil {
            dictionary[key] = .string(PDFString(PDFTextString.encode(value)))
        }
        return dictionary
    }
}

extension PDFPageGeometry {
    /// The corners of a user-space rectangle as upper-left, upper-right, lower-left,
    /// lower-right of the page as shown — the QuadPoints order viewers read.
    static func uprightCorners(of rect: PDFRect, geometry: PDFPageGeometry) -> [PDFPoint] {
        let shown = geometry.toDisplay(rect)
        return [geometry.toUser(PDFPoint(x: shown.x, y: shown.y)),
                geometry.toUser(PDFPoint(x: shown.x + shown.width, y: shown.y)),
                geometry.toUser(PDFPoint(x: shown.x, y: shown.y + shown.height)),
                geometry.toUser(PDFPoint(x: shown.x + shown.width, y: shown.y + shown.height))]
    }
}
