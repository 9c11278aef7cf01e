/// A PDF opened for reading, lazily: opening reads the header, the tail, the
/// cross-reference sections and the trailer; every other object is parsed on first
/// access and cached.
///
/// A document is not thread-safe; use one per task (they are cheap: a memory map and a
/// few dictionaries).
///
/// ```swift
/// let doc = try PDFDocument(path: "Bach.pdf")
/// print(doc.version, doc.pageCount, doc.info.title ?? "untitled")
/// for warning in doc.warnings { print(warning) }
/// ```
public final class PDFDocument {
    /// The bytes of the file.
    public let source: ByteSource
    public let options: PDFReadOptions
    /// The version in the `%PDF-` header ("1.7"), empty when the header is missing.
    public let version: String
    /// Offset of `%PDF-`; some files have junk before it.
    public let headerOffset: Int
    /// Merged cross-reference data.
    public private(set) var xref: XRefTable
    /// What the file's `startxref` says, even when that section proved unreadable: an
    /// incremental update chains to it with /Prev.
    public private(set) var originalStartXRef: Int?

    let log: WarningLog
    private var cache: [Int: PDFObject] = [:]
    /// Objects cached inside ``readingOnce(_:)``, forgotten when it ends; nil outside it.
    private var passingObjects: [Int]?
    /// Edits not yet saved: replaced or new objects, deleted objects, trailer changes.
    var changes = ChangeSet()
    /// TrueType fonts embedded in the pending update, by font: every annotation drawn in a
    /// font shares one subset, grown to the glyphs they all show (``embedFont(_:glyphs:)``).
    var embeddedFonts: [String: EmbeddedFontObjects] = [:]
    /// The font FreeText annotations added or edited through this document are drawn in
    /// first (the installed fonts for the characters it lacks); nil: Helvetica for text
    /// WinAnsiEncoding holds, the installed fonts for the rest.
    ///
    /// ```swift
    /// document.textFont = try TrueTypeFont(bytes: Array(try Data(contentsOf: serif)))
    /// ```
    public var textFont: TrueTypeFont?
    /// Font files read to draw text, by path (nil: missing or not a font), read once per document.
    var fontFiles: [String: TrueTypeFont?] = [:]
    private var objectStreams: [Int: ObjectStream?] = [:]
    private var loading: Set<Int> = []
    private(set) var security: StandardSecurityHandler?
    private(set) var encryptNumber: Int?
    let password: String?
    var pageCountCache: Int?
    /// Object streams found by a rebuild whose contents are not indexed yet.
    private var pendingObjectStreams: [Int] = []
    /// The first object whose xref entry misleads (-1: none), once ``damage`` looked.
    private var brokenEntry: Int?
    /// (offset, object number) of uncompressed objects, sorted; built on first need.
    private var offsetIndex: [(offset: Int, number: Int)]?

    /// Opens the file at `path`. An encrypted file is opened with `password`, or with the
    /// empty user password when none is given.
    public convenience init(path: String, password: String? = nil, options: PDFReadOptions = PDFReadOptions()) throws {
        try self.init(source: ByteSource(path: path), password: password, options: options)
    }

    /// Opens a PDF held in memory.
    public convenience init(bytes: [UInt8], password: String? = nil, options: PDFReadOptions = PDFReadOptions()) throws {
        try self.init(source: ByteSource(data: bytes), password: password, options: options)
    }

    public init(source: ByteSource, password: String? = nil, options: PDFReadOptions = PDFReadOptions()) throws {
        self.source = source
        self.options = options
        self.password = password
        log = WarningLog(limit: options.maxWarnings, maxParsedObjects: options.maxParsedObjects,
                         maxTotalDecodedBytes: options.maxTotalDecodedBytes, deadline: options.deadline)
        guard source.count > 0 else { throw PDFError(.notPDF, "the file is empty") }
        let finder = Lexer(bytes: source.bytes)
        if let header = finder.find(Array("%PDF-".utf8), from: 0, limit: min(source.count, 1024)) {
            headerOffset = header
            var end = header + 5
            while end < source.count, end < header + 12,
                ByteClass.isDigit(source.bytes[end]) || source.bytes[end] == UInt8(ascii: ".")
            {
                end += 1
            }
            version = String(decoding: source.bytes[(header + 5)..<end], as: UTF8.self)
            if header > 0 { log.add("\(header) bytes of junk before the %PDF- header", offset: 0) }
        } else {
            headerOffset = 0
            version = ""
            log.add("no %PDF- header", offset: 0)
        }
        xref = XRefTable()
        let reader = XRefReader(bytes: source.bytes, log: log, limits: options)
        var table: XRefTable?
        originalStartXRef = reader.findStartXRef()
        if let start = originalStartXRef {
            do {
                table = try reader.read(startingAt: start)
            } catch let error as PDFError {
                // Offsets measured from the header rather than the file start.
                if headerOffset > 0, let shifted = try? reader.read(startingAt: start + headerOffset) {
                    table = shifted
                } else {
                    log.add("cannot read the cross-reference table: \(error.message)", offset: error.offset ?? start)
                }
            }
        } else {
            log.add("no startxref near the end of the file")
        }
        if let table, table.trailer["Root"] != nil {
            xref = table
            // qpdf's rule: a broken chain means entries may be missing; rebuild from the bytes.
            if table.isDamaged { try rebuild() }
        } else {
            if let table {
                log.add("trailer has no /Root")
                xref = table
            }
            try rebuild()
        }
        try setUpSecurity()
        if catalog == nil, !xref.isReconstructed {
            log.add("/Root does not lead to a catalog dictionary")
            try rebuild()
        }
    }

    // MARK: Structure

    /// The trailer dictionary (for an xref stream, its dictionary), with unsaved changes.
    public var trailer: PDFDictionary {
        var result = xref.trailer
        for (key, value) in changes.trailer.entries { result[key] = value }
        for key in changes.removedTrailerKeys { result[key] = nil }
        return result
    }

    /// The document catalog (`/Root`).
    public var catalog: PDFDictionary? {
        resolve(trailer["Root"]).dictionaryValue
    }

    /// Warnings collected so far (bounded by ``PDFReadOptions/maxWarnings``).
    public var warnings: [PDFWarning] { log.warnings }
    /// Number of objects parsed so far (for tests of laziness).
    var loadedObjectCount: Int { cache.count }

    /// All warnings counted, including those beyond the kept limit.
    public var warningCount: Int { log.total }

    /// Why the file can be read only by repairing it, nil for a sound file (the file is
    /// "damaged", in Folio's messages): its cross-reference data is missing or broken —
    /// rebuilt by scanning the bytes, or with an entry that does not lead to its object
    /// (what qpdf calls "file is damaged"). Whatever the damage cut off or overwrote is
    /// missing from such a reading, so a save or merge of it should say so. The first call
    /// looks at the header of every object the table places (not their contents).
    ///
    /// ```swift
    /// let doc = try PDFDocument(path: "cut-off.pdf")
    /// if let damage = doc.damage { print("warning: cut-off.pdf is damaged (\(damage))") }
    /// ```
    public var damage: String? {
        if xref.isReconstructed {
            return "its cross-reference table had to be rebuilt from the bytes, and parts may be missing"
        }
        if brokenEntry == nil { brokenEntry = firstMisplacedObject() ?? -1 }
        guard let broken = brokenEntry, broken >= 0 else { return nil }
        return "its cross-reference table is broken (object \(broken) is not where it says) and is read by scanning "
            + "the bytes, so parts may be missing"
    }

    /// The first object the cross-reference table places at an offset where it does not
    /// start, nil when all are where the table says (read in the file, not its changes).
    private func firstMisplacedObject() -> Int? {
        let parser = IndirectObjectParser(bytes: source.bytes, log: WarningLog(limit: 0))
        // A cross-reference stream is found by its section's offset, not its entry.
        let streams = Set(xref.streamSectionOffsets.compactMap { parser.header(at: $0)?.0.number })
        for number in xref.entries.keys.sorted() where !streams.contains(number) {
            guard case .uncompressed(let offset, _)? = xref.entries[number] else { continue }
            let found = [offset, offset + headerOffset].contains { candidate in
                candidate >= 0 && candidate < source.count && parser.header(at: candidate)?.0.number == number
            }
            if !found { return number }
        }
        return nil
    }

    /// Whether the trailer names an /Encrypt dictionary.
    public var isEncrypted: Bool { trailer["Encrypt"] != nil }
    /// What the security handler found; nil for unencrypted files.
    public var encryption: PDFEncryptionInfo? { security?.info }

    // MARK: Objects

    /// The object with this reference, loaded and cached on first use; `.null` when it
    /// does not exist or cannot be read (with a warning).
    public func object(_ reference: PDFReference) -> PDFObject {
        load(reference.number)
    }

    /// Follows references (a bounded number of hops) to a direct object.
    public func resolve(_ object: PDFObject?) -> PDFObject {
        var current = object ?? .null
        var hops = 0
        while case .reference(let reference) = current {
            hops += 1
            if hops > 32 {
                log.add("chain of more than 32 references", object: reference)
                return .null
            }
            current = load(reference.number)
        }
        return current
    }

    /// `resolve(object)` as a dictionary (a stream's dictionary included).
    public func dictionary(_ object: PDFObject?) -> PDFDictionary? {
        resolve(object).dictionaryValue
    }

    /// The data of a stream with its filters undone (image codecs passed through).
    /// Fails with ``PDFError/Code/limitExceeded`` past ``PDFReadOptions/maxDecodedBytes``, or
    /// once the document's streams have decoded to ``PDFReadOptions/maxTotalDecodedBytes``.
    public func decodedData(of stream: PDFStream) throws -> [UInt8] {
        try decodedData(of: stream, limit: options.maxDecodedBytes)
    }

    /// The stream's data decoded, at most `limit` bytes (and never more than the document's
    /// own per-stream limit): for data whose reader takes no more anyway, such as XMP.
    func decodedData(of stream: PDFStream, limit: Int) throws -> [UInt8] {
        var resolved = stream
        // /Filter and /DecodeParms may be indirect.
        for key in ["Filter", "DecodeParms", "DP"] {
            if case .reference = stream.dictionary[key] { resolved.dictionary[key] = resolve(stream.dictionary[key]) }
        }
        if case .array(let items)? = resolved.dictionary["DecodeParms"] {
            resolved.dictionary["DecodeParms"] = .array(items.map { resolve($0) })
        }
        return try StreamDecoder.decode(resolved, limit: min(limit, options.maxDecodedBytes), log: log)
    }

    private func load(_ number: Int) -> PDFObject {
        if let changed = changes.objects[number] { return changed }
        if changes.deleted.contains(number) { return .null }
        if let cached = cache[number] { return cached }
        guard loading.insert(number).inserted else {
            log.add("object refers to itself while being loaded; read as null", object: PDFReference(number: number))
            return .null
        }
        let outerContext = log.context
        log.context = PDFReference(number: number)
        defer {
            loading.remove(number)
            log.context = outerContext
        }
        let result = fetch(number, mayRebuild: true)
        cache[number] = result
        passingObjects?.append(number)
        return result
    }

    /// Runs `body`, then forgets the objects it parsed that were not in memory before (they
    /// are read again if asked for): a pass over objects each read once — a file's
    /// annotations, page by page — keeps in memory only what one step of it reads.
    ///
    /// ```swift
    /// for index in 0..<doc.pageCount {
    ///     let marks = try doc.readingOnce { try doc.annotations(onPage: index) }
    ///     print(index + 1, marks.count)
    /// }
    /// ```
    public func readingOnce<T>(_ body: () throws -> T) rethrows -> T {
        guard passingObjects == nil else { return try body() }
        passingObjects = []
        defer {
            for number in passingObjects ?? [] { cache[number] = nil }
            passingObjects = nil
        }
        return try body()
    }

    /// Adds the objects of rebuilt object streams to the xref (those not being loaded).
    private func indexPendingObjectStreams() {
        let pending = pendingObjectStreams
        pendingObjectStreams = []
        for number in pending {
            if loading.contains(number) {
                pendingObjectStreams.append(number)
                continue
            }
            guard let objectStream = objectStream(number) else { continue }
            for (index, objectNumber) in objectStream.numbers.enumerated() where xref.entries[objectNumber] == nil {
                xref.entries[objectNumber] = .compressed(stream: number, index: index)
            }
        }
    }

    private func fetch(_ number: Int, mayRebuild: Bool) -> PDFObject {
        if xref.entries[number] == nil, !pendingObjectStreams.isEmpty { indexPendingObjectStreams() }
        switch xref.entries[number] {
        case nil, .free?:
            return .null
        case .uncompressed(let offset, let generation)?:
            let parser = IndirectObjectParser(bytes: source.bytes, log: log, objectAt: { [unowned self] offset in
                self.objectStarting(before: offset)
            })
            let length: (PDFReference) -> Int? = { [unowned self] reference in
                self.load(reference.number).intValue
            }
            var candidates = [offset]
            if headerOffset > 0 { candidates.append(offset + headerOffset) }
            for candidate in candidates {
                if let (found, _) = parser.header(at: candidate), found.number == number {
                    if found.generation != generation {
                        log.add("generation \(found.generation) differs from xref's \(generation)", offset: candidate,
                                object: found)
                    }
                    do {
                        let parsed = try parser.parse(at: candidate, length: length)
                        return decrypt(parsed.object, reference: parsed.reference)
                    } catch let error as PDFError {
                        log.add("cannot parse object: \(error.message)", offset: error.offset ?? candidate,
                                object: PDFReference(number: number, generation: generation))
                        return .null
                    } catch {
                        return .null
                    }
                }
            }
            if mayRebuild, !xref.isReconstructed {
                log.add("xref entry does not point to the object", offset: offset,
                        object: PDFReference(number: number, generation: generation))
                if (try? rebuild(validate: false)) != nil { return fetch(number, mayRebuild: false) }
            }
            log.add("object not found at its xref offset; read as null", offset: offset,
                    object: PDFReference(number: number, generation: generation))
            return .null
        case .compressed(let streamNumber, let index)?:
            guard let objectStream = objectStream(streamNumber) else { return .null }
            do {
                return try objectStream.object(number: number, index: index, log: log)
            } catch let error as PDFError {
                log.add(error.message, object: PDFReference(number: number))
                return .null
            } catch {
                return .null
            }
        }
    }

    /// What ``storedName(_:inObject:)`` found.
    enum StoredName: Equatable {
        case name(String)
        case absent
        case unknown
    }

    /// The name stored under `key` in object `number`'s top-level dictionary, read by lexing
    /// the stored object's tokens (no object is built, nothing is cached): what counting a
    /// page's thousands of annotations by /Subtype needs.
    /// `.unknown` whenever the quick reading cannot decide (the object is edited or loaded
    /// already, is no dictionary, the value is no name, the syntax is odd): the caller then
    /// reads the object as usual. Names are never encrypted, so this holds for encrypted
    /// files too.
    func storedName(_ key: String, inObject number: Int) -> StoredName {
        withStoredTokens(of: number) { lexer in storedName(key, in: &lexer) } ?? .unknown
    }

    /// `body` given a lexer at the first token of object `number` as stored — where the xref
    /// says, in the file or in its object stream — without building the object or caching
    /// anything; nil when the stored bytes may not be what reading the object gives (the object
    /// is edited or loaded already, object streams are still to be indexed, the time budget is
    /// spent) or the object's header is not where the xref says.
    private func withStoredTokens<T>(of number: Int, _ body: (inout Lexer) -> T) -> T? {
        guard changes.objects[number] == nil, !changes.deleted.contains(number), cache[number] == nil,
              pendingObjectStreams.isEmpty, (try? log.chargeTime(1)) != nil else { return nil }
        switch xref.entries[number] {
        case .uncompressed(let offset, _)?:
            let parser = IndirectObjectParser(bytes: source.bytes, log: log, objectAt: { _ in nil })
            guard offset >= 0, offset < source.count, let (found, start) = parser.header(at: offset), found.number == number
            else { return nil }
            var lexer = Lexer(bytes: source.bytes, position: start)
            return body(&lexer)
        case .compressed(let streamNumber, let index)?:
            // (The object stream is held while `body` reads its bytes.)
            guard let objectStream = objectStream(streamNumber), let start = objectStream.start(of: number, index: index)
            else { return nil }
            var lexer = Lexer(bytes: objectStream.source.bytes, position: start)
            return withExtendedLifetime(objectStream) { body(&lexer) }
        default:
            return nil
        }
    }

    /// `storedName(_:inObject:)` from the object's first token.
    private func storedName(_ key: String, in lexer: inout Lexer) -> StoredName {
        guard case .dictOpen = lexer.next() else { return .unknown }
        // Key by key at the top level, other values skipped token by token, to the end: a
        // key written twice means its last value, as the full reading takes it.
        var found = StoredName.absent
        for _ in 0..<4096 {
            switch lexer.next() {
            case .dictClose:
                return found
            case .name(let name) where name == key:
                guard case .name(let value) = lexer.next() else { return .unknown }
                found = .name(value)
            case .name:
                guard lexer.skipValue() else { return .unknown }
            default:
                return .unknown
            }
        }
        return .unknown
    }

    /// Whether `object` resolves to something other than null. A reference is answered from
    /// the stored object's first token (`withStoredTokens`): a form's widgets each point at
    /// appearance streams that listing them never reads, and parsing those (with splitting each
    /// /DA into graphemes) made listing a form a sixth slower. Anything else, or anything odd
    /// (`null`, `endobj`, a header not where the xref says), is resolved.
    func isPresent(_ object: PDFObject?) -> Bool {
        if case .reference(let reference)? = object {
            let begins = withStoredTokens(of: reference.number) { lexer -> Bool in
                switch lexer.next() {
                case .dictOpen, .arrayOpen, .integer, .real, .string, .name: return true
                default: return false
                }
            }
            if begins == true { return true }
        }
        return !resolve(object).isNull
    }

    /// The object whose xref offset is the greatest at or before `offset`.
    private func objectStarting(before offset: Int) -> Int? {
        if offsetIndex == nil {
            offsetIndex = xref.entries.compactMap { number, entry in
                if case .uncompressed(let start, _) = entry { return (start, number) }
                return nil
            }.sorted { $0.offset < $1.offset }
        }
        guard let index = offsetIndex else { return nil }
        var low = 0
        var high = index.count
        while low < high {
            let middle = (low + high) / 2
            if index[middle].offset <= offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? index[low - 1].number : nil
    }

    private func objectStream(_ number: Int) -> ObjectStream? {
        if let cached = objectStreams[number] { return cached }
        var result: ObjectStream?
        if case .stream(let stream) = load(number) {
            do {
                result = try ObjectStream(stream: stream, decoded: decodedData(of: stream), number: number, log: log)
            } catch let error as PDFError {
                log.add("cannot read object stream: \(error.message)", object: PDFReference(number: number))
            } catch {}
        } else {
            log.add("object stream is not a stream", object: PDFReference(number: number))
        }
        objectStreams[number] = .some(result)
        return result
    }

    // MARK: Encryption

    private func setUpSecurity() throws {
        guard security == nil, let encryptObject = trailer["Encrypt"] else { return }
        encryptNumber = encryptObject.referenceValue?.number
        guard let encrypt = resolve(encryptObject).dictionaryValue else {
            throw PDFError(.damaged, "/Encrypt is not a dictionary")
        }
        var firstID: [UInt8] = []
        if case .array(let ids)? = trailer["ID"], let first = ids.first?.stringValue {
            firstID = first.bytes
        }
        security = try StandardSecurityHandler(encrypt: encrypt, firstID: firstID, password: password)
        // Objects loaded before the key was known (the /Encrypt dictionary itself aside)
        // must be loaded again, decrypted.
        cache = cache.filter { $0.key == encryptNumber }
        objectStreams = [:]
    }

    private func decrypt(_ object: PDFObject, reference: PDFReference) -> PDFObject {
        guard let security, reference.number != encryptNumber else { return object }
        switch object {
        case .string(let string):
            return .string(PDFString(security.decryptString(string.bytes, reference: reference), isHex: string.isHex))
        case .array(let items):
            return .array(items.map { decrypt($0, reference: reference) })
        case .dictionary(let dictionary):
            return .dictionary(decrypt(dictionary, reference: reference))
        case .stream(let stream):
            let type = stream.dictionary["Type"]?.nameValue
            var data = stream.encodedData
            if type == "XRef" {
                // Cross-reference streams are never encrypted.
            } else if type == "Metadata", !security.info.encryptsMetadata {
                // /EncryptMetadata false leaves the XMP packet in the clear.
            } else {
                data = security.decrypt(data, cipher: security.cipher(forStream: stream.dictionary), reference: reference)
            }
            return .stream(PDFStream(dictionary: decrypt(stream.dictionary, reference: reference), encodedData: data))
        default:
            return object
        }
    }

    private func decrypt(_ dictionary: PDFDictionary, reference: PDFReference) -> PDFDictionary {
        var result = dictionary
        for (key, value) in dictionary.entries {
            switch value {
            case .string, .array, .dictionary: result[key] = decrypt(value, reference: reference)
            default: break
            }
        }
        return result
    }

    // MARK: Recovery

    /// Rebuilds the cross-reference data by scanning the file (at most once).
    /// `validate` checks that a catalog can be found; it is off when rebuilding while an
    /// object is being loaded, since the check would load objects in turn.
    private func rebuild(validate: Bool = true) throws {
        guard !xref.isReconstructed else { return }
        let previousTrailer = xref.trailer
        let result = try XRefReconstructor(bytes: source.bytes, log: log).reconstruct()
        var table = result.table
        for (key, value) in previousTrailer.entries where table.trailer[key] == nil {
            table.trailer[key] = value
        }
        xref = table
        offsetIndex = nil
        cache = [:]
        objectStreams = [:]
        pageCountCache = nil
        if validate, catalog == nil, let candidate = result.catalogCandidates.last {
            log.add("no usable /Root; using the catalog found at object \(candidate.number)")
            xref.trailer["Root"] = .reference(candidate)
        }
        if security == nil { try setUpSecurity() }
        // Compressed objects the scan cannot see are indexed from the object streams;
        // lazily, since a rebuild may happen while one of them is being loaded.
        pendingObjectStreams = result.objectStreamCandidates
        indexPendingObjectStreams()
        if validate, catalog == nil {
            throw PDFError(.damaged, "no document catalog could be found")
        }
    }
}
