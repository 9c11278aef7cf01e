#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rebuilds cross-reference data by scanning the whole file once for `N G obj` and
/// `trailer`, for files whose xref is missing or wrong. Linear in the file size.
struct XRefReconstructor {
    let bytes: UnsafeRawBufferPointer
    let log: WarningLog

    struct Result {
        var table: XRefTable
        /// Objects that look like object streams; their contents are indexed once the
        /// document can decrypt them.
        var objectStreamCandidates: [Int]
        /// Objects that look like a catalog, newest last, used when no trailer names /Root.
        var catalogCandidates: [PDFReference]
    }

    func reconstruct() throws -> Result {
        var offsets: [Int: (offset: Int, generation: Int)] = [:]
        var trailers: [PDFDictionary] = []
        let count = bytes.count
        // "N G obj" and "trailer", each found with memchr (the file is scanned at memory speed,
        // not byte by byte); keywords found inside other tokens are passed over.
        forEachOccurrence(of: "obj") { index in
            if tokenEnds(at: index + 3), let (number, generation, start) = headerBefore(index)
            {
                offsets[number] = (start, generation)
            }
        }
        forEachOccurrence(of: "trailer") { index in
            guard index == 0 || !ByteClass.isRegular(bytes[index - 1]), tokenEnds(at: index + 7) else { return }
            var parser = Parser(bytes: bytes, position: index + 7, log: nil)
            if case .dictionary(let trailer)? = try? parser.parseObject() {
                trailers.append(trailer)
            }
        }
        guard !offsets.isEmpty else {
            throw PDFError(.notPDF, "no objects found; this does not look like a PDF")
        }
        var table = XRefTable()
        table.isReconstructed = true
        table.sectionCount = 1
        for (number, location) in offsets {
            table.entries[number] = .uncompressed(offset: location.offset, generation: location.generation)
        }
        // Merge trailers, newest first wins.
        var merged = PDFDictionary()
        for trailer in trailers.reversed() {
            for (key, value) in trailer.entries where merged[key] == nil && key != "Prev" && key != "XRefStm" {
                merged[key] = value
            }
        }
        var objectStreams: [Int] = []
        var catalogs: [PDFReference] = []
        let parser = IndirectObjectParser(bytes: bytes, log: nil)
        for (number, location) in offsets.sorted(by: { $0.value.offset < $1.value.offset }) {
            // Names in the object's first 512 bytes tell what it is without parsing it.
            let names = self.names(in: location.offset..<min(location.offset + 512, count))
            if names.objectStream { objectStreams.append(number) }
            if names.catalog { catalogs.append(PDFReference(number: number, generation: location.generation)) }
            if names.xref, let parsed = try? parser.parse(at: location.offset, length: { _ in nil }),
                case .stream(let stream) = parsed.object, stream.dictionary["Type"]?.nameValue == "XRef"
            {
                // A trailer held in an xref stream dictionary (files without `trailer`).
                for (key, value) in stream.dictionary.entries
                where merged[key] == nil && ["Root", "Info", "ID", "Encrypt"].contains(key) {
                    merged[key] = value
                }
            }
        }
        table.trailer = merged
        table.style = trailers.isEmpty ? .stream : .table
        log.add("cross-reference table rebuilt by scanning the file (\(offsets.count) objects)")
        return Result(table: table, objectStreamCandidates: objectStreams, catalogCandidates: catalogs)
    }

    /// Calls `body` with each offset where `word` starts, in order: its first byte found with
    /// memchr, which scans at memory speed, then the rest compared. Nothing is collected, so
    /// a file full of the word costs no memory.
    private func forEachOccurrence(of word: StaticString, _ body: (Int) -> Void) {
        guard let base = bytes.baseAddress else { return }
        let length = word.utf8CodeUnitCount, first = Int32(word.utf8Start.pointee)
        var start = 0
        while start + length <= bytes.count, let hit = memchr(base + start, first, bytes.count - length + 1 - start) {
            let index = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(hit, word.utf8Start, length) == 0 {
                body(index)
                start = index + length
            } else {
                start = index + 1
            }
        }
    }

    /// Whether the names `/ObjStm`, `/XRef` (or a longer name it begins) and `/Catalog`
    /// are in `range`.
    private func names(in range: Range<Int>) -> (objectStream: Bool, xref: Bool, catalog: Bool) {
        var found = (objectStream: false, xref: false, catalog: false)
        for index in range where bytes[index] == UInt8(ascii: "/") {
            found.objectStream = found.objectStream || has("ObjStm", at: index + 1, before: range.upperBound)
            found.xref = found.xref || has("XRef", at: index + 1, before: range.upperBound)
            found.catalog = found.catalog || has("Catalog", at: index + 1, before: range.upperBound)
        }
        return found
    }

    /// Whether `word` is at `index` and ends before `end`.
    private func has(_ word: StaticString, at index: Int, before end: Int) -> Bool {
        guard index + word.utf8CodeUnitCount <= end else { return false }
        guard let base = bytes.baseAddress else { return false }
        return memcmp(base + index, word.utf8Start, word.utf8CodeUnitCount) == 0
    }

    /// Whether a keyword whose last byte is before `end` ends there: at the end of the file,
    /// or before white space or a delimiter.
    private func tokenEnds(at end: Int) -> Bool {
        end == bytes.count || !ByteClass.isRegular(bytes[end])
    }

    /// For "obj" at `index`, reads "N G " before it; returns N, G and the offset of N.
    /// (Internal, not private: the tests read a file byte by byte with the same rule.)
    func headerBefore(_ index: Int) -> (Int, Int, Int)? {
        var i = index - 1
        func skipSpace() -> Bool {
            let start = i
            while i >= 0, ByteClass.isWhitespace(bytes[i]) { i -= 1 }
            return i < start
        }
        func digits() -> Int? {
            let end = i
            while i >= 0, ByteClass.isDigit(bytes[i]) { i -= 1 }
            guard i < end else { return nil }
            // Leading zeros are allowed in any number (a fuzzed file pads with hundreds).
            var value = 0
            var significant = 0
            for k in (i + 1)...end {
                let digit = Int(bytes[k] - 0x30)
                if significant == 0 && digit == 0 { continue }
                significant += 1
                guard significant <= 10 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard skipSpace(), let generation = digits(), generation < 65536, skipSpace(), let number = digits()
        else { return nil }
        if i >= 0, ByteClass.isRegular(bytes[i]) { return nil }
        return (number, generation, i + 1)
    }
}
