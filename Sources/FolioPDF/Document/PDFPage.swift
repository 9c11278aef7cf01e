/// A page with the attributes it inherits from the page tree resolved.
///
/// ```swift
/// let page = doc.pages()[0]
/// page.mediaBox    // [0, 0, 595.28, 841.89]
/// page.rotation    // 0, 90, 180 or 270
/// ```
public struct PDFPage: Sendable {
    /// The page object's reference; nil for a (malformed) direct page dictionary.
    public let reference: PDFReference?
    public let dictionary: PDFDictionary
    /// /Resources, own or inherited.
    public let resources: PDFObject?
    /// /MediaBox, own or inherited, as four numbers.
    public let mediaBox: [Double]?
    /// /CropBox, own or inherited; defaults to the media box.
    public let cropBox: [Double]?
    /// /Rotate normalised to 0, 90, 180 or 270.
    public let rotation: Int
}

extension PDFDocument {
    /// The attributes a page inherits from its ancestors (ISO 32000-1 §7.7.3.4).
    static let inheritedKeys = ["Resources", "MediaBox", "CropBox", "Rotate"]
    /// Deepest page tree followed.
    static let maxTreeDepth = 256

    /// The number of pages: the page tree root's /Count, as qpdf, pdfinfo and Acrobat
    /// report it, read without touching a single page object. When /Count is missing or
    /// impossible (negative, or more pages than the file has objects), the pages are
    /// counted by walking the tree instead. Cached.
    public var pageCount: Int {
        if let cachedPageCount = pageCountCache { return cachedPageCount }
        var count: Int
        if let declared = declaredPageCount, declared >= 0, declared <= xref.size {
            count = declared
        } else {
            log.add("page tree root has no valid /Count; pages counted by walking the tree")
            count = reachablePageCount
            // A truncated linearized file may have lost its page tree but still say /N.
            if count == 0, let declared = linearizationDictionary?["N"]?.intValue, declared > 0,
                declared <= xref.size
            {
                log.add("no pages reachable; page count taken from the linearization dictionary")
                count = declared
            }
        }
        pageCountCache = count
        return count
    }

    /// The page tree root's /Count as written, unchecked.
    var declaredPageCount: Int? {
        dictionary(catalog?["Pages"])?["Count"].map { resolve($0) }?.intValue
    }

    /// The number of pages found by walking the page tree (loop-safe); differs from
    /// ``pageCount`` only in damaged files.
    public var reachablePageCount: Int {
        var count = 0
        walkPages(collect: false) { _ in count += 1 }
        return count
    }

    /// Every page in order, inherited attributes resolved.
    public func pages() -> [PDFPage] {
        var result: [PDFPage] = []
        walkPages(collect: true) { result.append($0) }
        return result
    }

    /// Visits every page in order, loops and repeats warned about. With `collect`, each page
    /// comes with its inherited resources, boxes and rotation; without, only its reference and
    /// dictionary (enough to count pages, map references to indices or read `/Annots`).
    func walkPages(collect: Bool, _ visit: (PDFPage) -> Void) {
        guard let root = catalog?["Pages"] else {
            log.add("catalog has no /Pages")
            return
        }
        struct Frame {
            var kids: [PDFObject]
            var index: Int
            var inherited: [String: PDFObject]
        }
        var visitedNodes = Set<Int>()
        var seenPages = Set<Int>()
        var stack: [Frame] = []
        func enter(_ node: PDFObject, inherited: [String: PDFObject]) {
            if let number = node.referenceValue?.number {
                guard visitedNodes.insert(number).inserted else {
                    log.add("loop in the page tree; node visited again is skipped", object: node.referenceValue)
                    return
                }
            }
            guard let dictionary = resolve(node).dictionaryValue else {
                log.add("page tree node is not a dictionary", object: node.referenceValue)
                return
            }
            guard stack.count < PDFDocument.maxTreeDepth else {
                log.add("page tree deeper than \(PDFDocument.maxTreeDepth) levels; rest ignored", object: node.referenceValue)
                return
            }
            var attributes = inherited
            if collect {
                for key in PDFDocument.inheritedKeys {
                    if let value = dictionary[key] { attributes[key] = value }
                }
            }
            let kids = resolve(dictionary["Kids"]).arrayValue ?? []
            stack.append(Frame(kids: kids, index: 0, inherited: attributes))
        }
        enter(root, inherited: [:])
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].index < stack[top].kids.count else {
                stack.removeLast()
                continue
            }
            let kid = stack[top].kids[stack[top].index]
            stack[top].index += 1
            let resolved = resolve(kid)
            guard let dictionary = resolved.dictionaryValue else {
                log.add("page tree has a kid that is not a dictionary; ignored", object: kid.referenceValue)
                continue
            }
            let isNode = dictionary["Type"]?.nameValue == "Pages"
                || (dictionary["Type"]?.nameValue != "Page" && resolve(dictionary["Kids"]).arrayValue != nil)
            if isNode {
                enter(kid, inherited: stack[top].inherited)
                continue
            }
            if let number = kid.referenceValue?.number, !seenPages.insert(number).inserted {
                log.add("page object appears more than once in the page tree", object: kid.referenceValue)
            }
            if collect {
                var attributes = stack[top].inherited
                for key in PDFDocument.inheritedKeys {
                    if let value = dictionary[key] { attributes[key] = value }
                }
                visit(makePage(reference: kid.referenceValue, dictionary: dictionary, attributes: attributes))
            } else {
                visit(PDFPage(reference: kid.referenceValue, dictionary: dictionary, resources: nil, mediaBox: nil,
                              cropBox: nil, rotation: 0))
            }
        }
    }

    private func makePage(reference: PDFReference?, dictionary: PDFDictionary, attributes: [String: PDFObject]) -> PDFPage {
        func box(_ key: String) -> [Double]? {
            guard let items = resolve(attributes[key]).arrayValue, items.count == 4 else { return nil }
            let numbers = items.compactMap { resolve($0).doubleValue }
            return numbers.count == 4 ? numbers : nil
        }
        let rotate = resolve(attributes["Rotate"]).intValue ?? 0
        let normalised = ((rotate % 360) + 360) % 360 / 90 * 90
        let mediaBox = box("MediaBox")
        return PDFPage(reference: reference, dictionary: dictionary, resources: attributes["Resources"],
                       mediaBox: mediaBox, cropBox: box("CropBox") ?? mediaBox, rotation: normalised)
    }
}

extension PDFDocument {
    /// The linearization parameter dictionary (`/Linearized`), when the first object of
    /// the file is one.
    public var linearizationDictionary: PDFDictionary? {
        let finder = Lexer(bytes: source.bytes)
        let window = min(source.count, headerOffset + 1024)
        guard let keyword = finder.find(Array("obj".utf8), from: headerOffset, limit: window) else { return nil }
        // Back up over "N G " to the object's start.
        var start = keyword
        var fields = 0
        while start > headerOffset, fields < 2 {
            start -= 1
            while start > headerOffset, ByteClass.isWhitespace(source.bytes[start]) { start -= 1 }
            while start > headerOffset, ByteClass.isDigit(source.bytes[start - 1]) { start -= 1 }
            fields += 1
        }
        let parser = IndirectObjectParser(bytes: source.bytes, log: nil)
        guard let parsed = try? parser.parse(at: start, length: { _ in nil }),
            let dictionary = parsed.object.dictionaryValue, dictionary["Linearized"] != nil
        else { return nil }
        return dictionary
    }
}
