import Foundation

@testable import FolioPDF

/// Writes small PDFs by hand for unit tests, each showing one case of the syntax or
/// one kind of damage. Offsets are computed, so the files are exact.
struct PDFBuilder {
    enum EntryStyle {
        /// "oooooooooo ggggg n\r\n" (20 bytes, the standard)
        case standard
        /// "oooooooooo ggggg n\n" (19 bytes, common writer bug)
        case short19
        /// "oooooooooo ggggg n \r\n" (21 bytes)
        case long21
    }

    var header = "%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n"
    private(set) var body: [UInt8] = []
    var offsets: [Int: Int] = [:]

    init() {}

    var headerBytes: [UInt8] { Array(header.utf8) }

    /// Appends "N 0 obj <text> endobj".
    mutating func add(_ number: Int, _ text: String, generation: Int = 0) {
        offsets[number] = headerBytes.count + body.count
        body += Array("\(number) \(generation) obj\n\(text)\nendobj\n".utf8)
    }

    /// Appends a stream object; `/Length` is written unless `length` says otherwise.
    mutating func addStream(_ number: Int, _ dictionary: String, _ data: [UInt8], length: String? = nil) {
        offsets[number] = headerBytes.count + body.count
        let lengthEntry = length ?? "/Length \(data.count)"
        body += Array("\(number) 0 obj\n<< \(dictionary) \(lengthEntry) >>\nstream\n".utf8)
        body += data
        body += Array("\nendstream\nendobj\n".utf8)
    }

    mutating func addRaw(_ text: String) {
        body += Array(text.utf8)
    }

    /// Current end offset (where the next thing would go).
    var end: Int { headerBytes.count + body.count }

    /// The file with a classic xref table listing `offsets`.
    func classic(trailer: String, style: EntryStyle = .standard, firstNumber: Int? = nil,
                 startxref: Int? = nil, tail: [UInt8] = []) -> [UInt8] {
        var bytes = headerBytes + body
        let xrefOffset = bytes.count
        let size = (offsets.keys.max() ?? 0) + 1
        var table = "xref\n\(firstNumber ?? 0) \(size)\n"
        for number in 0..<size {
            let line: String
            if number == 0 {
                line = "0000000000 65535 f"
            } else if let offset = offsets[number] {
                line = String(format: "%010d 00000 n", offset)
            } else {
                line = "0000000000 00000 f"
            }
            switch style {
            case .standard: table += line + "\r\n"
            case .short19: table += line + "\n"
            case .long21: table += line + " \r\n"
            }
        }
        table += "trailer\n<< /Size \(size) \(trailer) >>\nstartxref\n\(startxref ?? xrefOffset)\n%%EOF\n"
        bytes += Array(table.utf8)
        return bytes + tail
    }

    /// The file with a cross-reference stream (object `number`), PNG Up predictor, entries
    /// for `offsets` plus `compressed` (object → (stream, index)).
    func withXRefStream(number: Int, trailer: String, compressed: [Int: (Int, Int)] = [:],
                        predictor: Bool = true, prev: Int? = nil) throws -> [UInt8] {
        var bytes = headerBytes + body
        let xrefOffset = bytes.count
        let size = max((offsets.keys.max() ?? 0), compressed.keys.max() ?? 0, number) + 1
        var rows: [[UInt8]] = []
        for object in 0..<size {
            if object == number {
                rows.append([1] + be(xrefOffset, 4) + [0, 0])
            } else if let offset = offsets[object] {
                rows.append([1] + be(offset, 4) + [0, 0])
            } else if let (stream, index) = compressed[object] {
                rows.append([2] + be(stream, 4) + be(index, 2))
            } else {
                rows.append([0, 0, 0, 0, 0, 0xFF, 0xFF])
            }
        }
        var raw: [UInt8] = []
        var previous = [UInt8](repeating: 0, count: 7)
        for row in rows {
            if predictor {
                raw.append(2)  // PNG Up
                raw += zip(row, previous).map { $0 &- $1 }
            } else {
                raw += row
            }
            previous = row
        }
        let data = try FlateFilter.encode(raw)
        let parms = predictor ? "/DecodeParms << /Predictor 12 /Columns 7 >>" : ""
        let prevEntry = prev.map { "/Prev \($0)" } ?? ""
        var text = "\(number) 0 obj\n<< /Type /XRef /Size \(size) /W [1 4 2] /Filter /FlateDecode \(parms) \(prevEntry) "
        text += "\(trailer) /Length \(data.count) >>\nstream\n"
        bytes += Array(text.utf8) + data + Array("\nendstream\nendobj\nstartxref\n\(xrefOffset)\n%%EOF\n".utf8)
        return bytes
    }

    /// Builds the data of an object stream holding `objects` (number, text).
    static func objectStream(_ objects: [(Int, String)]) -> (header: String, first: Int, data: [UInt8]) {
        var headerText = ""
        var content = ""
        for (number, text) in objects {
            headerText += "\(number) \(content.utf8.count) "
            content += text + "\n"
        }
        return (headerText, headerText.utf8.count, Array((headerText + content).utf8))
    }

    private func be(_ value: Int, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
    }

    /// A catalog (1), pages (2) and `pages` page objects from number 3 on.
    static func minimal(pages: Int = 1, info: String? = nil) -> PDFBuilder {
        var builder = PDFBuilder()
        builder.add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        let kids = (0..<pages).map { "\($0 + 3) 0 R" }.joined(separator: " ")
        builder.add(2, "<< /Type /Pages /Kids [\(kids)] /Count \(pages) /MediaBox [0 0 612 792] >>")
        for index in 0..<pages {
            builder.add(index + 3, "<< /Type /Page /Parent 2 0 R >>")
        }
        if let info { builder.add(pages + 3, info) }
        return builder
    }
}

extension PDFDocument {
    /// Warnings as one string, for assertions that look for a message.
    var warningText: String { warnings.map(\.description).joined(separator: "\n") }
}
