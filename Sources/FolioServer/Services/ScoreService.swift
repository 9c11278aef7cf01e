import FolioLibrary
import FolioScore
import Foundation

/// What the server does with the library, apart from HTTP: search the catalog, find a
/// score's file (inside the library only), list, add and remove annotations through the
/// engine's incremental, atomic saves, each edit checked against the version the client saw.
///
/// ```swift
/// let service = try ScoreService(catalog: catalog)
/// let (tag, list, _) = try service.annotations(score: 3, page: 1)
/// ```
public struct ScoreService: Sendable {
    public let catalog: LibraryCatalog

    /// Who the server's changes are by: the author written into new annotations (/T) and
    /// into the undo history (`$FOLIO_AUTHOR` or the login name of whoever runs the server).
    public var author = EditAuthor.current()

    /// The font text annotations are drawn in (`folio serve --font-file`); nil: Helvetica for
    /// Latin-1 text, the installed fonts for any other script.
    public var font: TextFont?

    /// Where heavy work runs, and the limits every PDF is read with (see ``WorkQueue``).
    public let work: WorkQueue

    /// Converts uploaded office documents, one at a time (LibreOffice, when installed).
    public let converter = OfficeConverter()

    /// The marks of the pages read lately, by file, version and page (`MarkListings`).
    let markListings = MarkListings()

    public init(catalog: LibraryCatalog, work: WorkQueue = WorkQueue()) throws {
        self.catalog = catalog
        self.work = work
    }

    /// The user's own stamps, kept beside the catalog.
    public var stamps: StampLibrary { StampLibrary(folder: catalog.folder) }

    /// The one path check (`LibraryPaths`).
    public var paths: LibraryPaths { catalog.files }

    /// A score as the API shows it: its id, path and page count, and its metadata (the
    /// fields of `ScoreMetadata`'s JSON form, in the same object).
    ///
    /// ```swift
    /// let (score, path) = try service.score(7)
    /// score.metadata.title   // "Slovanské tance"
    /// ```
    public struct Score: Codable, Sendable, Equatable {
        public var id: Int64
        public var path: String
        public var pages: Int?
        /// How many bookmarks (pieces) it holds, where a listing counts them: a split makes a
        /// score of each.
        public var pieces: Int?
        public var metadata: ScoreMetadata
        /// Why the file could not be read, for a file of the library that is not a readable score.
        public var unreadable: String?
        /// Who the file names beyond forScore's fields, by role (`ScoreCredit`): its arranger
        /// and lyricist, and the composer shown in `composers` when forScore's fields name none.
        public var credits: [ScoreCredit] = []

        /// The title, or the file's name when the score has none.
        public var title: String { metadata.title ?? "" }
        public var composers: [String] { metadata.composers }
        public var rating: Int? { metadata.rating }
        public var key: String? { metadata.key?.name }
        /// The arranger and lyricist a listing shows beside the composers ("arr. Diego F. Guillen").
        public var byline: String { ScoreCredit.byline(credits) }

        init(_ entry: LibraryEntry) {
            id = entry.id
            path = entry.path
            pages = entry.pages
            metadata = entry.metadata
            unreadable = entry.unreadable
            credits = entry.credits
        }

        private enum CodingKeys: String, CodingKey { case id, path, pages, pieces, unreadable, credits }

        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            id = try values.decode(Int64.self, forKey: .id)
            path = try values.decode(String.self, forKey: .path)
            pages = try values.decodeIfPresent(Int.self, forKey: .pages)
            pieces = try values.decodeIfPresent(Int.self, forKey: .pieces)
            unreadable = try values.decodeIfPresent(String.self, forKey: .unreadable)
            credits = try values.decodeIfPresent([ScoreCredit].self, forKey: .credits) ?? []
            metadata = try ScoreMetadata(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(id, forKey: .id)
            try values.encode(path, forKey: .path)
            try values.encodeIfPresent(pages, forKey: .pages)
            try values.encodeIfPresent(pieces, forKey: .pieces)
            try values.encodeIfPresent(unreadable, forKey: .unreadable)
            if !credits.isEmpty { try values.encode(credits, forKey: .credits) }
            try metadata.encode(to: encoder)
        }
    }

    /// One score and the real path of its file; 404 when it is not in the catalog or its
    /// file is not inside the library.
    public func score(_ id: Int64) throws -> (Score, String) {
        let entry = try Self.entry(id, in: catalog)
        guard let path = paths.resolve(entry.path) else { throw LibraryError(.notFound, "no score \(id)") }
        return (Score(entry), path)
    }

    /// The catalog's entry of the whole score `id` (not one of its bookmarks); 404 when there is none.
    static func entry(_ id: Int64, in catalog: LibraryCatalog) throws -> LibraryEntry {
        guard let entry = try catalog.score(id) else { throw LibraryError(.notFound, "no score \(id)") }
        return entry
    }

    /// `body` run on a score's file, with the file's version taken before it was opened (a
    /// save in between makes the next edit refuse, never lose).
    func read<T>(score id: Int64, _ body: (ScoreFile.Document) throws -> T) throws -> (tag: String, value: T) {
        try read(score: id) { document, _ in try body(document) }
    }

    /// The same, `body` also given the file's real path.
    func read<T>(score id: Int64, _ body: (ScoreFile.Document, String) throws -> T) throws -> (tag: String, value: T) {
        let (path, tag) = try version(of: id)
        return (tag, try body(try open(path), path))
    }

    /// The real path of score `id`'s file and its version now; 404 when there is none.
    func version(of id: Int64) throws -> (path: String, tag: String) {
        let (_, path) = try score(id)
        guard let tag = FileVersion.tag(of: path) else { throw LibraryError(.notFound, "no score \(id)") }
        return (path, tag)
    }

    /// The score file at `path` (a real path of the library), opened with the server's limits.
    func open(_ path: String) throws -> ScoreFile.Document {
        try ScoreFile(path).open(limits: work.readOptions())
    }
}
