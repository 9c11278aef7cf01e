import FolioLibrary
import FolioScore
import Foundation

/// The marks of the pages read lately, kept by file, version and page, so that a page's
/// marks cost a lookup: when a whole ensemble opens one score, its first page is read once,
/// not once per music stand. A file that changes (a save through Folio or any other writer)
/// has a new version (`FileVersion`) and is read again; the listing of an older version is
/// never handed out for a newer one, as the version is read before the file and a listing is
/// kept only when the version is the same after it. Every mark is kept with its layer, so each
/// member is still shown only the layers they may see (``ScoreService/annotations(score:page:)``).
/// Bounded: at most `pages` pages and `marks` marks in all; the page asked for least lately
/// goes first.
///
/// ```swift
/// let listings = MarkListings(pages: 512, marks: 200_000)
/// let listing = try listings.page(1, of: path, version: tag) { try read() }
/// ```
final class MarkListings: Sendable {
    /// A mark as listed, with the layer it is in (nil: in none, seen by all).
    struct Mark: Sendable {
        let annotation: ScoreService.Annotation
        let layer: MarkLayer?
    }

    /// One page's marks at one version of its file, and the file's layers.
    struct Listing: Sendable {
        let marks: [Mark]
        let layers: [MarkLayer]
    }

    private struct Key: Hashable, Sendable {
        let path: String
        let page: Int
        let version: String
    }

    private let kept: BoundedCache<Key, Listing>

    /// At most `pages` pages and `marks` marks in all.
    init(pages: Int = 512, marks: Int = 200_000) {
        kept = BoundedCache(count: pages, cost: marks)
    }

    /// How many pages are kept now.
    var count: Int { kept.count }

    /// Page `page` of the file at `path`, whose version is `version` (taken before `read`
    /// runs): kept, or read by `read` and kept when the file is still at that version after
    /// it, in the place of the same page of an older version.
    func page(_ page: Int, of path: String, version: String, read: () throws -> Listing) throws -> Listing {
        let key = Key(path: path, page: page, version: version)
        if let found = kept.value(for: key) { return found }
        let listing = try read()
        if FileVersion.tag(of: path) == version {
            kept.insert(listing, for: key, cost: listing.marks.count) { $0.path == path && $0.page == page }
        }
        return listing
    }
}
