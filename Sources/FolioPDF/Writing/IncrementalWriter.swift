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
        // Offsets count from the %PDF- header, as readers do for files with leading junk.
        let origin = base - document.headerOffset
        // Chain to the file's own last section even when it is damaged: readers then
        // recover the old part as they did before, and our section wins for what changed.
        // Only a file without any startxref gets a complete section instead.
        let previous = document.originalStartXRef
        let complete = previous == nil
        var entries: [Int: XRefEntry] = [:]
        if complete {
            for (number, entry) in xref.entries {
                if case .uncompressed(let offset, let generation) = entry {
                    entries[number] = .uncompressed(offset: offset - document.headerOffset, generation: generation)
                } else {
                    entries[number] = entry
                }
            }
            entries[0] = .free
        }
        for number in document.changes.objects.keys.sorted() {
            guard let object = document.changes.objects[number] else { continue }
            var generation = 0
            if case .uncompressed(_, let existing)? = xref.entries[number] { generation = existing }
            entries[number] = .uncompressed(offset: origin + out.count, generation: generation)
            try emitter.emit(object, as: PDFReference(number: number, generation: generation), into: &out)
        }
        for number in document.changes.deleted { entries[number] = .free }

        let previousTrailer = document.trailer
        var trailer = PDFDictionary()
        for (key, value) in previousTrailer.entries where !sectionKeys.contains(key) {
            trailer[key] = value
        }
        // An encrypted file without /ID derived its key from an empty ID: adding one would
        // lock every reader out.
        if previousTrailer["ID"] != nil || !document.isEncrypted {
            trailer["ID"] = XRefWriter.renewedID(previousTrailer["ID"], seed: base)
        }
        let size = max(xref.size, (entries.keys.max() ?? 0) + 1)
        if let previous, !complete { trailer["Prev"] = .integer(previous) }
        let hasCompressed = entries.values.contains { if case .compressed = $0 { return true } else { return false } }
        if xref.style == .stream || hasCompressed {
            trailer["Size"] = .integer(size + 1)
            try XRefWriter.writeStream(entries: entries, number: size, trailer: trailer, to: &out, base: origin)
        } else {
            trailer["Size"] = .integer(size)
            try XRefWriter.writeTable(entries: entries, trailer: trailer, to: &out, base: origin)
        }
        return out
    }
}
