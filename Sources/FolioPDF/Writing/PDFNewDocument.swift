import Foundation

/// A new PDF built page by page: objects added as they come, pages with their content and
/// resources, an outline and Info; written in one pass with a classic cross-reference table.
/// ``PDFMerger`` writes its files through it too.
///
/// ```swift
/// var pdf = PDFNewDocument()
/// let image = pdf.add(.stream(photo.stream))
/// try pdf.addPage(width: 595, height: 842, content: Array("q 595 0 0 842 0 0 cm /Im0 Do Q".utf8),
///                 resources: ["XObject": .dictionary(["Im0": .reference(image)])])
/// let bytes = try pdf.bytes()
/// ```
public struct PDFNewDocument {
    private var objects: [Int: PDFObject] = [:]
    private var next = 1
    private var pageNumbers: [Int] = []
    /// Fonts text pages use, by ``PDFTypeface`` key: resource name, reserved object, glyphs shown.
    private var fonts: [String: (name: String, reference: PDFReference, face: PDFTypeface, glyphs: [UInt16: String])] = [:]
    /// The outline; page targets are 0-based pages of this document.
    public var outline: [PDFOutlineItem] = []
    /// Info entries written beside Producer and CreationDate.
    public var info = PDFDictionary()
    /// The header's version.
    public var version = "1.7"

    public init() {}

    /// A file made of objects numbered elsewhere (numbers may have gaps), the pages being
    /// the page dictionaries `pageNumbers` names, in order; their /Parent is set on writing.
    init(objects: [Int: PDFObject], pageNumbers: [Int]) {
        self.objects = objects
        self.pageNumbers = pageNumbers
        next = (objects.keys.max() ?? 0) + 1
    }

    public var pageCount: Int { pageNumbers.count }

    /// Adds an object and returns its reference.
    public mutating func add(_ object: PDFObject) -> PDFReference {
        defer { next += 1 }
        objects[next] = object
        return PDFReference(number: next)
    }

    /// Adds a page of `width` × `height` points drawing `content` (Flate-compressed here)
    /// with `resources`, turned by `rotate` degrees (a multiple of 90).
    public mutating func addPage(width: Double, height: Double, content: [UInt8], resources: PDFDictionary,
                                 rotate: Int = 0) throws {
        try PDFNewDocument.checkPageSize(width: width, height: height)
        guard rotate % 90 == 0 else { throw PDFError(.invalidArgument, "rotation \(rotate) is not a multiple of 90") }
        let data = try FlateFilter.encode(content)
        let stream = add(.stream(PDFStream(dictionary: ["Filter": .name("FlateDecode"), "Length": .integer(data.count)],
                                           encodedData: data)))
        var page: PDFDictionary = [
            "Type": .name("Page"), "MediaBox": AnnotationAppearance.numbers([0, 0, width, height]),
            "Resources": .dictionary(resources), "Contents": .reference(stream),
        ]
        if rotate % 360 != 0 { page["Rotate"] = .integer((rotate % 360 + 360) % 360) }
        pageNumbers.append(add(.dictionary(page)).number)
    }

    /// The resource name and object of `face` in this file, reserved on first use.
    mutating func fontResource(_ face: PDFTypeface) -> (String, PDFReference) {
        if let known = fonts[face.key] { return (known.name, known.reference) }
        let name = "F\(fonts.count + 1)"
        let reference: PDFReference
        if case .standard(let font) = face { reference = add(.dictionary(font.dictionary)) } else { reference = add(.null) }
        fonts[face.key] = (name, reference, face, [:])
        return (name, reference)
    }

    /// Records the glyphs `encoded` (two bytes each) shows, and the characters each stands for.
    mutating func noteGlyphs(_ encoded: [UInt8], of face: PDFTypeface, text: String) {
        guard var slot = fonts[face.key] else { return }
        FontEmbedding.note(encoded, for: text, in: &slot.glyphs)
        fonts[face.key] = slot
    }

    /// The longest page side PDF allows without /UserUnit: 200 inches.
    public static let maxPageSide = 14_400.0

    /// Refuses a page side under 1 pt or over ``maxPageSide``.
    static func checkPageSize(width: Double, height: Double) throws {
        guard width >= 1, height >= 1, width <= maxPageSide, height <= maxPageSide else {
            throw PDFError(.invalidArgument, "a page of \(width) × \(height) pt is outside PDF's limits (valid: 1 to 14400 pt a side)")
        }
    }

    /// The file. An outline opens beside the pages (/PageMode /UseOutlines).
    public func bytes(producer: String = "Folio") throws -> [UInt8] {
        guard !pageNumbers.isEmpty else { throw PDFError(.invalidArgument, "a PDF needs at least one page") }
        var objects = self.objects
        var next = self.next
        func allocate() -> Int {
            defer { next += 1 }
            return next
        }
        for slot in fonts.values {
            guard case .trueType(let font) = slot.face else { continue }
            try FontEmbedding.embed(font, glyphs: slot.glyphs, as: slot.reference.number, allocate: allocate,
                                    store: { objects[$0] = $1 })
        }
        let pagesNumber = allocate()
        for number in pageNumbers {
            if case .dictionary(var page)? = objects[number] {
                page["Parent"] = .reference(PDFReference(number: pagesNumber))
                objects[number] = .dictionary(page)
            }
        }
        objects[pagesNumber] = .dictionary([
            "Type": .name("Pages"), "Count": .integer(pageNumbers.count),
            "Kids": .array(pageNumbers.map { .reference(PDFReference(number: $0)) }),
        ])
        var catalog: PDFDictionary = ["Type": .name("Catalog"), "Pages": .reference(PDFReference(number: pagesNumber))]
        if !outline.isEmpty {
            let root = allocate()
            let (first, last, count) = OutlineObjects.emit(outline, parent: root, pages: pageNumbers, allocate: allocate,
                                                           store: { objects[$0] = $1 })
            objects[root] = .dictionary(["Type": .name("Outlines"), "Count": .integer(count),
                                         "First": .reference(PDFReference(number: first)),
                                         "Last": .reference(PDFReference(number: last))])
            catalog["Outlines"] = .reference(PDFReference(number: root))
            catalog["PageMode"] = .name("UseOutlines")
        }
        let catalogNumber = allocate()
        objects[catalogNumber] = .dictionary(catalog)
        var infoDictionary = info
        infoDictionary["Producer"] = .string(PDFString(PDFTextString.encode(producer)))
        infoDictionary["CreationDate"] = .string(PDFString(Array(PDFDate(Date()).pdfString.utf8)))
        let infoNumber = allocate()
        objects[infoNumber] = .dictionary(infoDictionary)

        // Numbers left unused (objects a merge found identical) are closed up, so the table lists no holes.
        let numbers = objects.keys.sorted()
        var numbering: [Int: Int] = [:]
        for number in numbers { numbering[number] = numbering.count + 1 }
        let renumber: (PDFReference) -> PDFReference? = { reference in numbering[reference.number].map { PDFReference(number: $0) } }
        var out: [UInt8] = Array("%PDF-\(version)\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A]
        var entries: [Int: XRefEntry] = [0: .free]
        let emitter = ObjectEmitter(security: nil, encryptNumber: nil)
        for number in numbers {
            guard let object = objects[number], let target = numbering[number] else { continue }
            entries[target] = .uncompressed(offset: out.count, generation: 0)
            try emitter.emit(object, as: PDFReference(number: target), into: &out, renumber: renumber)
        }
        let trailer: PDFDictionary = [
            "Size": .integer(numbers.count + 1), "Root": .reference(PDFReference(number: numbering[catalogNumber] ?? 0)),
            "Info": .reference(PDFReference(number: numbering[infoNumber] ?? 0)), "ID": XRefWriter.renewedID(nil, seed: out.count),
        ]
        try XRefWriter.writeTable(entries: entries, trailer: trailer, to: &out, base: 0)
        return out
    }
}

/// Outline entries written as new objects of a file being built.
enum OutlineObjects {
    /// Writes `items` under `parent` (page targets index `pages`, the page objects' numbers);
    /// returns the first and last entry numbers and how many entries show.
    static func emit(_ items: [PDFOutlineItem], parent: Int, pages: [Int], allocate: () -> Int,
                     store: (Int, PDFObject) -> Void) -> (Int, Int, Int) {
        let numbers = items.map { _ in allocate() }
        var visible = items.count
        for (index, item) in items.enumerated() {
            var entry: PDFDictionary = [
                "Title": .string(PDFString(PDFTextString.encode(item.title))),
                "Parent": .reference(PDFReference(number: parent)),
            ]
            switch item.target {
            case .page(let page)? where pages.indices.contains(page):
                entry["Dest"] = .array([.reference(PDFReference(number: pages[page])), .name("Fit")])
            case .uri(let uri)?:
                entry["A"] = .dictionary(["S": .name("URI"), "URI": .string(PDFString(Array(uri.utf8)))])
            default:
                break
            }
            if index > 0 { entry["Prev"] = .reference(PDFReference(number: numbers[index - 1])) }
            if index + 1 < numbers.count { entry["Next"] = .reference(PDFReference(number: numbers[index + 1])) }
            if !item.children.isEmpty {
                let (first, last, count) = emit(item.children, parent: numbers[index], pages: pages, allocate: allocate, store: store)
                entry["First"] = .reference(PDFReference(number: first))
                entry["Last"] = .reference(PDFReference(number: last))
                entry["Count"] = .integer(item.isOpen ? count : -count)
                if item.isOpen { visible += count }
            }
            if let color = item.color, color.count == 3 { entry["C"] = .array(color.map { .real(PDFReal($0)) }) }
            let flags = (item.isItalic ? 1 : 0) | (item.isBold ? 2 : 0)
            if flags != 0 { entry["F"] = .integer(flags) }
            store(numbers[index], .dictionary(entry))
        }
        return (numbers[0], numbers[numbers.count - 1], visible)
    }
}
