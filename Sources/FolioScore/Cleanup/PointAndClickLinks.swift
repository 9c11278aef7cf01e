import FolioPDF

/// An engraver's point-and-click links: LilyPond writes a `textedit:` link over every note
/// and rest, hundreds a page, each naming the engraver's source file (`textedit:///home/…`).
/// They clutter every viewer's link layer and leak the engraver's folders; `folio lint`
/// reports them as `point-and-click` and `--fix` removes them (the score's own links — a
/// footer's web address, a jump to a coda — stay).
///
/// ```swift
/// let found = try PointAndClickLinks.find(in: document)
/// print(found.count, found.paths)   // 412 ["/home/anna/Mše.ly"]
/// ```
public enum PointAndClickLinks {
    /// The point-and-click links of a score and the source files they name.
    ///
    /// ```swift
    /// let found = try PointAndClickLinks.find(in: document)
    /// if !found.ids.isEmpty { print("\(found.count) links leak \(found.paths.joined(separator: ", "))") }
    /// ```
    public struct Found: Sendable, Equatable {
        /// The links' annotation ids.
        public var ids: Set<String> = []
        public var count: Int { ids.count }
        /// The distinct source paths, in the order first met.
        public var paths: [String] = []
    }

    /// The point-and-click links of every page.
    public static func find(in document: PDFDocument) throws -> Found {
        var found = Found()
        for link in try ScoreLink.list(document) {
            guard let path = link.sourcePath else { continue }
            found.ids.insert(link.id)
            if !found.paths.contains(path) { found.paths.append(path) }
        }
        return found
    }

    /// The lint finding for `found`; nil when there are none.
    static func finding(_ found: Found) -> LintFinding? {
        guard found.count > 0 else { return nil }
        let shown = found.paths.prefix(3).joined(separator: ", ") + (found.paths.count > 3 ? " and \(found.paths.count - 3) more" : "")
        return LintFinding(rule: "point-and-click", severity: .warning, field: nil,
                           message: "\(found.count) point-and-click link\(found.count == 1 ? "" : "s") of the engraver leak \(shown)",
                           fix: "remove the \(found.count) link\(found.count == 1 ? "" : "s")")
    }

    /// Removes the links with `ids` from `document` (unsaved), in one pass per page;
    /// returns how many went.
    @discardableResult
    public static func remove(_ ids: Set<String>, from document: PDFDocument) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let listed = document.annotations().filter { $0.subtype == "Link" && ids.contains($0.id) }
        return try document.removeAnnotations(listed).count
    }
}
