import Foundation

/// Link annotations: where one leads, and new ones that jump to a page of the same file —
/// a D.S. to its sign, a coda, a repeat — as every viewer follows them (ISO 32000-1 §12.5.6.5).
///
/// ```swift
/// try PDFSaver.update(path: "Fauré.pdf") { document in
///     let from = PDFRect(x1: 480, y1: 60, x2: 540, y2: 90)
///     return try document.addLink(onPage: 2, rect: from, toPage: 0).id
/// }
/// ```
extension PDFDocument {
    /// Where each of `annotations` leads (its /Dest, or its /A action), in their order; nil
    /// for an annotation with neither. Names and page references are resolved once for all.
    ///
    /// ```swift
    /// let links = try document.annotations(onPage: 0).filter { $0.subtype == "Link" }
    /// for (link, target) in zip(links, document.linkTargets(links)) { print(link.id, target as Any) }
    /// ```
    public func linkTargets(_ annotations: [PDFAnnotation]) -> [PDFOutlineTarget?] {
        guard !annotations.isEmpty else { return [] }
        let resolver = DestinationResolver(document: self)
        return annotations.map { resolver.target(of: $0.dictionary) }
    }

    /// Adds a Link annotation over `rect` (user space) of page `pageIndex` that goes to the
    /// top of page `target` (both 0-based), shown whole (/Fit), without a border; `name`
    /// becomes its /NM. Returns it as it will read back.
    @discardableResult
    public func addLink(onPage pageIndex: Int, rect: PDFRect, toPage target: Int, name: String? = nil,
                        date: Date = Date()) throws -> PDFAnnotation {
        try checkMayAnnotate()
        let page = try page(at: pageIndex)
        let destination = try self.page(at: target)
        guard let pageReference = page.reference, let targetReference = destination.reference else {
            throw PDFError(.damaged, "page \((page.reference == nil ? pageIndex : target) + 1) is not an indirect object; a link cannot point to it")
        }
        guard !rect.isEmpty, [rect.x1, rect.y1, rect.x2, rect.y2].allSatisfy(\.isFinite) else {
            throw PDFError(.invalidArgument, "a link needs a rectangle with a width and a height")
        }
        try checkInside(rect, geometry: PDFPageGeometry(page: page))
        if let name, annotations(of: page, pageIndex: pageIndex).contains(where: { $0.name == name }) {
            throw PDFError(.invalidArgument, "an annotation named \(name) is already on page \(pageIndex + 1) (names are unique on a page)")
        }
        var dictionary: PDFDictionary = [
            "Type": .name("Annot"), "Subtype": .name("Link"), "Rect": AnnotationAppearance.numbers(rect.array),
            "Border": .array([.integer(0), .integer(0), .integer(0)]), "F": .integer(PDFAnnotationFlags.print.rawValue),
            "Dest": .array([.reference(targetReference), .name("Fit")]), "P": .reference(pageReference),
            "M": .string(PDFString(Array(PDFDate(date).pdfString.utf8))),
        ]
        dictionary["NM"] = .string(PDFString(PDFTextString.encode(name ?? UUID().uuidString.lowercased())))
        let reference = add(.dictionary(dictionary))
        var added = annotation(dictionary, reference: reference, pageIndex: pageIndex, index: 0)
        var annots = resolve(page.dictionary["Annots"]).arrayValue ?? []
        added.index = annots.count
        annots.append(.reference(reference))
        try setAnnots(annots, of: page, pageIndex: pageIndex)
        added.id = added.name.flatMap { PDFDocument.isUsableIdentifier($0) ? $0 : nil } ?? "obj-\(reference.number)"
        return added
    }
}
