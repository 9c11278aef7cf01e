/// A name tree (`/Names` leaves, `/Kids` inner nodes) read into a map once, loop-safe and
/// bounded. Keys are the raw string bytes.
struct NameTree {
    private var entries: [[UInt8]: PDFObject] = [:]

    /// Most entries read; a hostile tree cannot grow without bound.
    static let maxEntries = 1_000_000

    init(document: PDFDocument, root: PDFObject?) {
        guard let root else { return }
        var visited = Set<Int>()
        var pending: [(PDFObject, Int)] = [(root, 0)]
        while let (node, depth) = pending.popLast(), entries.count < NameTree.maxEntries {
            if let number = node.referenceValue?.number, !visited.insert(number).inserted { continue }
            guard depth < PDFDocument.maxTreeDepth, let dictionary = document.dictionary(node) else { continue }
            if let names = document.resolve(dictionary["Names"]).arrayValue {
                var index = 0
                while index + 1 < names.count {
                    if let key = document.resolve(names[index]).stringValue, entries[key.bytes] == nil {
                        entries[key.bytes] = names[index + 1]
                    }
                    index += 2
                }
            }
            for kid in (document.resolve(dictionary["Kids"]).arrayValue ?? []).reversed() {
                pending.append((kid, depth + 1))
            }
        }
    }

    func lookup(_ key: [UInt8]) -> PDFObject? {
        entries[key]
    }
}
