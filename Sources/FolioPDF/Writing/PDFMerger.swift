import Foundation

/// One piece of a merge: pages of an open document, and the outline entry that leads to
/// its first page.
///
/// ```swift
/// let part = PDFMergePart(document: doc, pages: 2...4, title: "Blue Bossa")   // 0-based pages
/// ```
public struct PDFMergePart {
    public var document: PDFDocument
    /// 0-based page indexes, in order.
    public var pages: ClosedRange<Int>
    /// The outline entry for this part; nil adds none.
    public var title: String?

    public init(document: PDFDocument, pages: ClosedRange<Int>, title: String?) {
        self.document = document
        self.pages = pages
        self.title = title
    }
}

/// Builds a new PDF from page ranges of other documents, in order, with an outline entry
/// per titled part.
///
/// Each page is copied with what it uses (content, resources, annotations), inherited
/// attributes made its own. Objects a source shares between its pages are copied once per
/// source document. References to pages that are not copied (links, an annotation's /P)
/// become null, and a page's parent chain is never followed, so a part never drags in the
/// rest of its file. Encrypted sources are written decrypted.
///
/// ```swift
/// let bytes = try PDFMerger.merge([PDFMergePart(document: a, pages: 0...1, title: "Intro")])
/// ```
public enum PDFMerger {
    public static func merge(_ parts: [PDFMergePart], producer: String = "Folio") throws -> [UInt8] {
        guard !parts.isEmpty else { throw PDFError(.invalidArgument, "nothing to merge: no pages were given") }
        var builder = Builder()
        // Page copies are numbered first, so references to them resolve while copying.
        var pagePlan: [(part: Int, page: PDFPage, number: Int)] = []
        var firstPage: [Int: Int] = [:]
        for (partIndex, part) in parts.enumerated() {
            let count = part.document.pageCount
            guard part.pages.lowerBound >= 0, part.pages.upperBound < count else {
                throw PDFError(.invalidArgument,
                               "pages \(part.pages.lowerBound + 1)–\(part.pages.upperBound + 1) are out of range (valid: 1 to \(count))")
            }
            let source = ObjectIdentifier(part.document)
            for index in part.pages {
                let page = try part.document.page(at: index)
                let number = builder.allocate()
                if firstPage[partIndex] == nil { firstPage[partIndex] = number }
                if let reference = page.reference, builder.pageCopies[Builder.Key(source: source, number: reference.number)] == nil {
                    builder.pageCopies[Builder.Key(source: source, number: reference.number)] = number
                }
                pagePlan.append((partIndex, page, number))
            }
        }
        let pagesNumber = builder.allocate()
        for (partIndex, page, number) in pagePlan {
            let document = parts[partIndex].document
            var dictionary = PDFDictionary()
            for (key, value) in page.dictionary.entries where key != "Parent" && key != "B" {
                dictionary[key] = builder.copy(value, from: document)
            }
            if dictionary["Resources"] == nil { dictionary["Resources"] = builder.copy(page.resources ?? .dictionary([:]), from: document) }
            if dictionary["MediaBox"] == nil { dictionary["MediaBox"] = AnnotationAppearance.numbers(page.mediaBox ?? [0, 0, 612, 792]) }
            if dictionary["CropBox"] == nil, let crop = page.cropBox { dictionary["CropBox"] = AnnotationAppearance.numbers(crop) }
            if dictionary["Rotate"] == nil, page.rotation != 0 { dictionary["Rotate"] = .integer(page.rotation) }
            dictionary["Parent"] = .reference(PDFReference(number: pagesNumber))
            builder.objects[number] = .dictionary(dictionary)
        }
        try builder.drain(parts.map(\.document))
        builder.objects[pagesNumber] = .dictionary([
            "Type": .name("Pages"), "Count": .integer(pagePlan.count),
            "Kids": .array(pagePlan.map { .reference(PDFReference(number: $0.number)) }),
        ])
        var catalog: PDFDictionary = ["Type": .name("Catalog"), "Pages": .reference(PDFReference(number: pagesNumber))]
        let titled = parts.indices.compactMap { index in parts[index].title.map { (title: $0, page: firstPage[index] ?? 0) } }
        if !titled.isEmpty {
            let outlineNumber = builder.allocate()
            let numbers = titled.map { _ in builder.allocate() }
            for (index, item) in titled.enumerated() {
                var entry: PDFDictionary = [
                    "Title": .string(PDFString(PDFTextString.encode(item.title))),
                    "Parent": .reference(PDFReference(number: outlineNumber)),
                    "Dest": .array([.reference(PDFReference(number: item.page)), .name("Fit")]),
                ]
                if index > 0 { entry["Prev"] = .reference(PDFReference(number: numbers[index - 1])) }
                if index + 1 < numbers.count { entry["Next"] = .reference(PDFReference(number: numbers[index + 1])) }
                builder.objects[numbers[index]] = .dictionary(entry)
            }
            builder.objects[outlineNumber] = .dictionary([
                "Type": .name("Outlines"), "Count": .integer(numbers.count),
                "First": .reference(PDFReference(number: numbers[0])),
                "Last": .reference(PDFReference(number: numbers[numbers.count - 1])),
            ])
            catalog["Outlines"] = .reference(PDFReference(number: outlineNumber))
            catalog["PageMode"] = .name("UseOutlines")
        }
        let catalogNumber = builder.allocate()
        builder.objects[catalogNumber] = .dictionary(catalog)
        let infoNumber = builder.allocate()
        builder.objects[infoNumber] = .dictionary([
            "Producer": .string(PDFString(PDFTextString.encode(producer))),
            "CreationDate": .string(PDFString(Array(PDFDate(Date()).pdfString.utf8))),
        ])

        let version = parts.map(\.document.version).filter { !$0.isEmpty }.max() ?? "1.4"
        var out: [UInt8] = Array("%PDF-\(max(version, "1.4"))\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A]
        var entries: [Int: XRefEntry] = [0: .free]
        let emitter = ObjectEmitter(security: nil, encryptNumber: nil)
        for number in 1..<builder.next {
            guard let object = builder.objects[number] else { continue }
            entries[number] = .uncompressed(offset: out.count, generation: 0)
            try emitter.emit(object, as: PDFReference(number: number), into: &out)
        }
        let trailer: PDFDictionary = [
            "Size": .integer(builder.next), "Root": .reference(PDFReference(number: catalogNumber)),
            "Info": .reference(PDFReference(number: infoNumber)), "ID": XRefWriter.renewedID(nil, seed: out.count),
        ]
        try XRefWriter.writeTable(entries: entries, trailer: trailer, to: &out, base: 0)
        return out
    }

    /// The object graph being copied: new numbers by (source, old number), objects by new number.
    private struct Builder {
        struct Key: Hashable {
            let source: ObjectIdentifier
            let number: Int
        }
        var next = 1
        var objects: [Int: PDFObject] = [:]
        var pageCopies: [Key: Int] = [:]
        var copied: [Key: Int] = [:]
        var queue: [(Key, Int)] = []

        mutating func allocate() -> Int {
            defer { next += 1 }
            return next
        }

        /// `value` with every reference renumbered into the new file.
        mutating func copy(_ value: PDFObject, from document: PDFDocument) -> PDFObject {
            switch value {
            case .reference(let reference):
                let key = Key(source: ObjectIdentifier(document), number: reference.number)
                if let page = pageCopies[key] { return .reference(PDFReference(number: page)) }
                if let number = copied[key] { return .reference(PDFReference(number: number)) }
                let target = document.object(reference)
                if target.isNull { return .null }
                // Pages not copied, and the page tree, stay behind.
                if let type = target.dictionaryValue?["Type"]?.nameValue, type == "Page" || type == "Pages" { return .null }
                let number = allocate()
                copied[key] = number
                queue.append((key, number))
                return .reference(PDFReference(number: number))
            case .array(let items):
                return .array(items.map { copy($0, from: document) })
            case .dictionary(let dictionary):
                var result = PDFDictionary()
                for (key, item) in dictionary.entries { result[key] = copy(item, from: document) }
                return .dictionary(result)
            case .stream(let stream):
                var dictionary = PDFDictionary()
                for (key, item) in stream.dictionary.entries where key != "Length" { dictionary[key] = copy(item, from: document) }
                dictionary["Length"] = .integer(stream.encodedData.count)
                return .stream(PDFStream(dictionary: dictionary, encodedData: stream.encodedData))
            default:
                return value
            }
        }

        mutating func drain(_ documents: [PDFDocument]) throws {
            let byIdentity = Dictionary(documents.map { (ObjectIdentifier($0), $0) }, uniquingKeysWith: { first, _ in first })
            var head = 0
            while head < queue.count {
                let (key, number) = queue[head]
                head += 1
                guard let document = byIdentity[key.source] else { continue }
                objects[number] = copy(document.object(PDFReference(number: key.number)), from: document)
            }
        }
    }
}
