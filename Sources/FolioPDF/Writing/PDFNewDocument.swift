import Foundation

/// A new PDF built page by page: objects added as they come, pages with their content and
/// resources, an outline and Info; written in one pass with a classic cross-reference table.
///
/// ```swift
/// var pdf = PDFNewDocument()
/// let image = pdf.add(.stream(photo.stream))
/// try pdf.addPage(width: 595, height: 842, content: Array("q 595 0 0 842 0 0 cm /Im0 Do Q".utf8),
///                 resources: ["XObject": .dictionary(["Im0": .reference(image)])])
/// let bytes = try pdf.bytes()
/// ```
public struct PDFNewDocument {
    private var objects: [PDFObject] = []
    private var pageNumbers: [Int] = []
    /// The outline; page targets are 0-based pages of this document.
    public var outline: [PDFOutlineItem] = []
    /// Info entries written beside Producer and CreationDate.
    public var info = PDFDictionary()
    /// The header's version.
    public var version = "1.7"

    public init() {}

    public var pageCount: Int { pageNumbers.count }

    /// Adds an object and returns its reference.
    public mutating func add(_ object: PDFObject) -> PDFReference {
        objects.append(object)
        return PDFReference(number: objects.count)
    }

    /// Adds a page of `width` × `height` points drawing `content` (Flate-compressed here)
    /// with `resources`, turned by `rotate` degrees (a multiple of 90).
    public mutating func addPage(width: Double, height: Double, content: [UInt8], resources: PDFDictionary,
                                 rotate: Int = 0) throws {
        guard width >= 1, height >= 1, width <= 14_400, height <= 14_400 else {
            throw PDFError(.invalidArgument, "a page of \(width) × \(height) pt is outside PDF's limits (valid: 1 to 14400 pt a side)")
        }
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

    /// The file.
    public func bytes(producer: String = "Folio") throws -> [UInt8] {
        guard !pageNumbers.isEmpty else { throw PDFError(.invalidArgument, "a PDF needs at least one page") }
        var objects = self.objects.enumerated().reduce(into: [Int: PDFObject]()) { $0[$1.offset + 1] = $1.element }
        var next = objects.count + 1
        func allocate() -> Int {
            defer { next += 1 }
            return next
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
        }
        let catalogNumber = allocate()
        objects[catalogNumber] = .dictionary(catalog)
        var infoDictionary = info
        infoDictionary["Producer"] = .string(PDFString(PDFTextString.encode(producer)))
        infoDictionary["CreationDate"] = .string(PDFString(Array(PDFDate(Date()).pdfString.utf8)))
        let infoNumber = allocate()
        objects[infoNumber] = .dictionary(infoDictionary)

        var out: [UInt8] = Array("%PDF-\(version)\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A]
        var entries: [Int: XRefEntry] = [0: .free]
        let emitter = ObjectEmitter(security: nil, encryptNumber: nil)
        for number in 1..<next {
            guard let object = objects[number] else { continue }
            entries[number] = .uncompressed(offset: out.count, generation: 0)
            try emitter.emit(object, as: PDFReference(number: number), into: &out)
        }
        let trailer: PDFDictionary = [
            "Size": .integer(next), "Root": .reference(PDFReference(number: catalogNumber)),
            "Info": .reference(PDFReference(number: infoNumber)), "ID": XRefWriter.renewedID(nil, seed: out.count),
        ]
        try XRefWriter.writeTable(entries: entries, trailer: trailer, to: &out, base: 0)
        return out
    }
}
