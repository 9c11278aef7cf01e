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
    /// Entries of its dictionary beyond the standard ones (`/Type`, `/Name`, `/Intent`,
    /// `/Usage`) that hold text: an application's own marks on the layer.
    public var entries: [String: String] = [:]
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
            var entries: [String: String] = [:]
            for (key, value) in group.entries where !Self.standardGroupKeys.contains(key) {
                if let text = resolve(value).stringValue?.text { entries[key] = text }
            }
            return PDFOptionalContentGroup(name: name, reference: reference,
                                           isVisible: baseOff ? on.contains(reference) : !off.contains(reference), entries: entries)
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
        return try addOptionalContentGroup(["Type": .name("OCG"), "Name": .string(PDFString(PDFTextString.encode(name)))], visible: visible)
    }

    /// The layer whose dictionary holds every one of `entries` (an application's own keys, as
    /// text): the existing group, else a new one named `name` — or `name (2)`, `name (3)`…
    /// when another group has that name, so that a viewer's layer panel (and pdf.js, which knows
    /// layers by name) never shows two groups as one.
    ///
    /// ```swift
    /// var draft = PDFAnnotationDraft(kind: .freeText)
    /// draft.optionalContent = try document.optionalContentGroup(marked: ["FolioMember": "7f3a…"], named: "Anna — Violin II")
    /// ```
    public func optionalContentGroup(marked entries: [String: String], named name: String, visible: Bool = true) throws -> PDFReference {
        // Nothing to find it by: the layer of that name, as `optionalContentGroup(named:)` finds it.
        guard !entries.isEmpty else { return try optionalContentGroup(named: name, visible: visible) }
        let groups = optionalContentGroups
        if let existing = groups.first(where: { group in entries.allSatisfy { group.entries[$0.key] == $0.value } }) {
            return existing.reference
        }
        let taken = Set(groups.map(\.name))
        var unique = name, number = 1
        while taken.contains(unique), number < Self.maxOptionalContentGroups {
            number += 1
            unique = "\(name) (\(number))"
        }
        var group: PDFDictionary = ["Type": .name("OCG"), "Name": .string(PDFString(PDFTextString.encode(unique)))]
        for (key, value) in entries where !Self.standardGroupKeys.contains(key) {
            group[key] = .string(PDFString(PDFTextString.encode(value)))
        }
        return try addOptionalContentGroup(group, visible: visible)
    }

    /// The keys ISO 32000 gives an optional content group's dictionary.
    static let standardGroupKeys: Set<String> = ["Type", "Name", "Intent", "Usage"]

    /// Adds `made` as a new layer, listed in `/OCGs` and the default configuration.
    private func addOptionalContentGroup(_ made: PDFDictionary, visible: Bool) throws -> PDFReference {
        guard var root = catalog else { throw PDFError(.damaged, "the document has no catalog to list its layers in") }
        let propertiesObject = root["OCProperties"]
        var properties = dictionary(propertiesObject) ?? [:]
        var groups = resolve(properties["OCGs"]).arrayValue ?? []
        guard groups.count < Self.maxOptionalContentGroups else {
            throw PDFError(.limitExceeded, "the document has \(groups.count) layers (valid: up to \(Self.maxOptionalContentGroups))")
        }
        let group = add(.dictionary(made))
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
