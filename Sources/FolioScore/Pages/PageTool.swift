import FolioPDF
import Foundation

/// One page tool with its defaults, as `folio pages` and the server's page tools both run
/// it: rotate, delete, move, insert blank pages or crop. `pages` is a 1-based list such as
/// "3,5-7" (rotate and crop: every page when left out); `by` degrees clockwise for rotate (a
/// multiple of 90); `to` the position the moved pages start at; `at` and `count` where blank
/// pages go and how many (1 unless given, at most ``maxBlankPages``), `size` their size
/// (a4, letter or WIDTHxHEIGHT in points; the neighbouring page's unless given); `box` x,
/// y, width, height in points for crop, or `margin` around what is drawn (``defaultMargin``
/// unless given), or `reset`; `split` where a half-page turn cuts `pages` (a fraction of the
/// page's height from the top, ``splitRange``), or `reset` to cut them where the viewer finds
/// the gap between systems again.
///
/// ```swift
/// let tool = PageTool(action: "rotate", pages: "2", by: 90)
/// let result = try tool.apply(to: document)   // saved by the caller, through the edit path
/// print(tool.summary)                          // "Rotated page(s) 2"
/// ```
public struct PageTool: Codable, Sendable, Equatable {
    /// The tools.
    public enum Action: String, Sendable, CaseIterable {
        case rotate, delete, move, insertBlank = "insert-blank", crop, halfTurn = "half-turn"
    }

    public var action: String
    public var pages: String?
    public var by: Int?
    public var to: Int?
    public var at: Int?
    public var count: Int?
    public var size: String?
    public var box: [Double]?
    public var margin: Double?
    public var reset: Bool?
    public var split: Double?

    /// Points kept around what a page draws when an automatic crop names no margin.
    public static let defaultMargin = 10.0
    /// Blank pages one call inserts at most: one request should not grow a score by thousands.
    public static let maxBlankPages = 100
    /// Where a half turn may cut a page: not so near an edge that one of the two parts is a sliver.
    public static let splitRange = 0.05...0.95

    public init(action: String, pages: String? = nil, by: Int? = nil, to: Int? = nil, at: Int? = nil, count: Int? = nil,
                size: String? = nil, box: [Double]? = nil, margin: Double? = nil, reset: Bool? = nil, split: Double? = nil) {
        (self.action, self.pages, self.by, self.to, self.at, self.count) = (action, pages, by, to, at, count)
        (self.size, self.box, self.margin, self.reset, self.split) = (size, box, margin, reset, split)
    }

    /// What a tool did: the page count after it, the pages it worked on, and what it had to
    /// give up (outline entries or links that led to deleted pages, pages with nothing to crop).
    public struct Result: Codable, Sendable, Equatable {
        public var pages: Int
        public var changed: Int
        public var warnings: [String]
    }

    /// The tool named by ``action``; ``ScoreErrorCode/invalidValue`` naming the valid ones.
    public func kind() throws -> Action {
        guard let kind = Action(rawValue: action) else {
            throw ScoreError(.invalidValue, "action \(action) is not one of \(Action.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return kind
    }

    /// Checks what can be checked without the score: the action, the values each needs and
    /// their ranges.
    public func validate() throws {
        switch try kind() {
        case .rotate: _ = try required(by, "by", "degrees clockwise, a multiple of 90")
        case .delete: _ = try required(pages, "pages", "the pages, as \"3,5-7\"")
        case .move:
            _ = try required(pages, "pages", "the pages, as \"3,5-7\"")
            _ = try required(to, "to", "the page number the first moved page gets")
        case .insertBlank:
            _ = try required(at, "at", "the page number the first blank page gets")
            if let count, !(1...Self.maxBlankPages).contains(count) {
                throw ScoreError(.outOfRange, "count \(count) is out of range (valid: 1 to \(Self.maxBlankPages))")
            }
            _ = try blankSize()
        case .crop:
            let chosen = [box != nil, margin != nil, reset == true].filter { $0 }.count
            guard chosen <= 1 else { throw ScoreError(.invalidValue, "give one of box, margin (an automatic crop) or reset") }
            if let box, box.count != 4 { throw ScoreError(.invalidValue, "box must be x, y, width, height in points") }
        case .halfTurn:
            _ = try required(pages, "pages", "the pages, as \"3,5-7\"")
            guard (split != nil) != (reset == true) else {
                throw ScoreError(.invalidValue, "give split (where the half turn cuts, a fraction of the page's height) or reset")
            }
            if let split, !Self.splitRange.contains(split) {
                throw ScoreError(.outOfRange, "split \(split) is out of range (valid: \(Self.splitRange.lowerBound) to "
                    + "\(Self.splitRange.upperBound) of the page's height, from the top)")
            }
        }
    }

    /// Applies the tool to `document` (saved by the caller): one change, bookmarks following
    /// their pages. Pages and positions out of range are ``ScoreErrorCode/outOfRange``.
    public func apply(to document: PDFDocument) throws -> Result {
        try validate()
        let count = document.pageCount
        func list(everyWhenLeftOut: Bool) throws -> [Int] {
            guard let pages else {
                guard everyWhenLeftOut, count > 0 else { throw ScoreError(.invalidValue, "pages is missing, as \"3,5-7\"") }
                return Array(1...count)
            }
            return try ScoreSplit.pages(pages, pageCount: count)
        }
        var warnings: [String] = []
        let changed: Int
        switch try kind() {
        case .rotate:
            let chosen = try list(everyWhenLeftOut: true)
            try ScorePages.rotate(document, pages: chosen, by: try required(by, "by", ""))
            changed = chosen.count
        case .delete:
            let chosen = try list(everyWhenLeftOut: false)
            warnings = try ScorePages.delete(document, pages: chosen)
            changed = Set(chosen).count
        case .move:
            let chosen = try list(everyWhenLeftOut: false)
            warnings = try ScorePages.move(document, pages: chosen, to: try required(to, "to", ""))
            changed = chosen.count
        case .insertBlank:
            let blanks = self.count ?? 1
            warnings = try ScorePages.insertBlank(document, at: try required(at, "at", ""), count: blanks, size: try blankSize())
            changed = blanks
        case .crop:
            let chosen = try list(everyWhenLeftOut: true)
            warnings = try ScorePages.crop(document, pages: chosen, crop)
            changed = reset == true ? chosen.count : chosen.count - warnings.count
        case .halfTurn:
            let chosen = try list(everyWhenLeftOut: false)
            var splits = HalfTurns.splits(of: document)
            for page in chosen { splits[page] = split }
            try HalfTurns.write(splits, to: document)
            changed = Set(chosen).count
        }
        return Result(pages: document.pageCount, changed: changed, warnings: warnings)
    }

    /// What the tool does, as the undo history names it ("Rotated page(s) 2").
    public var summary: String {
        let list = pages.map { " \($0)" } ?? ""
        switch (try? kind()) ?? .crop {
        case .rotate: return "Rotated page(s)\(list)"
        case .delete: return "Deleted page(s)\(list)"
        case .move: return "Moved page(s)\(list)"
        case .insertBlank: return "Inserted blank page(s)"
        case .crop: return reset == true ? "Uncropped page(s)\(list)" : "Cropped page(s)\(list)"
        case .halfTurn: return reset == true ? "Reset the half-turn split of page(s)\(list)" : "Moved the half-turn split of page(s)\(list)"
        }
    }

    /// How a crop finds its box: the box given, the whole page again, or what is drawn.
    private var crop: ScorePages.Crop {
        if reset == true { return .reset }
        if let box, box.count == 4 { return .box(x: box[0], y: box[1], width: box[2], height: box[3]) }
        return .auto(margin: margin ?? Self.defaultMargin)
    }

    /// The blank pages' size in points: a4, letter or WIDTHxHEIGHT; nil: the neighbour's.
    private func blankSize() throws -> (width: Double, height: Double)? {
        guard let size else { return nil }
        if let paper = ScoreMake.Paper(rawValue: size.lowercased()) { return paper.size }
        let parts = size.lowercased().split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ $0.isFinite && (1...PDFNewDocument.maxPageSide).contains($0) }) else {
            throw ScoreError(.invalidValue, "size '\(size)' is not a4, letter or WIDTHxHEIGHT in points "
                + "(such as 612x792; each 1 to \(Int(PDFNewDocument.maxPageSide)))")
        }
        return (parts[0], parts[1])
    }

    private func required<T>(_ value: T?, _ name: String, _ what: String) throws -> T {
        guard let value else { throw ScoreError(.invalidValue, "\(name) is missing: \(what)") }
        return value
    }
}
