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

/// Builds a new PDF from page ranges of other documents, in order, with an outline.
///
/// Each page is copied with what it uses (content, resources, annotations), inherited
/// attributes made its own. Objects a source shares between its pages are copied once per
/// source document, and objects that come out identical — the same font embedded by each of
/// a concert's files, say — are written once. References to pages that are not copied
/// (links, an annotation's /P) become null, and a page's parent chain is never followed, so
/// a part never drags in the rest of its file. Encrypted sources are written decrypted.
///
/// ```swift
/// let bytes = try PDFMerger.merge([PDFMergePart(document: a, pages: 0...1, title: "Intro")])
/// ```
public enum PDFMerger {
    /// Merges `parts`. The outline is `outline` when given — its page targets are 0-based
    /// pages of the output — else an entry per titled part. `info` entries go into the
    /// Info dictionary beside Producer and CreationDate.
    public static func merge(_ parts: [PDFMergePart], outline: [PDFOutlineItem]? = nil, info: PDFDictionary = PDFDictionary(),
                             producer: String = "Folio") throws -> [UInt8] {
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
                if firstPage[partIndex] == nil { firstPage[partIndex] = pagePlan.count }
                if let reference = page.reference, builder.pageCopies[Builder.Key(source: source, number: reference.number)] == nil {
                    builder.pageCopies[Builder.Key(source: source, number: reference.number)] = number
                }
                pagePlan.append((partIndex, page, number))
            }
        }
        var keep: Set<Int> = []
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
            // An annotation belongs to one page: never shared, however alike.
            for case .reference(let annotation) in dictionary["Annots"]?.arrayValue ?? [] { keep.insert(annotation.number) }
            keep.insert(number)
            builder.objects[number] = .dictionary(dictionary)
        }
        try builder.drain(parts.map(\.document))
        try builder.shareIdentical(keeping: keep)
        var file = PDFNewDocument(objects: builder.objects, pageNumbers: pagePlan.map(\.number))
        file.outline = outline ?? parts.indices.compactMap { index in
            parts[index].title.map { PDFOutlineItem(title: $0, target: .page(index: firstPage[index] ?? 0)) }
        }
        file.info = info
        file.version = max(parts.map(\.document.version).filter { !$0.isEmpty }.max() ?? "1.4", "1.4")
        return try file.bytes(producer: producer)
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

        /// Points every reference to an object identical to an earlier one at the earlier one
        /// and drops it; repeated until nothing changes, so a font whose descriptor and file
        /// were shared is shared in turn. Objects in `keeping` are never shared.
        mutating func shareIdentical(keeping: Set<Int>) throws {
            struct Shape: Hashable {
                let head: [UInt8]
                let data: Int
                let length: Int

                // Hashed as one block of bytes: an array hashes element by element, far slower.
                func hash(into hasher: inout Hasher) {
                    head.withUnsafeBytes { hasher.combine(bytes: $0) }
                    hasher.combine(data)
                    hasher.combine(length)
                }
            }
            while true {
                var seen: [Shape: [Int]] = [:]
                var replacement: [Int: Int] = [:]
                for number in objects.keys.sorted() where !keeping.contains(number) {
                    guard let object = objects[number] else { continue }
                    var head: [UInt8] = []
                    try PDFSerializer.write(object, to: &head)
                    var hasher = Hasher()
                    if case .stream(let stream) = object { stream.encodedData.withUnsafeBytes { hasher.combine(bytes: $0) } }
                    let shape = Shape(head: head, data: hasher.finalize(), length: object.streamValue?.encodedData.count ?? -1)
                    if let twin = seen[shape, default: []].first(where: { objects[$0] == object }) {
                        replacement[number] = twin
                    } else {
                        seen[shape, default: []].append(number)
                    }
                }
                if replacement.isEmpty { return }
                for number in replacement.keys { objects[number] = nil }
                for (number, object) in objects {
                    objects[number] = Builder.renumbered(object) { replacement[$0] ?? $0 }
                }
            }
        }

        /// `object` with each reference's number mapped.
        static func renumbered(_ object: PDFObject, _ map: (Int) -> Int) -> PDFObject {
            switch object {
            case .reference(let reference):
                let number = map(reference.number)
                return number == reference.number ? object : .reference(PDFReference(number: number))
            case .array(let items):
                return .array(items.map { renumbered($0, map) })
            case .dictionary(let dictionary):
                var result = PDFDictionary()
                for (key, item) in dictionary.entries { result[key] = renumbered(item, map) }
                return .dictionary(result)
            case .stream(let stream):
                var result = PDFDictionary()
                for (key, item) in stream.dictionary.entries { result[key] = renumbered(item, map) }
                return .stream(PDFStream(dictionary: result, encodedData: stream.encodedData))
            default:
                return object
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
