/// What `folio info` reports about a file: identity, structure and the Info fields.
///
/// ```swift
/// let summary = try PDFDocument(path: "a.pdf").summary(path: "a.pdf")
/// summary.pages   // 4
/// ```
public struct PDFSummary: Sendable, Equatable {
    public var path: String
    public var version: String
    public var pages: Int
    public var encrypted: Bool
    /// The cipher and revision ("AES-256 (R6)"), for encrypted files.
    public var encryption: String?
    public var title: String?
    public var author: String?
    public var subject: String?
    public var keywords: String?
    public var creator: String?
    public var producer: String?
    /// ISO 8601 when the date parses, the raw string otherwise.
    public var created: String?
    public var modified: String?
    public var xmp: Bool
    public var outlines: Int
    public var warnings: Int
    /// Why the file could be read only by repair (``PDFDocument/damage``); nil when sound.
    public var damage: String?

    public init(path: String, version: String, pages: Int, encrypted: Bool, encryption: String? = nil,
                title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil,
                creator: String? = nil, producer: String? = nil, created: String? = nil, modified: String? = nil,
                xmp: Bool = false, outlines: Int = 0, warnings: Int = 0, damage: String? = nil) {
        self.path = path
        self.version = version
        self.pages = pages
        self.encrypted = encrypted
        self.encryption = encryption
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
        self.producer = producer
        self.created = created
        self.modified = modified
        self.xmp = xmp
        self.outlines = outlines
        self.warnings = warnings
        self.damage = damage
    }
}

extension PDFDocument {
    /// Reads what ``PDFSummary`` holds, touching only the trailer, catalog, page tree,
    /// Info dictionary and outline items (no content stream is decoded).
    public func summary(path: String) -> PDFSummary {
        let info = self.info
        func date(_ key: String, _ parsed: PDFDate?) -> String? {
            parsed?.iso8601 ?? info.entries[key]
        }
        let pages = pageCount
        let outlines = outlineCount
        let hasXMP = metadataStream != nil
        return PDFSummary(
            path: path, version: version, pages: pages, encrypted: isEncrypted,
            encryption: encryption?.description, title: info.title, author: info.author, subject: info.subject,
            keywords: info.keywords, creator: info.creator, producer: info.producer,
            created: date("CreationDate", info.creationDate), modified: date("ModDate", info.modificationDate),
            xmp: hasXMP, outlines: outlines, warnings: warningCount, damage: damage)
    }
}
