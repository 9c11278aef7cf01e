import FolioScore
import Foundation

/// The text and JSON forms of `folio annot list`.
enum AnnotFormat {
    /// The JSON line of a file whose annotations are read page by page: each page's
    /// annotations are written out and forgotten before the next page is read. With more
    /// than one reader (the whole file, not one --page), pages are read and written out on
    /// that many threads (see `AnnotationListing.forEachPage(of:readers:)`).
    static func json(path: String, _ score: ScoreFile, page: Int?, readers: Int) throws -> String {
        var head: [UInt8] = []
        head.append(contentsOf: "{\"path\":".utf8)
        JSONText.quote(path, to: &head)
        head.append(contentsOf: ",\"annotations\":[".utf8)
        // Each page's objects as written, joined once at the end.
        var chunks = [head]
        func add(_ items: [UInt8]) {
            guard !items.isEmpty else { return }
            if chunks.count > 1 { chunks.append([UInt8(ascii: ",")]) }
            chunks.append(items)
        }
        if let page {
            try AnnotationListing.forEachPage(try score.open(), page: page) { _, shown in add(objects(shown)) }
        } else {
            try AnnotationListing.forEachPage(of: score, readers: readers) { _, shown in objects(shown) } _: { _, items in add(items) }
        }
        chunks.append(Array("]}\n".utf8))
        return String(unsafeUninitializedCapacity: chunks.reduce(0) { $0 + $1.count }) { buffer in
            var offset = 0
            for chunk in chunks {
                _ = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(from: chunk)
                offset += chunk.count
            }
            return offset
        }
    }

    /// A page's annotations as JSON objects separated by commas.
    static func objects(_ shown: [AnnotationListing.Shown]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, item) in shown.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            object(item).write(to: &out)
        }
        return out
    }

    static func object(_ shown: AnnotationListing.Shown) -> JSONValue {
        let item = shown.details
        return .object([
            ("id", .string(item.id)), ("object", .optional(item.object)), ("page", .int(item.page)), ("subtype", .string(item.subtype)),
            ("rect", .numbers(item.rect)), ("display", .numbers(item.display)),
            ("contents", .optional(item.contents)), ("author", .optional(item.author)), ("name", .optional(item.name)),
            ("modified", .optional(item.modified)), ("color", .optional(item.color)),
            ("fill", .optional(item.fill)), ("opacity", .number(item.opacity)),
            ("width", item.width.map(JSONValue.number) ?? .null), ("flags", .strings(item.flags)),
            ("quadPoints", .numbers(item.quadPoints)), ("inkList", .array(item.inkList.map(JSONValue.numbers))),
            ("line", .numbers(item.line)), ("lineEndings", .strings(item.lineEndings)), ("vertices", .numbers(item.vertices)),
            ("icon", .optional(item.icon)), ("font", .optional(item.font)),
            ("fontSize", item.fontSize.map(JSONValue.number) ?? .null),
            ("textColor", .optional(item.textColor)), ("alignment", .optional(item.alignment)),
            ("popup", .optional(item.popup)), ("inReplyTo", .optional(item.inReplyTo)),
            ("hasAppearance", .bool(item.hasAppearance)),
        ])
    }

    static func text(path: String, _ listed: [AnnotationListing.Shown], separator: Bool) -> String {
        var out = (separator ? "\n" : "") + "File: \(path)\n"
        if listed.isEmpty { out += "  (no annotations)\n" }
        for shown in listed {
            let item = shown.details
            let box = item.display.map(JSONValue.format).joined(separator: ",")
            var line = "  p\(item.page)  \(item.id)  \(item.subtype)  [\(box)]"
            if let color = item.color { line += "  \(color)" }
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
