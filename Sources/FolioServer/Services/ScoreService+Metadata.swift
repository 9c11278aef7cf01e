import FolioScore
import Foundation

extension ScoreService {
    /// A score's metadata as its file holds it now, with the file's version.
    public func metadata(score id: Int64) throws -> (tag: String, metadata: ScoreMetadata) {
        let read = try read(score: id) { ScoreMetadata.read(from: $0).0 }
        return (read.tag, read.value)
    }

    /// Replaces a score's metadata (fields left out or empty are removed) when the file is
    /// still at version `expected`, in one incremental save of the Info dictionary and the
    /// XMP packet; the catalog is brought up to date at once. Values out of range, a key
    /// that is not one and list values with commas (forScore would split them) get 400.
    public func setMetadata(score id: Int64, expected: String?, _ metadata: ScoreMetadata)
        throws -> (tag: String, metadata: ScoreMetadata) {
        var change = ScoreChange()   // the change folio's metadata commands apply, every field replaced
        change.edit = ScoreEdit(replacingWith: metadata)
        let saved = try self.edit(try score(id), expected: expected, change: "Edited the details") { document in
            try change.apply(to: document, allowComma: false)
            return ScoreMetadata.read(from: document).0
        }
        return (saved.tag, saved.value)
    }
}
