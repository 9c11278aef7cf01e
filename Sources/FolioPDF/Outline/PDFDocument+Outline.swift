/// Reading the outline tree: loop-safe, bounded, with destinations resolved to pages.
extension PDFDocument {
    /// Most outline entries read; a larger tree is cut with a warning.
    static let maxOutlineItems = 1_000_000

    /// The outline tree (empty when the document has none). Loops, items that are not
    /// dictionaries and trees deeper than 256 levels are cut with a warning.
    public func outline() -> [PDFOutlineItem] {
        outlineTree().nodes.map(\.outlineItem)
    }

    /// The outline's root and its entries with their objects, as read: what both
    /// ``outline()`` and ``PDFOutlineEditor`` stand on.
    func outlineTree() -> (root: PDFReference?, rootDictionary: PDFDictionary?, nodes: [OutlineNode]) {
        let rootObject = catalog?["Outlines"]
        guard let root = dictionary(rootObject) else { return (nil, nil, []) }
        let resolver = DestinationResolver(document: self)
        var visited = Set<Int>()
        var budget = PDFDocument.maxOutlineItems
        var nextID = 0
        func nodes(from first: PDFObject?, depth: Int) -> [OutlineNode] {
            guard depth < PDFDocument.maxTreeDepth else {
                log.add("outline deeper than \(PDFDocument.maxTreeDepth) levels; rest ignored", object: first?.referenceValue)
                return []
            }
            var result: [OutlineNode] = []
            var next = first
            while let current = next, budget > 0 {
                if let number = current.referenceValue?.number, !visited.insert(number).inserted {
                    log.add("loop in the outline tree; item visited again is skipped", object: current.referenceValue)
                    break
                }
                guard let node = resolve(current).dictionaryValue else {
                    log.add("outline item is not a dictionary", object: current.referenceValue)
                    break
                }
                budget -= 1
                nextID += 1
                let flags = resolve(node["F"]).intValue ?? 0
                let color = resolve(node["C"]).arrayValue?.compactMap { resolve($0).doubleValue }
                let item = PDFOutlineItem(
                    title: resolve(node["Title"]).stringValue?.text ?? "",
                    target: resolver.target(of: node),
                    isOpen: (resolve(node["Count"]).intValue ?? 0) > 0,
                    color: color?.count == 3 && color != [0, 0, 0] ? color : nil,
                    isItalic: flags & 1 != 0, isBold: flags & 2 != 0)
                result.append(OutlineNode(id: nextID, reference: current.referenceValue, original: node,
                                          dictionary: node, item: item,
                                          children: nodes(from: node["First"], depth: depth + 1)))
                next = node["Next"]
            }
            if budget == 0 { log.add("more than \(PDFDocument.maxOutlineItems) outline items; rest ignored") }
            return result
        }
        return (rootObject?.referenceValue, root, nodes(from: root["First"], depth: 0))
    }
}

/// One outline entry with the object it was read from (nil for a new or a direct one) and
/// its dictionary as read and as edited; `item` holds no children.
struct OutlineNode: Sendable {
    /// Unique within one reading or editor; survives moves.
    let id: Int
    var reference: PDFReference?
    let original: PDFDictionary?
    var dictionary: PDFDictionary
    var item: PDFOutlineItem
    var children: [OutlineNode]

    /// The entry with its children, as ``PDFDocument/outline()`` gives it.
    var outlineItem: PDFOutlineItem {
        var result = item
        result.children = children.map(\.outlineItem)
        return result
    }
}

/// Turns destinations and actions into targets: page references to page indexes, names
/// through the catalog's /Dests and the /Names /Dests name tree (each read once).
struct DestinationResolver {
    let document: PDFDocument
    private let pageIndex: [Int: Int]
    private let named: NameTree

    init(document: PDFDocument) {
        self.document = document
        var index: [Int: Int] = [:]
        var position = 0
        document.walkPages(collect: false) { page in
            if let number = page.reference?.number, index[number] == nil { index[number] = position }
            position += 1
        }
        pageIndex = index
        named = NameTree(document: document, root: document.dictionary(document.catalog?["Names"])?["Dests"])
    }

    func target(of item: PDFDictionary) -> PDFOutlineTarget? {
        if let destination = item["Dest"] { return target(destination: destination) }
        guard let action = document.dictionary(item["A"]) else { return nil }
        return target(action: action)
    }

    func target(action: PDFDictionary) -> PDFOutlineTarget? {
        let type = document.resolve(action["S"]).nameValue ?? ""
        switch type {
        case "GoTo":
            return action["D"].flatMap { target(destination: $0) }
        case "URI":
            // URIs are 7-bit ASCII; producers write UTF-8 or PDFDocEncoding beyond it.
            return .uri(document.resolve(action["URI"]).stringValue.map { String(validating: $0.bytes, as: UTF8.self) ?? $0.text } ?? "")
        case "GoToR":
            let page = document.resolve(document.resolve(action["D"]).arrayValue?.first).intValue
            return .remote(file: fileName(action["F"]) ?? "", page: page)
        case "Launch":
            let windows = document.dictionary(action["Win"])
            return .launch(file: fileName(action["F"]) ?? fileName(windows?["F"]) ?? "")
        default:
            return .action(type)
        }
    }

    /// An explicit destination array, a name (/Dests) or a string (name tree, then /Dests).
    func target(destination: PDFObject) -> PDFOutlineTarget {
        var current = document.resolve(destination)
        for _ in 0..<4 {
            switch current {
            case .array(let items):
                guard let first = items.first else { return .unresolved("empty destination") }
                if case .reference(let page) = first {
                    return pageIndex[page.number].map { .page(index: $0) } ?? .unresolved("page object \(page.number) is not in the page tree")
                }
                // Pages given as numbers are not allowed locally, but producers write them.
                if let number = document.resolve(first).intValue, number >= 0, number < pageIndex.count {
                    return .page(index: number)
                }
                return .unresolved("destination names no page")
            case .dictionary(let dictionary):
                current = document.resolve(dictionary["D"])
            case .name(let name):
                guard let value = document.dictionary(document.catalog?["Dests"])?[name] else {
                    return .unresolved("named destination /\(name) not found")
                }
                current = document.resolve(value)
            case .string(let string):
                guard let value = named.lookup(string.bytes)
                    ?? document.dictionary(document.catalog?["Dests"])?[String(decoding: string.bytes, as: UTF8.self)]
                else {
                    return .unresolved("named destination (\(string.text)) not found")
                }
                current = document.resolve(value)
            default:
                return .unresolved("destination is not an array, name or string")
            }
        }
        return .unresolved("destination refers to itself")
    }

    /// A file specification: a string, or a dictionary's /UF or /F.
    private func fileName(_ object: PDFObject?) -> String? {
        switch document.resolve(object) {
        case .string(let string): return string.text
        case .dictionary(let spec):
            return (document.resolve(spec["UF"]).stringValue ?? document.resolve(spec["F"]).stringValue)?.text
        default: return nil
        }
    }
}
