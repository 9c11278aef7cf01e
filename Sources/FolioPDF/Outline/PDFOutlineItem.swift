/// One entry of a document outline (the table of contents viewers show as bookmarks),
/// with its children.
///
/// ```swift
/// for item in try doc.outline() {
///     print(item.title, item.target ?? .none)   // "Sonata No. 1" page(index: 4)
/// }
/// ```
public struct PDFOutlineItem: Sendable, Equatable {
    public var title: String
    /// Where the entry leads; nil when it has no destination or action.
    public var target: PDFOutlineTarget?
    /// Whether the entry shows its children (a positive /Count).
    public var isOpen: Bool
    /// The /C colour, RGB components 0…1; nil for the default black.
    public var color: [Double]?
    /// /F bit 1.
    public var isItalic: Bool
    /// /F bit 2.
    public var isBold: Bool
    public var children: [PDFOutlineItem]

    public init(title: String, target: PDFOutlineTarget? = nil, isOpen: Bool = false, color: [Double]? = nil,
                isItalic: Bool = false, isBold: Bool = false, children: [PDFOutlineItem] = []) {
        self.title = title
        self.target = target
        self.isOpen = isOpen
        self.color = color
        self.isItalic = isItalic
        self.isBold = isBold
        self.children = children
    }

    /// The entries of `items` that lead into `pages` (0-based), their targets moved by
    /// `shift` — the outline of those pages once they stand alone or elsewhere. An entry
    /// leading outside the range gives way to its children that lead inside; an entry with
    /// no target stays when it keeps children; links to other files or URLs stay as they are.
    ///
    /// ```swift
    /// // Pages 10–14 of a book as pages 0–4 of a new file.
    /// let part = PDFOutlineItem.slice(doc.outline(), pages: 10...14, shift: -10)
    /// ```
    public static func slice(_ items: [PDFOutlineItem], pages: ClosedRange<Int>, shift: Int) -> [PDFOutlineItem] {
        items.flatMap { item -> [PDFOutlineItem] in
            var copy = item
            copy.children = slice(item.children, pages: pages, shift: shift)
            switch item.target {
            case .page(let index)?:
                guard pages.contains(index) else { return copy.children }
                copy.target = .page(index: index + shift)
                return [copy]
            case nil:
                return copy.children.isEmpty ? [] : [copy]
            case .uri?, .remote?, .launch?:
                return [copy]
            case .unresolved?, .action?:
                return copy.children
            }
        }
    }

    /// The tree in document order with each entry's depth (0 for the top level).
    public static func flatten(_ items: [PDFOutlineItem]) -> [(level: Int, item: PDFOutlineItem)] {
        var result: [(Int, PDFOutlineItem)] = []
        func visit(_ items: [PDFOutlineItem], _ level: Int) {
            for item in items {
                result.append((level, item))
                visit(item.children, level + 1)
            }
        }
        visit(items, 0)
        return result
    }
}

/// Where an outline entry leads.
///
/// ```swift
/// for item in document.outline() {
///     if case .page(let index)? = item.target { print(item.title, index + 1) }   // "Vyšehrad 1"
/// }
/// ```
public enum PDFOutlineTarget: Sendable, Equatable {
    /// A page of this document, 0-based (explicit, named or through a GoTo action).
    case page(index: Int)
    /// A URI action: http, https, file, mailto or an app's own scheme (forscore://).
    case uri(String)
    /// A GoToR action: a page (0-based) or named destination in another file.
    case remote(file: String, page: Int?)
    /// A Launch action.
    case launch(file: String)
    /// A destination that names no page of this document (a missing name, a deleted page).
    case unresolved(String)
    /// Another action type (JavaScript, Named…), by its /S.
    case action(String)
}
