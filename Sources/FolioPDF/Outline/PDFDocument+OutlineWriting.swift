/// Writing a whole outline tree at once.
extension PDFDocument {
    /// Replaces the document's outline with `items` (an empty list removes it). Page
    /// targets become `[page /XYZ null null null]` destinations, URLs URI actions, remote
    /// files GoToR actions, launches Launch actions; other targets are written without
    /// one. Items with children are closed unless `isOpen`. The outline root keeps its
    /// object; the old entries' objects are left unreachable. For edits of single entries, see
    /// ``editOutline(_:)``.
    ///
    /// ```swift
    /// try doc.setOutline([PDFOutlineItem(title: "Sonata No. 1", target: .page(index: 0))])
    /// try PDFSaver.saveIncrementally(doc)
    /// ```
    public func setOutline(_ items: [PDFOutlineItem]) throws {
        try editOutline { try $0.replaceAll(with: items) }
    }
}
