/// Builds an incremental update: only the changed and new objects, appended after the
/// original bytes, with a cross-reference section in the style of the file's last one and
/// a trailer that repeats every previous key plus /Prev.
enum IncrementalWriter {
    /// Trailer keys that describe a cross-reference section, not the document.
    static let sectionKeys: Set<String> = [
        "Prev", "XRefStm", "Type", "W", "Index", "Filter", "DecodeParms", "Length", "Size", "DL", "F", "FFilter",
        "FDecodeParms",
    ]

    /// The bytes to append to `document.source`.
    static func update(for document: PDFDocument) throws -> [UInt8] {
        let base = document.source.count
        var out: [UInt8] = []
        if base > 0, document.source.bytes[base - 1] != 0x0A, document.source.bytes[base - 1] != 0x0D {
            out.append(0x0A)
        }
        let xref = document.xref
        let emitter = ObjectEmitter(security: document.security, encryptNumber: document.encryptNumber)
        // A damaged file's own xref cannot be chained to: write a complete section instead.
        let complete = xref.isReconstructed || xref.isDamaged
        var entries: [Int: XRefEntry] = complete ? xref.entries : [:]
        if complete { entries[0] = .free }
        for number in document.changes.objects.keys.sorted() {
            guard let object = document.changes.objects[number] else { continue }
            var generation = 0
            if case .uncompressed(_, let existing)? = xref.entries[number] { generation = existing }
            entries[number] = .uncompressed(offset: base + out.count, generation: generation)
            try emitter.emit(object, as: PDFReference(number: number, generation: generation), into: &out)
        }
        for number in document.changes.deleted { entries[number] = .free }

        var trailer = PDFDictionary()
        for (key, value) in document.trailer.entries where !sectionKeys.contains(key) {
            trailer[key] = value
        }
        trailer["ID"] = XRefWriter.renewedID(document.trailer["ID"], seed: base)
        var size = max(xref.size, (entries.keys.max() ?? 0) + 1)
        if let trailerSize = xref.trailer["Size"]?.intValue, trailerSize > size, trailerSize < (1 << 23) {
            size = trailerSize
        }
        if !complete { trailer["Prev"] = .integer(xref.startOffset) }
        let hasCompressed = entries.values.contains { if case .compressed = $0 { return true } else { return false } }
        if xref.style == .stream || hasCompressed {
            trailer["Size"] = .integer(size + 1)
            try XRefWriter.writeStream(entries: entries, number: size, trailer: trailer, to: &out, base: base)
        } else {
            trailer["Size"] = .integer(size)
            try XRefWriter.writeTable(entries: entries, trailer: trailer, to: &out, base: base)
        }
        return out
    }
}
