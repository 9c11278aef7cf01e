/// The document information dictionary (`/Info`), decoded.
///
/// ```swift
/// let info = doc.info
/// info.title          // "Clair de Lune"
/// info.creationDate   // PDFDate(2022-04-03T18:05:42+02:00)
/// ```
public struct DocumentInfo: Sendable, Equatable {
    public var title: String?
    public var author: String?
    public var subject: String?
    public var keywords: String?
    public var creator: String?
    public var producer: String?
    public var creationDate: PDFDate?
    public var modificationDate: PDFDate?
    /// Every entry decoded as text (custom keys such as LilyPond's /Composer included);
    /// non-string values are left out.
    public var entries: [String: String]

    public init(title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil,
                creator: String? = nil, producer: String? = nil, creationDate: PDFDate? = nil,
                modificationDate: PDFDate? = nil, entries: [String: String] = [:]) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
        self.producer = producer
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.entries = entries
    }
}

extension PDFDocument {
    /// The /Info dictionary, resolved; nil when absent.
    public var infoDictionary: PDFDictionary? {
        dictionary(trailer["Info"])
    }

    /// The /Info entries decoded as text.
    public var info: DocumentInfo {
        guard let dictionary = infoDictionary else { return DocumentInfo() }
        var entries: [String: String] = [:]
        for (key, value) in dictionary.entries {
            if case .string(let string) = resolve(value) { entries[key] = string.text }
        }
        return DocumentInfo(
            title: entries["Title"], author: entries["Author"], subject: entries["Subject"],
            keywords: entries["Keywords"], creator: entries["Creator"], producer: entries["Producer"],
            creationDate: entries["CreationDate"].flatMap(PDFDate.init(parsing:)),
            modificationDate: entries["ModDate"].flatMap(PDFDate.init(parsing:)), entries: entries)
    }

    /// The catalog's /Metadata stream object, if any.
    public var metadataStream: PDFStream? {
        resolve(catalog?["Metadata"]).streamValue
    }

    /// The raw XMP packet (the /Metadata stream decoded); nil when absent or undecodable.
    public var xmpPacket: [UInt8]? {
        guard let stream = metadataStream else { return nil }
        do {
            // Decoding stops where XMPPacket would refuse the packet anyway: a metadata stream
            // that inflates to a gigabyte costs 16 MiB, not the gigabyte.
            return try decodedData(of: stream, limit: XMPPacket.maxBytes + 1)
        } catch let error as PDFError {
            log.add("cannot decode the XMP metadata stream: \(error.message)", object: catalog?["Metadata"]?.referenceValue)
            return nil
        } catch {
            return nil
        }
    }

    /// Number of outline (bookmark) items in the whole tree; loop-safe.
    public var outlineCount: Int {
        guard let outlines = dictionary(catalog?["Outlines"]) else { return 0 }
        var count = 0
        var visited = Set<Int>()
        var pending: [PDFObject] = outlines["First"].map { [$0] } ?? []
        let budget = 1_000_000
        while let next = pending.popLast(), count < budget {
            var item: PDFObject? = next
            while let current = item {
                if let number = current.referenceValue?.number, !visited.insert(number).inserted {
                    log.add("loop in the outline tree", object: current.referenceValue)
                    break
                }
                guard let dictionary = resolve(current).dictionaryValue else { break }
                count += 1
                if let first = dictionary["First"] { pending.append(first) }
                item = dictionary["Next"]
            }
        }
        return count
    }
}
