/// Writing the outline tree: a whole new tree replaces the old one, with /Parent, /Prev,
/// /Next, /First, /Last and /Count right.
extension PDFDocument {
    /// Replaces the document's outline with `items` (an empty list removes it). Page
    /// targets become `[page /XYZ null null null]` destinations, URLs URI actions, remote
    /// files GoToR actions, launches Launch actions; other targets are written without
    /// one. Items with children are closed unless `isOpen`.
    ///
    /// ```swift
    /// try doc.setOutline([PDFOutlineItem(title: "Sonata No. 1", target: .page(index: 0))])
    /// try PDFSaver.saveIncrementally(doc)
    /// ```
    public func setOutline(_ items: [PDFOutlineItem]) throws {
        guard var catalog = catalog else {
            throw PDFError(.damaged, "the document has no catalog dictionary to attach an outline to")
        }
        let pages = self.pages().map(\.reference)
        if items.isEmpty {
            catalog["Outlines"] = nil
        } else {
            let root = add(.null)
            let (first, last) = try writeItems(items, parent: root, pages: pages)
            replace(root, with: .dictionary([
                "Type": .name("Outlines"), "First": .reference(first), "Last": .reference(last),
                "Count": .integer(PDFDocument.visibleCount(items)),
            ]))
            catalog["Outlines"] = .reference(root)
        }
        if case .reference(let reference)? = trailer["Root"] {
            replace(reference, with: .dictionary(catalog))
        } else {
            setTrailer("Root", .reference(add(.dictionary(catalog))))
        }
    }

    /// Entries shown when every item in `items` is shown: each one, plus the visible
    /// entries below the open ones.
    static func visibleCount(_ items: [PDFOutlineItem]) -> Int {
        items.reduce(0) { $0 + 1 + ($1.isOpen ? visibleCount($1.children) : 0) }
    }

    private func writeItems(_ items: [PDFOutlineItem], parent: PDFReference, pages: [PDFReference?]) throws
        -> (first: PDFReference, last: PDFReference)
    {
        // Numbers first, so each item can name its neighbours.
        let references = items.map { _ in add(.null) }
        for (index, item) in items.enumerated() {
            var node: PDFDictionary = [
                "Title": .string(PDFString(PDFTextString.encode(item.title))), "Parent": .reference(parent),
            ]
            if index > 0 { node["Prev"] = .reference(references[index - 1]) }
            if index + 1 < items.count { node["Next"] = .reference(references[index + 1]) }
            if !item.children.isEmpty {
                let (first, last) = try writeItems(item.children, parent: references[index], pages: pages)
                node["First"] = .reference(first)
                node["Last"] = .reference(last)
                let count = PDFDocument.visibleCount(item.children)
                node["Count"] = .integer(item.isOpen ? count : -count)
            }
            switch item.target {
            case .page(let page)?:
                guard pages.indices.contains(page), let reference = pages[page] else {
                    throw PDFError(.invalidArgument, "outline entry '\(item.title)' targets page \(page + 1), "
                        + "out of range (valid: 1 to \(pages.count))")
                }
                node["Dest"] = .array([.reference(reference), .name("XYZ"), .null, .null, .null])
            case .uri(let uri)?:
                node["A"] = .dictionary(["S": .name("URI"), "URI": .string(PDFString(Array(uri.utf8)))])
            case .remote(let file, let page)?:
                node["A"] = .dictionary(["S": .name("GoToR"), "F": .string(PDFString(PDFTextString.encode(file))),
                                         "D": .array([.integer(page ?? 0), .name("Fit")])])
            case .launch(let file)?:
                node["A"] = .dictionary(["S": .name("Launch"), "F": .string(PDFString(PDFTextString.encode(file)))])
            case .unresolved?, .action?, nil:
                break
            }
            if let color = item.color, color.count == 3 { node["C"] = .array(color.map { .real(PDFReal($0)) }) }
            let flags = (item.isItalic ? 1 : 0) | (item.isBold ? 2 : 0)
            if flags != 0 { node["F"] = .integer(flags) }
            replace(references[index], with: .dictionary(node))
        }
        guard let first = references.first, let last = references.last else {
            throw PDFError(.invalidArgument, "an outline level without entries")
        }
        return (first, last)
    }
}
