/// Edits a document's outline entry by entry: add, rename, retarget, open or close,
/// move, nest, unnest and delete. Entries keep their objects and every key Folio does
/// not manage (structure elements, zoom of a destination, other actions); writing
/// replaces only the objects whose dictionaries changed, with /Parent, /Prev, /Next,
/// /First, /Last and /Count right. Deleted entries' objects stay behind unreachable, as
/// the earlier revision's are (freeing them in the xref makes qpdf warn when they sit
/// in an object stream); `folio rewrite` drops them.
///
/// ```swift
/// try doc.editOutline { outline in
///     try outline.setTitle("Sonata No. 1 in C", at: PDFOutlinePath("1")!)
///     _ = try outline.insert(PDFOutlineItem(title: "Coda", target: .page(index: 11)),
///                            .lastChild(of: PDFOutlinePath("1")))
/// }
/// try PDFSaver.saveIncrementally(doc)
/// ```
public struct PDFOutlineEditor: Sendable {
    private var roots: [OutlineNode]
    private let rootReference: PDFReference?
    private let rootDictionary: PDFDictionary?
    /// Page objects in order, for page targets.
    private let pages: [PDFReference?]
    private var nextID: Int

    /// Reads the outline of `document` (loop-safe, as ``PDFDocument/outline()`` does).
    public init(document: PDFDocument) {
        let tree = document.outlineTree()
        roots = tree.nodes
        rootReference = tree.root
        rootDictionary = tree.rootDictionary
        pages = document.pages().map(\.reference)
        nextID = PDFOutlineEditor.maxID(tree.nodes)
    }

    /// The outline as it stands after the edits so far.
    public var items: [PDFOutlineItem] { roots.map(\.outlineItem) }

    /// The entry at `path`, with its children.
    public func item(at path: PDFOutlinePath) throws -> PDFOutlineItem {
        try node(at: path).outlineItem
    }

    /// Adds `item` (with its children) at `position` and returns the path it has now.
    @discardableResult
    public mutating func insert(_ item: PDFOutlineItem, _ position: PDFOutlinePosition) throws -> PDFOutlinePath {
        let place = try resolve(position)
        let node = try makeNode(item)
        return try insert(node, at: place)
    }

    /// Takes the entry at `path` (and its children) out of the outline.
    @discardableResult
    public mutating func remove(at path: PDFOutlinePath) throws -> PDFOutlineItem {
        let item = try self.item(at: path)
        _ = try take(at: path)
        return item
    }

    /// Takes several entries out at once, each path naming the outline as it was before:
    /// every path is checked first (nothing changes when one names no entry), then the last
    /// go first so the others keep pointing where they did, and an entry whose ancestor also
    /// goes is taken with it.
    public mutating func remove(at paths: [PDFOutlinePath]) throws {
        let ordered = Set(paths).sorted { $0.indices.lexicographicallyPrecedes($1.indices) }.reversed()
        for path in ordered { _ = try item(at: path) }
        for path in ordered where !ordered.contains(where: { $0.isAncestor(of: path) }) {
            _ = try take(at: path)
        }
    }

    /// Moves the entry at `path` (with its children, keeping its object) to `position`,
    /// which names entries as they are before the move. Returns the entry's new path.
    @discardableResult
    public mutating func move(_ path: PDFOutlinePath, to position: PDFOutlinePosition) throws -> PDFOutlinePath {
        let moving = try node(at: path)
        var place = try resolve(position)
        if let parent = place.parent, PDFOutlineEditor.contains(moving, id: parent) {
            throw PDFError(.invalidArgument, "entry \(path) cannot move into itself or one of its own entries")
        }
        if place.before == moving.id {
            // "Before itself" is where it already is: before its next sibling.
            let siblings = try children(of: path.parent)
            place.before = path.indices[path.level] + 1 < siblings.count ? siblings[path.indices[path.level] + 1].id : nil
        }
        let node = try take(at: path)
        return try insert(node, at: place)
    }

    /// Makes the entry at `path` the last child of the entry before it.
    @discardableResult
    public mutating func nest(at path: PDFOutlinePath) throws -> PDFOutlinePath {
        guard let index = path.indices.last, index > 0 else {
            throw PDFError(.invalidArgument, "entry \(path) is the first at its level; there is no entry before it to nest under")
        }
        _ = try node(at: path)
        let previous = PDFOutlinePath(indices: Array(path.indices.dropLast()) + [index - 1]) ?? path
        return try move(path, to: .lastChild(of: previous))
    }

    /// Moves the entry at `path` one level up, just after its parent.
    @discardableResult
    public mutating func unnest(at path: PDFOutlinePath) throws -> PDFOutlinePath {
        guard let parent = path.parent else {
            throw PDFError(.invalidArgument, "entry \(path) is already at the top level")
        }
        return try move(path, to: .after(parent))
    }

    /// Renames the entry at `path`.
    public mutating func setTitle(_ title: String, at path: PDFOutlinePath) throws {
        try update(at: path) { node in
            node.item.title = title
            node.dictionary["Title"] = .string(PDFString(PDFTextString.encode(title)))
        }
    }

    /// Points the entry at `path` somewhere else; nil leaves it without a target. Its old
    /// destination or action goes.
    public mutating func setTarget(_ target: PDFOutlineTarget?, at path: PDFOutlinePath) throws {
        let (key, value) = try targetEntry(target, title: try node(at: path).item.title)
        try update(at: path) { node in
            node.item.target = target
            node.dictionary["Dest"] = nil
            node.dictionary["A"] = nil
            if let key { node.dictionary[key] = value }
        }
    }

    /// Shows (`open`) or hides the children of the entry at `path`.
    public mutating func setOpen(_ open: Bool, at path: PDFOutlinePath) throws {
        try update(at: path) { $0.item.isOpen = open }
    }

    /// Replaces the whole outline with `items`.
    public mutating func replaceAll(with items: [PDFOutlineItem]) throws {
        roots = try items.map { try makeNode($0) }
    }

    /// Writes the edits into `document` (the one this editor read): changed and new
    /// entries, the outline root and, when it changes, the catalog. An empty outline
    /// removes /Outlines from the catalog.
    public func write(to document: PDFDocument) throws {
        guard var catalog = document.catalog else {
            throw PDFError(.damaged, "the document has no catalog dictionary to attach an outline to")
        }
        var roots = self.roots
        if roots.isEmpty {
            if catalog["Outlines"] != nil {
                catalog["Outlines"] = nil
                document.setCatalog(catalog)
            }
        } else {
            PDFOutlineEditor.number(&roots, in: document)
            let root = rootReference ?? document.add(.null)
            PDFOutlineEditor.link(roots, parent: root, in: document)
            var dictionary = rootDictionary ?? PDFDictionary()
            if dictionary["Type"] == nil { dictionary["Type"] = .name("Outlines") }
            dictionary["First"] = roots.first?.reference.map { .reference($0) }
            dictionary["Last"] = roots.last?.reference.map { .reference($0) }
            dictionary["Count"] = .integer(PDFOutlineEditor.visibleCount(roots))
            if rootReference == nil || dictionary != rootDictionary { document.replace(root, with: .dictionary(dictionary)) }
            if catalog["Outlines"] != .reference(root) {
                catalog["Outlines"] = .reference(root)
                document.setCatalog(catalog)
            }
        }
    }

    // MARK: - The tree

    /// A place among siblings: under `parent` (nil: top level), before `before` (nil: at the end).
    private struct Place {
        var parent: Int?
        var before: Int?
    }

    private func node(at path: PDFOutlinePath) throws -> OutlineNode {
        let siblings = try children(of: path.parent)
        guard let index = path.indices.last, siblings.indices.contains(index) else {
            throw PDFError(.invalidArgument, "no outline entry \(path) (valid at that level: "
                + (siblings.isEmpty ? "none" : "1 to \(siblings.count)") + ")")
        }
        return siblings[index]
    }

    /// The children of the entry at `path`, or the top level for nil.
    private func children(of path: PDFOutlinePath?) throws -> [OutlineNode] {
        guard let path else { return roots }
        return try node(at: path).children
    }

    private func resolve(_ position: PDFOutlinePosition) throws -> Place {
        switch position {
        case .before(let path):
            let node = try node(at: path)
            return Place(parent: try path.parent.map { try self.node(at: $0).id }, before: node.id)
        case .after(let path):
            _ = try node(at: path)
            let siblings = try children(of: path.parent)
            let index = path.indices[path.level] + 1
            return Place(parent: try path.parent.map { try self.node(at: $0).id },
                         before: index < siblings.count ? siblings[index].id : nil)
        case .firstChild(let path):
            return Place(parent: try path.map { try node(at: $0).id }, before: try children(of: path).first?.id)
        case .lastChild(let path):
            return Place(parent: try path.map { try node(at: $0).id }, before: nil)
        }
    }

    private mutating func insert(_ node: OutlineNode, at place: Place) throws -> PDFOutlinePath {
        var indices: [Int]?
        func put(into siblings: inout [OutlineNode], prefix: [Int]) {
            let index = place.before.flatMap { id in siblings.firstIndex { $0.id == id } } ?? siblings.count
            siblings.insert(node, at: index)
            indices = prefix + [index]
        }
        if let parent = place.parent {
            PDFOutlineEditor.visit(&roots, prefix: []) { candidate, prefix in
                guard candidate.id == parent else { return false }
                put(into: &candidate.children, prefix: prefix)
                return true
            }
        } else {
            put(into: &roots, prefix: [])
        }
        guard let indices, let path = PDFOutlinePath(indices: indices) else {
            throw PDFError(.invalidArgument, "the place for the outline entry no longer exists")
        }
        return path
    }

    /// Removes and returns the entry at `path`.
    private mutating func take(at path: PDFOutlinePath) throws -> OutlineNode {
        let node = try self.node(at: path)
        guard let index = path.indices.last else { return node }
        if let parent = path.parent {
            try update(at: parent) { $0.children.remove(at: index) }
        } else {
            roots.remove(at: index)
        }
        return node
    }

    private mutating func update(at path: PDFOutlinePath, _ change: (inout OutlineNode) -> Void) throws {
        _ = try node(at: path)
        func descend(_ nodes: inout [OutlineNode], _ rest: ArraySlice<Int>) {
            guard let index = rest.first else { return }
            if rest.count == 1 {
                change(&nodes[index])
            } else {
                descend(&nodes[index].children, rest.dropFirst())
            }
        }
        descend(&roots, path.indices[...])
    }

    private mutating func makeNode(_ item: PDFOutlineItem) throws -> OutlineNode {
        var dictionary: PDFDictionary = ["Title": .string(PDFString(PDFTextString.encode(item.title)))]
        let (key, value) = try targetEntry(item.target, title: item.title)
        if let key { dictionary[key] = value }
        if let color = item.color, color.count == 3 { dictionary["C"] = .array(color.map { .real(PDFReal($0)) }) }
        let flags = (item.isItalic ? 1 : 0) | (item.isBold ? 2 : 0)
        if flags != 0 { dictionary["F"] = .integer(flags) }
        nextID += 1
        let id = nextID
        var bare = item
        bare.children = []
        return OutlineNode(id: id, reference: nil, original: nil, dictionary: dictionary, item: bare,
                           children: try item.children.map { try makeNode($0) })
    }

    /// The /Dest or /A entry for a target: a page as `[page /XYZ null null null]`, a URL as
    /// a URI action, a remote file as GoToR, a launch as Launch; others get none.
    private func targetEntry(_ target: PDFOutlineTarget?, title: String) throws -> (String?, PDFObject?) {
        switch target {
        case .page(let page)?:
            guard pages.indices.contains(page), let reference = pages[page] else {
                throw PDFError(.invalidArgument, "outline entry '\(title)' targets page \(page + 1), "
                    + "out of range (valid: 1 to \(pages.count))")
            }
            return ("Dest", .array([.reference(reference), .name("XYZ"), .null, .null, .null]))
        case .uri(let uri)?:
            return ("A", .dictionary(["S": .name("URI"), "URI": .string(PDFString(Array(uri.utf8)))]))
        case .remote(let file, let page)?:
            if let page, page < 0 {
                throw PDFError(.invalidArgument, "outline entry '\(title)' targets page \(page + 1) of \(file) (valid: 1 or more)")
            }
            return ("A", .dictionary(["S": .name("GoToR"), "F": .string(PDFString(PDFTextString.encode(file))),
                                      "D": .array([.integer(page ?? 0), .name("Fit")])]))
        case .launch(let file)?:
            return ("A", .dictionary(["S": .name("Launch"), "F": .string(PDFString(PDFTextString.encode(file)))]))
        case .unresolved?, .action?, nil:
            return (nil, nil)
        }
    }

    // MARK: - Helpers over nodes

    private static func maxID(_ nodes: [OutlineNode]) -> Int {
        nodes.reduce(0) { max($0, $1.id, maxID($1.children)) }
    }

    private static func contains(_ node: OutlineNode, id: Int) -> Bool {
        node.id == id || node.children.contains { contains($0, id: id) }
    }

    /// Calls `body` on each node in document order with its path prefix until it returns true.
    @discardableResult
    private static func visit(_ nodes: inout [OutlineNode], prefix: [Int],
                              _ body: (inout OutlineNode, [Int]) -> Bool) -> Bool {
        for index in nodes.indices {
            if body(&nodes[index], prefix + [index]) { return true }
            if visit(&nodes[index].children, prefix: prefix + [index], body) { return true }
        }
        return false
    }

    /// Entries shown when all of `nodes` are: each, plus the visible ones below open ones.
    static func visibleCount(_ nodes: [OutlineNode]) -> Int {
        nodes.reduce(0) { $0 + 1 + ($1.item.isOpen ? visibleCount($1.children) : 0) }
    }

    /// Gives new entries object numbers, so their neighbours can name them.
    private static func number(_ nodes: inout [OutlineNode], in document: PDFDocument) {
        for index in nodes.indices {
            if nodes[index].reference == nil { nodes[index].reference = document.add(.null) }
            number(&nodes[index].children, in: document)
        }
    }

    /// Sets each entry's links and count and writes the ones that changed.
    private static func link(_ nodes: [OutlineNode], parent: PDFReference, in document: PDFDocument) {
        for (index, node) in nodes.enumerated() {
            guard let reference = node.reference else { continue }
            var dictionary = node.dictionary
            dictionary["Parent"] = .reference(parent)
            dictionary["Prev"] = index > 0 ? nodes[index - 1].reference.map { .reference($0) } : nil
            dictionary["Next"] = index + 1 < nodes.count ? nodes[index + 1].reference.map { .reference($0) } : nil
            if node.children.isEmpty {
                dictionary["First"] = nil
                dictionary["Last"] = nil
                dictionary["Count"] = nil
            } else {
                link(node.children, parent: reference, in: document)
                dictionary["First"] = node.children.first?.reference.map { .reference($0) }
                dictionary["Last"] = node.children.last?.reference.map { .reference($0) }
                let count = visibleCount(node.children)
                dictionary["Count"] = .integer(node.item.isOpen ? count : -count)
            }
            if dictionary != node.original { document.replace(reference, with: .dictionary(dictionary)) }
        }
    }
}

extension PDFDocument {
    /// Reads the outline into a ``PDFOutlineEditor``, lets `edit` change it and writes the
    /// changes into the document (save it afterwards). Returns what `edit` returns.
    @discardableResult
    public func editOutline<T>(_ edit: (inout PDFOutlineEditor) throws -> T) throws -> T {
        var editor = PDFOutlineEditor(document: self)
        let result = try edit(&editor)
        try editor.write(to: self)
        return result
    }
}
