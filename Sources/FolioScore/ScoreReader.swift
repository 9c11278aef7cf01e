import FolioPDF

extension ScoreMetadata {
    /// Reads a score's metadata as forScore does from the Info dictionary, falling back
    /// to the XMP packet (dc:title, dc:creator, dc:description, pdf:Keywords) for each
    /// field the Info dictionary lacks. Returns the warnings of the reading.
    ///
    /// ```swift
    /// let (score, warnings) = ScoreMetadata.read(from: try PDFDocument(path: "Chopin.pdf"))
    /// ```
    public static func read(from document: PDFDocument) -> (ScoreMetadata, [String]) {
        let info = document.info
        var fields = InfoFields(title: info.title, author: info.author, subject: info.subject, keywords: info.keywords)
        var warnings: [String] = []
        if fields.title == nil || fields.author == nil || fields.subject == nil || fields.keywords == nil,
            let bytes = document.xmpPacket
        {
            do {
                let xmp = try XMPPacket(bytes: bytes)
                let creators = xmp.array(XMPPacket.dc, "creator")
                fields.title = fields.title ?? xmp.text(XMPPacket.dc, "title")
                fields.author = fields.author ?? (creators.isEmpty ? nil : creators.joined(separator: ", "))
                fields.subject = fields.subject ?? xmp.text(XMPPacket.dc, "description")
                fields.keywords = fields.keywords ?? xmp.text(XMPPacket.pdf, "Keywords")
            } catch {
                warnings.append("XMP packet ignored: \(error)")
            }
        }
        let (score, keywordWarnings) = ForScoreInfo.read(fields)
        return (score, warnings + keywordWarnings)
    }
}
