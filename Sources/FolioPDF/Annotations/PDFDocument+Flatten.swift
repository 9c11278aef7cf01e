/// Flattening: drawing annotations' appearances into the page content, for apps that hide
/// or drop annotations.
extension PDFDocument {
    /// Draws every visible markup annotation that has an appearance into its page's
    /// content and removes it (with its popup). Links, Widgets, hidden annotations and
    /// annotations without an appearance stay. Each page gains two small content streams
    /// (the old content is wrapped in `q … Q`, never rewritten) and its own `/Resources`
    /// with the appearances as XObjects. Returns the ids flattened.
    @discardableResult
    public func flattenAnnotations(onPage pageIndex: Int? = nil) throws -> [String] {
        try checkMayAnnotate()
        let pages = pages()
        if let pageIndex, !pages.indices.contains(pageIndex) {
            throw PDFError.pageOutOfRange(pageIndex + 1, count: pages.count)
        }
        var targets: [Int: [PDFAnnotation]] = [:]
        for (index, page) in pages.enumerated() where pageIndex == nil || pageIndex == index {
            var chosen: [PDFAnnotation] = []
            var draw: [UInt8] = []
            var resources = dictionary(page.resources) ?? PDFDictionary()
            var xobjects = dictionary(resources["XObject"]) ?? PDFDictionary()
            var states = dictionary(resources["ExtGState"]) ?? PDFDictionary()
            for item in annotations(of: page, pageIndex: index) where item.isMarkup {
                guard !item.flags.contains(.hidden), !item.flags.contains(.noView), !item.flags.contains(.invisible),
                      let (formObject, form) = normalAppearance(of: item)
                else { continue }
                let bbox = (resolve(form.dictionary["BBox"]).arrayValue ?? []).compactMap { resolve($0).doubleValue }
                guard bbox.count == 4 else { continue }
                let values = (resolve(form.dictionary["Matrix"]).arrayValue ?? []).compactMap { resolve($0).doubleValue }
                let matrix = values.count == 6 ? PDFMatrix(values[0], values[1], values[2], values[3], values[4], values[5]) : .identity
                let box = matrix.apply(PDFRect(x1: bbox[0], y1: bbox[1], x2: bbox[2], y2: bbox[3]))
                guard box.width > 0, box.height > 0, !item.rect.isEmpty else { continue }
                // ISO 32000-1 §12.5.5: the transformed box is scaled and moved onto /Rect.
                let sx = item.rect.width / box.width, sy = item.rect.height / box.height
                var placement = PDFMatrix(sx, 0, 0, sy, item.rect.x1 - box.x1 * sx, item.rect.y1 - box.y1 * sy)
                if item.staysUpright, page.rotation != 0 {
                    // Drawn as viewers draw it: turned upright about its upper-left corner.
                    let (x, y) = (item.rect.x1, item.rect.y2)
                    placement = placement.concatenating(PDFMatrix(1, 0, 0, 1, -x, -y))
                        .concatenating(.rotation(quarterTurns: page.rotation / 90))
                        .concatenating(PDFMatrix(1, 0, 0, 1, x, y))
                }
                let name = PDFDocument.freeName("FolioAnnot", in: xobjects)
                xobjects[name] = formObject
                var line = "q\n"
                if item.opacity < 1 {
                    let state = PDFDocument.freeName("FolioAnnotGS", in: states)
                    states[state] = .dictionary(["Type": .name("ExtGState"), "CA": .real(PDFReal(item.opacity)),
                                                 "ca": .real(PDFReal(item.opacity))])
                    line += "/\(state) gs\n"
                }
                line += placement.array.map(PDFDrawing.number).joined(separator: " ") + " cm\n/\(name) Do\nQ\n"
                draw += Array(line.utf8)
                chosen.append(item)
            }
            guard !chosen.isEmpty else { continue }
            guard let pageReference = page.reference else {
                throw PDFError(.damaged, "page \(index + 1) is not an indirect object and cannot be changed")
            }
            resources["XObject"] = .dictionary(xobjects)
            if !states.isEmpty { resources["ExtGState"] = .dictionary(states) }
            var pageDictionary = page.dictionary
            let before = add(.stream(PDFStream(dictionary: ["Length": .integer(2)], encodedData: Array("q\n".utf8))))
            let after = add(.stream(PDFStream(dictionary: ["Length": .integer(draw.count + 2)],
                                              encodedData: Array("Q\n".utf8) + draw)))
            var contents: [PDFObject] = [.reference(before)]
            switch pageDictionary["Contents"] {
            case .reference(let reference)? where resolve(.reference(reference)).arrayValue != nil:
                contents += resolve(.reference(reference)).arrayValue ?? []
            case .array(let items)?:
                contents += items
            case let single?:
                contents.append(single)
            case nil:
                break
            }
            contents.append(.reference(after))
            pageDictionary["Contents"] = .array(contents)
            pageDictionary["Resources"] = .dictionary(resources)
            replace(pageReference, with: .dictionary(pageDictionary))
            targets[index] = chosen
        }
        // The page objects were just replaced; removal reads them back with the new content.
        return try remove(targets)
    }

    /// The normal appearance: `/AP /N` itself, or the state `/AS` picks from it.
    func normalAppearance(of annotation: PDFAnnotation) -> (PDFObject, PDFStream)? {
        guard let appearance = dictionary(annotation.dictionary["AP"]), let normal = appearance["N"] else { return nil }
        let resolved = resolve(normal)
        if case .stream(let stream) = resolved { return normal.referenceValue != nil ? (normal, stream) : nil }
        guard let states = resolved.dictionaryValue, let state = resolve(annotation.dictionary["AS"]).nameValue,
              let chosen = states[state], chosen.referenceValue != nil, case .stream(let stream) = resolve(chosen)
        else { return nil }
        return (chosen, stream)
    }

    static func freeName(_ prefix: String, in dictionary: PDFDictionary) -> String {
        var number = 0
        while dictionary["\(prefix)\(number)"] != nil { number += 1 }
        return "\(prefix)\(number)"
    }
}
