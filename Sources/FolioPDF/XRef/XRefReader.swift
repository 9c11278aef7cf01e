/// Reads the cross-reference sections of a file: classic tables (with the defects real
/// producers write), xref streams, hybrid files and `/Prev` chains.
struct XRefReader {
    let bytes: UnsafeRawBufferPointer
    let log: WarningLog
    let limits: PDFReadOptions

    /// Most sections followed through `/Prev` before the chain is declared broken.
    static let maxSections = 4096
    /// How far back from the end `startxref` is searched for (trailing garbage beyond this
    /// means reconstruction, never a quadratic scan).
    static let tailWindow = 1 << 20

    /// Finds the offset `startxref` announces, searching backwards once over at most
    /// ``tailWindow`` bytes.
    func findStartXRef() -> Int? {
        let lexer = Lexer(bytes: bytes)
        let floor = max(0, bytes.count - XRefReader.tailWindow)
        guard let keyword = lexer.findLast(Array("startxref".utf8), before: bytes.count - 9, floor: floor) else {
            return nil
        }
        var after = Lexer(bytes: bytes, position: keyword + 9)
        guard case .integer(let offset) = after.next() else { return nil }
        return offset
    }

    /// Reads the chain starting at `offset`. Throws when the newest section is unusable.
    func read(startingAt offset: Int) throws -> XRefTable {
        var table = XRefTable()
        table.startOffset = offset
        var visited = Set<Int>()
        var pending: [Int] = [offset]
        var first = true
        while let current = pending.popLast() {
            guard visited.insert(current).inserted else {
                log.add("loop in /Prev chain of cross-reference sections", offset: current)
                table.isDamaged = true
                continue
            }
            guard visited.count <= XRefReader.maxSections else {
                log.add("more than \(XRefReader.maxSections) cross-reference sections; rest ignored", offset: current)
                break
            }
            let section: Section
            do {
                section = try readSection(at: current)
            } catch {
                if first { throw error }
                log.add("cannot read older cross-reference section: \((error as? PDFError)?.message ?? "\(error)")",
                        offset: current)
                table.isDamaged = true
                continue
            }
            if first {
                table.trailer = section.trailer
                table.style = section.style
                first = false
            } else {
                // The newest trailer rules (so an update may remove /Info), but the keys
                // without which the file cannot be read are taken from older ones when a
                // careless writer left them out.
                for key in ["Root", "Encrypt", "ID"] where table.trailer[key] == nil {
                    if let value = section.trailer[key] { table.trailer[key] = value }
                }
            }
            if table.entries.isEmpty {
                table.entries = section.entries  // the newest section: taken whole, not entry by entry
            } else {
                for (number, entry) in section.entries where table.entries[number] == nil {
                    table.entries[number] = entry
                }
            }
            table.sectionCount += 1
            table.streamSectionOffsets += section.streamOffsets
            if let prev = section.trailer["Prev"]?.intValue {
                pending.append(prev)
            }
        }
        return table
    }

    struct Section {
        var entries: [Int: XRefEntry]
        var trailer: PDFDictionary
        var style: XRefStyle
        /// Where the cross-reference streams of this section start (its own, or a hybrid's /XRefStm).
        var streamOffsets: [Int] = []
    }

    func readSection(at offset: Int) throws -> Section {
        guard offset > 0 || bytes.count > 0, offset >= 0, offset < bytes.count else {
            throw PDFError(.damaged, "cross-reference offset \(offset) is outside the file", offset: offset)
        }
        var lexer = Lexer(bytes: bytes, position: offset)
        lexer.skipWhitespace()
        let start = lexer.position
        if case .keyword("xref") = lexer.next() {
            return try readTable(at: lexer.position, sectionStart: start)
        }
        return try readStreamSection(at: start)
    }

    // MARK: Classic tables

    private func readTable(at position: Int, sectionStart: Int) throws -> Section {
        var entries: [Int: XRefEntry] = [:]
        var weakFree = Set<Int>()
        var streamOffsets: [Int] = []
        var lexer = Lexer(bytes: bytes, position: position)
        var firstSubsection = true
        while true {
            lexer.skipWhitespace()
            let subsectionStart = lexer.position
            let token = lexer.next()
            if case .keyword("trailer") = token { break }
            guard case .integer(var firstNumber) = token, case .integer(let count) = lexer.next(),
                firstNumber >= 0, count >= 0
            else {
                throw PDFError(.damaged, "malformed cross-reference table", offset: subsectionStart)
            }
            guard count <= (bytes.count - lexer.position) / 4 + 1 else {
                throw PDFError(.damaged, "cross-reference subsection claims \(count) entries, more than the file can hold",
                               offset: subsectionStart)
            }
            entries.reserveCapacity(entries.count + min(count, 1 << 16))
            for index in 0..<count {
                guard let (field1, field2, kind) = readEntry(&lexer) else {
                    throw PDFError(.damaged, "malformed cross-reference entry", offset: lexer.position)
                }
                // Some writers number the first subsection from 1 although it starts with the
                // free head of object 0 (qpdf repairs this the same way).
                if firstSubsection, index == 0, firstNumber == 1, kind == UInt8(ascii: "f"), field1 == 0,
                    field2 == 65535
                {
                    log.add("cross-reference table starts at object 1 instead of 0; renumbered", offset: subsectionStart)
                    firstNumber = 0
                }
                let number = firstNumber + index
                if kind == UInt8(ascii: "n") {
                    if field1 == 0 && number != 0 {
                        // An "in use" entry at offset 0 is a writer bug; treat as free.
                        weakFree.insert(number)
                    } else {
                        entries[number] = .uncompressed(offset: field1, generation: field2)
                    }
                } else {
                    weakFree.insert(number)
                }
            }
            firstSubsection = false
        }
        var parser = Parser(bytes: bytes, position: lexer.position, log: log)
        guard case .dictionary(let trailer) = try parser.parseObject() else {
            throw PDFError(.damaged, "trailer is not a dictionary", offset: lexer.position)
        }
        // Hybrid file: the xref stream named by /XRefStm fills what the table lacks.
        if let streamOffset = trailer["XRefStm"]?.intValue {
            do {
                let hidden = try readStreamSection(at: streamOffset)
                streamOffsets.append(streamOffset)
                for (number, entry) in hidden.entries where entries[number] == nil {
                    entries[number] = entry
                }
            } catch {
                log.add("cannot read /XRefStm stream: \((error as? PDFError)?.message ?? "\(error)")", offset: streamOffset)
            }
        }
        for number in weakFree where entries[number] == nil {
            entries[number] = .free
        }
        return Section(entries: entries, trailer: trailer, style: .table, streamOffsets: streamOffsets)
    }

    /// Reads "offset generation n|f" tolerating any white space between and around the
    /// fields (19- and 21-byte entries included).
    private func readEntry(_ lexer: inout Lexer) -> (Int, Int, UInt8)? {
        lexer.skipWhitespace()
        guard let first = readDigits(&lexer) else { return nil }
        lexer.skipWhitespace()
        guard let second = readDigits(&lexer) else { return nil }
        lexer.skipWhitespace()
        guard let kind = lexer.byte(at: lexer.position), kind == UInt8(ascii: "n") || kind == UInt8(ascii: "f") else {
            return nil
        }
        lexer.position += 1
        return (first, second, kind)
    }

    private func readDigits(_ lexer: inout Lexer) -> Int? {
        var value = 0
        var digits = 0
        while let byte = lexer.byte(at: lexer.position), ByteClass.isDigit(byte) {
            if digits < 18 { value = value * 10 + Int(byte - 0x30) }
            digits += 1
            lexer.position += 1
        }
        return digits > 0 ? value : nil
    }

    // MARK: Cross-reference streams

    private func readStreamSection(at offset: Int) throws -> Section {
        let parser = IndirectObjectParser(bytes: bytes, log: log)
        let parsed = try parser.parse(at: offset) { _ in nil }
        guard case .stream(let stream) = parsed.object else {
            throw PDFError(.damaged, "cross-reference section is neither a table nor a stream", offset: offset)
        }
        var section = try XRefReader.decodeStreamSection(stream, offset: offset, limits: limits, log: log)
        section.streamOffsets = [offset]
        return section
    }

    static func decodeStreamSection(_ stream: PDFStream, offset: Int, limits: PDFReadOptions, log: WarningLog) throws
        -> Section
    {
        let dictionary = stream.dictionary
        if dictionary["Type"]?.nameValue != "XRef" {
            log.add("cross-reference stream lacks /Type /XRef", offset: offset)
        }
        guard let widths = dictionary["W"]?.arrayValue?.compactMap(\.intValue), widths.count >= 3,
            widths.allSatisfy({ $0 >= 0 && $0 <= 8 })
        else {
            throw PDFError(.damaged, "cross-reference stream has no valid /W", offset: offset)
        }
        let size = dictionary["Size"]?.intValue ?? 0
        var ranges: [(Int, Int)] = []
        if let index = dictionary["Index"]?.arrayValue?.compactMap(\.intValue), index.count >= 2 {
            var i = 0
            while i + 1 < index.count {
                ranges.append((index[i], index[i + 1]))
                i += 2
            }
        } else {
            ranges = [(0, size)]
        }
        let data = try StreamDecoder.decode(stream, limit: limits.maxDecodedBytes, log: log)
        let entrySize = widths[0] + widths[1] + widths[2]
        guard entrySize > 0 else {
            throw PDFError(.damaged, "cross-reference stream /W sums to zero", offset: offset)
        }
        var entries: [Int: XRefEntry] = [:]
        entries.reserveCapacity(min(data.count / entrySize, 1 << 16))  // room for what is likely, not what a hostile /Size claims
        var position = 0
        func field(_ width: Int) -> Int {
            var value = 0
            for _ in 0..<width {
                value = value << 8 | Int(data[position])
                position += 1
            }
            return value
        }
        outer: for (firstNumber, count) in ranges {
            guard firstNumber >= 0, count >= 0 else { continue }
            for index in 0..<count {
                guard position + entrySize <= data.count else {
                    log.add("cross-reference stream data is shorter than /Index says", offset: offset)
                    break outer
                }
                let type = widths[0] == 0 ? 1 : field(widths[0])
                let second = field(widths[1])
                let third = field(widths[2])
                let number = firstNumber + index
                switch type {
                case 0: entries[number] = .free
                case 1: entries[number] = .uncompressed(offset: second, generation: third)
                case 2: entries[number] = .compressed(stream: second, index: third)
                default: break  // Unknown types are references to null (ISO 32000-1 §7.5.8.3).
                }
            }
        }
        return Section(entries: entries, trailer: dictionary, style: .stream)
    }
}
