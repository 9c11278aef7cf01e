import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small XML tree built from XMLParser's events, so an XMP packet can be edited and
/// written back with every node Folio does not touch kept: elements with their qualified
/// names and namespace declarations, text, comments, CDATA and processing instructions
/// (the `<?xpacket?>` wrapper). XMLDocument is not used: its node API crashed on real
/// packets on Linux.
struct XMLTree: Sendable {
    indirect enum Node: Sendable {
        case element(XMLElement)
        case text(String)
        case comment(String)
        case cdata(String)
        case instruction(target: String, data: String?)
    }

    struct XMLElement: Sendable {
        var qualifiedName: String
        var namespace: String
        var local: String
        /// Attributes by qualified name, in a stable order.
        var attributes: [(name: String, value: String)]
        /// Namespace declarations made on this element (prefix "" is the default namespace).
        var declarations: [(prefix: String, uri: String)]
        var children: [Node] = []

        var prefix: String {
            qualifiedName.firstIndex(of: ":").map { String(qualifiedName[..<$0]) } ?? ""
        }

        func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }
    }

    /// Nodes at the top level: processing instructions, comments and the root element.
    var nodes: [Node]

    /// Parses `bytes`. DTDs and entity declarations are refused before parsing, and
    /// external entities are never resolved.
    init(bytes: [UInt8]) throws {
        let parser = XMLParser(data: Data(try XMLInput.parserInput(bytes)))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), parser.parserError == nil, builder.stack.count == 1, builder.sawRoot else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "unbalanced elements"
            throw PDFError(.syntax, "XML is not well-formed (line \(parser.lineNumber)): \(reason)")
        }
        nodes = builder.stack[0].children
    }

    init(nodes: [Node]) {
        self.nodes = nodes
    }

    /// The tree as UTF-8 XML.
    func serialized() -> [UInt8] {
        var out = ""
        for node in nodes {
            XMLTree.write(node, to: &out)
            if case .element = node { out += "\n" } else if case .instruction = node { out += "\n" }
        }
        return Array(out.utf8)
    }

    private static func write(_ node: Node, to out: inout String) {
        switch node {
        case .text(let text): out += XMLText.escape(text, quote: false)
        case .comment(let text): out += "<!--\(text)-->"
        case .cdata(let text): out += "<![CDATA[\(text)]]>"
        case .instruction(let target, let data): out += "<?\(target)\(data.map { " " + $0 } ?? "")?>"
        case .element(let element):
            out += "<" + element.qualifiedName
            for (prefix, uri) in element.declarations {
                out += (prefix.isEmpty ? " xmlns" : " xmlns:" + prefix) + "=\"" + XMLText.escape(uri, quote: true) + "\""
            }
            for (name, value) in element.attributes {
                out += " " + name + "=\"" + XMLText.escape(value, quote: true) + "\""
            }
            if element.children.isEmpty {
                out += "/>"
                return
            }
            out += ">"
            for child in element.children { write(child, to: &out) }
            out += "</" + element.qualifiedName + ">"
        }
    }

    /// Collects parser events into nodes; one parser, one thread.
    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLElement] = [XMLElement(qualifiedName: "", namespace: "", local: "", attributes: [], declarations: [])]
        var pending: [(prefix: String, uri: String)] = []
        var sawRoot = false

        private func append(_ node: Node) {
            // Adjacent text events (XMLParser splits at entities) merge into one node.
            if case .text(let more) = node, case .text(let text)? = stack[stack.count - 1].children.last {
                stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(text + more)
            } else {
                stack[stack.count - 1].children.append(node)
            }
        }

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            pending.append((prefix, namespaceURI))
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            sawRoot = true
            // XMLParser hands attributes over as a dictionary; rdf:about goes first, as
            // XMP writers put it, the rest sorted so output is deterministic.
            let ordered = attributes.sorted { lhs, rhs in
                if (lhs.key == "rdf:about") != (rhs.key == "rdf:about") { return lhs.key == "rdf:about" }
                return lhs.key < rhs.key
            }.map { (name: $0.key, value: $0.value) }
            stack.append(XMLElement(qualifiedName: qualifiedName ?? elementName, namespace: namespaceURI ?? "",
                                    local: elementName, attributes: ordered,
                                    declarations: pending.sorted { $0.prefix < $1.prefix }))
            pending = []
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?) {
            guard stack.count > 1, let element = stack.popLast() else { return }
            append(.element(element))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if stack.count > 1 { append(.text(string)) }
        }

        func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
            if stack.count > 1 { append(.text(whitespaceString)) }
        }

        func parser(_ parser: XMLParser, foundComment comment: String) {
            append(.comment(comment))
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            append(.cdata(String(decoding: CDATABlock, as: UTF8.self)))
        }

        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            append(.instruction(target: target, data: data))
        }
    }
}
