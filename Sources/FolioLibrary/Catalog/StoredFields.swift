import FolioScore
import Foundation

/// A score's or a bookmark's own fields as the catalog keeps them in `entry.own`: what was
/// written in the file, before a bookmark inherits the score's fields or a score without
/// a title is shown by its file name, in ``FolioScore/ScoreMetadata``'s JSON form. CSV
/// export and the duplicate finder read them.
extension ScoreMetadata {
    /// The fields stored in a row's `own` column; nil when it holds none (a catalog not yet
    /// rescanned after migration v2) or cannot be read.
    init?(storedIn row: CatalogRow) {
        guard let text: String = row.optional("own"),
              let decoded = try? JSONDecoder().decode(ScoreMetadata.self, from: Data(text.utf8)) else { return nil }
        self = decoded
    }
}
