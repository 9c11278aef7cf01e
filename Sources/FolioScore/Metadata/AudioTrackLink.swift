import FolioPDF
import Foundation

/// An audio file linked to a score — a recording to practise with — with optional A–B loop
/// points and a start offset (seconds), as forScore's `Tracks` keep them. Kept in the PDF, in
/// Folio's XMP namespace, as `folioscore:tracks`: an rdf:Seq of one JSON object per track, so
/// the links travel with the file until the library links them (issue "Sound").
///
/// ```swift
/// let link = AudioTrackLink(file: "Audio/Vltava.m4a", title: "Česká filharmonie", loopStart: 12, loopEnd: 48.5)
/// try AudioTrackLink.write([link], to: document)   // then save the document
/// AudioTrackLink.links(of: document).first?.file    // "Audio/Vltava.m4a"
/// ```
public struct AudioTrackLink: Sendable, Equatable, Codable {
    /// The audio file, relative to the score's folder.
    public var file: String
    public var title: String?
    public var loopStart: Double?
    public var loopEnd: Double?
    /// Where playback starts, in seconds.
    public var offset: Double?

    public init(file: String, title: String? = nil, loopStart: Double? = nil, loopEnd: Double? = nil, offset: Double? = nil) {
        self.file = file
        self.title = title
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.offset = offset
    }

    /// The XMP property.
    public static let property = XMPPacket.Name(namespace: StoredScore.namespace, local: "tracks")
    /// The most tracks kept per score.
    public static let maxTracks = 100

    /// Why the link cannot be kept, or nil: a file name that leaves the folder, is empty or
    /// longer than 1,024 bytes; loop points or an offset that are negative, not numbers, or
    /// a loop that ends before it starts.
    public var refusal: String? {
        if file.isEmpty || file.utf8.count > 1024 { return "a track needs a file name of 1 to 1024 bytes" }
        if PathName.isAbsolute(file, windows: true) || PathName.climbs(file, separators: "/\\") {
            return "the track \(file) leads out of the score's folder (valid: a name inside it)"
        }
        for (name, value) in [("loop start", loopStart), ("loop end", loopEnd), ("offset", offset)] {
            if let value, !(value.isFinite && value >= 0 && value <= 86_400) {
                return "the track \(file): \(name) \(value) (valid: 0 to 86400 seconds)"
            }
        }
        if let start = loopStart, let end = loopEnd, end <= start {
            return "the track \(file): its loop ends at \(end) s, before it starts at \(start) s"
        }
        return nil
    }

    /// The links the document keeps (unreadable entries left out).
    public static func links(of document: PDFDocument) -> [AudioTrackLink] {
        links(in: StoredScore.list(property, of: document))
    }

    /// The links of `folioscore:tracks`'s items, as read.
    static func links(in items: [String]) -> [AudioTrackLink] {
        items.prefix(maxTracks).compactMap { item in
            guard let link = try? JSONDecoder().decode(AudioTrackLink.self, from: Data(item.utf8)), link.refusal == nil else { return nil }
            return link
        }
    }

    /// Stores `links` (replacing those kept; none removes the property) in the document's
    /// XMP, unsaved. Throws for a link ``refusal`` names, or past ``maxTracks``.
    public static func write(_ links: [AudioTrackLink], to document: PDFDocument) throws {
        guard links.count <= maxTracks else {
            throw ScoreError(.outOfRange, "\(links.count) tracks (valid: up to \(maxTracks) per score)")
        }
        if let refusal = links.lazy.compactMap(\.refusal).first { throw ScoreError(.invalidValue, refusal) }
        let items = try links.map { try JSONCoding.text($0) }
        try StoredScore.setList(property, to: items, in: document)
    }

    /// A link from one of forScore's `Tracks` entries: the file under `path`, `file`,
    /// `filePath` or `name`; `title`; loop points under `loopStart`/`loopEnd` (or `start`/`end`,
    /// `A`/`B`); `offset`. Keys in any case. Nil without a file.
    ///
    /// ```swift
    /// AudioTrackLink.forScore(["path": "Ария.m4a", "loopStart": 12, "loopEnd": 48])?.loopEnd   // 48
    /// ```
    public static func forScore(_ item: Any) -> AudioTrackLink? {
        if let file = item as? String { return file.isEmpty ? nil : AudioTrackLink(file: file) }
        guard let dictionary = item as? [String: Any] else { return nil }
        let folded = Dictionary(dictionary.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        func text(_ keys: String...) -> String? { keys.lazy.compactMap { folded[$0] as? String }.first { !$0.isEmpty } }
        func number(_ keys: String...) -> Double? {
            keys.lazy.compactMap { key -> Double? in
                if let value = folded[key] as? Double { return value }
                if let value = folded[key] as? Int { return Double(value) }
                return (folded[key] as? String).flatMap { Double($0) }
            }.first
        }
        guard let file = text("path", "file", "filepath", "filename", "name") else { return nil }
        return AudioTrackLink(file: file.precomposedStringWithCanonicalMapping, title: text("title"),
                              loopStart: number("loopstart", "start", "a"), loopEnd: number("loopend", "end", "b"),
                              offset: number("offset", "startoffset"))
    }
}
