/// Options for a full rewrite.
///
/// ```swift
/// try PDFSaver.rewrite(doc, to: "out.pdf", options: RewriteOptions(objectStreams: true, decrypt: true))
/// ```
public struct RewriteOptions: Sendable {
    /// Pack non-stream objects into object streams and write an xref stream (PDF 1.5).
    public var objectStreams: Bool
    /// Write without encryption (the input must have been opened with a password that
    /// allows it — any password that opens the file does here).
    public var decrypt: Bool
    /// Objects per object stream.
    public var objectsPerStream: Int

    public init(objectStreams: Bool = false, decrypt: Bool = false, objectsPerStream: Int = 100) {
        self.objectStreams = objectStreams
        self.decrypt = decrypt
        self.objectsPerStream = max(1, objectsPerStream)
    }
}

/// Writes a whole new file: only objects reachable from the trailer, renumbered from 1,
/// every stream's /Length right.
enum FullWriter {
    static func rewrite(_ document: PDFDocument, options: RewriteOptions) throws -> [UInt8] {
        let keepEncryption = document.security != nil && !options.decrypt
        var trailerIn = document.trailer
        if !keepEncryption { trailerIn["Encrypt"] = nil }
        // Reachable objects in breadth-first order; a stream's /Length is rewritten
        // directly, so an indirect length object is not carried along.
        var order: [Int] = []
        var newNumber: [Int: Int] = [:]
        var queue: [Int] = []
        var head = 0
        func visit(_ object: PDFObject) {
            switch object {
            case .reference(let reference):
                if newNumber[reference.number] == nil, document.xref.entries[reference.number] != nil
                    || document.changes.objects[reference.number] != nil
                {
                    guard !document.object(reference).isNull else { return }
                    newNumber[reference.number] = order.count + 1
                    order.append(reference.number)
                    queue.append(reference.number)
                }
            case .array(let items):
                items.forEach(visit)
            case .dictionary(let dictionary):
                for (_, value) in dictionary.entries { visit(value) }
            case .stream(let stream):
                for (key, value) in stream.dictionary.entries where key != "Length" { visit(value) }
            default:
                break
            }
        }
        for key in ["Root", "Info", "Encrypt"] {
            if let value = trailerIn[key] { visit(value) }
        }
        while head < queue.count {
            let number = queue[head]
            head += 1
            visit(document.object(PDFReference(number: number)))
        }
        let renumber: (PDFReference) -> PDFReference? = { reference in
            newNumber[reference.number].map { PDFReference(number: $0, generation: 0) }
        }
        let encryptNumber = trailerIn["Encrypt"]?.referenceValue.flatMap { newNumber[$0.number] }
        let emitter = ObjectEmitter(security: keepEncryption ? document.security : nil, encryptNumber: encryptNumber)

        var version = document.version.isEmpty ? "1.4" : document.version
        if options.objectStreams, version < "1.5" { version = "1.5" }
        var out: [UInt8] = Array("%PDF-\(version)\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A]
        var entries: [Int: XRefEntry] = [0: .free]
        var packable: [(Int, PDFObject)] = []
        for (index, oldNumber) in order.enumerated() {
            let number = index + 1
            var object = document.object(PDFReference(number: oldNumber))
            if case .stream(var stream) = object, case .reference? = stream.dictionary["Length"] {
                stream.dictionary["Length"] = .integer(stream.encodedData.count)
                object = .stream(stream)
            }
            if options.objectStreams, object.streamValue == nil, number != encryptNumber {
                packable.append((number, object))
                continue
            }
            entries[number] = .uncompressed(offset: out.count, generation: 0)
            try emitter.emit(object, as: PDFReference(number: number), into: &out, renumber: renumber)
        }
        var nextNumber = order.count + 1
        if options.objectStreams {
            var start = 0
            while start < packable.count {
                let batch = packable[start..<min(start + options.objectsPerStream, packable.count)]
                var header: [UInt8] = []
                var body: [UInt8] = []
                for (index, (number, object)) in batch.enumerated() {
                    PDFSerializer.append("\(number) \(body.count) ", to: &header)
                    // Objects inside an object stream are not encrypted one by one.
                    try PDFSerializer.write(object, to: &body, renumber: renumber)
                    body.append(0x0A)
                    entries[number] = .compressed(stream: nextNumber, index: index)
                }
                let dictionary: PDFDictionary = [
                    "Type": .name("ObjStm"), "N": .integer(batch.count), "First": .integer(header.count),
                    "Filter": .name("FlateDecode"),
                ]
                let data = try FlateFilter.encode(header + body)
                entries[nextNumber] = .uncompressed(offset: out.count, generation: 0)
                try emitter.emit(.stream(PDFStream(dictionary: dictionary, encodedData: data)),
                                 as: PDFReference(number: nextNumber), into: &out)
                nextNumber += 1
                start += options.objectsPerStream
            }
        }
        var trailer = PDFDictionary()
        for key in ["Root", "Info", "Encrypt"] {
            switch trailerIn[key] {
            case .reference(let reference)?:
                if let number = newNumber[reference.number] { trailer[key] = .reference(PDFReference(number: number)) }
            case .dictionary(let direct)?:
                trailer[key] = .dictionary(direct)
            default:
                break
            }
        }
        guard trailer["Root"] != nil else {
            throw PDFError(.damaged, "the document has no catalog to write")
        }
        // Encrypted output keeps the first /ID element: the key of R2–R4 depends on it.
        trailer["ID"] = keepEncryption ? XRefWriter.renewedID(trailerIn["ID"], seed: out.count)
            : XRefWriter.renewedID(nil, seed: out.count)
        if options.objectStreams {
            trailer["Size"] = .integer(nextNumber + 1)
            try XRefWriter.writeStream(entries: entries, number: nextNumber, trailer: trailer, to: &out, base: 0)
        } else {
            trailer["Size"] = .integer(nextNumber)
            try XRefWriter.writeTable(entries: entries, trailer: trailer, to: &out, base: 0)
        }
        return out
    }
}
