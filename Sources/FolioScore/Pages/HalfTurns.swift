import FolioPDF

/// Where forScore's half-page turn splits each page: a fraction of the page's height from the
/// top (0.5 the middle), per 1-based page, kept in Folio's XMP namespace as
/// `folioscore:halfTurns`, an rdf:Seq of `page=fraction`. A page without one splits in the
/// middle.
///
/// ```swift
/// try HalfTurns.write([3: 0.4], to: document)   // then save the document
/// HalfTurns.splits(of: document)[3]              // 0.4
/// ```
public enum HalfTurns {
    /// The XMP property.
    public static let property = XMPPacket.Name(namespace: StoredScore.namespace, local: "halfTurns")

    /// The splits the document keeps, by 1-based page; entries that are not `page=fraction`
    /// with a page of the document and a fraction strictly between 0 and 1 are left out.
    public static func splits(of document: PDFDocument) -> [Int: Double] {
        var splits: [Int: Double] = [:]
        for item in StoredScore.list(property, of: document).prefix(100_000) {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let page = Int(parts[0].trimmingCharacters(in: .whitespaces)),
                  let fraction = Double(parts[1].trimmingCharacters(in: .whitespaces)),
                  page >= 1, page <= document.pageCount, fraction > 0, fraction < 1 else { continue }
            splits[page] = fraction
        }
        return splits
    }

    /// Stores `splits` (replacing those kept) in the document's XMP, unsaved; throws for a
    /// page the document does not have or a fraction not strictly between 0 and 1.
    public static func write(_ splits: [Int: Double], to document: PDFDocument) throws {
        for (page, fraction) in splits {
            guard page >= 1, page <= document.pageCount else { throw PDFError.pageOutOfRange(page, count: document.pageCount) }
            guard fraction > 0, fraction < 1 else {
                throw ScoreError(.outOfRange, "a half-turn split of \(fraction) on page \(page) (valid: between 0 and 1 of the page's height)")
            }
        }
        let items = splits.sorted { $0.key < $1.key }.map { "\($0.key)=\(($0.value * 1000).rounded() / 1000)" }
        try StoredScore.setList(property, to: items, in: document)
    }
}
