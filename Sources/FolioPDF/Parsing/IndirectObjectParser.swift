/// An indirect object as found in the file: `N G obj … endobj`.
struct IndirectObject {
    let reference: PDFReference
    let object: PDFObject
    /// Offset of the first byte after the object (after `endobj` when present).
    let end: Int
}

/// Parses `N G obj` at an offset, including stream data, recovering a missing or wrong
/// `/Length` from the position of `endstream`.
struct IndirectObjectParser {
    let bytes: UnsafeRawBufferPointer
    let log: WarningLog?
    /// The number of the object whose xref offset is the greatest at or before an offset;
    /// tells whether recovered stream data would run into another object.
    var objectAt: ((Int) -> Int?)? = nil

    /// Reads the `N G obj` header at `offset` (after white space). Returns the reference
    /// and the position after `obj`, or nil when the bytes there are not such a header.
    func header(at offset: Int) -> (PDFReference, Int)? {
        var lexer = Lexer(bytes: bytes, position: offset)
        guard case .integer(let number) = lexer.next(), number >= 0,
            case .integer(let generation) = lexer.next(), generation >= 0,
            case .keyword(let word) = lexer.next()
        else { return nil }
        if word == "obj" {
            return (PDFReference(number: number, generation: generation), lexer.position)
        }
        // "1 0 obj<<" lexes as keyword "obj" followed by "<<"; "objx" is not a header.
        return nil
    }

    /// Parses the object at `offset`. `length` resolves an indirect /Length; it returns nil
    /// when the length cannot be had (the data is then delimited by `endstream`).
    func parse(at offset: Int, length: (PDFReference) -> Int?) throws -> IndirectObject {
        guard offset >= 0, offset < bytes.count else {
            throw PDFError(.damaged, "object offset outside the file", offset: offset)
        }
        guard let (reference, bodyStart) = header(at: offset) else {
            throw PDFError(.syntax, "expected 'N G obj'", offset: offset)
        }
        var parser = Parser(bytes: bytes, position: bodyStart, log: log)
        let object = try parser.parseObject()
        var lexer = parser.lexer
        let afterObject = lexer.position
        let token = lexer.next()
        if case .keyword("stream") = token, case .dictionary(let dictionary) = object {
            let (data, end) = streamData(dictionary: dictionary, keywordEnd: lexer.position,
                                         reference: reference, length: length)
            return IndirectObject(
                reference: reference,
                object: .stream(PDFStream(dictionary: dictionary, encodedData: data)),
                end: end)
        }
        if case .keyword("endobj") = token {
            return IndirectObject(reference: reference, object: object, end: lexer.position)
        }
        log?.add("object has no 'endobj'", offset: afterObject, object: reference)
        return IndirectObject(reference: reference, object: object, end: afterObject)
    }

    private func streamData(
        dictionary: PDFDictionary, keywordEnd: Int, reference: PDFReference,
        length: (PDFReference) -> Int?
    ) -> ([UInt8], Int) {
        var start = keywordEnd
        if start < bytes.count, bytes[start] == 0x0D { start += 1 }
        if start < bytes.count, bytes[start] == 0x0A { start += 1 }
        var declared: Int?
        switch dictionary["Length"] {
        case .integer(let value)?: declared = value
        case .reference(let ref)?: declared = length(ref)
        default: declared = nil
        }
        if let declared, declared >= 0, start + declared <= bytes.count,
            let end = endstreamFollows(at: start + declared)
        {
            return (Array(bytes[start..<(start + declared)]), end)
        }
        // Length missing, indirect and unresolvable, or wrong: recover it as qpdf 12 does.
        // The data runs to the first `endstream` or `endobj`; when that keyword lies inside
        // another object (by the xref), the data is taken as empty.
        let terminator = firstEndKeyword(from: start)
        var dataEnd = terminator?.offset ?? start
        if let terminator, let owner = objectAt?(terminator.offset), owner != reference.number {
            dataEnd = start
        }
        if dataEnd == start, let declared, declared > 0, start + declared <= bytes.count {
            // Nothing recoverable from the keywords, but the declared length fits the file:
            // only the `endstream` after it is damaged ("enxstream"), so trust the length.
            log?.add("stream is not followed by endstream; data taken from /Length \(declared)",
                     offset: start, object: reference)
            return (Array(bytes[start..<(start + declared)]), start + declared)
        }
        if dataEnd == start {
            log?.add("unable to recover stream data; treating stream as empty", offset: start, object: reference)
        } else if declared == nil {
            log?.add("stream /Length missing or unresolvable; recovered \(dataEnd - start) from endstream",
                     offset: start, object: reference)
        } else {
            log?.add("stream /Length \(declared ?? 0) is wrong; recovered \(dataEnd - start)",
                     offset: start, object: reference)
        }
        var end = bytes.count
        if let terminator {
            var after = Lexer(bytes: bytes, position: terminator.offset + (terminator.isEndstream ? 9 : 0))
            if case .keyword("endobj") = after.next() { end = after.position } else { end = terminator.offset + 9 }
        }
        return (Array(bytes[start..<dataEnd]), end)
    }

    /// The first `endstream` or `endobj` token at or after `position`.
    private func firstEndKeyword(from position: Int) -> (offset: Int, isEndstream: Bool)? {
        let lexer = Lexer(bytes: bytes)
        let pattern = Array("end".utf8)
        var from = position
        while let found = lexer.find(pattern, from: from) {
            for (word, isEndstream) in [("endstream", true), ("endobj", false)] {
                let length = word.utf8.count
                if found + length <= bytes.count, zip(word.utf8, bytes[found..<(found + length)]).allSatisfy({ $0 == $1 }),
                    found + length == bytes.count || !ByteClass.isRegular(bytes[found + length])
                {
                    return (found, isEndstream)
                }
            }
            from = found + 3
        }
        return nil
    }

    /// If `endstream` follows `position` (after optional white space), the offset after
    /// `endobj` (or after `endstream` when `endobj` is missing).
    private func endstreamFollows(at position: Int) -> Int? {
        var lexer = Lexer(bytes: bytes, position: position)
        lexer.skipWhitespace()
        let keywordStart = lexer.position
        guard case .keyword(let word) = lexer.next() else { return nil }
        if word == "endstream" {
            let afterStream = lexer.position
            if case .keyword("endobj") = lexer.next() { return lexer.position }
            return afterStream
        }
        // Some writers omit `endstream` and go straight to `endobj`.
        if word == "endobj" {
            log?.add("stream without 'endstream'", offset: keywordStart)
            return lexer.position
        }
        return nil
    }
}
