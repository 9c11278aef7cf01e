/// Collects the warnings of one document. Bounded, so a file with millions of defects
/// cannot exhaust memory through its warnings; the total is still counted.
///
/// Every parser and decoder of a document gets its log, so the log also keeps the
/// document's work budget (``PDFReadOptions/maxParsedObjects``,
/// ``PDFReadOptions/maxTotalDecodedBytes``).
final class WarningLog {
    private(set) var warnings: [PDFWarning] = []
    private(set) var total = 0
    let limit: Int
    /// The object being loaded; warnings raised while parsing it name it.
    var context: PDFReference?
    private(set) var parsedObjects = 0
    private(set) var decodedBytes = 0
    let maxParsedObjects: Int
    let maxTotalDecodedBytes: Int

    let deadline: ContinuousClock.Instant?
    /// Steps of work since the clock was last read (reading it per object would cost more than the object).
    private var steps = 0

    init(limit: Int = 1000, maxParsedObjects: Int = .max, maxTotalDecodedBytes: Int = .max,
         deadline: ContinuousClock.Instant? = nil) {
        self.limit = limit
        self.maxParsedObjects = maxParsedObjects
        self.maxTotalDecodedBytes = maxTotalDecodedBytes
        self.deadline = deadline
    }

    /// Counts one parsed object; fails once the document's budget is spent.
    func chargeObject(offset: Int) throws {
        parsedObjects += 1
        guard parsedObjects <= maxParsedObjects else {
            throw PDFError(.limitExceeded, "more than \(maxParsedObjects) objects parsed from this document", offset: offset)
        }
        try chargeTime(1)
    }

    /// Counts `work` steps (objects, content tokens, kilobytes decoded) and, every few
    /// thousand, fails once the document's deadline has passed.
    func chargeTime(_ work: Int) throws {
        steps += work
        guard steps >= 4096 else { return }  // before the deadline is looked at: an optional clock reading costs a call
        steps = 0
        if let deadline, ContinuousClock.now > deadline {
            throw PDFError(.limitExceeded, "the work on this document took longer than its time budget")
        }
    }

    /// What one more stream may still decode to: the per-stream limit or what is left of
    /// the document's total, whichever is smaller.
    func decodeLimit(perStream: Int) throws -> Int {
        let left = maxTotalDecodedBytes - decodedBytes
        guard left > 0 else {
            throw PDFError(.limitExceeded, "streams of this document decoded to more than \(maxTotalDecodedBytes) bytes in all")
        }
        return min(perStream, left)
    }

    /// Counts bytes a stream decoded to (an unfiltered stream's own bytes included); fails
    /// when they overdraw the document's total.
    func chargeDecoded(_ count: Int) throws {
        try chargeTime(count >> 10 + 1)
        decodedBytes += count
        guard decodedBytes <= maxTotalDecodedBytes else {
            throw PDFError(.limitExceeded, "streams of this document decoded to more than \(maxTotalDecodedBytes) bytes in all")
        }
    }

    func add(_ message: String, offset: Int? = nil, object: PDFReference? = nil) {
        total += 1
        if warnings.count < limit {
            warnings.append(PDFWarning(message, offset: offset, object: object ?? context))
        }
    }
}
