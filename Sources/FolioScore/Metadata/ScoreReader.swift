import FolioPDF

extension ScoreMetadata {
    /// ``read(from:)`` of the PDF at `path` (opened with `password` when it is encrypted):
    /// what `folio meta get` and `meta export` show.
    ///
    /// ```swift
    /// let (score, warnings) = try ScoreMetadata.read(file: "Smetana - Vltava.pdf")
    /// ```
    public static func read(file path: String, password: String? = nil) throws -> (ScoreMetadata, [String]) {
        read(from: try PDFDocument(path: path, password: password))
    }

    /// Reads a score's metadata as forScore does from the Info dictionary, falling back
    /// to the XMP packet (dc:title, dc:creator, dc:description, pdf:Keywords) for each
    /// field the Info dictionary lacks; labels come from XMP (see `labels`).
    /// Returns the warnings of the reading.
    ///
    /// ```swift
    /// let (score, warnings) = ScoreMetadata.read(from: try PDFDocument(path: "Chopin.pdf"))
    /// ```
    public static func read(from document: PDFDocument) -> (ScoreMetadata, [String]) {
        read(stored: StoredScore(document))
    }

    /// ``read(from:)`` of a document's Info and packet already read.
    static func read(stored: StoredScore) -> (ScoreMetadata, [String]) {
        var (score, warnings) = ForScoreInfo.read(stored.fields)
        score.labels = stored.labels
        score.reference = stored.reference
        score.tempo = stored.tempo
        score.timeSignature = stored.timeSignature
        return (score, stored.warnings + warnings)
    }
}

/// What a document stores of a score: the Info strings, the parsed XMP packet and the
/// fields as forScore reads them (Info first, XMP where Info lacks a field).
struct StoredScore {
    /// Namespace of Folio's own XMP properties. Labels and the reference have no place in
    /// Info or in the standard schemas, so they live here: an rdf:Bag named `labels` and
    /// a simple `reference`.
    static let namespace = "http://ns.folio.dev/score/1.0/"
    static let prefix = "folioscore"

    /// The items of Folio's ordered XMP property `name` in `document` (none when it has no
    /// readable packet).
    static func list(_ name: XMPPacket.Name, of document: PDFDocument) -> [String] {
        list(name, in: document.xmpPacket.flatMap { try? XMPPacket(bytes: $0) })
    }

    /// The items of `name` in a packet already read (none without one).
    static func list(_ name: XMPPacket.Name, in packet: XMPPacket?) -> [String] {
        packet?.array(name.namespace, name.local) ?? []
    }

    /// Sets Folio's ordered XMP property `name` in `document` to `items` (none removes it), unsaved.
    static func setList(_ name: XMPPacket.Name, to items: [String], in document: PDFDocument) throws {
        _ = try MetadataPacket.update(document) { _ in [XMPPacket.Edit(name, prefix: prefix, items.isEmpty ? nil : .ordered(items))] }
    }

    /// The Info dictionary's four fields, without fallback.
    let info: InfoFields
    /// The fields with the XMP fallback applied.
    let fields: InfoFields
    /// The parsed packet; nil when there is none or it could not be read.
    let xmp: XMPPacket?
    /// Whether a packet exists but could not be read.
    let xmpIsBroken: Bool
    let labels: [String]
    let reference: String?
    /// `folioscore:tempo`, when a whole number 1–999.
    let tempo: Int?
    /// `folioscore:timeSignature`, when one.
    let timeSignature: String?
    let warnings: [String]

    init(_ document: PDFDocument) {
        // The four fields alone: every other Info entry (dates, producer) is not decoded.
        let infoDictionary = document.infoDictionary
        func text(_ key: String) -> String? { infoDictionary.flatMap { document.resolve($0[key]).stringValue?.text } }
        info = InfoFields(title: text("Title"), author: text("Author"), subject: text("Subject"), keywords: text("Keywords"))
        var fields = info
        var warnings: [String] = []
        var packet: XMPPacket?
        var broken = false
        if let bytes = document.xmpPacket {
            do {
                packet = try XMPPacket(bytes: bytes)
            } catch {
                broken = true
                warnings.append("XMP packet ignored: \(error)")
            }
        }
        if let xmp = packet {
            let creators = xmp.array(XMPPacket.dc, "creator")
            fields.title = fields.title ?? xmp.text(XMPPacket.dc, "title")
            fields.author = fields.author ?? (creators.isEmpty ? nil : creators.joined(separator: ", "))
            fields.subject = fields.subject ?? xmp.text(XMPPacket.dc, "description")
            fields.keywords = fields.keywords ?? xmp.text(XMPPacket.pdf, "Keywords")
        }
        self.fields = fields
        self.xmp = packet
        self.xmpIsBroken = broken
        self.labels = packet?.array(StoredScore.namespace, "labels") ?? []
        self.reference = packet?.text(StoredScore.namespace, "reference")
        self.tempo = packet?.text(StoredScore.namespace, "tempo").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { ScoreField.tempo.range?.contains($0) == true ? $0 : nil }
        self.timeSignature = packet?.text(StoredScore.namespace, "timeSignature").flatMap(ScoreField.timeSignature)
        self.warnings = warnings
    }
}
