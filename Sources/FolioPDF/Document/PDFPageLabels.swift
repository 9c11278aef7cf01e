import Foundation

/// Page labels (/PageLabels in the catalog): the numbers a viewer shows for pages — "i"–"iv"
/// for a preface, then "1", "2"… — as ranges that each start at a page with a style, a prefix
/// and a first number, and run to the next range.
///
/// ```swift
/// let labels = try PDFPageLabels(parsing: "i-iv,1-", pageCount: 40)
/// labels.label(forPage: 4)    // "1"
/// try doc.setPageLabels(labels)
/// ```
public struct PDFPageLabels: Sendable, Equatable {
    /// How a range numbers its pages.
    ///
    /// ```swift
    /// let roman = PDFPageLabels.Range(start: 0, style: .lowerRoman)   // i, ii, iii…
    /// ```
    public enum Style: String, Sendable {
        case decimal = "D", upperRoman = "R", lowerRoman = "r", upperLetters = "A", lowerLetters = "a"
    }

    /// Pages from `start` (0-based) to the next range: `prefix` then the number in `style` (no
    /// number when `style` is nil), counting from `first`.
    ///
    /// ```swift
    /// // Pages i–iv, then "Akt-1", "Akt-2"… from the fifth page.
    /// let labels = PDFPageLabels(ranges: [.init(start: 0, style: .lowerRoman),
    ///                                     .init(start: 4, style: .decimal, prefix: "Akt-")])
    /// ```
    public struct Range: Sendable, Equatable {
        public var start: Int
        public var style: Style?
        public var prefix: String
        public var first: Int

        public init(start: Int, style: Style?, prefix: String = "", first: Int = 1) {
            self.start = start
            self.style = style
            self.prefix = prefix
            self.first = first
        }
    }

    /// The ranges, by start page; the first starts at page 0.
    public var ranges: [Range]

    public init(ranges: [Range]) {
        self.ranges = ranges.sorted { $0.start < $1.start }
    }

    /// Largest number a label may take (a label of "1000000" pages is no book).
    public static let maxNumber = 1_000_000

    /// The label of page `index` (0-based); the page number itself when no range covers it.
    public func label(forPage index: Int) -> String {
        guard let range = ranges.last(where: { $0.start <= index }) else { return String(index + 1) }
        let number = range.first + index - range.start
        guard let style = range.style else { return range.prefix }
        return range.prefix + PDFPageLabels.format(number, style)
    }

    static func format(_ number: Int, _ style: Style) -> String {
        switch style {
        case .decimal: return String(number)
        case .upperRoman: return roman(number)
        case .lowerRoman: return roman(number).lowercased()
        case .upperLetters, .lowerLetters:
            // A…Z, then AA…ZZ, AAA…: the letter repeated (PDF 32000 12.4.2).
            guard number >= 1 else { return String(number) }
            let letter = Character(Unicode.Scalar(UInt8(65 + (number - 1) % 26)))
            let text = String(repeating: letter, count: (number - 1) / 26 + 1)
            return style == .upperLetters ? text : text.lowercased()
        }
    }

    static func roman(_ number: Int) -> String {
        guard number >= 1 else { return String(number) }
        var rest = number, text = ""
        for (value, symbol) in [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                                (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")] {
            while rest >= value {
                text += symbol
                rest -= value
            }
        }
        return text
    }

    /// Parses a label of one style: "iv" (lower roman), "IV", "12", "c" (roman before letters),
    /// "B"; decimal labels may carry a prefix ("A-12": prefix "A-", 12).
    static func parseLabel(_ text: Substring) -> (style: Style, prefix: String, number: Int)? {
        let digits = text.lastIndex(where: { !($0.isASCII && $0.isNumber) }).map { text.index(after: $0) } ?? text.startIndex
        if digits < text.endIndex, let number = Int(text[digits...]) {
            return (.decimal, String(text[..<digits]), number)
        }
        let upper = text.uppercased()
        if !upper.isEmpty, upper.allSatisfy({ "IVXLCDM".contains($0) }), let value = romanValue(upper), roman(value) == upper {
            return (text == Substring(upper) ? .upperRoman : .lowerRoman, "", value)
        }
        if let letter = text.first, text.allSatisfy({ $0 == letter }), letter.isASCII, letter.isLetter {
            let number = (text.count - 1) * 26 + Int(letter.uppercased().unicodeScalars.first?.value ?? 65) - 64
            return (letter.isUppercase ? .upperLetters : .lowerLetters, "", number)
        }
        return nil
    }

    private static func romanValue(_ text: String) -> Int? {
        let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
        var total = 0, previous = 0
        for character in text.reversed() {
            guard let value = values[character] else { return nil }
            total += value < previous ? -value : value
            previous = max(previous, value)
        }
        return total > 0 ? total : nil
    }

    /// Parses ranges in page order: "i-iv,1-" labels four pages i to iv, then the rest from 1;
    /// "v" is one page; "A-1-A-12" twelve pages with the prefix "A-". The last range runs to the end.
    public init(parsing spec: String, pageCount: Int) throws {
        var ranges: [Range] = []
        var start = 0
        let items = spec.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.isEmpty else { throw PDFError(.invalidArgument, "no page labels given (such as i-iv,1-)") }
        for (index, item) in items.enumerated() {
            guard start < pageCount else {
                throw PDFError(.invalidArgument, "page labels \"\(spec)\" name more pages than the file's \(pageCount)")
            }
            // The range's first and last labels, split at the one "-" that leaves two labels of one style.
            var parsed: (first: (style: Style, prefix: String, number: Int), last: Int?)?
            for dash in item.indices where item[dash] == "-" && parsed == nil {
                let left = item[..<dash], right = item[item.index(after: dash)...]
                guard let first = PDFPageLabels.parseLabel(left) else { continue }
                if right.isEmpty {
                    parsed = (first, nil)
                } else if let last = PDFPageLabels.parseLabel(right), last.style == first.style, last.prefix == first.prefix,
                          last.number >= first.number {
                    parsed = (first, last.number)
                }
            }
            if parsed == nil, let whole = PDFPageLabels.parseLabel(Substring(item)) { parsed = (whole, whole.number) }
            guard let (first, last) = parsed else {
                throw PDFError(.invalidArgument, "page label range \"\(item)\" is not FIRST-LAST, FIRST- or one label "
                    + "(such as i-iv, 1-, A-1-A-12; styles: 1, i, I, a, A)")
            }
            guard first.number <= PDFPageLabels.maxNumber else {
                throw PDFError(.invalidArgument, "page label \(first.number) is out of range (valid: 1 to \(PDFPageLabels.maxNumber))")
            }
            guard last != nil || index == items.count - 1 else {
                throw PDFError(.invalidArgument, "only the last page label range may be open (\"\(item)\")")
            }
            ranges.append(Range(start: start, style: first.style, prefix: first.prefix, first: first.number))
            start += last.map { $0 - first.number + 1 } ?? pageCount
        }
        guard start <= pageCount || items.last?.hasSuffix("-") == true else {
            throw PDFError(.invalidArgument, "page labels \"\(spec)\" name \(start) pages; the file has \(pageCount)")
        }
        self.init(ranges: ranges)
    }
}

extension PDFDocument {
    /// The document's page labels, nil when it has none. Read from the number tree bounded
    /// and loop-safe; entries that are not label dictionaries are skipped.
    public func pageLabels() -> PDFPageLabels? {
        guard let root = catalog?["PageLabels"] else { return nil }
        var ranges: [PDFPageLabels.Range] = []
        var visited = Set<Int>()
        var pending: [(PDFObject, Int)] = [(root, 0)]
        while let (node, depth) = pending.popLast(), ranges.count < 100_000 {
            if let number = node.referenceValue?.number, !visited.insert(number).inserted { continue }
            guard depth < PDFDocument.maxTreeDepth, let dictionary = self.dictionary(node) else { continue }
            let numbers = resolve(dictionary["Nums"]).arrayValue ?? []
            var index = 0
            while index + 1 < numbers.count {
                if let start = resolve(numbers[index]).intValue, start >= 0, let label = self.dictionary(numbers[index + 1]) {
                    let style = resolve(label["S"]).nameValue.flatMap(PDFPageLabels.Style.init)
                    let prefix = resolve(label["P"]).stringValue.map { PDFTextString.decode($0.bytes) } ?? ""
                    let first = resolve(label["St"]).intValue.map { min(max($0, 1), PDFPageLabels.maxNumber) } ?? 1
                    ranges.append(PDFPageLabels.Range(start: start, style: style, prefix: prefix, first: first))
                }
                index += 2
            }
            for kid in (resolve(dictionary["Kids"]).arrayValue ?? []).reversed() { pending.append((kid, depth + 1)) }
        }
        return ranges.isEmpty ? nil : PDFPageLabels(ranges: ranges)
    }

    /// Writes `labels` into the catalog (nil removes them), as one flat number tree.
    public func setPageLabels(_ labels: PDFPageLabels?) throws {
        guard var catalog = catalog else { throw PDFError(.damaged, "the document has no catalog") }
        if let labels {
            var numbers: [PDFObject] = []
            for range in labels.ranges {
                var label = PDFDictionary()
                if let style = range.style { label["S"] = .name(style.rawValue) }
                if !range.prefix.isEmpty { label["P"] = .string(PDFString(PDFTextString.encode(range.prefix))) }
                if range.first != 1 { label["St"] = .integer(range.first) }
                numbers += [.integer(range.start), .dictionary(label)]
            }
            catalog["PageLabels"] = .dictionary(["Nums": .array(numbers)])
        } else {
            catalog["PageLabels"] = nil
        }
        setCatalog(catalog)
    }
}
