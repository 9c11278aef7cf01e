import FolioPDF
import Foundation

/// A piece inside a score: a named range of pages, as forScore's bookmarks are.
///
/// ```swift
/// let piece = PageRangeBookmark(title: "Sonata No. 2", start: 5, end: 9)
/// ```
public struct PageRangeBookmark: Sendable, Equatable {
    public var title: String
    /// First page, 1-based.
    public var start: Int
    /// Last page, 1-based, ≥ start.
    public var end: Int

    public init(title: String, start: Int, end: Int) {
        self.title = title
        self.start = start
        self.end = end
    }

    /// The piece as a bookmark of its pages, leading to its first page.
    ///
    /// ```swift
    /// PageRangeBookmark(title: "Ελεγεία", start: 5, end: 9).bookmark.pages   // 5...9
    /// ```
    public var bookmark: Bookmark {
        Bookmark(name: title, action: .page(index: start - 1), pages: start...end)
    }
}

/// One entry of a table of contents as it is shown: its depth, its title and where it leads.
///
/// ```swift
/// for entry in TableOfContents.entries(of: try ScoreFile("Anthology.pdf").open()) {
///     print(String(repeating: "  ", count: entry.level) + entry.title, entry.destination)
/// }
/// ```
public struct TableOfContentsEntry: Sendable, Equatable {
    /// 0 for the top level.
    public var level: Int
    public var title: String
    /// Where the entry leads; nil for a heading that leads nowhere.
    public var target: PDFOutlineTarget?
    /// Whether the entry shows its children.
    public var isOpen: Bool

    public init(level: Int, title: String, target: PDFOutlineTarget?, isOpen: Bool) {
        self.level = level
        self.title = title
        self.target = target
        self.isOpen = isOpen
    }

    /// The page the entry leads to, 1-based; nil when it leads elsewhere.
    public var page: Int? {
        if case .page(let index)? = target { index + 1 } else { nil }
    }

    /// The URL the entry opens, if it opens one.
    public var uri: String? {
        if case .uri(let value)? = target { value } else { nil }
    }

    /// The other file the entry opens (a GoToR or Launch action), if it opens one.
    public var file: String? {
        switch target {
        case .remote(let name, _)?, .launch(let name)?: name
        default: nil
        }
    }

    /// Where the entry leads, in words: "page 3", the URL, "Book.pdf, page 2", "launch
    /// Notes.pdf", "(no target)", or why it could not be followed.
    public var destination: String {
        switch target {
        case .page(let index)?: "page \(index + 1)"
        case .uri(let value)?: value
        case .remote(let file, let page)?: file + (page.map { ", page \($0 + 1)" } ?? "")
        case .launch(let file)?: "launch \(file)"
        case .unresolved(let reason)?: "(\(reason))"
        case .action(let type)?: "(\(type) action)"
        case nil: "(no target)"
        }
    }
}

/// forScore's reading of a table of contents (`../shared/seeds/forscore-pdf-metadata.txt`).
///
/// ```swift
/// let pieces = TableOfContents.bookmarks(from: document.outline(), pageCount: document.pageCount)
/// pieces.first?.title   // "Preludium e-moll", with its start and end pages
/// ```
public enum TableOfContents {
    /// A score's table of contents, flattened in document order.
    ///
    /// ```swift
    /// TableOfContents.entries(of: try ScoreFile("Smetana – Má vlast.pdf").open()).map(\.title)
    /// // ["Vyšehrad", "Vltava", …]
    /// ```
    public static func entries(of document: PDFDocument) -> [TableOfContentsEntry] {
        PDFOutlineItem.flatten(document.outline()).map { level, item in
            TableOfContentsEntry(level: level, title: item.title, target: item.target, isOpen: item.isOpen)
        }
    }

    /// Replaces a score's table of contents with `data`: the JSON `folio toc --json` prints
    /// (see ``outline(fromJSON:pageCount:)``), or a CSV/TSV index (title and start page
    /// columns, as ``CSVIndex`` reads them), which gives one top-level entry per row in page
    /// order. An invalid JSON entry, or an index row that cannot be used, throws
    /// (`ScoreError`) and nothing is changed; with `skipInvalid` such rows are skipped and
    /// returned instead, each with its reason.
    ///
    /// ```swift
    /// try ScoreFile("Anthology.pdf").update { document in
    ///     try TableOfContents.replace(in: document, with: Data("Title,Start Page\nЕлегия,3\n".utf8))
    /// }
    /// ```
    @discardableResult
    public static func replace(in document: PDFDocument, with data: Data, skipInvalid: Bool = false) throws -> [String] {
        let head = data.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        if head == UInt8(ascii: "{") || head == UInt8(ascii: "[") {
            try document.setOutline(try outline(fromJSON: data, pageCount: document.pageCount))
            return []
        }
        let index = try CSVIndex.read(String(decoding: data, as: UTF8.self), pageCount: document.pageCount)
        if !skipInvalid, !index.problems.isEmpty {
            // Partial application is not success: rows that cannot be used leave the outline as it was.
            throw ScoreError(.outOfRange, index.problems.map { "\($0)" }.joined(separator: "; ")
                             + "; nothing was changed (\(index.problems.count) of \(index.bookmarks.count + index.problems.count) rows cannot be used)")
        }
        try document.setOutline(index.bookmarks.compactMap { bookmark in
            bookmark.pageIndex.map { PDFOutlineItem(title: bookmark.name ?? "", target: .page(index: $0)) }
        })
        return index.problems.map { "\($0); skipped" }
    }

    /// The bookmarks forScore imports from a score's table of contents
    /// (``bookmarks(from:pageCount:)`` of its outline).
    ///
    /// ```swift
    /// TableOfContents.bookmarks(of: try ScoreFile("Bach – Suites.pdf").open()).first?.title   // "Prélude"
    /// ```
    public static func bookmarks(of document: PDFDocument) -> [PageRangeBookmark] {
        bookmarks(from: document.outline(), pageCount: document.pageCount)
    }

    /// What "bookmarks from TOC" adds to a score that holds `existing` (see
    /// ``missingBookmarks(from:pageCount:existing:)``).
    ///
    /// ```swift
    /// for piece in TableOfContents.missingBookmarks(of: document, existing: manager.bookmarks) {
    ///     manager.add(piece.bookmark)
    /// }
    /// ```
    public static func missingBookmarks(of document: PDFDocument, existing: [Bookmark]) -> [PageRangeBookmark] {
        missingBookmarks(from: document.outline(), pageCount: document.pageCount, existing: existing)
    }

    /// The bookmarks forScore imports from an outline: every entry (at any level) with a
    /// page of this document, in page order (entries on the same page keep their outline
    /// order); each ends one page before the next one starts, but never before its own
    /// start, and the last ends at the last page. URL, GoToR and other entries are left out.
    ///
    /// ```swift
    /// TableOfContents.bookmarks(from: doc.outline(), pageCount: doc.pageCount)
    /// // [PageRangeBookmark(title: "Allemande", start: 1, end: 2), …]
    /// ```
    public static func bookmarks(from outline: [PDFOutlineItem], pageCount: Int) -> [PageRangeBookmark] {
        var starts: [(title: String, page: Int)] = []
        for (_, item) in PDFOutlineItem.flatten(outline) {
            if case .page(let index)? = item.target, index < max(pageCount, 1) {
                starts.append((item.title, index + 1))
            }
        }
        // Swift's sort is not stable: the outline position breaks ties.
        let ordered = starts.enumerated().sorted { ($0.element.page, $0.offset) < ($1.element.page, $1.offset) }
            .map(\.element)
        return ordered.enumerated().map { position, entry in
            let next = position + 1 < ordered.count ? ordered[position + 1].page - 1 : max(pageCount, entry.page)
            return PageRangeBookmark(title: entry.title, start: entry.page, end: max(entry.page, next))
        }
    }

    /// What "bookmarks from TOC" adds: the bookmarks ``bookmarks(from:pageCount:)`` reads
    /// from the outline that `existing` does not hold yet (same name and pages).
    ///
    /// ```swift
    /// TableOfContents.missingBookmarks(from: doc.outline(), pageCount: doc.pageCount, existing: stored)
    /// ```
    public static func missingBookmarks(from outline: [PDFOutlineItem], pageCount: Int,
                                        existing: [Bookmark]) -> [PageRangeBookmark] {
        let held = Set(existing.map { "\($0.name ?? "")|\($0.pages?.lowerBound ?? 0)|\($0.pages?.upperBound ?? 0)" })
        return bookmarks(from: outline, pageCount: pageCount).filter { !held.contains("\($0.title)|\($0.start)|\($0.end)") }
    }

    /// Reads a table of contents in the form `folio toc --json` prints it (an object with
    /// "entries", or the bare array): entries in document order with "title", "level" (0 for
    /// the top, at most one deeper than the entry before), "page" (1-based, 1…pageCount),
    /// "uri" or "file", and optionally "open". Errors name the entry and the valid range.
    ///
    /// ```swift
    /// let json = #"[{"title": "Sonata", "page": 1}, {"title": "Allegro", "level": 1, "page": 2}]"#
    /// let outline = try TableOfContents.outline(fromJSON: Data(json.utf8), pageCount: 12)
    /// ```
    public static func outline(fromJSON data: Data, pageCount: Int) throws -> [PDFOutlineItem] {
        struct Entry: Decodable {
            var title: String
            var level: Int?
            var page: Int?
            var uri: String?
            var file: String?
            var open: Bool?
        }
        struct Wrapped: Decodable { var entries: [Entry] }
        guard data.count <= 16 << 20 else {
            throw ScoreError(.invalidValue, "the table of contents has \(data.count) bytes; at most 16 MiB are read")
        }
        let entries: [Entry]
        do {
            let trimmed = data.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
            entries = trimmed.first == UInt8(ascii: "[")
                ? try JSONDecoder().decode([Entry].self, from: Data(trimmed))
                : try JSONDecoder().decode(Wrapped.self, from: Data(trimmed)).entries
        } catch let error as DecodingError {
            throw ScoreError(.invalidValue, "the table of contents is not valid: \(describe(error))")
        }
        // Items are collected per level and attached to their parent when the level closes.
        var stack: [[PDFOutlineItem]] = [[]]
        for (position, entry) in entries.enumerated() {
            let number = position + 1
            let level = entry.level ?? 0
            guard level >= 0, level <= stack.count - 1 + (stack[stack.count - 1].isEmpty ? 0 : 1) else {
                throw ScoreError(.outOfRange, "entry \(number) ('\(entry.title)'): level \(level) is out of range "
                    + "(valid: 0 to \(stack.count - 1 + (stack[stack.count - 1].isEmpty ? 0 : 1)), one deeper than the entry before at most)")
            }
            while stack.count - 1 > level { close(&stack) }
            if level == stack.count { stack.append([]) }
            var target: PDFOutlineTarget?
            if let page = entry.page {
                guard (1...max(pageCount, 1)).contains(page) else {
                    throw ScoreError(.outOfRange, "entry \(number) ('\(entry.title)'): page \(page) is out of range "
                        + "(valid: 1 to \(pageCount))")
                }
                target = .page(index: page - 1)
            } else if let uri = entry.uri {
                target = .uri(uri)
            } else if let file = entry.file {
                target = .remote(file: file, page: nil)
            }
            stack[stack.count - 1].append(PDFOutlineItem(title: entry.title, target: target, isOpen: entry.open ?? false))
        }
        while stack.count > 1 { close(&stack) }
        return stack[0]
    }

    /// Makes the deepest level the children of the last entry one level up.
    private static func close(_ stack: inout [[PDFOutlineItem]]) {
        guard stack.count > 1, let children = stack.popLast() else { return }
        let parent = stack.count - 1
        if !stack[parent].isEmpty { stack[parent][stack[parent].count - 1].children = children }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            "entry \((context.codingPath.last?.intValue ?? 0) + 1) lacks \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "\(context.codingPath.map { $0.intValue.map { "entry \($0 + 1)" } ?? $0.stringValue }.joined(separator: ", ")): "
                + context.debugDescription
        case .dataCorrupted(let context):
            context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        @unknown default:
            "\(error)"
        }
    }
}
