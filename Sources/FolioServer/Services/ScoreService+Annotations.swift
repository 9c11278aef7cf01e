import FolioLibrary
import FolioScore
import Foundation

/// A score's annotations as the API lists, adds, changes and removes them.
extension ScoreService {
    /// An annotation as the API shows it: `rect` is x, y, width, height in points from the
    /// top-left corner of the page as displayed.
    ///
    /// ```swift
    /// let (tag, marks, _) = try service.annotations(score: 7, page: 1)
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
        /// A stamp's musical mark (`MusicalSymbol`: fermata, mf, cresc…), when it is one of Folio's.
        public var symbol: String?
        /// The layer (optional content group) it is in: a member's, a section's, forScore's.
        public var layer: String?
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
        /// The mark's name (`/NM`), chosen by the client (a UUID): sent again after a lost
        /// answer, the request finds its mark already on the page and adds nothing. 1 to 64 of
        /// `A–Z a–z 0–9 . _ -`, not starting `obj-`.
        public var name: String?
    }

    /// The longest ``NewAnnotation/name``.
    public static let maxMarkName = 64

    /// The annotations of one page (1-based), or of every page, with the tag of what the asker
    /// is shown (`FileVersion.tag(_:hiding:)`: the file's version, and the layers hidden from
    /// them if any; an edit's `If-Match` may name it). A member (`MemberContext`) is not shown
    /// the marks in layers that are others' own (`MemberLayers.Visibility`); `hiddenLayers`
    /// names the file's layers they do not see, which the browser's layer menu starts hidden.
    /// One page's marks are kept per version of the file (`MarkListings`): asked for again,
    /// by anyone, they cost a lookup.
    public func annotations(score id: Int64, page: Int?) throws -> (tag: String, annotations: [Annotation], hiddenLayers: [String]) {
        let member = MemberContext.current
        let seen = MemberLayers.Visibility(for: member, among: member == nil ? [] : try catalog.members())
        let version: String, listing: MarkListings.Listing
        if let page {
            let path: String
            (path, version) = try self.version(of: id)
            listing = try markListings.page(page, of: path, version: version) { try Self.marks(of: try open(path), page: page) }
        } else {
            (version, listing) = try read(score: id) { document in try Self.marks(of: document, page: nil) }
        }
        let hidden = seen.hiddenNames(among: listing.layers)
        let (shown, kept) = listing.marks.reduce(into: ([Annotation](), [String]())) { lists, mark in
            if seen.hides(mark.layer) { lists.1.append(mark.annotation.id) } else { lists.0.append(mark.annotation) }
        }
        // The view's tag names the layers and the marks kept from the asker: two askers with one
        // tag are shown the same answer.
        return (FileVersion.tag(version, hiding: kept.isEmpty ? hidden : hidden + ["\u{1}"] + kept), shown, hidden)
    }

    /// The marks of page `page` of `document` (every page: nil) as the API lists them, each
    /// with its layer, and the file's layers.
    static func marks(of document: ScoreFile.Document, page: Int?) throws -> MarkListings.Listing {
        let listed = try AnnotationListing.list(document, page: page, popups: false)
        let links = Dictionary(ScoreLink.links(in: listed, of: document).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let marks = zip(listed, AnnotationListing.layers(of: listed, in: document)).map { shown, group -> MarkListings.Mark in
            let annotation = shown.details
            var listed = Annotation(id: annotation.id, page: annotation.page, subtype: annotation.subtype,
                                    rect: annotation.display.map(Self.rounded), contents: annotation.contents,
                                    author: annotation.author, color: annotation.color)
            listed.layer = group?.name
            if annotation.subtype == "Stamp" { listed.symbol = annotation.icon.flatMap(MusicalSymbol.init(stampName:))?.rawValue }
            if let link = links[annotation.id] {
                switch link.target {
                case .page(let number)?: listed.target = number
                case .uri(let uri)?: listed.uri = uri
                default: break
                }
                if link.isPointAndClick { listed.pointAndClick = true }
            }
            return MarkListings.Mark(annotation: listed, layer: group)
        }
        return MarkListings.Listing(marks: marks, layers: MarkLayer.all(in: document))
    }

    /// Adds an annotation when the file is still at version `expected`; returns the new
    /// annotation's id and the file's new version. 409 when the file changed since.
    public func addAnnotation(score id: Int64, expected: String?, _ input: NewAnnotation) throws -> (id: String, tag: String) {
        let found = try score(id)
        var request = try Self.request(input, author: MemberContext.current?.name ?? author)
        // A member's mark goes into their layer (a player's own, their section's, the conductor's),
        // and carries who made it by their key, which outlives their name.
        if let member = MemberContext.current {
            let layer = MemberLayers.layer(for: member)
            request.layer = layer?.name
            request.layerEntries = layer?.entries ?? [:]
            if !member.key.isEmpty { request.entries = [MemberLayers.memberEntry: member.key] }
        }
        if let name = input.image { request.image = try stamps.bytes(of: name) }
        request.font = try input.font.map { name in
            guard let family = TextFont.Family(rawValue: name) else {
                throw LibraryError(.invalidArgument, "font \(name) is not one of \(TextFont.Family.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return try TextFont.installed(family) ?? font
        } ?? font
        let added = try edit(found, expected: expected, change: "Added a \(request.kind.markName)", right: .markOwn) { document in
            // Sent again after its answer was lost: the mark is there already, nothing is saved.
            // A name another mark holds (another page's, another member's) is 409.
            try request.existing(in: document, isOwn: MemberContext.isOwn) ?? request.add(to: document)
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
        return try edit(try score(id), expected: expected, change: "Edited an annotation", right: .markOwn, marks: [annotation]) { document in
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
        try edit(try score(id), expected: expected, change: "Deleted an annotation", right: .markOwn, marks: [annotation]) { document in
            try AnnotationRemoval(ids: [annotation]).apply(to: document)
        }.tag
    }

    /// The kinds of mark the score view adds, by the API's names.
    static let kinds = ["freetext", "square", "highlight", "ink", "stamp"]

    /// What the browser sent as the one ``FolioScore/AnnotationRequest`` the command line
    /// adds marks by too (its checks and defaults); 400 for a kind or symbol not taken.
    static func request(_ input: NewAnnotation, author: String) throws -> AnnotationRequest {
        guard kinds.contains(input.type), let kind = PDFAnnotationKind(named: input.type) else {
            throw LibraryError(.invalidArgument, "type \(input.type) is not one of \(kinds.sorted().joined(separator: ", "))")
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
        if let name = input.name {
            guard (1...maxMarkName).contains(name.count), !name.hasPrefix("obj-"),
                  name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) })
            else {
                throw LibraryError(.invalidArgument, "name must be 1 to \(maxMarkName) of A-Z a-z 0-9 . _ - and not start with obj-")
            }
            request.name = name
        }
        return request
    }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
