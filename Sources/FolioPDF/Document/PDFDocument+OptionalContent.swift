/// A layer of a document: an optional content group (`/OCG`) that viewers list and let the
/// reader show or hide; annotations and content marked with it follow its state.
///
/// ```swift
/// for layer in document.optionalContentGroups { print(layer.name, layer.isVisible) }
/// ```
public struct PDFOptionalContentGroup: Sendable, Equatable {
    public var name: String
    public var reference: PDFReference
    /// Its state in the default configuration (`/D`): shown unless listed in `/OFF` (or the
    /// base state is OFF and it is not in `/ON`).
    public var isVisible: Bool
}

extension PDFDocument {
    /// The most layers read or made in one document.
    public static let maxOptionalContentGroups = 1000

    /// The document's layers in `/OCProperties /OCGs` order, with their default visibility.
    public var optionalContentGroups: [PDFOptionalContentGroup] {
        guard let properties = dictionary(catalog?["OCProperties"]) else { return [] }
        let defaults = dictionary(properties["D"])
        let off = Set((resolve(defaults?["OFF"]).arrayValue ?? []).compactMap(\.referenceValue))
        let on = Set((resolve(defaults?["ON"]).arrayValue ?? []).compactMap(\.referenceValue))
        let baseOff = defaults?["BaseState"]?.nameValue == "OFF"
        return (resolve(properties["OCGs"]).arrayValue ?? []).prefix(Self.maxOptionalContentGroups).compactMap { entry in
            guard let reference = entry.referenceValue, let group = dictionary(entry) else { return nil }
            let name = group["Name"]?.stringValue?.text ?? ""
            return PDFOptionalContentGroup(name: name, reference: reference,
                                           isVisible: baseOff ? on.contains(reference) : !off.contains(reference))
        }
    }

    /// The layer named `name`: the existing group of that name, else a new one listed in
    /// `/OCGs` and in the default configuration's `/Order` (so viewers show it in their layer
    /// panel) and, when `visible` is false, in `/OFF`. Throws past
    /// ``maxOptionalContentGroups`` layers.
    ///
    /// ```swift
    /// var draft = PDFAnnotationDraft(kind: .stamp)
    /// draft.optionalContent = try document.optionalContentGroup(named: "Fingerings")
    /// ```
    public func optionalContentGroup(named name: String, visible: Bool = true) throws -> PDFReference {
        if let existing = optionalContentGroups.first(where: { $0.name == name }) { return existing.reference }
        guard var root = catalog else { throw PDFError(.damaged, "the document has no catalog to list its layers in") }
        let propertiesObject = root["OCProperties"]
        var properties = dictionary(propertiesObject) ?? [:]
        var groups = resolve(properties["OCGs"]).arrayValue ?? []
        guard groups.count < Self.maxOptionalContentGroups else {
            throw PDFError(.limitExceeded, "the document has \(groups.count) layers (valid: up to \(Self.maxOptionalContentGroups))")
        }
        let group = add(.dictionary(["Type": .name("OCG"), "Name": .string(PDFString(PDFTextString.encode(name)))]))
        groups.append(.reference(group))
        var defaults = dictionary(properties["D"]) ?? [:]
        defaults["Order"] = .array((resolve(defaults["Order"]).arrayValue ?? []) + [.reference(group)])
        if !visible { defaults["OFF"] = .array((resolve(defaults["OFF"]).arrayValue ?? []) + [.reference(group)]) }
        if defaults["BaseState"]?.nameValue == "OFF", visible {
            defaults["ON"] = .array((resolve(defaults["ON"]).arrayValue ?? []) + [.reference(group)])
        }
        properties["OCGs"] = .array(groups)
        properties["D"] = .dictionary(defaults)
        if case .reference(let shared)? = propertiesObject {
            replace(shared, with: .dictionary(properties))
        } else {
            root["OCProperties"] = .dictionary(properties)
            setCatalog(root)
        }
        return group
    }
}
