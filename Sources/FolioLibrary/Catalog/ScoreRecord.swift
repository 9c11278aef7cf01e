import FolioPDF
import FolioScore
import Foundation

/// What the catalog keeps of one PDF: where it is, how to tell it changed or moved, and
/// everything a musician searches by — the score's fields, its bookmarks, its annotations.
///
/// ```swift
/// let stamp = try FileStamp(relativePath: "Songs/Summertime.pdf", in: library)
/// let record = ScoreRecord.read(stamp, absolutePath: library + "/Songs/Summertime.pdf")
/// record.metadata.composers   // ["George Gershwin"]
/// ```
public struct ScoreRecord: Sendable, Equatable {
    /// One bookmark of the score, with its 1-based page range.
    ///
    /// ```swift
    /// let record = ScoreRecord.read(try FileStamp(relativePath: "Smetana.pdf", in: "/scores"), absolutePath: "/scores/Smetana.pdf")
    /// record.bookmarks.map(\.title)   // ["Vyšehrad", "Vltava", …]
    /// ```
    public struct BookmarkEntry: Sendable, Equatable {
        public var title: String
        public var start: Int?
        public var end: Int?
        /// Where it comes from: `toc` (derived from the outline) or `xmp` (stored bookmarks).
        public var source: String
        /// The bookmark's own fields (empty where it inherits the score's).
        public var metadata: ScoreMetadata
    }

    public var stamp: FileStamp
    public var pageCount: Int?
    public var version: String?
    public var encrypted: Bool
    public var metadata: ScoreMetadata
    public var bookmarks: [BookmarkEntry]
    /// Annotation counts by subtype ("Ink": 3).
    public var annotations: [String: Int]
    public var warnings: [String]
    /// Why the file could not be read; nil when it was.
    public var error: String?
    /// The audio tracks its XMP keeps (`AudioTrackLink`), taken into the catalog.
    public var tracks: [AudioTrackLink] = []
    /// Composers an engraver wrote where forScore does not look (LilyPond's `/Composer`;
    /// MuseScore's and others' page heading; see `ProducerConventions.people(of:)`): the catalog
    /// shows them when ``metadata`` names none. The file keeps them where they are.
    public var engravedComposers: [String] = []
    /// The people the file names beyond forScore's fields, by role (``ScoreCredit``): the
    /// composers of ``engravedComposers`` (only when forScore's fields name none), and the
    /// arranger and lyricist, who are never counted as composers.
    public var credits: [ScoreCredit] = []

    /// Reads the PDF `stamp` names. Never throws: a file that cannot be read gives a record
    /// with its error, so a scan lists it and goes on. A stamp without its fingerprint gets
    /// it from the bytes opened, when they are the whole file (else it stays empty).
    public static func read(_ stamp: FileStamp, absolutePath: String) -> ScoreRecord {
        var record = ScoreRecord(stamp: stamp, pageCount: nil, version: nil, encrypted: false, metadata: ScoreMetadata(),
                                 bookmarks: [], annotations: [:], warnings: [], error: nil)
        let document: PDFDocument
        do {
            document = try PDFDocument(path: absolutePath)
        } catch let error as PDFError {
            // (The engine's words for a password name the option of commands that open one
            // file; a library catalogues such a file by its name.)
            record.error = error.code == .passwordRequired
                ? "the file is encrypted and needs a password; catalogued by its name only" : error.description
            record.encrypted = error.code == .passwordRequired
            return record
        } catch {
            record.error = "\(error)"
            return record
        }
        if stamp.fingerprint.isEmpty, Int64(document.source.count) == stamp.size {
            record.stamp = stamp.withFingerprint(of: document.source.bytes)
        }
        record.version = document.version
        record.encrypted = document.encryption != nil
        record.pageCount = document.pageCount
        let reading = ScoreReading(document: document)
        record.metadata = reading.metadata
        // An arranger or a poet is credited as such, never as a composer; a composer the engraver
        // wrote stands in for forScore's only while forScore's fields name none.
        let found = reading.metadata.composers.isEmpty ? ProducerConventions.people(of: document).people
            : ProducerConventions.people(in: document.info.entries).people.filter { $0.rule != "composer" }
        record.credits = ScoreCredit.credits(found)
        record.engravedComposers = record.credits.filter { $0.role == .composer }.map(\.name)
        record.warnings = reading.metadataWarnings + reading.bookmarkWarnings
        var storedEntries: [BookmarkEntry] = []
        for bookmark in reading.bookmarks {
            let start = bookmark.pages?.lowerBound ?? bookmark.pageIndex.map { $0 + 1 }
            let end = bookmark.pages?.upperBound ?? start
            storedEntries.append(BookmarkEntry(title: bookmark.name ?? "", start: start, end: end, source: "xmp",
                                               metadata: bookmark.metadata))
        }
        // A stored bookmark with a TOC entry's title and pages is that piece with its fields: one result, not two.
        for bookmark in TableOfContents.bookmarks(from: document.outline(), pageCount: document.pageCount)
        where !storedEntries.contains(where: { $0.title == bookmark.title && $0.start == bookmark.start
                                                  && $0.end == bookmark.end }) {
            record.bookmarks.append(BookmarkEntry(title: bookmark.title, start: bookmark.start, end: bookmark.end,
                                                  source: "toc", metadata: ScoreMetadata()))
        }
        record.bookmarks += storedEntries
        record.tracks = reading.tracks
        record.annotations = document.annotationCounts()
        record.warnings += document.warnings.map(\.description)
        return record
    }
}
