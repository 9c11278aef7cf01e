/// Reading annotations: every entry of a page's `/Annots`, direct or indirect, decoded
/// into a ``PDFAnnotation`` with a stable identifier.
extension PDFDocument {
    /// Most annotations read from one page; the rest are ignored with a warning.
    static let maxAnnotationsPerPage = 100_000

    /// The annotations of page `pageIndex` (0-based), in `/Annots` order. Entries that are
    /// not dictionaries are skipped with a warning.
    public func annotations(onPage pageIndex: Int) throws -> [PDFAnnotation] {
        let pages = pages()
        guard pages.indices.contains(pageIndex) else {
            throw PDFError.pageOutOfRange(pageIndex + 1, count: pages.count)
        }
        return annotations(of: pages[pageIndex], pageIndex: pageIndex)
    }

    /// The annotations of every page, page by page.
    public func annotations() -> [PDFAnnotation] {
        pages().enumerated().flatMap { annotations(of: $0.element, pageIndex: $0.offset) }
    }

    /// How many annotations of each subtype the document has ("Link": 312), reading each
    /// annotation's /Subtype and nothing else: what a catalog keeps of them.
    ///
    /// ```swift
    /// let counts = doc.annotationCounts()   // ["Link": 312, "Highlight": 4]
    /// ```
    public func annotationCounts() -> [String: Int] {
        var counts: [String: Int] = [:]
        var pageIndex = 0
        // Only each page's own /Annots is read: no inherited boxes or resources. A stored
        // annotation is read only as far as its /Subtype (LilyPond writes thousands of links).
        walkPages(collect: false) { page in
            readingOnce {
                for (index, entry) in annotationArray(of: page, pageIndex: pageIndex, positions: nil) {
                    if case .reference(let reference) = entry {
                        switch storedName("Subtype", inObject: reference.number) {
                        case .name(let subtype):
                            counts[subtype, default: 0] += 1
                            continue
                        case .absent:
                            counts["Unknown", default: 0] += 1
                            continue
                        case .unknown:
                            break
                        }
                    }
                    guard let found = annotationEntry(entry, index: index, pageIndex: pageIndex) else { continue }
                    counts[resolve(found.dictionary["Subtype"]).nameValue ?? "Unknown", default: 0] += 1
                }
            }
            pageIndex += 1
        }
        return counts
    }

    /// How many entries page `page`'s `/Annots` has that are read (at most 100,000: the rest
    /// are ignored with a warning), without reading the annotations: what splits a page of
    /// thousands of links into parts read side by side.
    ///
    /// ```swift
    /// let page = doc.pages()[0]
    /// let count = doc.annotationEntryCount(of: page)
    /// let firstHalf = doc.annotations(of: page, pageIndex: 0, positions: 0..<count / 2)
    /// ```
    public func annotationEntryCount(of page: PDFPage) -> Int {
        min(resolve(page.dictionary["Annots"]).arrayValue?.count ?? 0, PDFDocument.maxAnnotationsPerPage)
    }

    /// The dictionaries of page `pageIndex`'s `/Annots` at `positions` (all when nil), with
    /// their references and places in the array; entries that are not dictionaries are
    /// skipped with a warning, and those past ``maxAnnotationsPerPage`` with one warning.
    private func entries(of page: PDFPage, pageIndex: Int, positions: Range<Int>? = nil)
        -> [(dictionary: PDFDictionary, reference: PDFReference?, index: Int)] {
        annotationArray(of: page, pageIndex: pageIndex, positions: positions).compactMap { index, entry in
            annotationEntry(entry, index: index, pageIndex: pageIndex)
        }
    }

    /// The entries of page `pageIndex`'s `/Annots` at `positions` (all when nil) with their
    /// places, at most ``maxAnnotationsPerPage`` (past it, one warning).
    private func annotationArray(of page: PDFPage, pageIndex: Int, positions: Range<Int>?) -> [(index: Int, entry: PDFObject)] {
        let entries = resolve(page.dictionary["Annots"]).arrayValue ?? []
        if entries.count > PDFDocument.maxAnnotationsPerPage, (positions?.lowerBound ?? 0) == 0 {
            log.add("page \(pageIndex + 1) has \(entries.count) annotations; only the first \(PDFDocument.maxAnnotationsPerPage) are read",
                    object: page.reference)
        }
        let read = 0..<min(entries.count, PDFDocument.maxAnnotationsPerPage)
        return (positions.map { $0.clamped(to: read) } ?? read).map { ($0, entries[$0]) }
    }

    /// One `/Annots` entry as a dictionary with its reference and place; nil, with a warning,
    /// when it is not a dictionary.
    private func annotationEntry(_ entry: PDFObject, index: Int, pageIndex: Int)
        -> (dictionary: PDFDictionary, reference: PDFReference?, index: Int)? {
        let resolved = resolve(entry)
        guard let dictionary = resolved.dictionaryValue else {
            if !resolved.isNull {
                log.add("annotation \(index + 1) of page \(pageIndex + 1) is not a dictionary", object: entry.referenceValue)
            }
            return nil
        }
        return (dictionary, entry.referenceValue, index)
    }

    /// The annotations of `page`, which is page `pageIndex` of this document.
    public func annotations(of page: PDFPage, pageIndex: Int) -> [PDFAnnotation] {
        var result = annotations(of: page, pageIndex: pageIndex, positions: nil)
        PDFDocument.identifyByName(&result)
        return result
    }

    /// The annotations at `positions` of page `pageIndex`'s `/Annots` (all when nil), each
    /// with its derived identifier: ``identifyByName(_:)`` over the whole page's
    /// annotations, joined in order, makes them what ``annotations(of:pageIndex:)`` answers.
    public func annotations(of page: PDFPage, pageIndex: Int, positions: Range<Int>?) -> [PDFAnnotation] {
        entries(of: page, pageIndex: pageIndex, positions: positions).map { entry in
            annotation(entry.dictionary, reference: entry.reference, pageIndex: pageIndex, index: entry.index)
        }
    }

    /// Gives each of one page's annotations its /NM as identifier where that name is unique
    /// on the page and cannot be mistaken for a derived identifier (``identifyingNames(_:)``).
    public static func identifyByName(_ annotations: inout [PDFAnnotation]) {
        let usable = identifyingNames(annotations.indices.compactMap { annotations[$0].name })
        guard !usable.isEmpty else { return }
        for position in annotations.indices {
            if let name = annotations[position].name, usable.contains(name) { annotations[position].id = name }
        }
    }

    /// Of the /NM names of one page's annotations (`names`: each annotation's that has one),
    /// those that serve as identifiers: unique on the page and not to be mistaken for a
    /// derived identifier. What ``identifyByName(_:)`` applies, for a page whose annotations
    /// are held in parts and named in place.
    ///
    /// ```swift
    /// PDFDocument.identifyingNames(["Anna", "společná", "společná", "obj-7"])   // ["Anna"]
    /// ```
    public static func identifyingNames(_ names: [String]) -> Set<String> {
        var seen: Set<String> = []
        var repeated: Set<String> = []
        for name in names where !name.isEmpty {
            if !seen.insert(name).inserted { repeated.insert(name) }
        }
        return seen.subtracting(repeated).filter(isUsableIdentifier)
    }

    /// An /NM can serve as an identifier when it cannot be mistaken for a derived one.
    static func isUsableIdentifier(_ name: String) -> Bool {
        !name.hasPrefix("obj-") && !(name.hasPrefix("p") && name.contains("-") && name.dropFirst().first?.isNumber == true)
            && !name.contains(where: { $0.isWhitespace || $0.isNewline })
    }

    func annotation(_ dictionary: PDFDictionary, reference: PDFReference?, pageIndex: Int, index: Int) -> PDFAnnotation {
        func text(_ key: String) -> String? { resolve(dictionary[key]).stringValue?.text }
        func numbers(_ key: String) -> [Double] {
            (resolve(dictionary[key]).arrayValue ?? []).compactMap { resolve($0).doubleValue }
        }
        func points(_ values: [Double]) -> [PDFPoint] {
            stride(from: 0, to: values.count - 1, by: 2).map { PDFPoint(x: values[$0], y: values[$0 + 1]) }
        }
        let rectNumbers = numbers("Rect")
        let rect = rectNumbers.count == 4
            ? PDFRect(x1: rectNumbers[0], y1: rectNumbers[1], x2: rectNumbers[2], y2: rectNumbers[3])
            : PDFRect(x1: 0, y1: 0, x2: 0, y2: 0)
        let border = self.dictionary(dictionary["BS"])
        var width = border.flatMap { resolve($0["W"]).doubleValue }
        if width == nil, let legacy = resolve(dictionary["Border"]).arrayValue, legacy.count >= 3 {
            width = resolve(legacy[2]).doubleValue
        }
        let appearance = self.dictionary(dictionary["AP"])
        let ink = (resolve(dictionary["InkList"]).arrayValue ?? []).prefix(10_000).map {
            points((resolve($0).arrayValue ?? []).compactMap { resolve($0).doubleValue })
        }
        let id = reference.map { "obj-\($0.number)" } ?? "p\(pageIndex + 1)-\(index + 1)"
        let opacity = resolve(dictionary["CA"]).doubleValue ?? 1
        return PDFAnnotation(
            id: id, pageIndex: pageIndex, index: index, reference: reference,
            subtype: resolve(dictionary["Subtype"]).nameValue ?? "Unknown",
            rect: rect, contents: text("Contents"), author: text("T"), name: text("NM"),
            modified: text("M"),
            flags: PDFAnnotationFlags(rawValue: resolve(dictionary["F"]).intValue ?? 0),
            color: PDFColor(components: numbers("C")), interiorColor: PDFColor(components: numbers("IC")),
            opacity: opacity.isFinite ? min(1, max(0, opacity)) : 1,
            borderWidth: width, borderStyle: border.flatMap { resolve($0["S"]).nameValue },
            quadPoints: numbers("QuadPoints"), inkList: Array(ink), line: points(numbers("L")),
            lineEndings: (resolve(dictionary["LE"]).arrayValue ?? []).compactMap { resolve($0).nameValue },
            vertices: points(numbers("Vertices")), iconName: resolve(dictionary["Name"]).nameValue,
            defaultAppearance: text("DA").flatMap(PDFDefaultAppearance.init(parsing:)),
            alignment: resolve(dictionary["Q"]).intValue,
            popup: dictionary["Popup"]?.referenceValue, inReplyTo: dictionary["IRT"]?.referenceValue,
            parent: dictionary["Parent"]?.referenceValue,
            hasAppearance: appearance.map { isPresent($0["N"]) } ?? false,
            dictionary: dictionary)
    }
}
