import FolioPDF
import FolioScore
import Foundation

extension ScoreService {
    /// A score's metadata as the editor shows it: forScore's fields (see
    /// `../shared/seeds/forscore-pdf-metadata.txt`). `duration` is in seconds, `key` a
    /// name such as "F♯ minor"; a list without values and a missing value mean unset.
    public struct Metadata: Codable, Sendable, Equatable {
        public var title: String?
        public var composers: [String]
        public var genres: [String]
        public var tags: [String]
        public var labels: [String]
        public var rating: Int?
        public var difficulty: Int?
        public var duration: Int?
        public var key: String?
        public var reference: String?

        init(_ score: ScoreMetadata) {
            title = score.title
            composers = score.composers
            genres = score.genres
            tags = score.tags
            labels = score.labels
            rating = score.rating
            difficulty = score.difficulty
            duration = score.duration
            key = score.key?.name
            reference = score.reference
        }

        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            title = try values.decodeIfPresent(String.self, forKey: .title)
            composers = try values.decodeIfPresent([String].self, forKey: .composers) ?? []
            genres = try values.decodeIfPresent([String].self, forKey: .genres) ?? []
            tags = try values.decodeIfPresent([String].self, forKey: .tags) ?? []
            labels = try values.decodeIfPresent([String].self, forKey: .labels) ?? []
            rating = try values.decodeIfPresent(Int.self, forKey: .rating)
            difficulty = try values.decodeIfPresent(Int.self, forKey: .difficulty)
            duration = try values.decodeIfPresent(Int.self, forKey: .duration)
            key = try values.decodeIfPresent(String.self, forKey: .key)
            reference = try values.decodeIfPresent(String.self, forKey: .reference)
        }

        /// The edit that makes a score's metadata exactly this: every field set, or
        /// cleared when empty. Throws on a key that is not one and on values out of range.
        func edit() throws -> ScoreEdit {
            func text(_ value: String?) -> String? {
                let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                return trimmed.isEmpty ? nil : trimmed
            }
            func list(_ values: [String]) -> [String]? {
                let kept = values.compactMap(text)
                return kept.isEmpty ? nil : kept
            }
            var score = ScoreMetadata(title: text(title), composers: list(composers) ?? [], genres: list(genres) ?? [],
                                      tags: list(tags) ?? [], labels: list(labels) ?? [])
            score.rating = rating
            score.difficulty = difficulty
            score.duration = duration
            score.key = try text(key).map { try MusicalKey(parsing: $0) }
            score.reference = text(reference)
            var edit = ScoreEdit(setting: score)
            edit.cleared = Set(ScoreField.allCases).subtracting(edit.setFields)
            return edit
        }
    }

    /// A score's metadata as its file holds it now, with the file's version.
    public func metadata(score id: Int64) throws -> (tag: String, metadata: Metadata) {
        let read = try read(score: id) { Metadata(ScoreMetadata.read(from: $0).0) }
        return (read.tag, read.value)
    }

    /// Replaces a score's metadata (fields left out or empty are removed) when the file is
    /// still at version `expected`, in one incremental save of the Info dictionary and the
    /// XMP packet; the catalog is brought up to date at once. Values out of range, a key
    /// that is not one and list values with commas (forScore would split them) get 400.
    public func setMetadata(score id: Int64, expected: String?, _ metadata: Metadata) throws -> (tag: String, metadata: Metadata) {
        let found = try score(id)
        let edit = try Self.mapped { try metadata.edit() }
        let saved = try self.edit(found, expected: expected, change: "Edited the details") { document in
            try ScoreWriter.write(edit, to: document)
            return Metadata(ScoreMetadata.read(from: document).0)
        }
        return (saved.tag, saved.value)
    }
}
