/// Taking back one earlier revision of a file while keeping every revision after it — what
/// `git revert` is to a commit. Each incremental update is a revision: the objects it wrote
/// are compared three ways (before it, as it left them, as they are now) and put back where
/// nothing later changed them. Where a later revision changed the same object too, the change
/// is merged when it can be: dictionaries key by key, arrays of references (a page's
/// `/Annots`, a layer list) as sets, so a mark taken back leaves other marks on the same page
/// alone. What cannot be merged is a conflict, and nothing is changed.
///
/// ```swift
/// // The file was 10,422 bytes before the revision to take back, 12,906 after it.
/// let document = try PDFDocument(path: "score.pdf")
/// let outcome = try document.takeBack(revisionFrom: 10_422, to: 12_906)
/// if outcome.conflicts.isEmpty { try PDFSaver.save(document, incrementallyTo: "score.pdf") }
/// ```
extension PDFDocument {
    /// What ``takeBack(revisionFrom:to:)`` did.
    public struct TakeBackOutcome: Sendable, Equatable {
        /// Objects put back as they were, or freed (those the revision made).
        public var restored: [Int] = []
        /// Objects the revision changed that a later revision changed too, in a way that does
        /// not merge; when any, nothing was changed.
        public var conflicts: [Int] = []
        /// Objects the revision made that later revisions still use (kept as they are).
        public var kept: [Int] = []
    }

    /// Deepest nesting a merge walks into; deeper objects count as a conflict.
    static let takeBackDepth = 32

    /// Edits this document so the revision that took the file from its first `start` bytes
    /// to its first `end` bytes is undone, keeping what later revisions did (see the type's
    /// overview). Both lengths must end a revision (a `%%EOF` within their last 1,024 bytes,
    /// the cross-reference section `end` points to written after `start`)
    /// and `start < end ≤` the file's length; the document must have no unsaved changes.
    /// When ``TakeBackOutcome/conflicts`` is not empty, the document is left unchanged.
    public func takeBack(revisionFrom start: Int, to end: Int) throws -> TakeBackOutcome {
        guard !hasChanges else { throw PDFError(.invalidArgument, "take back a revision before any other edit") }
        let notRevision = PDFError(.invalidArgument, "bytes \(start)–\(end) are not a revision of this file (\(source.count) bytes)")
        guard start > 0, start < end, end <= source.count,
              let eof = PDFSaver.lastEndOfFile(source.bytes, within: start),
              PDFSaver.lastEndOfFile(source.bytes, within: end) != nil else { throw notRevision }
        let before = try PDFDocument(source: ByteSource(data: source.bytes[0..<start]), password: password, options: options)
        let after = try PDFDocument(source: ByteSource(data: source.bytes[0..<end]), password: password, options: options)
        // The revision's own cross-reference section lies between the two lengths, and none of
        // its objects before `start` (between the `%%EOF` that ends the revision before and it).
        guard let section = after.originalStartXRef, section + after.headerOffset >= start,
              !after.xref.entries.values.contains(where: {
                  if case .uncompressed(let offset, _) = $0 { (eof..<start).contains(offset) } else { false }
              }) else { throw notRevision }
        guard !before.xref.isReconstructed, !after.xref.isReconstructed, !xref.isReconstructed else {
            throw PDFError(.damaged, "the file's cross-reference data is damaged: what that revision changed cannot be told")
        }
        let written = after.objectsWritten(since: start, before: before)
        let created = Set(written.filter { !before.defines($0) })
        let kept = keptAlive(created: created, since: end, after: after)

        var merge = TakeBackMerge(kept: kept)
        var outcome = TakeBackOutcome()
        var replacements: [(Int, PDFObject?)] = []
        for number in written.sorted() {
            if kept.contains(number) {
                outcome.kept.append(number)
                continue
            }
            let now = stored(number)
            do {
                let target = try merge.merge(before.stored(number), after.stored(number), now, depth: 0)
                if target != now { replacements.append((number, target)) }
            } catch is TakeBackMerge.Conflict {
                outcome.conflicts.append(number)
            }
        }
        // The trailer's document entries (the catalog, the Info dictionary) follow the same rule.
        var trailerChanges: [(String, PDFObject?)] = []
        for key in ["Root", "Info"] {
            do {
                let target = try merge.merge(before.trailer[key], after.trailer[key], xref.trailer[key], depth: 0)
                if target != xref.trailer[key] { trailerChanges.append((key, target)) }
            } catch is TakeBackMerge.Conflict {
                outcome.conflicts.append(0)
            }
        }
        guard outcome.conflicts.isEmpty else { return outcome }
        for (number, target) in replacements {
            if let target {
                replace(PDFReference(number: number, generation: generation(of: number)), with: target)
            } else {
                delete(PDFReference(number: number, generation: generation(of: number)))
            }
            outcome.restored.append(number)
        }
        for (key, value) in trailerChanges { setTrailer(key, value) }
        return outcome
    }

    /// Whether the cross-reference data defines object `number` (in use).
    private func defines(_ number: Int) -> Bool {
        switch xref.entries[number] {
        case .none, .free?: false
        default: true
        }
    }

    /// Object `number` as the cross-reference data defines it; nil when it is free or absent.
    private func stored(_ number: Int) -> PDFObject? {
        defines(number) ? object(PDFReference(number: number)) : nil
    }

    private func generation(of number: Int) -> Int {
        if case .uncompressed(_, let generation)? = xref.entries[number] { return generation }
        return 0
    }

    /// The objects the revisions from byte `start` on wrote (defined or freed), leaving out
    /// their cross-reference streams.
    private func objectsWritten(since start: Int, before: PDFDocument?) -> Set<Int> {
        var written = Set<Int>()
        for (number, entry) in xref.entries {
            switch entry {
            case .uncompressed(let offset, _) where offset >= start:
                if object(PDFReference(number: number)).dictionaryValue?["Type"]?.nameValue != "XRef" { written.insert(number) }
            case .compressed(let stream, _):
                if case .uncompressed(let offset, _)? = xref.entries[stream], offset >= start { written.insert(number) }
            case .free:
                if before?.defines(number) ?? false { written.insert(number) }
            default:
                break
            }
        }
        return written
    }

    /// Of the objects `created` by the revision taken back, those that later revisions (the
    /// bytes after `end`) came to refer to — a reference the revision itself wrote does not
    /// count — directly or through each other.
    private func keptAlive(created: Set<Int>, since end: Int, after: PDFDocument) -> Set<Int> {
        guard !created.isEmpty else { return [] }
        var kept = Set<Int>()
        var pending: [Int] = []
        func newReferences(_ now: PDFObject, _ then: PDFObject?) {
            var old = Set<Int>()
            if let then { TakeBackMerge.references(in: then) { old.insert($0) } }
            TakeBackMerge.references(in: now) { number in
                if created.contains(number), !old.contains(number), kept.insert(number).inserted { pending.append(number) }
            }
        }
        for number in objectsWritten(since: end, before: after) where !created.contains(number) {
            newReferences(object(PDFReference(number: number)), after.stored(number))
        }
        newReferences(.dictionary(xref.trailer), .dictionary(after.xref.trailer))
        while let number = pending.popLast() {
            TakeBackMerge.references(in: object(PDFReference(number: number))) { next in
                if created.contains(next), kept.insert(next).inserted { pending.append(next) }
            }
        }
        return kept
    }
}

/// The three-way merge of one object: `base` before the revision taken back, `theirs` as it
/// left it, `now` as it is.
struct TakeBackMerge {
    struct Conflict: Error {}

    /// Objects the revision made that must stay referred to.
    let kept: Set<Int>

    mutating func merge(_ base: PDFObject?, _ theirs: PDFObject?, _ now: PDFObject?, depth: Int) throws -> PDFObject? {
        guard depth < PDFDocument.takeBackDepth else { throw Conflict() }
        if theirs == base { return now }                     // the revision did not touch it
        if now == base { return now }                        // already as before
        if now == theirs {
            // An object the revision made goes (unless kept, which is never merged); a list it
            // added to keeps what later revisions still use.
            if depth == 0, base == nil { return nil }
            if !holdsKept(theirs, absentFrom: base) { return base }
        }
        switch (base ?? Self.empty(like: theirs), theirs, now) {
        case (.dictionary(let b), .dictionary(let t)?, .dictionary(let n)?):
            return .dictionary(try mergeDictionaries(b, t, n, depth: depth))
        case (let b, .stream(let t)?, .stream(let n)?):
            // The data merges only when it is the revision's (then it goes back) or untouched.
            let bData = b.streamValue?.encodedData ?? []
            let data: [UInt8]
            if n.encodedData == t.encodedData { data = bData } else if n.encodedData == bData { data = n.encodedData } else { throw Conflict() }
            var dictionary = try mergeDictionaries(b.dictionaryValue ?? [:], t.dictionary, n.dictionary, depth: depth)
            if case .integer? = dictionary["Length"] { dictionary["Length"] = .integer(data.count) }
            return .stream(PDFStream(dictionary: dictionary, encodedData: data))
        case (.array(let b), .array(let t)?, .array(let n)?) where Self.isList(b + t + n):
            let added = t.filter { !b.contains($0) && !isKept($0) }
            var result = n.filter { !added.contains($0) }
            for item in b where !t.contains(item) && !result.contains(item) { result.append(item) }
            return .array(result)
        default:
            throw Conflict()
        }
    }

    private mutating func mergeDictionaries(_ b: PDFDictionary, _ t: PDFDictionary, _ n: PDFDictionary, depth: Int) throws -> PDFDictionary {
        var result = n
        for key in Set(b.keys).union(t.keys).union(n.keys) {
            result[key] = try merge(b[key], t[key], n[key], depth: depth + 1)
        }
        return result
    }

    private func isKept(_ object: PDFObject) -> Bool {
        if case .reference(let reference) = object { return kept.contains(reference.number) }
        return false
    }

    /// Whether `object`, a dictionary or array, refers to a kept object that `base` does not:
    /// putting `base` back would then drop a reference a later revision needs (a layer from
    /// the list of layers). A single reference is put back as it was.
    private func holdsKept(_ object: PDFObject?, absentFrom base: PDFObject?) -> Bool {
        guard !kept.isEmpty, let object, object.arrayValue != nil || object.dictionaryValue != nil else { return false }
        var inObject = Set<Int>(), inBase = Set<Int>()
        Self.references(in: object) { if kept.contains($0) { inObject.insert($0) } }
        guard !inObject.isEmpty else { return false }
        if let base { Self.references(in: base) { inBase.insert($0) } }
        return !inObject.isSubset(of: inBase)
    }

    /// An empty container of `object`'s kind, standing in for what did not exist before.
    private static func empty(like object: PDFObject?) -> PDFObject {
        switch object {
        case .dictionary?: .dictionary([:])
        case .array?: .array([])
        case .stream?: .stream(PDFStream(dictionary: [:], encodedData: []))
        default: .null
        }
    }

    /// Whether an array holding `items` is a list of things (references, or dictionaries such
    /// as annotations written in place), merged as a set; an array of numbers or names (a
    /// rectangle, a colour) is one value.
    private static func isList(_ items: [PDFObject]) -> Bool {
        items.allSatisfy {
            switch $0 {
            case .reference, .dictionary: true
            default: false
            }
        }
    }

    /// Calls `body` with the number of every reference inside `object` (not following them).
    static func references(in object: PDFObject, _ body: (Int) -> Void) {
        var stack = [object]
        while let item = stack.popLast() {
            switch item {
            case .reference(let reference): body(reference.number)
            case .array(let items): stack.append(contentsOf: items)
            case .dictionary(let dictionary): stack.append(contentsOf: dictionary.entries.map(\.value))
            case .stream(let stream): stack.append(contentsOf: stream.dictionary.entries.map(\.value))
            default: break
            }
        }
    }
}
