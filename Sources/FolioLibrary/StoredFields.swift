import FolioScore
import Foundation
import GRDB

/// A score's or a bookmark's own fields as the catalog keeps them (JSON in `entry.own`):
/// what was written in the file, before a bookmark inherits the score's fields or a score
/// without a title is shown by its file name. CSV export reads them.
struct StoredFields: Codable, Sendable, Equatable {
    var title: String?
    var composers: [String]
    var genres: [String]
    var tags: [String]
    var labels: [String]
    var reference: String?
    var rating: Int?
    var difficulty: Int?
    var duration: Int?
    var keysf: Int?
    var keymi: Int?

    init(_ score: ScoreMetadata) {
        title = score.title
        composers = score.composers
        genres = score.genres
        tags = score.tags
        labels = score.labels
        reference = score.reference
        rating = score.rating
        difficulty = score.difficulty
        duration = score.duration
        keysf = score.key?.keysf
        keymi = score.key?.keymi
    }

    /// The fields stored in a row's `own` column; nil when it holds none (a catalog not yet
    /// rescanned after migration v2) or cannot be read.
    init?(row: Row) {
        guard let text: String = row["own"],
              let decoded = try? JSONDecoder().decode(StoredFields.self, from: Data(text.utf8)) else { return nil }
        self = decoded
    }

    var metadata: ScoreMetadata {
        ScoreMetadata(title: title, composers: composers, genres: genres, tags: tags, labels: labels, rating: rating,
                      difficulty: difficulty, duration: duration,
                      key: keysf.flatMap { try? MusicalKey(keysf: $0, keymi: keymi ?? 0) }, reference: reference)
    }
}
