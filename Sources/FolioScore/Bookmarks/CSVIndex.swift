import Foundation
import SwiftCSV

/// CSV/TSV indexes of the pieces in a score (`../shared/seeds/forscore-file-types.txt`):
/// read with a column mapping into page-range bookmarks, and written in forScore's
/// library-metadata layout, which reads back to the same bookmarks.
///
/// ```swift
/// let csv = "Title,Page\nAutumn Leaves,12\nBlue Bossa,14\n"
/// let index = try CSVIndex.read(csv, options: .init(pageOffset: 2), pageCount: 300)
/// index.bookmarks.map(\.pages)   // [14...15, 16...300]
/// ```
public enum CSVIndex {
    /// The columns an index can have.
    ///
    /// ```swift
    /// let options = CSVIndex.Options(mapping: [.title: .position(1), .start: .name("Strana")])
    /// ```
    public enum Field: String, Sendable, CaseIterable {
        case filename, title, start, end, composers, genres, tags, labels, reference, rating, difficulty, minutes,
            seconds, duration, keysf, keymi, key
    }

    /// A column, by its header name (case-insensitive) or its 1-based position.
    ///
    /// ```swift
    /// let byHeader = CSVIndex.Column.name("Seite"), second = CSVIndex.Column.position(2)
    /// ```
    public enum Column: Sendable, Equatable {
        case name(String)
        case position(Int)
    }

    /// How an index is read: chosen columns, header rows, a page offset, strictness.
    ///
    /// ```swift
    /// // Book pages 1… are PDF pages 4…; a row that cannot be read refuses the whole index.
    /// let options = CSVIndex.Options(headerRows: 1, pageOffset: 3, strict: true)
    /// let contents = try CSVIndex.read(text, options: options, pageCount: 120)
    /// ```
    public struct Options: Sendable {
        /// Columns chosen by the user; fields not in it are found by header name, or by
        /// position when the index has no header row.
        public var mapping: [Field: Column]
        /// Rows before the first entry, the last of them the header; nil: one when the
        /// first row is a recognised header, else none.
        public var headerRows: Int?
        /// Added to every page in the index: an index of book pages in a PDF whose page 1
        /// is the cover needs the cover pages added.
        public var pageOffset: Int
        /// Refuse the whole index when a row cannot be read, instead of skipping it.
        public var strict: Bool

        public init(mapping: [Field: Column] = [:], headerRows: Int? = nil, pageOffset: Int = 0, strict: Bool = false) {
            self.mapping = mapping
            self.headerRows = headerRows
            self.pageOffset = pageOffset
            self.strict = strict
        }
    }

    /// A row that could not be read.
    ///
    /// ```swift
    /// let contents = try CSVIndex.read("Title,Start\nΣονάτα,x\n", pageCount: 10)
    /// contents.problems.first?.line   // 2
    /// ```
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The row's record number, 1-based, header rows included (its line, unless a quoted
        /// cell above it spans lines).
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// What an index holds: bookmarks in page order, the score's own row (forScore's
    /// layout has one with no pages) and the rows that were skipped.
    ///
    /// ```swift
    /// let contents = try CSVIndex.read("Title,Start Page\nVltava,3\nŠárka,9\n", pageCount: 20)
    /// contents.bookmarks.map(\.name)   // ["Vltava", "Šárka"]
    /// ```
    public struct Contents: Sendable {
        public var bookmarks: [Bookmark]
        public var score: ScoreMetadata?
        public var problems: [Problem]
    }

    /// forScore's library-metadata columns, in order.
    public static let forScoreHeader = [
        "Filename", "Title", "Start Page (Bookmark)", "End Page (Bookmark)", "Composers", "Genres", "Tags", "Labels",
        "Reference", "Rating", "Difficulty", "Minutes", "Seconds", "keysf", "keymi",
    ]
    static let forScoreFields: [Field] = [
        .filename, .title, .start, .end, .composers, .genres, .tags, .labels, .reference, .rating, .difficulty,
        .minutes, .seconds, .keysf, .keymi,
    ]

    /// Header names recognised for each field (lower-cased).
    static let headerNames: [String: Field] = {
        var names: [String: Field] = [:]
        for (field, header) in zip(forScoreFields, forScoreHeader) { names[header.lowercased()] = field }
        for field in Field.allCases { names[field.rawValue] = field }
        let synonyms: [(String, Field)] = [
            ("name", .title), ("song", .title), ("piece", .title), ("page", .start), ("start page", .start),
            ("first page", .start), ("from", .start), ("end page", .end), ("last page", .end), ("to", .end),
            ("composer", .composers), ("genre", .genres), ("tag", .tags), ("label", .labels), ("file", .filename),
        ]
        for (name, field) in synonyms { names[name] = field }
        return names
    }()

    /// Largest index read (a real book's index is kilobytes).
    public static let maxBytes = 16 << 20

    // MARK: Reading

    /// Reads an index: delimiter (comma, semicolon or tab), BOM and line ends detected;
    /// pages 1-based plus `pageOffset`, within 1…`pageCount`; a missing end page is the
    /// next entry's start − 1 (never before its own start), the last entry's the last page.
    public static func read(_ text: String, options: Options = Options(), pageCount: Int) throws -> Contents {
        guard text.utf8.count <= maxBytes else {
            throw ScoreError(.invalidValue, "the index has \(text.utf8.count) bytes; at most \(maxBytes) are read")
        }
        let records = try self.records(text)
        // The header is the last of the rows skipped (a title line may sit above it), or the first row.
        let headerIndex = max((options.headerRows ?? 1) - 1, 0)
        let first = headerIndex < records.count ? records[headerIndex] : []
        let recognised = Dictionary(first.enumerated().compactMap { index, cell in
            headerNames[cell.lowercased()].map { ($0, index) }
        }, uniquingKeysWith: { first, _ in first })
        let hasHeader = recognised[.title] != nil && recognised[.start] != nil
        let skip = options.headerRows ?? (hasHeader ? 1 : 0)
        // Without a header the positions are counted on the first entry.
        let shape = hasHeader ? first : (skip < records.count ? records[skip] : first)

        // Column of each field: the user's mapping, else the header, else positions.
        var columns: [Field: Int] = [:]
        if hasHeader {
            columns = recognised
        } else if shape.count >= forScoreFields.count {
            for (index, field) in forScoreFields.enumerated() { columns[field] = index }
        } else {
            columns = [.title: 0, .start: 1, .end: 2]
        }
        for (field, column) in options.mapping {
            switch column {
            case .position(let position):
                guard position >= 1 else {
                    throw ScoreError(.outOfRange, "column \(position) for \(field.rawValue) is out of range (valid: 1 or more)")
                }
                columns[field] = position - 1
            case .name(let name):
                guard let index = first.firstIndex(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else {
                    throw ScoreError(.invalidValue, "no column named '\(name)' for \(field.rawValue) "
                        + "(the first row has: \(first.joined(separator: ", ")))")
                }
                columns[field] = index
            }
        }

        var problems: [Problem] = []
        var entries: [(bookmark: Bookmark, explicitEnd: Bool)] = []
        var score: ScoreMetadata?
        for (offset, record) in records.enumerated().dropFirst(skip) {
            let line = offset + 1
            if record.allSatisfy(\.isEmpty) { continue }
            func cell(_ field: Field) -> String {
                guard let index = columns[field], index < record.count else { return "" }
                return unguarded(record[index])
            }
            do {
                let metadata = try rowMetadata(cell)
                if cell(.start).isEmpty, columns[.filename] != nil, !cell(.filename).isEmpty {
                    // forScore's row for the score itself.
                    var scoreRow = metadata
                    scoreRow.title = cell(.title).isEmpty ? nil : cell(.title)
                    score = scoreRow
                    continue
                }
                let title = cell(.title)
                guard !title.isEmpty else { throw ScoreError(.invalidValue, "no title") }
                let start = try page(cell(.start), "start page", options.pageOffset, pageCount)
                var end = start
                let hasEnd = !cell(.end).isEmpty
                if hasEnd {
                    end = try page(cell(.end), "end page", options.pageOffset, pageCount)
                    guard end >= start else {
                        throw ScoreError(.outOfRange, "end page \(end) is before the start page \(start)")
                    }
                }
                entries.append((Bookmark(name: title, action: .page(index: start - 1), pages: start...end,
                                         metadata: metadata), hasEnd))
            } catch let error as ScoreError {
                let problem = Problem(line: line, message: error.message)
                if options.strict { throw ScoreError(.invalidValue, "\(problem) (the index was refused: --strict)") }
                problems.append(problem)
            }
        }
        // Ends not given: the next entry's start − 1, in page order (outline order on ties).
        let sorted = entries.enumerated().sorted {
            ($0.element.bookmark.pages?.lowerBound ?? 0, $0.offset) < ($1.element.bookmark.pages?.lowerBound ?? 0, $1.offset)
        }
        let ordered = sorted.map(\.element)
        var bookmarks: [Bookmark] = []
        var occurrences: [String: Int] = [:]
        for (position, entry) in ordered.enumerated() {
            let bookmark = entry.bookmark
            guard var pages = bookmark.pages else { continue }
            let start = pages.lowerBound
            if !entry.explicitEnd {
                let next = position + 1 < ordered.count ? (ordered[position + 1].bookmark.pages?.lowerBound ?? start) - 1
                    : pageCount
                pages = start...max(start, next)
            }
            // Rows carry no identifier: one derived from title and pages stays the same on every read.
            let name = bookmark.name ?? ""
            let key = "\(name)|\(pages)"
            let occurrence = occurrences[key, default: 0]
            occurrences[key] = occurrence + 1
            // The row's place in the file is the index's custom order (a CSV has no sort keys).
            bookmarks.append(Bookmark(id: BookmarkIdentifier.derived(title: name, pages: pages, occurrence: occurrence),
                                      name: bookmark.name, action: bookmark.action, sortKey: sorted[position].offset, pages: pages,
                                      metadata: bookmark.metadata))
        }
        return Contents(bookmarks: bookmarks, score: score, problems: problems)
    }

    /// The fields the first row of `text` names as a header (forScore's names, the fields'
    /// own and their synonyms, any case); empty for a first row that is no CSV header.
    ///
    /// ```swift
    /// CSVIndex.headerFields(of: "Název;Title;Page\nVltava;Vltava;3\n")   // [.title, .start]
    /// ```
    public static func headerFields(of text: String) -> Set<Field> {
        var body = Substring(text.prefix(8192))
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        guard let line = body.split(whereSeparator: \.isNewline).first else { return [] }
        let cells = line.split(separator: delimiter(of: String(line)).rawValue, omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\""))).lowercased() }
        guard cells.count >= 2 else { return [] }
        return Set(cells.compactMap { headerNames[$0] })
    }

    /// The rows of `text`, cells trimmed: BOM dropped, delimiter detected.
    static func records(_ text: String) throws -> [[String]] {
        var body = text
        if body.hasPrefix("\u{FEFF}") { body.removeFirst() }
        do {
            let csv = try EnumeratedCSV(string: body, delimiter: delimiter(of: body), loadColumns: false)
            return ([csv.header] + csv.rows).map { $0.map { $0.trimmingCharacters(in: .whitespaces) } }
        } catch {
            throw ScoreError(.invalidValue, "not valid CSV: \(error)")
        }
    }

    /// The delimiter the first lines (up to 20, so a title line above the header does not
    /// decide) use most outside quotes; comma when there is none.
    static func delimiter(of text: String) -> CSVDelimiter {
        var counts: [Character: Int] = [",": 0, ";": 0, "\t": 0]
        var quoted = false
        var lines = 0
        for character in text {
            if character == "\"" { quoted.toggle() }
            if !quoted, character == "\n" || character == "\r\n" || character == "\r" {
                lines += 1
                if lines == 20 { break }
            }
            if !quoted, counts[character] != nil { counts[character, default: 0] += 1 }
        }
        let tab = counts["\t"] ?? 0, semicolon = counts[";"] ?? 0, comma = counts[","] ?? 0
        // Titles hold commas far more often than tabs: a tab in the first line wins a tie.
        if tab > 0, tab >= max(comma, semicolon) { return .tab }
        if semicolon > comma { return .semicolon }
        return .comma
    }

    private static func page(_ text: String, _ what: String, _ offset: Int, _ count: Int) throws -> Int {
        guard let number = Int(text) else {
            throw ScoreError(.invalidValue, "\(what) '\(text)' is not a whole number")
        }
        let page = number + offset
        guard page >= 1, page <= count else {
            throw ScoreError(.outOfRange, "\(what) \(number)\(offset == 0 ? "" : " (+\(offset))") is out of range "
                + "(valid: 1 to \(count) in this PDF)")
        }
        return page
    }

    static func rowMetadata(_ cell: (Field) -> String) throws -> ScoreMetadata {
        var metadata = ScoreMetadata()
        metadata.composers = ForScoreInfo.split(cell(.composers))
        metadata.genres = ForScoreInfo.split(cell(.genres))
        metadata.tags = ForScoreInfo.split(cell(.tags))
        metadata.labels = ForScoreInfo.split(cell(.labels))
        metadata.reference = cell(.reference).isEmpty ? nil : cell(.reference)
        func number(_ field: Field, _ range: ClosedRange<Int>) throws -> Int? {
            let text = cell(field)
            guard !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ScoreError(.outOfRange, "\(field.rawValue) '\(text)' is out of range (valid: \(range.lowerBound) to \(range.upperBound))")
            }
            return value
        }
        metadata.rating = try number(.rating, ScoreMetadata.ratingRange)
        metadata.difficulty = try number(.difficulty, ScoreMetadata.difficultyRange)
        let minutes = try number(.minutes, 0...100_000), seconds = try number(.seconds, 0...100_000)
        if minutes != nil || seconds != nil { metadata.duration = (minutes ?? 0) * 60 + (seconds ?? 0) }
        if !cell(.duration).isEmpty { metadata.duration = try ScoreDuration.parse(cell(.duration)) }
        if let keysf = try number(.keysf, -7...7) {
            metadata.key = try MusicalKey(keysf: keysf, keymi: try number(.keymi, 0...1) ?? 0)
        } else if !cell(.key).isEmpty {
            metadata.key = try MusicalKey(parsing: cell(.key))
        }
        return metadata
    }

    // MARK: Writing

    /// The index in forScore's library-metadata layout: the header, a row for the score
    /// (no pages), one per page-range bookmark in `order` (page order by default). Lists are joined with ", "
    /// and quoted; text cells a spreadsheet would run as a formula are guarded with "'".
    public static func export(fileName: String, score: ScoreMetadata, bookmarks: [Bookmark], tabs: Bool = false,
                              order: BookmarkOrder = .pageBased) -> String {
        let delimiter: Character = tabs ? "\t" : ","
        var rows = [forScoreHeader, row(fileName: fileName, title: score.title, pages: nil, score)]
        for bookmark in order.sorted(bookmarks) {
            var pages = bookmark.pages
            if pages == nil, let index = bookmark.pageIndex { pages = (index + 1)...(index + 1) }
            guard let pages else { continue }
            rows.append(row(fileName: fileName, title: bookmark.name, pages: pages, bookmark.metadata))
        }
        var text = ""
        for cells in rows {
            text += cells.map { quoted($0, delimiter) }.joined(separator: String(delimiter)) + "\r\n"
        }
        return text
    }

    /// One row in forScore's column order.
    static func row(fileName: String, title: String?, pages: ClosedRange<Int>?, _ metadata: ScoreMetadata)
        -> [String]
    {
        var cells = [guarded(fileName), guarded(title ?? "")]
        if let pages {
            cells += [String(pages.lowerBound), String(pages.upperBound)]
        } else {
            cells += ["", ""]
        }
        cells += [metadata.composers, metadata.genres, metadata.tags, metadata.labels].map {
            guarded($0.joined(separator: ", "))
        }
        cells.append(guarded(metadata.reference ?? ""))
        cells.append(metadata.rating.map(String.init) ?? "")
        cells.append(metadata.difficulty.map(String.init) ?? "")
        if let duration = metadata.duration {
            cells += [String(duration / 60), String(duration % 60)]
        } else {
            cells += ["", ""]
        }
        if let key = metadata.key {
            cells += [String(key.keysf), String(key.keymi)]
        } else {
            cells += ["", ""]
        }
        return cells
    }

    /// Text a spreadsheet would run (=, +, -, @, tab, CR first) gets a leading "'".
    static func guarded(_ text: String) -> String {
        guard let first = text.first, "=+-@\t\r".contains(first) else { return text }
        return "'" + text
    }

    /// Undoes ``guarded(_:)`` on import.
    static func unguarded(_ text: String) -> String {
        guard text.hasPrefix("'"), let second = text.dropFirst().first, "=+-@\t\r".contains(second) else { return text }
        return String(text.dropFirst())
    }

    static func quoted(_ cell: String, _ delimiter: Character) -> String {
        // Any of the delimiters readers guess between is quoted, so the guess cannot go wrong.
        guard cell.contains(where: { $0 == delimiter || ",;\t\"\n\r".contains($0) })
            || cell.hasPrefix(" ") || cell.hasSuffix(" ")
        else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
