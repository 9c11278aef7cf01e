import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

extension ScoreService {
    /// A page tool, as `folio pages` has them: `action` is rotate, delete, move, insert-blank
    /// or crop; `pages` a 1-based list such as "3,5-7" (rotate and crop: every page when
    /// left out); `by` degrees clockwise for rotate (a multiple of 90); `to` the position the
    /// moved pages start at; `at` and `count` where blank pages go and how many; `box` x, y,
    /// width, height in points for crop, or `margin` around what is drawn (auto), or `reset`.
    /// At most 100 blank pages at a time.
    ///
    /// ```swift
    /// try service.applyPageTool(score: 7, expected: tag, .init(action: "rotate", pages: "2", by: 90))
    /// ```
    public struct PageTool: Codable, Sendable {
        public var action: String
        public var pages: String?
        public var by: Int?
        public var to: Int?
        public var at: Int?
        public var count: Int?
        public var box: [Double]?
        public var margin: Double?
        public var reset: Bool?

        public init(action: String, pages: String? = nil, by: Int? = nil, to: Int? = nil, at: Int? = nil, count: Int? = nil,
                    box: [Double]? = nil, margin: Double? = nil, reset: Bool? = nil) {
            (self.action, self.pages, self.by, self.to, self.at, self.count) = (action, pages, by, to, at, count)
            (self.box, self.margin, self.reset) = (box, margin, reset)
        }

        static let actions = ["rotate", "delete", "move", "insert-blank", "crop"]
    }

    /// What a page tool left: the page count, and what it had to give up (outline entries or
    /// links that led to deleted pages).
    ///
    /// ```swift
    /// let (tag, result) = try service.applyPageTool(score: 7, expected: etag, .init(action: "rotate", pages: "2", by: 90))
    /// result.pages
    /// ```
    public struct PageToolResult: Codable, Sendable, Equatable {
        public var pages: Int
        public var warnings: [String]
    }

    /// Applies a page tool when the file is still at version `expected`: one incremental
    /// save, undoable; bookmarks follow their pages. 400 names what is valid.
    public func applyPageTool(score id: Int64, expected: String?, _ tool: PageTool) throws -> (tag: String, result: PageToolResult) {
        guard PageTool.actions.contains(tool.action) else {
            throw LibraryError(.invalidArgument, "action \(tool.action) is not one of \(PageTool.actions.joined(separator: ", "))")
        }
        // Fewer than the engine takes: one request should not be able to grow a score by thousands of pages.
        if let count = tool.count, !(1...100).contains(count) {
            throw LibraryError(.invalidArgument, "count \(count) is out of range (valid: 1 to 100)")
        }
        let (score, path) = try score(id)
        let saved = try edit((score, path), expected: expected, change: Self.describe(tool)) { document -> PageToolResult in
            let count = document.pageCount
            func pages(everyWhenLeftOut: Bool) throws -> [Int] {
                guard let text = tool.pages else {
                    guard everyWhenLeftOut, count > 0 else { throw LibraryError(.invalidArgument, "pages is missing, as \"3,5-7\"") }
                    return Array(1...count)
                }
                return try ScoreSplit.pages(text, pageCount: count)
            }
            func required<T>(_ value: T?, _ name: String, _ what: String) throws -> T {
                guard let value else { throw LibraryError(.invalidArgument, "\(name) is missing: \(what)") }
                return value
            }
            var warnings: [String] = []
            switch tool.action {
            case "rotate":
                try ScorePages.rotate(document, pages: try pages(everyWhenLeftOut: true),
                                      by: try required(tool.by, "by", "degrees clockwise, a multiple of 90"))
            case "delete":
                warnings = try ScorePages.delete(document, pages: try pages(everyWhenLeftOut: false))
            case "move":
                warnings = try ScorePages.move(document, pages: try pages(everyWhenLeftOut: false),
                                               to: try required(tool.to, "to", "the page number the first moved page gets"))
            case "insert-blank":
                warnings = try ScorePages.insertBlank(document, at: try required(tool.at, "at", "the page number the first blank page gets"),
                                                      count: tool.count ?? 1)
            default:
                let crop: ScorePages.Crop
                if tool.reset == true {
                    crop = .reset
                } else if let box = tool.box {
                    guard box.count == 4 else { throw LibraryError(.invalidArgument, "box must be [x, y, width, height] in points") }
                    crop = .box(x: box[0], y: box[1], width: box[2], height: box[3])
                } else {
                    crop = .auto(margin: tool.margin ?? 10)
                }
                warnings = try ScorePages.crop(document, pages: try pages(everyWhenLeftOut: true), crop)
            }
            return PageToolResult(pages: document.pageCount, warnings: warnings)
        }
        return (saved.tag, saved.value)
    }

    /// The undo step's name for a page tool.
    static func describe(_ tool: PageTool) -> String {
        let pages = tool.pages.map { " \($0)" } ?? ""
        switch tool.action {
        case "rotate": return "Rotated page(s)\(pages)"
        case "delete": return "Deleted page(s)\(pages)"
        case "move": return "Moved page(s)\(pages)"
        case "insert-blank": return "Inserted blank page(s)"
        default: return "Cropped page(s)\(pages)"
        }
    }

    /// A forScore container (.4sc) of the score: the PDF unchanged and its metadata and
    /// bookmarks under forScore's keys, with the file's version.
    public func container(score id: Int64) throws -> (tag: String, name: String, bytes: [UInt8]) {
        let (score, path) = try score(id)
        guard let tag = FileVersion.tag(of: path) else { throw LibraryError(.notFound, "no score \(id)") }
        let bytes = try ForScoreImport.exportContainer(pdf: path)
        let name = ((score.path as NSString).lastPathComponent as NSString).deletingPathExtension + ".4sc"
        return (tag, name, bytes)
    }
}
