import FolioPDF
import Foundation

/// forScore's container (`.4sc`): one gzip'd binary property list holding the PDF in
/// `pdfData` and its metadata under keys `<name>.pdf|title`, `|composer`, `|genre`,
/// `|keywords`, `|labels`, …, per-page `|<page>|textAnnotations` and drawing layers
/// `<name>.pdf|<page>.png` — the key layout of a 4SB's metadata.
///
/// ```swift
/// let container = try ForScoreContainer(bytes: Array(try Data(contentsOf: url)))
/// container.file.metadata.title; container.pdf.count
/// ```
public struct ForScoreContainer: Sendable {
    /// The file's name as the container names it (nil when no key names one).
    public var name: String?
    public var pdf: [UInt8]
    public var file: ForScoreLibraryData.File
    /// Keys not applied, with why.
    public var unread: [String]

    /// The most a container may inflate to.
    public static let maxSize = 2 << 30

    public init(bytes: [UInt8], limit: Int = ForScoreContainer.maxSize) throws {
        let plist: [UInt8]
        do {
            plist = try Gzip.decompress(bytes, limit: limit)
        } catch let error as PDFError {
            throw ScoreError(error.code == .limitExceeded ? .limitExceeded : .malformed, "the container is not readable gzip: \(error.message)")
        }
        let data = try ForScoreLibraryData(plist: plist, source: "the container")
        guard let pdf = data.pdfData, !pdf.isEmpty else {
            throw ScoreError(.malformed, "the container has no pdfData")
        }
        self.pdf = pdf
        name = data.fileNames.first
        file = data.fileNames.first.flatMap { data.files[$0] } ?? ForScoreLibraryData.File(name: "")
        unread = data.unread + (data.fileNames.count > 1 ? ["fields of \(data.fileNames.count - 1) other file name(s) ignored"] : [])
    }

    /// A container for `pdf` named `name`, with `metadata` and `bookmarks` under forScore's keys.
    public static func encode(pdf: [UInt8], name: String, metadata: ScoreMetadata, bookmarks: [Bookmark]) throws -> [UInt8] {
        var dictionary: [String: Any] = ["pdfData": Data(pdf)]
        let prefix = name + "|"
        if let title = metadata.title { dictionary[prefix + "title"] = title }
        if !metadata.composers.isEmpty { dictionary[prefix + "composer"] = metadata.composers.joined(separator: ", ") }
        if !metadata.genres.isEmpty { dictionary[prefix + "genre"] = metadata.genres.joined(separator: ", ") }
        if !metadata.tags.isEmpty { dictionary[prefix + "keywords"] = metadata.tags.joined(separator: ", ") }
        if !metadata.labels.isEmpty { dictionary[prefix + "labels"] = metadata.labels.joined(separator: ", ") }
        if let reference = metadata.reference { dictionary[prefix + "reference"] = reference }
        if let rating = metadata.rating { dictionary[prefix + "rating"] = rating }
        if let difficulty = metadata.difficulty { dictionary[prefix + "difficulty"] = difficulty }
        if let duration = metadata.duration {
            dictionary[prefix + "minutes"] = duration / 60
            dictionary[prefix + "seconds"] = duration % 60
        }
        if let key = metadata.key { dictionary[prefix + "key"] = key.name }
        if let tempo = metadata.tempo { dictionary[prefix + "bpm"] = tempo }
        if let signature = metadata.timeSignature { dictionary[prefix + "timeSignature"] = signature }
        let marks: [[String: Any]] = bookmarks.compactMap { bookmark in
            guard let title = bookmark.name, let pages = bookmark.pages else { return nil }
            var item: [String: Any] = ["Title": title, "First Page": pages.lowerBound,
                                       "Last Page": pages.count == 1 ? 0 : pages.upperBound]
            if !bookmark.metadata.composers.isEmpty { item["Composer"] = bookmark.metadata.composers.joined(separator: ", ") }
            if !bookmark.metadata.genres.isEmpty { item["Genre"] = bookmark.metadata.genres.joined(separator: ", ") }
            if !bookmark.metadata.tags.isEmpty { item["Keyword"] = bookmark.metadata.tags.joined(separator: ", ") }
            if let key = bookmark.metadata.key { item["Key"] = key.name }
            return item
        }
        if !marks.isEmpty { dictionary[prefix + "bookmarks"] = marks }
        let plist = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        return try Gzip.compress(Array(plist))
    }
}
