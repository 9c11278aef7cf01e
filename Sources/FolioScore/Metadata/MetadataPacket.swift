import FolioPDF

/// The one way the domain changes a document's XMP packet: the existing packet edited in
/// place, or a new one when there is none, none readable, or no rdf:RDF in it.
enum MetadataPacket {
    static let toolkit = "Folio"

    /// Applies the edits `edits` computes for the packet they will change (unsaved).
    /// Returns warnings about a packet that had to be replaced.
    static func update(_ document: PDFDocument, edits: (XMPPacket) -> [XMPPacket.Edit]) throws -> [String] {
        let stored = StoredScore(document)
        var warnings: [String] = []
        var xmp = stored.xmp ?? XMPPacket(emptyWrittenBy: toolkit)
        if stored.xmpIsBroken {
            warnings.append("the XMP packet could not be read and was replaced; the old one stays in the "
                + "file's previous revision")
        }
        do {
            try xmp.update(edits(xmp))
        } catch {
            warnings.append("the XMP packet has no rdf:RDF and was replaced; the old one stays in the file's "
                + "previous revision")
            xmp = XMPPacket(emptyWrittenBy: toolkit)
            try xmp.update(edits(xmp))
        }
        try document.setMetadataPacket(xmp.serialized())
        return warnings
    }
}
