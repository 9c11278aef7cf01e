/// Collects the warnings of one document. Bounded, so a file with millions of defects
/// cannot exhaust memory through its warnings; the total is still counted.
final class WarningLog {
    private(set) var warnings: [PDFWarning] = []
    private(set) var total = 0
    let limit: Int
    /// The object being loaded; warnings raised while parsing it name it.
    var context: PDFReference?

    init(limit: Int = 1000) {
        self.limit = limit
    }

    func add(_ message: String, offset: Int? = nil, object: PDFReference? = nil) {
        total += 1
        if warnings.count < limit {
            warnings.append(PDFWarning(message, offset: offset, object: object ?? context))
        }
    }
}
