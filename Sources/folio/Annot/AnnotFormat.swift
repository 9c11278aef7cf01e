import FolioScore
import Foundation

/// The text and JSON forms of `folio annot list`.
enum AnnotFormat {
    /// The JSON line of a file whose annotations are read page by page: each page's
    /// annotations are written out and forgotten before the next page is read.
    static func json(path: String, _ document: ScoreFile.Document, page: Int?) throws -> String {
        var out: [UInt8] = []
        out.append(contentsOf: "{\"path\":".utf8)
        JSONText.quote(path, to: &out)
        out.append(contentsOf: ",\"annotations\":[".utf8)
        var first = true
        try AnnotationListing.forEachPage(document, page: page) { _, shown in
            for item in shown {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                object(item).write(to: &out)
            }
        }
        out.append(contentsOf: "]}\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    static func object(_ shown: AnnotationListing.Shown) -> JSONValue {
        let item = shown.annotation
        let appearance = item.defaultAppearance
        func points(_ values: [PDFPoint]) -> JSONValue { .numbers(values.flatMap { [$0.x, $0.y] }) }
        return .object([
            ("id", .string(item.id)), ("object", .optional(item.reference?.number)), ("page", .int(item.pageIndex + 1)), ("subtype", .string(item.subtype)),
            ("rect", .numbers(item.rect.array)), ("display", .numbers(shown.display)),
            ("contents", .optional(item.contents)), ("author", .optional(item.author)), ("name", .optional(item.name)),
            ("modified", .optional(item.modified)), ("color", .optional(item.color?.hex)),
            ("fill", .optional(item.interiorColor?.hex)), ("opacity", .number(item.opacity)),
            ("width", item.borderWidth.map(JSONValue.number) ?? .null), ("flags", .strings(item.flags.names)),
            ("quadPoints", .numbers(item.quadPoints)), ("inkList", .array(item.inkList.map(points))),
            ("line", points(item.line)), ("lineEndings", .strings(item.lineEndings)), ("vertices", points(item.vertices)),
            ("icon", .optional(item.iconName)), ("font", .optional(appearance?.font)),
            ("fontSize", appearance?.size.map(JSONValue.number) ?? .null),
            ("textColor", .optional(appearance?.color?.hex)), ("alignment", .optional(item.alignment)),
            ("popup", item.popup.map { .string("obj-\($0.number)") } ?? .null),
            ("inReplyTo", item.inReplyTo.map { .string("obj-\($0.number)") } ?? .null),
            ("hasAppearance", .bool(item.hasAppearance)),
        ])
    }

    static func text(path: String, _ listed: [AnnotationListing.Shown], separator: Bool) -> String {
        var out = (separator ? "\n" : "") + "File: \(path)\n"
        if listed.isEmpty { out += "  (no annotations)\n" }
        for shown in listed {
            let item = shown.annotation
            let box = shown.display.map(JSONValue.format).joined(separator: ",")
            var line = "  p\(item.pageIndex + 1)  \(item.id)  \(item.subtype)  [\(box)]"
            if let color = item.color?.hex { line += "  \(color)" }
            if let contents = item.contents, !contents.isEmpty {
                let flat = contents.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
                line += "  \"\(flat.count > 60 ? flat.prefix(57) + "..." : flat)\""
            }
            if let author = item.author, !author.isEmpty { line += "  by \(author)" }
            out += line + "\n"
        }
        return out
    }
}
