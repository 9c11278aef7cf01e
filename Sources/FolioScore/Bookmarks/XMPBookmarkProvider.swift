import FolioPDF
import Foundation

/// Bookmarks kept in the PDF's XMP packet, readable by Apple Preview and Nutrient alike
/// (`../shared/seeds/nutrient-bookmarks.txt`):
/// - `apple-preview:Bookmarks` (`http://ns.apple.com/Preview/1.0/`): an rdf:Seq of
///   items with `PageIndex` (0-based) and `UUID`, read in element and attribute forms;
/// - `pspdf:Bookmarks` (`http://pspdfkit.com/pdf/xmp/1.0/`): a JSON string, an array of
///   `{"action":{"actionType":"Goto","pageIndex":N},"name":…,"uuid":…}`; keys Folio does
///   not know are kept when the array is written again;
/// - `folioscore:Bookmarks`: page ranges and per-piece metadata, by UUID.
///
/// Page bookmarks are written to both Preview's and Nutrient's list with the same UUID.
///
/// ```swift
/// var provider = XMPBookmarkProvider(document: doc)
/// _ = provider.add(Bookmark(name: "Coda", action: .page(index: 11)))
/// try provider.write(to: doc)      // then save the document
/// ```
public struct XMPBookmarkProvider: BookmarkProvider {
    public static let previewNamespace = "http://ns.apple.com/Preview/1.0/"
    public static let nutrientNamespace = "http://pspdfkit.com/pdf/xmp/1.0/"

    public private(set) var bookmarks: [Bookmark] = []
    /// Warnings of the reading (a packet or a JSON list that could not be read).
    public private(set) var warnings: [String] = []
    /// Nutrient's entries as read, by UUID, so unknown keys survive a rewrite.
    private var nutrientEntries: [String: Data] = [:]

    public init(document: PDFDocument) {
        self.init(stored: StoredScore(document))
    }

    /// The bookmarks of a packet already read (``ScoreReading`` reads it once for all).
    init(stored: StoredScore) {
        warnings = stored.warnings
        guard let xmp = stored.xmp else { return }
        var byID: [String: Bookmark] = [:]
        var order: [String] = []
        func merge(_ bookmark: Bookmark, _ combine: (inout Bookmark) -> Void) {
            if byID[bookmark.id] == nil {
                byID[bookmark.id] = bookmark
                order.append(bookmark.id)
            } else if var existing = byID[bookmark.id] {
                combine(&existing)
                byID[bookmark.id] = existing
            }
        }
        if let json = xmp.text(XMPBookmarkProvider.nutrientNamespace, "Bookmarks") {
            for (bookmark, raw) in readNutrient(json) {
                nutrientEntries[bookmark.id] = raw
                merge(bookmark) { _ in }
            }
        }
        for fields in xmp.structures(XMPBookmarkProvider.previewNamespace, "Bookmarks") {
            func field(_ local: String) -> String? {
                fields[XMPPacket.Name(namespace: XMPBookmarkProvider.previewNamespace, local: local)]
            }
            guard let id = field("UUID"), let page = field("PageIndex").flatMap({ Int($0) }), page >= 0 else {
                warnings.append("an Apple Preview bookmark without UUID or PageIndex was skipped")
                continue
            }
            merge(Bookmark(id: id, action: .page(index: page))) { _ in }
        }
        for fields in xmp.structures(StoredScore.namespace, "Bookmarks") {
            func field(_ local: String) -> String? { fields[XMPPacket.Name(namespace: StoredScore.namespace, local: local)] }
            guard let id = field("UUID") else { continue }
            let first = field("FirstPage").flatMap { Int($0) }
            let last = field("LastPage").flatMap { Int($0) }
            let pages = first.flatMap { first in last.flatMap { $0 >= first && first >= 1 ? first...$0 : nil } }
            var metadata = ScoreMetadata()
            metadata.composers = ForScoreInfo.split(field("Composers"))
            metadata.genres = ForScoreInfo.split(field("Genres"))
            metadata.tags = ForScoreInfo.split(field("Tags"))
            metadata.labels = ForScoreInfo.split(field("Labels"))
            metadata.reference = field("Reference")
            metadata.rating = field("Rating").flatMap { Int($0) }.flatMap { ScoreMetadata.ratingRange.contains($0) ? $0 : nil }
            metadata.difficulty = field("Difficulty").flatMap { Int($0) }
                .flatMap { ScoreMetadata.difficultyRange.contains($0) ? $0 : nil }
            metadata.duration = field("Duration").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
            if let keysf = field("Keysf").flatMap({ Int($0) }) {
                metadata.key = try? MusicalKey(keysf: keysf, keymi: field("Keymi").flatMap { Int($0) } ?? 0)
            }
            let name = field("Name")
            merge(Bookmark(id: id, name: name, action: .page(index: (first ?? 1) - 1), pages: pages, metadata: metadata)) {
                $0.pages = pages
                $0.metadata = metadata
                if $0.name == nil { $0.name = name }
            }
        }
        bookmarks = order.compactMap { byID[$0] }
    }

    public mutating func add(_ bookmark: Bookmark) -> Bool {
        bookmarks.replaceOrAppend(bookmark)
        return true
    }

    public mutating func remove(id: String) -> Bool {
        nutrientEntries[id] = nil
        return bookmarks.remove(id: id)
    }

    /// Writes the bookmarks into `document`'s XMP packet (unsaved), keeping every other
    /// property. Returns warnings.
    @discardableResult
    public func write(to document: PDFDocument, date: Date = Date()) throws -> [String] {
        // In the custom order, so readers that keep the list's order (Preview) show it too.
        let bookmarks = BookmarkOrder.custom.sorted(bookmarks)
        var preview: [[(String, String)]] = []
        for bookmark in bookmarks {
            if let index = bookmark.pageIndex { preview.append([("PageIndex", String(index)), ("UUID", bookmark.id)]) }
        }
        let folio = bookmarks.compactMap(XMPBookmarkProvider.folioFields)
        let edits = [
            XMPPacket.Edit(XMPPacket.Name(namespace: XMPBookmarkProvider.previewNamespace, local: "Bookmarks"),
                           prefix: "apple-preview", preview.isEmpty ? nil : .structures(preview)),
            XMPPacket.Edit(XMPPacket.Name(namespace: XMPBookmarkProvider.nutrientNamespace, local: "Bookmarks"),
                           prefix: "pspdf", bookmarks.isEmpty ? nil : .text(try nutrientJSON(bookmarks))),
            XMPPacket.Edit(XMPPacket.Name(namespace: StoredScore.namespace, local: "Bookmarks"),
                           prefix: StoredScore.prefix, folio.isEmpty ? nil : .structures(folio)),
            XMPPacket.Edit(XMPPacket.Name(namespace: XMPPacket.xmp, local: "MetadataDate"), prefix: "xmp",
                           .text(PDFDate(date).iso8601)),
        ]
        return try MetadataPacket.update(document) { _ in edits }
    }

    /// A bookmark's page range and piece metadata for `folioscore:Bookmarks`; nil when it
    /// has neither.
    private static func folioFields(_ bookmark: Bookmark) -> [(String, String)]? {
        var fields: [(String, String)] = [("UUID", bookmark.id)]
        if let pages = bookmark.pages {
            fields.append(("FirstPage", String(pages.lowerBound)))
            fields.append(("LastPage", String(pages.upperBound)))
        }
        let metadata = bookmark.metadata
        func list(_ key: String, _ values: [String]) {
            if !values.isEmpty { fields.append((key, values.joined(separator: ", "))) }
        }
        func number(_ key: String, _ value: Int?) {
            if let value { fields.append((key, String(value))) }
        }
        list("Composers", metadata.composers)
        list("Genres", metadata.genres)
        list("Tags", metadata.tags)
        list("Labels", metadata.labels)
        if let reference = metadata.reference { fields.append(("Reference", reference)) }
        number("Rating", metadata.rating)
        number("Difficulty", metadata.difficulty)
        number("Duration", metadata.duration)
        number("Keysf", metadata.key?.keysf)
        number("Keymi", metadata.key?.keymi)
        return fields.count > 1 ? fields : nil
    }

    /// Nutrient's JSON list: each entry as read, with the keys Folio knows set anew.
    private func nutrientJSON(_ bookmarks: [Bookmark]) throws -> String {
        var list: [[String: Any]] = []
        for bookmark in bookmarks {
            var entry = nutrientEntries[bookmark.id]
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
            entry["uuid"] = bookmark.id
            entry["name"] = bookmark.name
            if let sortKey = bookmark.sortKey { entry["sortKey"] = sortKey }
            var action = entry["action"] as? [String: Any] ?? [:]
            switch bookmark.action {
            case .page(let index):
                action["actionType"] = "Goto"
                action["pageIndex"] = index
            case .url(let url):
                action = ["actionType": "URI", "uri": url]
            case .other:
                break  // kept as read
            }
            entry["action"] = action
            list.append(entry)
        }
        return try JSONCoding.text(object: list)
    }
}

/// Nutrient's entries: the bookmark and the entry's JSON, to keep its unknown keys.
private func readNutrient(_ json: String) -> [(Bookmark, Data)] {
    guard let list = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any] else { return [] }
    var result: [(Bookmark, Data)] = []
    for case let entry as [String: Any] in list {
        guard let id = entry["uuid"] as? String, let raw = try? JSONCoding.data(object: entry) else {
            continue
        }
        let action = entry["action"] as? [String: Any] ?? [:]
        let type = action["actionType"] as? String ?? ""
        let bookmarkAction: Bookmark.Action
        if type.lowercased() == "goto", let page = (action["pageIndex"] as? NSNumber)?.intValue, page >= 0 {
            bookmarkAction = .page(index: page)
        } else if type.uppercased() == "URI", let uri = action["uri"] as? String {
            bookmarkAction = .url(uri)
        } else {
            bookmarkAction = .other(type)
        }
        let sortKey = (entry["sortKey"] as? NSNumber)?.intValue
        result.append((Bookmark(id: id, name: entry["name"] as? String, action: bookmarkAction, sortKey: sortKey), raw))
    }
    return result
}
