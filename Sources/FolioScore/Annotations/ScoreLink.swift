import FolioPDF
import Foundation

/// A link on a score's page as a musician meets it: a jump to another page (a D.S. to its
/// sign, a coda, a repeat — forScore's link points), a web address, or an engraver's
/// point-and-click link (LilyPond's `textedit:` links into its source files, hundreds a page,
/// each carrying the path of the engraver's file). The one reading and making of links
/// `folio links` and the server share.
///
/// ```swift
/// let id = try ScoreLink.add(to: document, from: 3, rect: [480, 700, 60, 40], to: 1)
/// for link in try ScoreLink.list(document, page: 3) { print(link.target as Any) }   // page(1)
/// ```
public struct ScoreLink: Sendable, Equatable {
    /// Where a link leads.
    ///
    /// ```swift
    /// if case .page(let number) = link.target { print("jumps to page", number) }
    /// ```
    public enum Target: Sendable, Equatable {
        /// A page of the same score, 1-based.
        case page(Int)
        /// A web address or another scheme's (`textedit:` for point-and-click).
        case uri(String)
        /// Anything else (another file, an action Folio does not follow), described.
        case other(String)
    }

    /// The annotation's id (as `folio annot list` shows it).
    public let id: String
    /// 1-based.
    public let page: Int
    /// x, y, width, height on the page as displayed (points from the top-left).
    public let rect: [Double]
    public let target: Target?

    /// Whether the link is an engraver's point-and-click link into its source (`textedit:`).
    public var isPointAndClick: Bool { Self.sourcePath(of: target) != nil }

    /// The file a point-and-click link leaks (`textedit:///home/anna/mše.ly:12:4:5` →
    /// `/home/anna/mše.ly`); nil for any other link.
    public var sourcePath: String? { Self.sourcePath(of: target) }

    /// The links of page `page` (1-based) or of every page; a page past the end is
    /// `PDFError` `pageOutOfRange`.
    public static func list(_ document: PDFDocument, page: Int? = nil) throws -> [ScoreLink] {
        links(in: try AnnotationListing.list(document, page: page), of: document)
    }

    /// The links among annotations `shown` (as ``AnnotationListing/list(_:page:popups:)``
    /// listed them from `document`), their targets resolved once for all: for a caller that
    /// lists a page's annotations anyway.
    ///
    /// ```swift
    /// let shown = try AnnotationListing.list(document, page: 1)
    /// let links = ScoreLink.links(in: shown, of: document)
    /// ```
    public static func links(in shown: [AnnotationListing.Shown], of document: PDFDocument) -> [ScoreLink] {
        let shown = shown.filter { $0.annotation.subtype == "Link" }
        let targets = document.linkTargets(shown.map(\.annotation))
        return zip(shown, targets).map { shown, target in
            ScoreLink(id: shown.annotation.id, page: shown.annotation.pageIndex + 1, rect: shown.display, target: target.map(Self.target))
        }
    }

    /// Adds a link over `rect` (x, y, width, height on page `page` as displayed, 1-based) that
    /// jumps to page `target`; returns its id. Not saved: the caller saves (incrementally).
    /// Pages out of range and empty rectangles are errors naming the valid values.
    @discardableResult
    public static func add(to document: PDFDocument, from page: Int, rect: [Double], to target: Int) throws -> String {
        let count = document.pageCount
        for (what, number) in [("page", page), ("target page", target)] where !(1...max(count, 1)).contains(number) || count == 0 {
            throw ScoreError(.outOfRange, "\(what) \(number) is out of range (valid: 1 to \(count))")
        }
        try AnnotationRequest.checkRect(rect)
        let geometry = PDFPageGeometry(page: try document.page(at: page - 1))
        let box = geometry.toUser(x: rect[0], y: rect[1], width: rect[2], height: rect[3])
        return try document.addLink(onPage: page - 1, rect: box, toPage: target - 1).id
    }

    /// A place on a page as the command line writes it, `PAGE:x,y,w,h` (points on the page
    /// as displayed, from its top-left).
    ///
    /// ```swift
    /// let (page, rect) = try ScoreLink.place("3:480,700,60,40")   // (3, [480, 700, 60, 40])
    /// ```
    public static func place(_ text: String) throws -> (page: Int, rect: [Double]) {
        let parts = text.split(separator: ":", maxSplits: 1)
        let numbers = parts.count == 2 ? parts[1].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } : []
        guard parts.count == 2, let page = Int(parts[0]), numbers.count == 4 else {
            throw ScoreError(.invalidValue, "\(text) is not a place on a page (valid: PAGE:x,y,width,height, e.g. 3:480,700,60,40)")
        }
        try AnnotationRequest.checkRect(numbers)
        return (page, numbers)
    }

    /// The engine's target in the musician's terms (pages 1-based).
    static func target(_ target: PDFOutlineTarget) -> Target {
        switch target {
        case .page(let index): .page(index + 1)
        case .uri(let uri): .uri(uri)
        case .remote(let file, let page): .other("page \(page.map { String($0 + 1) } ?? "?") of \(file)")
        case .launch(let file): .other("opens \(file)")
        case .unresolved(let why): .other(why)
        case .action(let type): .other("a \(type) action")
        }
    }

    /// The source file a `textedit:` address names, without LilyPond's `:line:char:column`.
    static func sourcePath(of target: Target?) -> String? {
        guard case .uri(let uri)? = target, uri.lowercased().hasPrefix("textedit:") else { return nil }
        var path = String(uri.dropFirst("textedit:".count))
        if path.hasPrefix("//") { path.removeFirst(2) }
        path = path.removingPercentEncoding ?? path
        // Up to three trailing numbers: line, character, column.
        for _ in 0..<3 {
            guard let colon = path.lastIndex(of: ":"), !path[path.index(after: colon)...].isEmpty,
                  path[path.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { break }
            path = String(path[..<colon])
        }
        return path
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
