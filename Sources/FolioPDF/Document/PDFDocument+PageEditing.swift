/// Rotating, deleting, moving and inserting pages as edits of the page tree, saved
/// incrementally like any other edit.
///
/// ```swift
/// try doc.rotatePages([2], by: 90)
/// let warnings = try doc.arrangePages([.page(0), .blank(width: 595, height: 842), .page(2)])   // page 2 deleted
/// try PDFSaver.saveIncrementally(doc)
/// ```
extension PDFDocument {
    /// One page of a new arrangement.
    ///
    /// ```swift
    /// // Page 1, a blank A4 page for notes, then page 3 (page 2 left out).
    /// let slots: [PDFDocument.PageSlot] = [.page(0), .blank(width: 595, height: 842), .page(2)]
    /// let warnings = try document.arrangePages(slots)
    /// ```
    public enum PageSlot: Sendable, Equatable {
        /// The page now at this 0-based index.
        case page(Int)
        /// A new empty page of this size, in points.
        case blank(width: Double, height: Double)
    }

    /// Adds `degrees` (a multiple of 90, negative turns counter-clockwise) to the /Rotate of
    /// each page (0-based); an inherited rotation is taken into account and made the page's own.
    public func rotatePages(_ indexes: [Int], by degrees: Int) throws {
        guard degrees % 90 == 0 else {
            throw PDFError(.invalidArgument, "rotation \(degrees) is not a multiple of 90 (valid: …, -90, 90, 180, 270, …)")
        }
        try editPages(indexes) { _, page, dictionary in
            dictionary["Rotate"] = .integer(((page.rotation + degrees) % 360 + 360) % 360)
        }
    }

    /// Sets the /CropBox of each page given (0-based) to its box in default user space, or
    /// removes it (nil) so the page shows its whole media box again.
    public func setCropBoxes(_ boxes: [(page: Int, box: PDFRect?)]) throws {
        let chosen = Dictionary(boxes.map { ($0.page, $0.box) }, uniquingKeysWith: { _, last in last })
        try editPages(Array(chosen.keys)) { index, page, dictionary in
            if let box = chosen[index] ?? nil {
                dictionary["CropBox"] = AnnotationAppearance.numbers(box.array)
                // A media box inherited from the page tree is made the page's own, so the crop stays meaningful if it moves.
                if dictionary["MediaBox"] == nil, let media = page.mediaBox { dictionary["MediaBox"] = AnnotationAppearance.numbers(media) }
            } else {
                dictionary["CropBox"] = nil
            }
        }
    }

    /// Changes the dictionary of each page (0-based) once, all checked before any is changed.
    private func editPages(_ indexes: [Int], _ change: (Int, PDFPage, inout PDFDictionary) -> Void) throws {
        let pages = pages()
        let chosen = Set(indexes).sorted()
        for index in chosen {
            guard pages.indices.contains(index) else { throw PDFError.pageOutOfRange(index + 1, count: pages.count) }
            guard pages[index].reference != nil else {
                throw PDFError(.damaged, "page \(index + 1) is not an indirect object and cannot be changed on its own")
            }
        }
        for index in chosen {
            guard let reference = pages[index].reference else { continue }
            var dictionary = pages[index].dictionary
            change(index, pages[index], &dictionary)
            replace(reference, with: .dictionary(dictionary))
        }
    }

    /// Puts the pages in the order `slots` gives: a page left out is deleted (its object
    /// stays in the file, unreachable, so an undo is one incremental update away), a page
    /// named twice is refused, blanks are new pages. The page tree becomes one level under
    /// its root; pages that hung lower get the attributes they inherited written into them.
    /// Outline entries that led to a deleted page lose their destination (kept when they
    /// have children, removed otherwise) — each reported. Returns the warnings.
    @discardableResult
    public func arrangePages(_ slots: [PageSlot]) throws -> [String] {
        let pages = pages()
        var used = Set<Int>()
        for case .blank(let width, let height) in slots { try PDFNewDocument.checkPageSize(width: width, height: height) }
        for case .page(let index) in slots {
            guard pages.indices.contains(index) else { throw PDFError.pageOutOfRange(index + 1, count: pages.count) }
            guard used.insert(index).inserted else {
                throw PDFError(.invalidArgument, "page \(index + 1) is placed twice; a page can be in one place only")
            }
            guard pages[index].reference != nil else {
                throw PDFError(.damaged, "page \(index + 1) is not an indirect object and cannot be moved")
            }
        }
        guard !slots.isEmpty else { throw PDFError(.invalidArgument, "a PDF needs at least one page; not every page can be deleted") }
        guard var catalog = catalog else { throw PDFError(.damaged, "the document has no catalog") }
        var warnings: [String] = []
        let labels = pageLabels()

        // Outline entries leading to deleted pages, found while the pages are still in the tree.
        let deleted = Set(pages.indices).subtracting(used)
        if !deleted.isEmpty {
            warnings += try dropOutlineTargets(deleted)
            warnings += dropLinks(to: deleted, pages: pages)
        }

        var root: PDFReference
        var rootDictionary: PDFDictionary
        if case .reference(let reference)? = catalog["Pages"], let dictionary = object(reference).dictionaryValue {
            root = reference
            rootDictionary = dictionary
        } else {
            rootDictionary = resolve(catalog["Pages"]).dictionaryValue ?? ["Type": .name("Pages")]
            root = add(.null)
            catalog["Pages"] = .reference(root)
            setCatalog(catalog)
        }
        var kids: [PDFObject] = []
        for slot in slots {
            switch slot {
            case .page(let index):
                let page = pages[index]
                guard let reference = page.reference else { continue }
                if page.dictionary["Parent"]?.referenceValue != root {
                    // As edited so far (links to deleted pages may be gone).
                    var dictionary = object(reference).dictionaryValue ?? page.dictionary
                    dictionary["Parent"] = .reference(root)
                    if dictionary["Resources"] == nil, let resources = page.resources { dictionary["Resources"] = resources }
                    if dictionary["MediaBox"] == nil, let box = page.mediaBox { dictionary["MediaBox"] = AnnotationAppearance.numbers(box) }
                    if dictionary["CropBox"] == nil, let box = page.cropBox { dictionary["CropBox"] = AnnotationAppearance.numbers(box) }
                    if dictionary["Rotate"] == nil, page.rotation != 0 { dictionary["Rotate"] = .integer(page.rotation) }
                    replace(reference, with: .dictionary(dictionary))
                }
                kids.append(.reference(reference))
            case .blank(let width, let height):
                let page: PDFDictionary = [
                    "Type": .name("Page"), "Parent": .reference(root),
                    "MediaBox": AnnotationAppearance.numbers([0, 0, width, height]),
                    "Resources": .dictionary([:]),
                ]
                kids.append(.reference(add(.dictionary(page))))
            }
        }
        rootDictionary["Type"] = .name("Pages")
        rootDictionary["Kids"] = .array(kids)
        rootDictionary["Count"] = .integer(kids.count)
        rootDictionary["Parent"] = nil
        replace(root, with: .dictionary(rootDictionary))
        pageCountCache = nil
        if let labels {
            let arranged = PDFDocument.arrangedLabels(labels, slots)
            if arranged != labels { try setPageLabels(arranged) }
        }
        return warnings
    }

    /// Page labels after an arrangement. Deleting or inserting pages keeps each range on its
    /// pages and the numbering consecutive (a blank page joins the range before it); when pages
    /// change order, labels stay with the positions, as the numbers of a book do.
    static func arrangedLabels(_ labels: PDFPageLabels, _ slots: [PageSlot]) -> PDFPageLabels {
        let kept = slots.compactMap { slot -> Int? in if case .page(let index) = slot { index } else { nil } }
        guard zip(kept, kept.dropFirst()).allSatisfy({ $0 < $1 }) else {
            return PDFPageLabels(ranges: labels.ranges.filter { $0.start < slots.count })
        }
        var groups: [Int?] = []
        for slot in slots {
            switch slot {
            case .page(let index): groups.append(labels.ranges.lastIndex { $0.start <= index })
            case .blank: groups.append(groups.last ?? nil)
            }
        }
        // Blanks at the very start join the first page's range.
        if let first = groups.firstIndex(where: { $0 != nil }) {
            for index in 0..<first {
                if case .blank = slots[index] { groups[index] = groups[first] }
            }
        }
        var ranges: [PDFPageLabels.Range] = []
        for (position, group) in groups.enumerated() where position == 0 || group != groups[position - 1] {
            guard let group else { continue }
            var range = labels.ranges[group]
            range.start = position
            ranges.append(range)
        }
        return PDFPageLabels(ranges: ranges)
    }

    /// Removes link annotations on the pages that stay whose destination is one of the
    /// `deleted` pages (0-based), so no link leads nowhere; each is reported.
    private func dropLinks(to deleted: Set<Int>, pages: [PDFPage]) -> [String] {
        let resolver = DestinationResolver(document: self)
        var warnings: [String] = []
        for (index, page) in pages.enumerated() where !deleted.contains(index) {
            guard let annotations = resolve(page.dictionary["Annots"]).arrayValue else { continue }
            let kept = annotations.filter { annotation in
                guard let dictionary = self.dictionary(annotation), resolve(dictionary["Subtype"]).nameValue == "Link",
                      case .page(let target)? = resolver.target(of: dictionary), deleted.contains(target) else { return true }
                warnings.append("a link on page \(index + 1) led to deleted page \(target + 1); removed")
                return false
            }
            guard kept.count != annotations.count else { continue }
            if case .reference(let array)? = page.dictionary["Annots"] {
                replace(array, with: .array(kept))
            } else if let reference = page.reference {
                var dictionary = page.dictionary
                dictionary["Annots"] = .array(kept)
                replace(reference, with: .dictionary(dictionary))
            }
        }
        return warnings
    }

    /// Removes the destination of outline entries that lead to `pages` (0-based): the entry
    /// goes when it has no children, else it stays as a heading.
    private func dropOutlineTargets(_ pages: Set<Int>) throws -> [String] {
        var warnings: [String] = []
        try editOutline { editor in
            var found: [(PDFOutlinePath, PDFOutlineItem)] = []
            func visit(_ items: [PDFOutlineItem], prefix: [Int]) {
                for (index, item) in items.enumerated() {
                    if let path = PDFOutlinePath(indices: prefix + [index]) { found.append((path, item)) }
                    visit(item.children, prefix: prefix + [index])
                }
            }
            visit(outline(), prefix: [])
            // Last first, so the paths of the entries still to visit stay valid.
            for (path, item) in found.reversed() {
                guard case .page(let index)? = item.target, pages.contains(index) else { continue }
                if item.children.isEmpty {
                    _ = try editor.remove(at: path)
                    warnings.append("outline entry \"\(item.title)\" led to deleted page \(index + 1); removed")
                } else {
                    try editor.setTarget(nil, at: path)
                    warnings.append("outline entry \"\(item.title)\" led to deleted page \(index + 1); kept as a heading without a page")
                }
            }
        }
        return warnings
    }
}
