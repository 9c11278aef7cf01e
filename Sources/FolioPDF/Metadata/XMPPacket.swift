import Foundation

/// An XMP metadata packet: its properties read (simple values, language alternatives
/// with x-default first, and rdf:Seq/rdf:Bag arrays of every top-level rdf:Description, in
/// both the element and the attribute form), and editable without losing what the editor
/// does not own.
///
/// External entities are never loaded and DTDs are refused, so a hostile packet cannot
/// read files or expand without bound.
///
/// ```swift
/// var xmp = try XMPPacket(bytes: doc.xmpPacket ?? [])
/// xmp.text(XMPPacket.dc, "title")       // "Clair de Lune"
/// xmp.array(XMPPacket.dc, "creator")    // ["Claude Debussy"]
/// try xmp.update([XMPPacket.Edit(.init(namespace: XMPPacket.dc, local: "title"), prefix: "dc",
///                                .languageAlternative("Rêverie"))])
/// let bytes = xmp.serialized()
/// ```
public struct XMPPacket: Sendable {
    /// A property name: namespace URI and local name.
    ///
    /// ```swift
    /// let title = XMPPacket.Name(namespace: XMPPacket.dc, local: "title")
    /// ```
    public struct Name: Hashable, Sendable {
        public let namespace: String
        public let local: String

        public init(namespace: String, local: String) {
            self.namespace = namespace
            self.local = local
        }
    }

    /// A property value in one of the forms XMP writes.
    ///
    /// ```swift
    /// let creators = XMPPacket.Value.ordered(["Antonín Dvořák", "Леош Яначек"])
    /// ```
    public enum Value: Sendable, Equatable {
        /// A simple text value (`<pdf:Keywords>…</pdf:Keywords>`).
        case text(String)
        /// A language alternative with one x-default item (`rdf:Alt`), as dc:title.
        case languageAlternative(String)
        /// An ordered array (`rdf:Seq`), as dc:creator.
        case ordered([String])
        /// An unordered array (`rdf:Bag`), as dc:subject.
        case unordered([String])
        /// An ordered array of structures (`rdf:Seq` of `rdf:li rdf:parseType="Resource"`),
        /// each a list of (local name, text) fields in the property's own namespace, as
        /// Apple Preview's bookmarks.
        case structures([[(String, String)]])

        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.text(let a), .text(let b)), (.languageAlternative(let a), .languageAlternative(let b)): a == b
            case (.ordered(let a), .ordered(let b)), (.unordered(let a), .unordered(let b)): a == b
            case (.structures(let a), .structures(let b)):
                a.count == b.count && zip(a, b).allSatisfy { $0.map(\.0) == $1.map(\.0) && $0.map(\.1) == $1.map(\.1) }
            default: false
            }
        }
    }

    /// One change: `value` nil removes the property.
    ///
    /// ```swift
    /// let edit = XMPPacket.Edit(.init(namespace: XMPPacket.dc, local: "subject"), prefix: "dc",
    ///                           .unordered(["Lied", "Романс"]))
    /// try xmp.update([edit])
    /// ```
    public struct Edit: Sendable {
        public var name: Name
        /// The prefix to declare when the property is written.
        public var prefix: String
        public var value: Value?

        public init(_ name: Name, prefix: String, _ value: Value?) {
            self.name = name
            self.prefix = prefix
            self.value = value
        }
    }

    /// Each property's values in document order (one for a simple value).
    public private(set) var properties: [Name: [String]] = [:]

    private var tree: XMLTree

    public static let dc = "http://purl.org/dc/elements/1.1/"
    public static let pdf = "http://ns.adobe.com/pdf/1.3/"
    public static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xml = "http://www.w3.org/XML/1998/namespace"

    /// Largest packet parsed (XMP in PDFs is kilobytes; this bounds a hostile one).
    public static let maxBytes = 16 << 20

    public init(bytes: [UInt8]) throws {
        guard bytes.count <= XMPPacket.maxBytes else {
            throw PDFError(.limitExceeded, "XMP packet of \(bytes.count) bytes exceeds \(XMPPacket.maxBytes)")
        }
        // A DOCTYPE is never needed in XMP and is how entity attacks start: XMLTree refuses
        // one after transcoding (XMLInput.parserInput), in whatever encoding it came.
        do {
            tree = try XMLTree(bytes: bytes)
        } catch let error as PDFError {
            throw PDFError(.syntax, "XMP packet: \(error.message)")
        }
        properties = XMPPacket.readProperties(tree)
    }

    /// A new, empty packet with the `<?xpacket?>` wrapper, naming `toolkit` as its writer.
    public init(emptyWrittenBy toolkit: String) {
        let rdf = XMLTree.XMLElement(qualifiedName: "rdf:RDF", namespace: XMPPacket.rdf, local: "RDF", attributes: [],
                                     declarations: [("rdf", XMPPacket.rdf)], children: [.text("\n")])
        let meta = XMLTree.XMLElement(qualifiedName: "x:xmpmeta", namespace: "adobe:ns:meta/", local: "xmpmeta",
                                      attributes: [("x:xmptk", toolkit)], declarations: [("x", "adobe:ns:meta/")],
                                      children: [.text("\n"), .element(rdf), .text("\n")])
        tree = XMLTree(nodes: [
            .instruction(target: "xpacket", data: "begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\""),
            .element(meta),
            .instruction(target: "xpacket", data: "end=\"w\""),
        ])
    }

    /// The first value of a property (x-default for a language alternative).
    public func text(_ namespace: String, _ local: String) -> String? {
        properties[Name(namespace: namespace, local: local)]?.first
    }

    /// All values of an array property (or the single value of a simple one).
    public func array(_ namespace: String, _ local: String) -> [String] {
        properties[Name(namespace: namespace, local: local)] ?? []
    }

    /// The items of an array of structures, each as its fields by name: fields written as
    /// child elements of the `rdf:li` (`rdf:parseType="Resource"`), as a nested
    /// `rdf:Description` (attributes or elements), or as attributes of the `rdf:li` itself.
    ///
    /// ```swift
    /// xmp.structures("http://ns.apple.com/Preview/1.0/", "Bookmarks")
    /// // [[Name(…, "PageIndex"): "0", Name(…, "UUID"): "…"]]
    /// ```
    public func structures(_ namespace: String, _ local: String) -> [[Name: String]] {
        var result: [[Name: String]] = []
        XMPPacket.forEachDescription(in: tree.nodes, scope: ["xml": XMPPacket.xml]) { description, scope in
            for case .element(let property) in description.children
            where property.namespace == namespace && property.local == local && result.isEmpty {
                let propertyScope = XMPPacket.scope(scope, adding: property)
                for case .element(let container) in property.children where container.namespace == XMPPacket.rdf {
                    let containerScope = XMPPacket.scope(propertyScope, adding: container)
                    for case .element(let item) in container.children
                    where item.namespace == XMPPacket.rdf && item.local == "li" {
                        result.append(XMPPacket.fields(of: item, scope: XMPPacket.scope(containerScope, adding: item)))
                    }
                }
            }
        }
        return result
    }

    /// The fields of one structure: attributes and child elements, looking into a nested
    /// rdf:Description.
    private static func fields(of element: XMLTree.XMLElement, scope: [String: String]) -> [Name: String] {
        var fields: [Name: String] = [:]
        for (qualified, value) in element.attributes {
            guard let name = resolve(qualified, scope), name.namespace != rdf, name.namespace != xml else { continue }
            fields[name] = value
        }
        for case .element(let child) in element.children {
            if child.namespace == rdf && child.local == "Description" {
                fields.merge(self.fields(of: child, scope: self.scope(scope, adding: child))) { old, _ in old }
            } else {
                fields[Name(namespace: child.namespace, local: child.local)] =
                    textContent(child).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return fields
    }

    /// The packet as UTF-8 XML.
    public func serialized() -> [UInt8] {
        tree.serialized()
    }

    // MARK: Reading

    private static func readProperties(_ tree: XMLTree) -> [Name: [String]] {
        var result: [Name: [String]] = [:]
        forEachDescription(in: tree.nodes, scope: ["xml": xml]) { description, scope in
            for (qualified, value) in description.attributes {
                guard let name = resolve(qualified, scope), name.namespace != rdf, name.namespace != xml else { continue }
                result[name] = [value]
            }
            for case .element(let property) in description.children {
                result[Name(namespace: property.namespace, local: property.local)] = values(of: property)
            }
        }
        return result
    }

    /// The items of an rdf:Alt/Seq/Bag (x-default first), or the trimmed text of a simple value.
    private static func values(of property: XMLTree.XMLElement) -> [String] {
        for case .element(let container) in property.children
        where container.namespace == rdf && ["Alt", "Seq", "Bag"].contains(container.local) {
            var items: [String] = []
            for case .element(let item) in container.children where item.namespace == rdf && item.local == "li" {
                let text = textContent(item)
                if item.attribute("xml:lang") == "x-default" { items.insert(text, at: 0) } else { items.append(text) }
            }
            return items
        }
        return [textContent(property).trimmingCharacters(in: .whitespacesAndNewlines)]
    }

    private static func textContent(_ element: XMLTree.XMLElement) -> String {
        var text = ""
        for child in element.children {
            switch child {
            case .text(let value), .cdata(let value): text += value
            case .element(let inner): text += textContent(inner)
            default: break
            }
        }
        return text
    }

    private static func resolve(_ qualified: String, _ scope: [String: String]) -> Name? {
        let parts = qualified.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let namespace = scope[parts[0]] else { return nil }
        return Name(namespace: namespace, local: parts[1])
    }

    private static func scope(_ outer: [String: String], adding element: XMLTree.XMLElement) -> [String: String] {
        var scope = outer
        for (prefix, uri) in element.declarations { scope[prefix] = uri }
        return scope
    }

    /// Calls `body` for each rdf:Description directly inside an rdf:RDF.
    private static func forEachDescription(in nodes: [XMLTree.Node], scope: [String: String],
                                           _ body: (XMLTree.XMLElement, [String: String]) -> Void) {
        for case .element(let element) in nodes {
            let inner = self.scope(scope, adding: element)
            if element.namespace == rdf && element.local == "RDF" {
                for case .element(let description) in element.children
                where description.namespace == rdf && description.local == "Description" {
                    body(description, self.scope(inner, adding: description))
                }
            } else {
                forEachDescription(in: element.children, scope: inner, body)
            }
        }
    }

    // MARK: Editing

    /// Applies `edits`. A property already in the packet is replaced where it is (an
    /// attribute becomes an element of the same description) and any duplicate goes; a
    /// removed one goes wherever it is; new properties are written together in one
    /// rdf:Description at the end of rdf:RDF. Descriptions left empty go. Everything
    /// else stays as it was.
    public mutating func update(_ edits: [Edit]) throws {
        var pending: [Name: Edit] = [:]
        for edit in edits { pending[edit.name] = edit }
        var placed: Set<Name> = []
        var found = false
        var about = ""
        tree.nodes = XMPPacket.rewrite(tree.nodes, scope: ["xml": XMPPacket.xml]) { rdfElement, scope in
            found = true
            let rdfPrefix = rdfElement.prefix.isEmpty ? nil : rdfElement.prefix
            var children: [XMLTree.Node] = []
            for child in rdfElement.children {
                guard case .element(var description) = child, description.namespace == XMPPacket.rdf,
                    description.local == "Description"
                else {
                    children.append(child)
                    continue
                }
                let inner = XMPPacket.scope(scope, adding: description)
                let rdfAbout = Name(namespace: XMPPacket.rdf, local: "about")
                if about.isEmpty, let value = description.attributes.first(where: {
                    XMPPacket.resolve($0.name, inner) == rdfAbout
                })?.value {
                    about = value
                }
                var added: [XMLTree.Node] = []
                description.attributes.removeAll { attribute in
                    guard let name = XMPPacket.resolve(attribute.name, inner), let edit = pending[name] else { return false }
                    if let value = edit.value, !placed.contains(name) {
                        placed.insert(name)
                        let prefix = String(attribute.name.prefix { $0 != ":" })
                        added += [.text("\n  "), XMPPacket.property(prefix, name, value, rdfPrefix: rdfPrefix)]
                    }
                    return true
                }
                var kept: [XMLTree.Node] = []
                for node in description.children {
                    guard case .element(let property) = node,
                        let edit = pending[Name(namespace: property.namespace, local: property.local)]
                    else {
                        kept.append(node)
                        continue
                    }
                    let name = Name(namespace: property.namespace, local: property.local)
                    if let value = edit.value, !placed.contains(name) {
                        placed.insert(name)
                        var replacement = XMPPacket.property(property.prefix, name, value, rdfPrefix: rdfPrefix)
                        // A property may declare its own namespace (pikepdf writes <dc:title xmlns:dc=…>):
                        // the declaration goes with it, or the prefix would be unbound.
                        if case .element(var element) = replacement, !property.declarations.isEmpty {
                            element.declarations = property.declarations
                            replacement = .element(element)
                        }
                        kept.append(replacement)
                    } else if case .text(let text)? = kept.last, text.allSatisfy(\.isWhitespace) {
                        // The line break before a removed property goes with it.
                        kept.removeLast()
                    }
                }
                if !added.isEmpty {
                    if case .text(let text)? = kept.last, text.allSatisfy(\.isWhitespace) { kept.removeLast() }
                    kept += added + [.text("\n ")]
                }
                description.children = kept
                let hasProperties = description.children.contains { if case .element = $0 { true } else { false } }
                    || description.attributes.contains {
                        XMPPacket.resolve($0.name, inner).map { $0.namespace != XMPPacket.rdf } ?? true
                    }
                if hasProperties {
                    children.append(.element(description))
                } else if case .text(let text)? = children.last, text.allSatisfy(\.isWhitespace) {
                    children.removeLast()
                }
            }
            let additions = edits.filter { $0.value != nil && !placed.contains($0.name) }
            if !additions.isEmpty {
                if case .text(let text)? = children.last, text.hasSuffix("\n") {} else { children.append(.text("\n")) }
                children.append(.element(XMPPacket.description(additions, about: about, rdfPrefix: rdfPrefix)))
                children.append(.text("\n"))
            }
            var result = rdfElement
            result.children = children
            return result
        }
        guard found else { throw PDFError(.syntax, "XMP packet has no rdf:RDF element") }
        properties = XMPPacket.readProperties(tree)
    }

    /// Rebuilds `nodes`, handing the (first) rdf:RDF element to `transform`.
    private static func rewrite(_ nodes: [XMLTree.Node], scope: [String: String],
                                _ transform: (XMLTree.XMLElement, [String: String]) -> XMLTree.XMLElement)
        -> [XMLTree.Node]
    {
        var done = false
        return nodes.map { node in
            guard !done, case .element(var element) = node else { return node }
            let inner = self.scope(scope, adding: element)
            if element.namespace == rdf && element.local == "RDF" {
                done = true
                return .element(transform(element, inner))
            }
            element.children = rewrite(element.children, scope: inner, transform)
            return .element(element)
        }
    }

    /// A new rdf:Description holding `additions`; `rdfPrefix` nil means rdf is the default
    /// namespace there, so the description declares its own prefix.
    private static func description(_ additions: [Edit], about: String, rdfPrefix: String?) -> XMLTree.XMLElement {
        var declarations: [(prefix: String, uri: String)] = rdfPrefix == nil ? [("rdf", XMPPacket.rdf)] : []
        for edit in additions where !declarations.contains(where: { $0.prefix == edit.prefix }) {
            declarations.append((edit.prefix, edit.name.namespace))
        }
        var children: [XMLTree.Node] = []
        for edit in additions {
            guard let value = edit.value else { continue }
            children.append(.text("\n  "))
            children.append(property(edit.prefix, edit.name, value, rdfPrefix: rdfPrefix))
        }
        children.append(.text("\n "))
        let rdf = (rdfPrefix ?? "rdf") + ":"
        return XMLTree.XMLElement(qualifiedName: rdf + "Description", namespace: XMPPacket.rdf, local: "Description",
                                  attributes: [(rdf + "about", about)], declarations: declarations, children: children)
    }

    /// One property element in the form `value` asks for.
    private static func property(_ prefix: String, _ name: Name, _ value: Value, rdfPrefix: String?) -> XMLTree.Node {
        let rdf = (rdfPrefix ?? "rdf") + ":"
        func element(_ qualified: String, _ namespace: String, _ local: String,
                     attributes: [(name: String, value: String)] = [], _ children: [XMLTree.Node]) -> XMLTree.Node {
            .element(XMLTree.XMLElement(qualifiedName: qualified, namespace: namespace, local: local,
                                        attributes: attributes, declarations: [], children: children))
        }
        func container(_ kind: String, _ items: [String], language: Bool) -> XMLTree.Node {
            var children: [XMLTree.Node] = []
            for item in items {
                children.append(.text("\n    "))
                children.append(element(rdf + "li", XMPPacket.rdf, "li",
                                        attributes: language ? [("xml:lang", "x-default")] : [], [.text(item)]))
            }
            children.append(.text("\n   "))
            return element(rdf + kind, XMPPacket.rdf, kind, children)
        }
        let content: XMLTree.Node = switch value {
        case .text(let text): .text(text)
        case .languageAlternative(let text): container("Alt", [text], language: true)
        case .ordered(let items): container("Seq", items, language: false)
        case .unordered(let items): container("Bag", items, language: false)
        case .structures(let items):
            {
                var children: [XMLTree.Node] = []
                for fields in items {
                    var inner: [XMLTree.Node] = []
                    for (local, text) in fields {
                        inner.append(.text("\n     "))
                        inner.append(element(prefix.isEmpty ? local : prefix + ":" + local, name.namespace, local, [.text(text)]))
                    }
                    inner.append(.text("\n    "))
                    children.append(.text("\n    "))
                    children.append(element(rdf + "li", XMPPacket.rdf, "li", attributes: [(rdf + "parseType", "Resource")], inner))
                }
                children.append(.text("\n   "))
                return element(rdf + "Seq", XMPPacket.rdf, "Seq", children)
            }()
        }
        return element(prefix.isEmpty ? name.local : prefix + ":" + name.local, name.namespace, name.local, [content])
    }
}
