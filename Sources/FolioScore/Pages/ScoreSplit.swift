import FolioPDF
import Foundation

/// An anthology split into one PDF per piece. Each piece file holds only the objects its
/// pages reach, its annotations, its part of the outline, and its metadata: the piece's
/// own fields (from its bookmark or table-of-contents entry) over the book's.
///
/// ```swift
/// let book = try PDFDocument(path: "Real Book.pdf")
/// for piece in try ScoreSplit.pieces(of: book, by: .toc) {
///     let bytes = try ScoreSplit.file(for: piece, of: book)
///     print(piece.title, piece.pages)   // "Blue Bossa" 44...45
/// }
/// ```
public enum ScoreSplit {
    /// Where the pieces are found.
    ///
    /// ```swift
    /// let pieces = try ScoreSplit.pieces(of: try ScoreFile("Real Book.pdf").open(), by: .toc)
    /// ```
    public enum Method: Sendable, Equatable {
        /// The stored page-range bookmarks (XMP), as forScore, Preview and Nutrient keep them.
        case bookmarks
        /// The outline, as forScore turns it into bookmarks: each entry runs to the next.
        case toc
        /// Page ranges, 1-based.
        case ranges([ClosedRange<Int>])

        /// Parses `bookmarks`, `toc` or a list of ranges ("1-4,5-9,10").
        public init(parsing text: String, pageCount: Int) throws {
            switch text.lowercased() {
            case "bookmarks": self = .bookmarks
            case "toc": self = .toc
            default: self = .ranges(try ScoreSplit.ranges(text, pageCount: pageCount))
            }
        }
    }

    /// One piece: its title, its 1-based pages and its metadata (title included).
    ///
    /// ```swift
    /// for piece in try ScoreSplit.pieces(of: book) { print(piece.title, piece.pages) }
    /// ```
    public struct Piece: Sendable, Equatable {
        public var title: String
        public var pages: ClosedRange<Int>
        public var metadata: ScoreMetadata
    }

    /// The pieces of `document` found by `method` — by default its stored bookmarks when it
    /// has any with pages, else its outline — in page order. Throws when there are none.
    public static func pieces(of document: PDFDocument, by method: Method? = nil) throws -> [Piece] {
        let (book, _) = ScoreMetadata.read(from: document)
        let count = document.pageCount
        let stored = XMPBookmarkProvider(document: document).bookmarks
        var pieces: [Piece] = []
        switch method ?? (stored.contains { $0.pages != nil } ? .bookmarks : .toc) {
        case .bookmarks:
            for bookmark in stored {
                guard let pages = bookmark.pages, pages.lowerBound >= 1, pages.lowerBound <= count else { continue }
                let title = pieceTitle(bookmark.name, pages)
                pieces.append(Piece(title: title, pages: pages.lowerBound...min(pages.upperBound, count),
                                    metadata: overlay(bookmark.metadata, on: book, title: title)))
            }
            pieces.sort { ($0.pages.lowerBound, $0.pages.upperBound) < ($1.pages.lowerBound, $1.pages.upperBound) }
            guard !pieces.isEmpty else {
                throw ScoreError(.invalidValue, "the file has no stored bookmarks with pages; try --by toc or page ranges")
            }
        case .toc:
            for entry in TableOfContents.bookmarks(from: document.outline(), pageCount: count) {
                let title = pieceTitle(entry.title, entry.start...entry.end)
                pieces.append(Piece(title: title, pages: entry.start...entry.end,
                                    metadata: overlay(ScoreMetadata(), on: book, title: title)))
            }
            guard !pieces.isEmpty else {
                throw ScoreError(.invalidValue, "the file has no outline entries with pages; try --by bookmarks or page ranges")
            }
        case .ranges(let ranges):
            let name = book.title
            for range in ranges {
                guard range.lowerBound >= 1, range.upperBound <= count else {
                    throw ScoreError(.outOfRange, "pages \(range.lowerBound)–\(range.upperBound) are out of range (valid: 1 to \(count))")
                }
                let span = range.count == 1 ? "p. \(range.lowerBound)" : "pp. \(range.lowerBound)–\(range.upperBound)"
                let title = name.map { "\($0) (\(span))" } ?? "Pages \(range.lowerBound)–\(range.upperBound)"
                pieces.append(Piece(title: title, pages: range, metadata: overlay(ScoreMetadata(), on: book, title: title)))
            }
        }
        guard pieces.count <= maxPieces else {
            throw ScoreError(.outOfRange, "the file has \(pieces.count) pieces (valid: up to \(maxPieces) a split); split it by page ranges")
        }
        return pieces
    }

    /// The PDF of `piece`: its pages, what they use, their annotations, the outline entries
    /// that lead into them, and its metadata in Info and XMP. `outline` is the document's
    /// outline when the caller has read it already (once for every piece of a split).
    public static func file(for piece: Piece, of document: PDFDocument, outline full: [PDFOutlineItem]? = nil,
                            date: Date = Date()) throws -> [UInt8] {
        let pages = (piece.pages.lowerBound - 1)...(piece.pages.upperBound - 1)
        var outline = PDFOutlineItem.slice(full ?? document.outline(), pages: pages, shift: -pages.lowerBound)
        // A piece found by its outline entry would otherwise open on a lone entry of itself.
        if outline.count == 1, outline[0].title == piece.title, outline[0].target == .page(index: 0) {
            outline = outline[0].children
        }
        let bytes = try PDFMerger.merge([PDFMergePart(document: document, pages: pages, title: nil)], outline: outline)
        return try NewScoreFile.finish(bytes, edit: ScoreEdit(setting: piece.metadata), date: date).bytes
    }

    /// The file name `template` gives `piece`, the `number`th of a split of `file`:
    /// `{n}` or `{n:0W}` (zero-padded to W digits), `{title}`, `{composer}`, `{start}`, `{end}`, `{file}`.
    /// Slashes in values become dashes, so a title never makes a folder.
    public static func name(for piece: Piece, number: Int, file: String, template: String) throws -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw ScoreError(.invalidValue, "'\(template)' has a { without its }")
            }
            let field = rest[rest.index(after: open)..<close]
            let value: String
            switch field {
            case "n": value = String(number)
            case "title": value = piece.title
            case "composer": value = piece.metadata.composers.joined(separator: ", ")
            case "start": value = String(piece.pages.lowerBound)
            case "end": value = String(piece.pages.upperBound)
            case "file": value = file
            default:
                guard field.hasPrefix("n:"), let width = Int(field.dropFirst(2)), (1...9).contains(width) else {
                    throw ScoreError(.invalidValue, "unknown field {\(field)} in '\(template)' "
                        + "(valid: {n}, {n:02}, {title}, {composer}, {start}, {end}, {file})")
                }
                let digits = String(number)
                value = String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            result += value.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "\\", with: "-")
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The pages a list such as "3,5-7" names, 1-based, in its order.
    ///
    /// ```swift
    /// try ScoreSplit.pages("3,5-7", pageCount: 9)   // [3, 5, 6, 7]
    /// ```
    public static func pages(_ text: String, pageCount: Int) throws -> [Int] {
        let ranges = try ranges(text, pageCount: pageCount)
        // Each page at most a few times over: a list cannot make a page tool do unbounded work.
        let (four, over) = max(pageCount, 1).multipliedReportingOverflow(by: 4)
        let limit = over ? maxListedPages : min(four, maxListedPages)
        var named = 0
        for range in ranges {
            let (sum, overflow) = named.addingReportingOverflow(range.count)
            guard !overflow, sum <= limit else {
                throw ScoreError(.outOfRange, "the list names too many pages (valid: up to \(limit), four times the page count)")
            }
            named = sum
        }
        return ranges.flatMap { Array($0) }
    }

    /// The most pages a list names, whatever the page count.
    public static let maxListedPages = 4_000_000

    /// The most ranges a list may hold, and the most pieces a split makes.
    public static let maxPieces = 1_000

    /// "1-4,5-9,10" as ranges, each checked against `pageCount`; at most ``maxPieces``.
    public static func ranges(_ text: String, pageCount: Int) throws -> [ClosedRange<Int>] {
        let valid = "valid: page numbers 1 to \(pageCount), as \"1-4,5-9,10\""
        var result: [ClosedRange<Int>] = []
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard items.count <= maxPieces else {
            throw ScoreError(.outOfRange, "the list has \(items.count) ranges (valid: up to \(maxPieces))")
        }
        for item in items {
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
                .map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard (1...2).contains(bounds.count), let start = bounds[0], let end = bounds.count == 2 ? bounds[1] : start else {
                throw ScoreError(.invalidValue, "'\(item)' is not a page range (\(valid))")
            }
            guard start >= 1, end >= start, end <= pageCount else {
                throw ScoreError(.outOfRange, "pages \(item) are out of range (\(valid))")
            }
            result.append(start...end)
        }
        return result
    }

    /// A bookmark's or outline entry's name, or "Pages 3–7" when it has none (untitled entries exist).
    private static func pieceTitle(_ name: String?, _ pages: ClosedRange<Int>) -> String {
        guard let name, !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return pages.count == 1 ? "Page \(pages.lowerBound)" : "Pages \(pages.lowerBound)–\(pages.upperBound)"
        }
        return name
    }

    /// A piece's own fields over the book's, titled `title`; the book's rating and
    /// difficulty too, but not its duration (the piece is shorter). A book of several
    /// composers hands a piece without its own only those its title names (none: none), never
    /// the whole list.
    private static func overlay(_ own: ScoreMetadata, on book: ScoreMetadata, title: String) -> ScoreMetadata {
        var result = own.inheriting(from: book)
        let bookComposers = ComposerList.people(book.composers)
        if own.composers.isEmpty, bookComposers.count > 1 {
            result.composers = ComposerList.named(in: title, among: bookComposers)
        }
        result.title = title
        result.rating = own.rating ?? book.rating
        result.difficulty = own.difficulty ?? book.difficulty
        return result
    }
}
