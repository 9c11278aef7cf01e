import Foundation
import FolioPDF
#if canImport(FoundationXML)
import FoundationXML
#endif

/// forScore's Open Setlist format (a `.4ss` file): XML with a `forScore` root of kind
/// "setlist", version "1.0" and a title, and `score`, `bookmark` and `placeholder`
/// children, a score optionally carrying its PDF as base64 in `data`.
///
/// Parsing refuses DTDs and entity declarations before the XML parser sees them (no
/// external entities, no entity expansion), bounds the file, each attribute and each
/// embedded PDF, and says which element is wrong.
///
/// ```swift
/// let setlist = try OpenSetlist(bytes: Array(try Data(contentsOf: url)))
/// setlist.items.first   // .score(path: "filename.pdf", title: "Score Title", data: nil)
/// ```
public struct OpenSetlist: Sendable, Equatable {
    /// One item of an Open Setlist: a score (maybe with its PDF inside) or a bookmark of one.
    ///
    /// ```swift
    /// let setlist = OpenSetlist(title: "Koncert", items: [.score(path: "Dvořák.pdf", title: "Humoreska", data: nil)])
    /// ```
    public enum Item: Sendable, Equatable {
        case score(path: String, title: String?, data: [UInt8]?)
        case bookmark(path: String, title: String)
        case placeholder(title: String)
    }

    public var title: String
    public var items: [Item]

    /// The largest `.4ss` file read.
    public static let maxFileSize = 1 << 30
    /// The longest attribute other than `data`, in bytes.
    public static let maxAttributeLength = 64 * 1024
    /// The largest embedded PDF, decoded.
    public static let maxEmbeddedSize = 512 << 20
    /// The most entries in one setlist.
    public static let maxItems = 100_000

    public init(title: String, items: [Item]) {
        self.title = title
        self.items = items
    }

    public init(bytes: [UInt8]) throws {
        guard bytes.count <= OpenSetlist.maxFileSize else {
            throw ScoreError(.limitExceeded, "the setlist file is \(bytes.count) bytes (valid: up to \(OpenSetlist.maxFileSize))")
        }
        // libxml2 caps attribute values at 10 MB, smaller than many PDFs: long values
        // are lifted out before parsing, `data` ones kept aside and others refused.
        let (xml, lifted) = try OpenSetlist.liftLongAttributes(bytes)
        let input: [UInt8]
        do { input = try XMLInput.parserInput(xml) } catch let error as PDFError {
            throw ScoreError(.malformed, "the setlist is refused: \(error.message) (4SS never needs a DTD or entities)")
        }
        let parser = XMLParser(data: Data(input))
        parser.shouldResolveExternalEntities = false
        let reader = Reader()
        parser.delegate = reader
        if !parser.parse() || reader.failure != nil {
            if let failure = reader.failure { throw failure }
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown"
            throw ScoreError(.malformed, "the setlist is not well-formed XML (line \(parser.lineNumber), column \(parser.columnNumber)): \(reason)")
        }
        guard let root = reader.root else { throw ScoreError(.malformed, "the setlist has no forScore element") }
        guard reader.depth == 0 else {
            throw ScoreError(.malformed, "the setlist is not well-formed XML: <\(root.name)> or an element in it is never closed")
        }
        guard root.name == "forScore" else {
            throw ScoreError(.malformed, "the root element is <\(root.name)>; a 4SS setlist's root is <forScore>")
        }
        guard root.attributes["kind"] == "setlist" else {
            throw ScoreError(.malformed, "the forScore element needs kind=\"setlist\" (found \(root.attributes["kind"].map { "\"\($0)\"" } ?? "none"))")
        }
        guard root.attributes["version"] == "1.0" else {
            throw ScoreError(.malformed, "the forScore element needs version=\"1.0\" (found \(root.attributes["version"].map { "\"\($0)\"" } ?? "none"))")
        }
        guard let title = root.attributes["title"], !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ScoreError(.malformed, "the forScore element needs a title (the setlist's name)")
        }
        self.title = title
        var items: [Item] = []
        for (index, child) in reader.children.enumerated() {
            let position = "element \(index + 1) (<\(child.name)>, line \(child.line))"
            func required(_ name: String) throws -> String {
                guard let value = child.attributes[name], !value.isEmpty else {
                    throw ScoreError(.malformed, "\(position) needs a \(name) attribute")
                }
                return value
            }
            switch child.name {
            case "score":
                let path = try required("path")
                var data: [UInt8]?
                if let encoded = child.attributes["data"] {
                    let base64 = encoded.hasPrefix(Reader.liftedPrefix)
                        ? Int(encoded.dropFirst(Reader.liftedPrefix.count)).flatMap { lifted.indices.contains($0) ? lifted[$0] : nil } ?? []
                        : Array(encoded.utf8)
                    data = try OpenSetlist.decodeBase64(base64, position: position)
                }
                items.append(.score(path: path, title: child.attributes["title"].flatMap { $0.isEmpty ? nil : $0 }, data: data))
            case "bookmark":
                items.append(.bookmark(path: try required("path"), title: try required("title")))
            case "placeholder":
                items.append(.placeholder(title: try required("title")))
            default:
                throw ScoreError(.malformed, "\(position) is not one of score, bookmark, placeholder")
            }
        }
        self.items = items
    }

    /// The setlist as 4SS XML.
    public func xml() -> [UInt8] {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"
        out += "<forScore kind=\"setlist\" version=\"1.0\" title=\"\(XMLText.escape(title, quote: true))\">\n"
        for item in items {
            switch item {
            case .score(let path, let title, let data):
                out += "<score"
                if let title { out += " title=\"\(XMLText.escape(title, quote: true))\"" }
                out += " path=\"\(XMLText.escape(path, quote: true))\""
                if let data { out += " data=\"\(Data(data).base64EncodedString())\"" }
                out += " />\n"
            case .bookmark(let path, let title):
                out += "<bookmark title=\"\(XMLText.escape(title, quote: true))\" path=\"\(XMLText.escape(path, quote: true))\" />\n"
            case .placeholder(let title):
                out += "<placeholder title=\"\(XMLText.escape(title, quote: true))\" />\n"
            }
        }
        out += "</forScore>\n"
        return Array(out.utf8)
    }

    private static func decodeBase64(_ text: [UInt8], position: String) throws -> [UInt8] {
        let estimated = text.count / 4 * 3
        guard estimated <= maxEmbeddedSize else {
            throw ScoreError(.limitExceeded, "\(position) embeds about \(estimated) bytes (valid: up to \(maxEmbeddedSize))")
        }
        guard let data = Data(base64Encoded: Data(text), options: .ignoreUnknownCharacters), !data.isEmpty || text.isEmpty else {
            throw ScoreError(.malformed, "\(position) has data that is not base64")
        }
        return Array(data)
    }

    /// Replaces attribute values longer than ``maxAttributeLength`` by a token; `data`
    /// values are returned in order, any other long value is an error.
    private static func liftLongAttributes(_ bytes: [UInt8]) throws -> ([UInt8], [[UInt8]]) {
        var out: [UInt8] = []
        var lifted: [[UInt8]] = []
        var index = 0
        var copiedUpTo = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "=") else { index += 1; continue }
            var quoteAt = index + 1
            while quoteAt < count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[quoteAt]) { quoteAt += 1 }
            guard quoteAt < count, bytes[quoteAt] == UInt8(ascii: "\"") || bytes[quoteAt] == UInt8(ascii: "'") else {
                index += 1
                continue
            }
            let quote = bytes[quoteAt]
            var end = quoteAt + 1
            while end < count, bytes[end] != quote, bytes[end] != UInt8(ascii: "<") { end += 1 }
            let length = end - quoteAt - 1
            if length > maxAttributeLength {
                var nameEnd = index
                while nameEnd > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[nameEnd - 1]) { nameEnd -= 1 }
                var nameStart = nameEnd
                while nameStart > 0, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "<")].contains(bytes[nameStart - 1]) { nameStart -= 1 }
                let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
                guard name == "data" else {
                    throw ScoreError(.limitExceeded,
                                     "attribute \(name.prefix(40)) at byte \(nameStart) is \(length) bytes long (valid: up to \(maxAttributeLength) bytes; only data may be longer)")
                }
                out += bytes[copiedUpTo...quoteAt]
                out += Array((Reader.liftedPrefix + String(lifted.count)).utf8)
                lifted.append(Array(bytes[(quoteAt + 1)..<end]))
                copiedUpTo = end
            }
            index = end
        }
        if lifted.isEmpty { return (bytes, []) }
        out += bytes[copiedUpTo...]
        return (out, lifted)
    }

    /// Collects the root and its element children; one parser, one thread.
    private final class Reader: NSObject, XMLParserDelegate {
        static let liftedPrefix = "#folio-lifted-"
        struct Element {
            var name: String
            var attributes: [String: String]
            var line: Int
        }
        var root: Element?
        var children: [Element] = []
        var depth = 0
        var failure: ScoreError?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            let element = Element(name: elementName, attributes: attributes, line: parser.lineNumber)
            if depth == 1 {
                root = element
            } else if depth == 2 {
                if children.count >= OpenSetlist.maxItems {
                    failure = ScoreError(.limitExceeded, "the setlist has more than \(OpenSetlist.maxItems) entries")
                    parser.abortParsing()
                    return
                }
                children.append(element)
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
            failure = ScoreError(.malformed, "the setlist declares an entity (\(name)); refused")
            parser.abortParsing()
        }
    }
}
