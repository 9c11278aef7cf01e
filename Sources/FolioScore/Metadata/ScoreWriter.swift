import Foundation
import FolioPDF

/// Writes score metadata into a document as forScore reads it, keeping the Info
/// dictionary and the XMP packet in step (`../shared/DESIGN.md`, "Info dictionary and XMP").
///
/// Info gets Title, Author (composers), Subject (genres), Keywords (tags, then rating,
/// difficulty, duration, keysf, keymi) and ModDate. XMP gets dc:title (rdf:Alt),
/// dc:creator (rdf:Seq), dc:description (rdf:Alt), pdf:Keywords, dc:subject (rdf:Bag of
/// the tags), Folio's labels, reference, tempo and time signature, xmp:ModifyDate and xmp:MetadataDate; every other property of
/// an existing packet is kept. The caller saves the document.
///
/// ```swift
/// var edit = ScoreEdit()
/// edit.rating = 4
/// try PDFSaver.update(path: "Chopin.pdf") { document in
///     try ScoreWriter.write(edit, to: document)
/// }
/// ```
public enum ScoreWriter {
    /// Options of a write.
    ///
    /// ```swift
    /// let warnings = try ScoreWriter.write(edit, to: document, options: .init(allowComma: true))
    /// ```
    public struct Options: Sendable {
        /// Keep values with commas in fields forScore splits (composers, genres, tags,
        /// labels); they are then reported as warnings instead of refused.
        public var allowComma = false
        /// The time stamped into ModDate, xmp:ModifyDate and xmp:MetadataDate.
        public var date = Date()

        public init(allowComma: Bool = false, date: Date = Date()) {
            self.allowComma = allowComma
            self.date = date
        }
    }

    /// Applies `edit` to `document` (unsaved). Throws, changing nothing, when a value is
    /// invalid; returns warnings otherwise.
    @discardableResult
    public static func write(_ edit: ScoreEdit, to document: PDFDocument, options: Options = Options()) throws
        -> [String]
    {
        try edit.validate()
        var warnings = try edit.commaWarnings(allowComma: options.allowComma)

        let stored = StoredScore(document)
        let (current, _) = ForScoreInfo.read(stored.fields)
        var before = current
        before.labels = stored.labels
        before.reference = stored.reference
        before.tempo = stored.tempo
        before.timeSignature = stored.timeSignature
        let score = edit.applied(to: before)
        let fresh = try ForScoreInfo.fields(for: score, allowComma: true)

        // Info: fields the edit touches are rewritten; the others keep their exact text,
        // or take the XMP value when Info lacks it, so both agree after the save.
        let changed = Set(edit.changedFields.compactMap(\.infoKey))
        var final = InfoFields()
        for (key, path) in [("Title", \InfoFields.title), ("Author", \.author), ("Subject", \.subject),
                            ("Keywords", \.keywords)] {
            let value = changed.contains(key) ? fresh[keyPath: path] : stored.fields[keyPath: path]
            final[keyPath: path] = value
            if value != stored.info[keyPath: path] { try document.setInfo(key, to: value) }
        }
        let date = PDFDate(options.date)
        try document.setInfo("ModDate", to: date.pdfString)

        let (finalScore, _) = ForScoreInfo.read(final)
        // Only properties whose values differ are rewritten, so a packet already in step keeps its form.
        func edits(for packet: XMPPacket) -> [XMPPacket.Edit] {
            var edits: [XMPPacket.Edit] = []
            func want(_ namespace: String, _ prefix: String, _ local: String, _ value: XMPPacket.Value?) {
                let name = XMPPacket.Name(namespace: namespace, local: local)
                let wanted: [String]? = switch value {
                case .text(let text)?, .languageAlternative(let text)?: [text]
                case .ordered(let items)?, .unordered(let items)?: items.isEmpty ? nil : items
                case .structures?, nil: nil
                }
                if packet.properties[name] != wanted {
                    edits.append(XMPPacket.Edit(name, prefix: prefix, wanted == nil ? nil : value))
                }
            }
            // Composers given in this edit are written as given (a "Bach, J. S." allowed with a
            // comma stays one creator); a creator list that already joins to Author stays too.
            let existingCreators = packet.array(XMPPacket.dc, "creator")
            let creators = edit.changedFields.contains(.composers) ? score.composers
                : existingCreators.joined(separator: ", ") == final.author ? existingCreators
                : ForScoreInfo.split(final.author)
            want(XMPPacket.dc, "dc", "title", final.title.map { .languageAlternative($0) })
            want(XMPPacket.dc, "dc", "creator", .ordered(creators))
            want(XMPPacket.dc, "dc", "description", final.subject.map { .languageAlternative($0) })
            want(XMPPacket.dc, "dc", "subject", .unordered(edit.changedFields.contains(.tags) ? score.tags : finalScore.tags))
            want(XMPPacket.pdf, "pdf", "Keywords", final.keywords.map { .text($0) })
            want(StoredScore.namespace, StoredScore.prefix, "labels", .unordered(score.labels))
            want(StoredScore.namespace, StoredScore.prefix, "reference", score.reference.map { .text($0) })
            want(StoredScore.namespace, StoredScore.prefix, "tempo", score.tempo.map { .text(String($0)) })
            want(StoredScore.namespace, StoredScore.prefix, "timeSignature", score.timeSignature.map { .text(ScoreField.timeSignature($0) ?? $0) })
            for local in ["ModifyDate", "MetadataDate"] {
                edits.append(XMPPacket.Edit(XMPPacket.Name(namespace: XMPPacket.xmp, local: local), prefix: "xmp",
                                            .text(date.iso8601)))
            }
            return edits
        }
        warnings += try MetadataPacket.update(document, edits: edits)
        return warnings
    }
}
