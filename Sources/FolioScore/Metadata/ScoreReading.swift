import FolioPDF

/// What a score's Info dictionary and XMP packet hold, read with one pass over each: its
/// fields (``ScoreMetadata/read(from:)``), the bookmarks kept in XMP
/// (``XMPBookmarkProvider``) and its audio tracks (``AudioTrackLink/links(of:)``). The
/// catalog reads all three of every file; each alone would decode and parse the packet again.
///
/// ```swift
/// let reading = ScoreReading(document: try PDFDocument(path: "Dvořák - Rusalka.pdf"))
/// reading.metadata.title          // "Rusalka"
/// reading.bookmarks.map(\.name)   // ["Měsíčku na nebi hlubokém", …]
/// reading.tracks.first?.file      // "Audio/Rusalka.m4a"
/// ```
public struct ScoreReading: Sendable {
    /// The score's fields, as ``ScoreMetadata/read(from:)`` gives them.
    public let metadata: ScoreMetadata
    /// The warnings of reading the fields.
    public let metadataWarnings: [String]
    /// The bookmarks kept in XMP, as ``XMPBookmarkProvider`` reads them.
    public let bookmarks: [Bookmark]
    /// The warnings of reading the bookmarks.
    public let bookmarkWarnings: [String]
    /// The audio tracks the packet keeps.
    public let tracks: [AudioTrackLink]

    public init(document: PDFDocument) {
        let stored = StoredScore(document)
        (metadata, metadataWarnings) = ScoreMetadata.read(stored: stored)
        let provider = XMPBookmarkProvider(stored: stored)
        bookmarks = provider.bookmarks
        bookmarkWarnings = provider.warnings
        tracks = AudioTrackLink.links(in: StoredScore.list(AudioTrackLink.property, in: stored.xmp))
    }
}
