import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

/// What the server does with the library, apart from HTTP: search the catalog, find a
/// score's file (inside the library only), list, add and remove annotations through the
/// engine's incremental, atomic saves, each edit checked against the version the client saw.
///
/// ```swift
/// let service = try ScoreService(catalog: catalog)
/// let (tag, list) = try service.annotations(score: 3, page: 1)
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
        public var metadata: ScoreMetadata

        /// The title, or the file's name when the score has none.
        public var title: String { metadata.title ?? "" }
        public var composers: [String] { metadata.composers }
        public var rating: Int? { metadata.rating }
        public var key: String? { metadata.key?.name }

        init(_ entry: LibraryEntry) {
            id = entry.id
            path = entry.path
            pages = entry.pages
            metadata = entry.metadata
        }

        private enum CodingKeys: String, CodingKey { case id, path, pages }

        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            id = try values.decode(Int64.self, forKey: .id)
            path = try values.decode(String.self, forKey: .path)
            pages = try values.decodeIfPresent(Int.self, forKey: .pages)
            metadata = try ScoreMetadata(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(id, forKey: .id)
            try values.encode(path, forKey: .path)
            try values.encodeIfPresent(pages, forKey: .pages)
            try metadata.encode(to: encoder)
        }
    }

    /// An annotation as the API shows it: `rect` is x, y, width, height in points from the
    /// top-left corner of the page as displayed.
    ///
    /// ```swift
    /// let (tag, marks) = try service.annotations(score: 7, page: 1)
    /// marks.map(\.subtype)   // ["FreeText", "Ink"]
    /// ```
    public struct Annotation: Codable, Sendable, Equatable {
        public var id: String
        public var page: Int
        public var subtype: String
        public var rect: [Double]
        public var contents: String?
        public var author: String?
        public var color: String?
        /// A link's page in this score (1-based), when it jumps to one.
        public var target: Int?
        /// A link's web address (or an engraver's `textedit:` address).
        public var uri: String?
        /// A link an engraver left on every note (`textedit:`): `folio lint --fix` removes them.
        public var pointAndClick: Bool?
    }

    /// A new annotation: `type` is freetext, square, highlight, ink or stamp; `rect` x, y,
    /// width, height and `strokes` lists of x, y pairs, in points from the displayed page's
    /// top-left; a stamp's `symbol` one of `MusicalSymbol`'s (fermata, mf, cresc…), or its
    /// `image` the name of one of the library's stamps (``stamps``).
    ///
    /// ```swift
    /// let new = try JSONDecoder().decode(ScoreService.NewAnnotation.self,
    ///     from: Data(#"{"type":"freetext","page":1,"rect":[40,40,160,24],"text":"ritardando"}"#.utf8))
    /// let (id, tag) = try service.addAnnotation(score: 7, expected: etag, new)
    /// ```
    public struct NewAnnotation: Codable, Sendable {
        public var type: String
        public var symbol: String?
        /// The name of a stamp kept in the library (an image).
        public var image: String?
        public var page: Int
        public var rect: [Double]?
        public var strokes: [[Double]]?
        public var text: String?
        public var color: String?
        public var size: Double?
        /// 0 to 1.
        public var opacity: Double?
        /// A rectangle's or pen's line width in points, 0 to 100.
        public var width: Double?
        /// A text's font: sans (the server's), serif, serif-italic or mono (`TextFont.Family`).
        public var font: String?
    }

    /// What the library view asks for: words, field values, a minimum rating, an order.
    ///
    /// ```swift
    /// let found = try service.search(ScoreService.Search(text: "Dvořák"))
    /// ```
    public struct Search: Sendable {
        public var text: String?
        public var composer: String?
        public var genre: String?
        public var tag: String?
        public var label: String?
        public var key: String?
        /// The lowest rating shown, 1 to 5.
        public var minRating: Int?
        public var sort: String?
        public var limit = 200
        public init(text: String? = nil) { self.text = text }
    }

    /// The scores matching `search` (every score without text or filters), best first.
    public func search(_ search: Search) throws -> [Score] {
        func value(_ text: String?) -> String? {
            guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
            return trimmed
        }
        var query = LibraryQuery(text: value(search.text))
        query.limit = search.limit
        query.composers = value(search.composer).map { [$0] } ?? []
        query.genres = value(search.genre).map { [$0] } ?? []
        query.tags = value(search.tag).map { [$0] } ?? []
        query.labels = value(search.label).map { [$0] } ?? []
        if let key = value(search.key) { query.key = try MusicalKey(parsing: key) }
        if let rating = search.minRating {
            guard (1...5).contains(rating) else { throw LibraryError(.invalidArgument, "rating \(rating) is out of range (valid: 1 to 5)") }
            query.rating = try LibraryQuery.Comparison(parsing: ">=\(rating)", field: "rating", valid: 0...5)
        }
        if let sort = value(search.sort) {
            guard let order = LibraryQuery.Sort(rawValue: sort) else {
                throw LibraryError(.invalidArgument, "sort \(sort) is not one of \(LibraryQuery.Sort.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query.sort = order
        }
        return try catalog.search(query).map(Score.init)
    }

    /// The values to filter by, most used first: field (composer, genre, tag, label, key)
    /// → values with the number of scores carrying each, at most `limit` per field.
    public func facets(limit: Int = 100) throws -> [String: [Facet]] {
        let all = try catalog.facets()
        var result: [String: [Facet]] = [:]
        for facet in all where (result[facet.field]?.count ?? 0) < limit {
            result[facet.field, default: []].append(Facet(value: facet.value, count: facet.count))
        }
        return result
    }

    /// A value of a field and how many scores carry it.
    ///
    /// ```swift
    /// try service.facets()["composer"]?.first   // Facet(value: "Antonín Dvořák", count: 12)
    /// ```
    public struct Facet: Codable, Sendable, Equatable {
        public var value: String
        public var count: Int
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
        let entries: [LibraryEntry]
        do { entries = try catalog.show(String(id)) } catch let error as LibraryError where error.code == .notFound {
            throw LibraryError(.notFound, "no score \(id)")
        }
        guard let entry = entries.first(where: { $0.bookmark == nil }), entry.id == id else {
            throw LibraryError(.notFound, "no score \(id)")
        }
        return entry
    }

    /// The annotations of one page (1-based), or of every page, with the file's version.
    public func annotations(score id: Int64, page: Int?) throws -> (tag: String, annotations: [Annotation]) {
        let read = try read(score: id) { document -> [Annotation] in
            let listed = try AnnotationListing.list(document, page: page, popups: false)
            let links = Dictionary(ScoreLink.links(in: listed, of: document).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return listed.map { shown in
                let annotation = shown.annotation
                var listed = Annotation(id: annotation.id, page: annotation.pageIndex + 1, subtype: annotation.subtype,
                                        rect: shown.display.map(Self.rounded), contents: annotation.contents,
                                        author: annotation.author, color: annotation.color?.hex)
                if let link = links[annotation.id] {
                    switch link.target {
                    case .page(let number)?: listed.target = number
                    case .uri(let uri)?: listed.uri = uri
                    default: break
                    }
                    if link.isPointAndClick { listed.pointAndClick = true }
                }
                return listed
            }
        }
        return (read.tag, read.value)
    }

    /// `body` run on a score's file, with the file's version taken before it was opened (a
    /// save in between makes the next edit refuse, never lose).
    func read<T>(score id: Int64, _ body: (PDFDocument) throws -> T) throws -> (tag: String, value: T) {
        try read(score: id) { document, _ in try body(document) }
    }

    /// The same, `body` also given the file's real path.
    func read<T>(score id: Int64, _ body: (PDFDocument, String) throws -> T) throws -> (tag: String, value: T) {
        let (_, path) = try score(id)
        guard let tag = FileVersion.tag(of: path) else { throw LibraryError(.notFound, "no score \(id)") }
        return (tag, try body(try PDFDocument(path: path, options: work.readOptions()), path))
    }

    /// Adds an annotation when the file is still at version `expected`; returns the new
    /// annotation's id and the file's new version. 409 when the file changed since.
    public func addAnnotation(score id: Int64, expected: String?, _ input: NewAnnotation) throws -> (id: String, tag: String) {
        let found = try score(id)
        var request = try Self.request(input, author: author)
        if let name = input.image { request.image = try stamps.bytes(of: name) }
        request.font = try input.font.map { name in
            guard let family = TextFont.Family(rawValue: name) else {
                throw LibraryError(.invalidArgument, "font \(name) is not one of \(TextFont.Family.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return try TextFont.installed(family) ?? font
        } ?? font
        let added = try edit(found, expected: expected, change: "Added a \(Self.kinds[input.type]?.name ?? input.type)") { document in
            try request.add(to: document)
        }
        return (added.value, added.tag)
    }

    /// A change to an annotation: a new place (`rect` x, y, width, height from the displayed
    /// page's top-left; what it holds moves and scales with it), text, or colour.
    ///
    /// ```swift
    /// let change = try JSONDecoder().decode(ScoreService.AnnotationChange.self, from: Data(#"{"color":"#0000ff"}"#.utf8))
    /// let tag = try service.editAnnotation(score: 7, annotation: "obj-12", expected: etag, change)
    /// ```
    public struct AnnotationChange: Codable, Sendable {
        public var rect: [Double]?
        public var text: String?
        public var color: String?
    }

    /// Changes one annotation (its appearance is drawn again) when the file is still at
    /// version `expected`; returns the new version. 404 when the score has no such annotation.
    public func editAnnotation(score id: Int64, annotation: String, expected: String?, _ input: AnnotationChange) throws -> String {
        return try edit(try score(id), expected: expected, change: "Edited an annotation") { document in
            guard (try? document.locateAnnotation(id: annotation)) != nil else {
                throw LibraryError(.notFound, "no annotation \(annotation) in this score")
            }
            var edit = AnnotationEdit(id: annotation)
            edit.rect = input.rect
            edit.text = input.text
            edit.color = input.color
            edit.font = font
            try edit.apply(to: document)
        }.tag
    }

    /// Removes one annotation when the file is still at version `expected`; returns the new
    /// version. 404 when the score has no such annotation.
    public func removeAnnotation(score id: Int64, annotation: String, expected: String?) throws -> String {
        try edit(try score(id), expected: expected, change: "Deleted an annotation") { document in
            try AnnotationRemoval(ids: [annotation]).apply(to: document)
        }.tag
    }

    /// An edit through the library's one edit path (`LibraryCatalog.edit`): refused with 409
    /// when the file is not at `expected` under its lock, recorded for
    /// ``undo(score:expected:)`` as `change` by ``author``, the catalog row refreshed.
    func edit<T>(_ score: (Score, String), expected: String?, change: String,
                 _ body: (PDFDocument) throws -> T) throws -> (value: T, tag: String) {
        guard let expected else {
            throw LibraryError(.versionRequired, "send the version you edit in If-Match (the ETag of GET)")
        }
        let saved = try catalog.edit(score: score.0.path, expected: expected, change: change, author: author, options: work.readOptions(), body)
        return (saved.value, saved.version)
    }

    /// What the last change saved to a score did, when it can still be undone (nothing
    /// changed the file since); the record is the catalog's, so it outlives a restart.
    public func lastChange(score id: Int64) throws -> String? {
        let (score, _) = try score(id)
        return try catalog.lastChange(score: score.path)?.change
    }

    /// Undoes the last change saved to a score (see `LibraryCatalog.undo`). 409 when the file
    /// is not at `expected` or changed since that save, or when there is nothing to undo.
    /// Returns what was undone and the new version.
    public func undo(score id: Int64, expected: String?) throws -> (change: String, tag: String) {
        let (score, _) = try score(id)
        guard let expected else {
            throw LibraryError(.versionRequired, "send the version you undo in If-Match (the ETag of GET)")
        }
        let undone = try catalog.undo(score: score.path, expected: expected)
        return (undone.change, undone.version)
    }

    /// The kinds of mark the score view adds, by the API's names, with what the undo
    /// button calls them.
    static let kinds: [String: (kind: PDFAnnotationKind, name: String)] = [
        "freetext": (.freeText, "text"), "square": (.square, "rectangle"), "highlight": (.highlight, "highlight"),
        "ink": (.ink, "pen stroke"), "stamp": (.stamp, "stamp"),
    ]

    /// What the browser sent as the one ``FolioScore/AnnotationRequest`` the command line
    /// adds marks by too (its checks and defaults); 400 for a kind or symbol not taken.
    static func request(_ input: NewAnnotation, author: String) throws -> AnnotationRequest {
        guard let kind = kinds[input.type]?.kind else {
            throw LibraryError(.invalidArgument, "type \(input.type) is not one of \(kinds.keys.sorted().joined(separator: ", "))")
        }
        var request = AnnotationRequest(kind: kind, page: input.page)
        request.rects = input.rect.map { [$0] } ?? []
        request.strokes = input.strokes ?? []
        request.text = input.text
        if let name = input.symbol {
            guard let symbol = MusicalSymbol(rawValue: name) else {
                throw LibraryError(.invalidArgument, "symbol \(name) is not one of \(MusicalSymbol.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            request.symbol = symbol
        }
        request.color = input.color
        request.size = input.size
        request.opacity = input.opacity
        request.width = input.width
        request.author = author
        return request
    }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
