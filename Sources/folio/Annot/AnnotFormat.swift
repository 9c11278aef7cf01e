import FolioScore
import Foundation

/// The text and JSON forms of `folio annot list`.
enum AnnotFormat {
    /// The JSON line of a file whose annotations are read page by page: each page's
    /// annotations are written out and forgotten before the next page is read. With more
    /// than one reader (the whole file, not one --page), pages are read and written out on
    /// that many threads (see `AnnotationListing.forEachPage(of:readers:)`).
    static func json(path: String, _ score: ScoreFile, page: Int?, readers: Int) throws -> Printed {
        var head: [UInt8] = []
        head.append(contentsOf: "{\"path\":".utf8)
        JSONText.quote(path, to: &head)
        head.append(contentsOf: ",\"annotations\":[".utf8)
        // Each page's objects as written, printed one after another.
        var printed = Printed()
        printed.append(head)
        var first = true
        func add(_ items: [UInt8]) {
            guard !items.isEmpty else { return }
            if !first { printed.append([UInt8(ascii: ",")]) }
            first = false
            printed.append(items)
        }
        if let page {
            try AnnotationListing.forEachPage(try score.open(), page: page) { _, shown in add(objects(shown)) }
        } else {
            try AnnotationListing.forEachPage(of: score, readers: readers) { _, shown in objects(shown) } _: { _, items in add(items) }
        }
        printed.append(Array("]}\n".utf8))
        return printed
    }

    /// A page's annotations as JSON objects separated by commas.
    static func objects(_ shown: [AnnotationListing.Shown]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(shown.count * 512)
        for (index, item) in shown.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(item.details, to: &out)
        }
        return out
    }

    /// One annotation's JSON object, keys in a fixed order, written straight into `out`: a
    /// page of thousands of links (LilyPond's point-and-click) spent more time building a
    /// `JSONValue` tree per annotation than reading the annotations.
    static func write(_ item: AnnotationDetails, to out: inout [UInt8]) {
        var object = JSONFields(opening: &out)
        object.string("id", item.id, to: &out)
        object.int("object", item.object, to: &out)
        object.int("page", item.page, to: &out)
        object.string("subtype", item.subtype, to: &out)
        object.numbers("rect", item.rect, to: &out)
        object.numbers("display", item.display, to: &out)
        object.string("contents", item.contents, to: &out)
        object.string("author", item.author, to: &out)
        object.string("name", item.name, to: &out)
        object.string("modified", item.modified, to: &out)
        object.string("color", item.color, to: &out)
        object.string("fill", item.fill, to: &out)
        object.number("opacity", item.opacity, to: &out)
        object.number("width", item.width, to: &out)
        object.strings("flags", item.flags, to: &out)
        object.numbers("quadPoints", item.quadPoints, to: &out)
        object.key("inkList", to: &out)
        out.append(UInt8(ascii: "["))
        for (index, stroke) in item.inkList.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONFields.list(stroke, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        object.numbers("line", item.line, to: &out)
        object.strings("lineEndings", item.lineEndings, to: &out)
        object.numbers("vertices", item.vertices, to: &out)
        object.string("icon", item.icon, to: &out)
        object.string("font", item.font, to: &out)
        object.number("fontSize", item.fontSize, to: &out)
        object.string("textColor", item.textColor, to: &out)
        object.int("alignment", item.alignment, to: &out)
        object.string("popup", item.popup, to: &out)
        object.string("inReplyTo", item.inReplyTo, to: &out)
        object.bool("hasAppearance", item.hasAppearance, to: &out)
        JSONFields.close(&out)
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
