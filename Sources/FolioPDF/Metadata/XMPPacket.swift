import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

// XMLParser's delegate is a class; the collector is created and used on one thread.

/// An XMP metadata packet, read into properties: the simple values, language
/// alternatives (rdf:Alt, x-default first) and arrays (rdf:Seq, rdf:Bag) of every
/// rdf:Description, in both the element and the attribute form.
///
/// External entities are never loaded and DTDs are refused, so a hostile packet cannot
/// read files or expand without bound.
///
/// ```swift
/// let xmp = try XMPPacket(bytes: doc.xmpPacket ?? [])
/// xmp.text("http://purl.org/dc/elements/1.1/", "title")     // "Clair de Lune"
/// xmp.array("http://purl.org/dc/elements/1.1/", "creator")  // ["Claude Debussy"]
/// ```
public struct XMPPacket: Sendable {
    public struct Name: Hashable, Sendable {
        public let namespace: String
        public let local: String
    }

    /// Each property's values in document order (one for a simple value).
    public private(set) var properties: [Name: [String]] = [:]

    public static let dc = "http://purl.org/dc/elements/1.1/"
    public static let pdf = "http://ns.adobe.com/pdf/1.3/"
    public static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// Largest packet parsed (XMP in PDFs is kilobytes; this bounds a hostile one).
    public static let maxBytes = 16 << 20

    public init(bytes: [UInt8]) throws {
        guard bytes.count <= XMPPacket.maxBytes else {
            throw PDFError(.limitExceeded, "XMP packet of \(bytes.count) bytes exceeds \(XMPPacket.maxBytes)")
        }
        // A DOCTYPE is never needed in XMP and is how entity attacks start.
        if Lexer(bytes: ByteSource(data: bytes).bytes).find(Array("<!DOCTYPE".utf8), from: 0) != nil
            || Lexer(bytes: ByteSource(data: bytes).bytes).find(Array("<!ENTITY".utf8), from: 0) != nil
        {
            throw PDFError(.syntax, "XMP packet declares a DTD or entities; refused")
        }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse(), parser.parserError == nil, collector.isBalanced else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown error"
            throw PDFError(.syntax, "XMP packet is not well-formed XML (line \(parser.lineNumber)): \(reason)")
        }
        properties = collector.properties
    }

    /// The first value of a property (x-default for a language alternative).
    public func text(_ namespace: String, _ local: String) -> String? {
        properties[Name(namespace: namespace, local: local)]?.first
    }

    /// All values of an array property (or the single value of a simple one).
    public func array(_ namespace: String, _ local: String) -> [String] {
        properties[Name(namespace: namespace, local: local)] ?? []
    }

    /// SAX collector: rdf:Description attributes and child properties, with their
    /// rdf:Alt/Seq/Bag items. XMLParser rather than XMLDocument: it streams, and
    /// XMLDocument's node API crashed on some real packets on Linux.
    private final class Collector: NSObject, XMLParserDelegate {
        var properties: [Name: [String]] = [:]
        private var prefixes: [String: [String]] = [:]
        private var depth = 0
        private var descriptionDepth: Int?
        private var property: Name?
        private var items: [String] = []
        private var text = ""
        private var inItem = false
        private var isDefaultItem = false
        private var sawContainer = false

        /// Every element closed again: a truncated packet is an error, not a silent half.
        var isBalanced: Bool { depth == 0 && sawRoot }
        private var sawRoot = false

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            prefixes[prefix, default: []].append(namespaceURI)
        }

        func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
            _ = prefixes[prefix]?.popLast()
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            sawRoot = true
            let uri = namespaceURI ?? ""
            if descriptionDepth == nil, uri == XMPPacket.rdf, elementName == "Description" {
                descriptionDepth = depth
                for (qualified, value) in attributes {
                    let parts = qualified.split(separator: ":", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let namespace = prefixes[parts[0]]?.last, namespace != XMPPacket.rdf
                    else { continue }
                    properties[Name(namespace: namespace, local: parts[1])] = [value]
                }
                return
            }
            guard let descriptionDepth else { return }
            if depth == descriptionDepth + 1 {
                property = Name(namespace: uri, local: elementName)
                items = []
                text = ""
                sawContainer = false
            } else if uri == XMPPacket.rdf, ["Alt", "Seq", "Bag"].contains(elementName) {
                sawContainer = true
            } else if uri == XMPPacket.rdf, elementName == "li" {
                inItem = true
                isDefaultItem = attributes["xml:lang"] == "x-default"
                text = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if property != nil { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?) {
            defer { depth -= 1 }
            guard let descriptionDepth else { return }
            if depth == descriptionDepth {
                self.descriptionDepth = nil
            } else if depth == descriptionDepth + 1, let property {
                properties[property] = sawContainer ? items : [text.trimmingCharacters(in: .whitespacesAndNewlines)]
                self.property = nil
            } else if inItem, namespaceURI == XMPPacket.rdf, elementName == "li" {
                // x-default goes first so `text(_:_:)` returns it.
                if isDefaultItem { items.insert(text, at: 0) } else { items.append(text) }
                inItem = false
            }
        }
    }
}
