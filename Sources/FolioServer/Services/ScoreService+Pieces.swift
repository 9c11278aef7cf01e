import FolioLibrary
import FolioScore
import Foundation

extension ScoreService {
    /// How to split a score (`PieceFiles.split`, as `folio split`): `by` bookmarks, toc or
    /// page ranges such as "1-4,5-9" (nil: bookmarks when it has any, else the outline);
    /// `dryRun` only names the pieces.
    ///
    /// ```swift
    /// let plan = try service.split(score: 7, SplitInput(by: "toc", dryRun: true))
    /// ```
    public struct SplitInput: Codable, Sendable {
        public var by: String?
        public var dryRun: Bool?

        public init(by: String? = nil, dryRun: Bool? = nil) {
            (self.by, self.dryRun) = (by, dryRun)
        }
    }

    /// One piece of a split: its title and pages in the book, its file in the library, and
    /// (once written) the new score.
    public struct SplitPiece: Codable, Sendable, Equatable {
        public var title: String
        public var start: Int
        public var end: Int
        public var path: String
        public var score: Score?
    }

    /// Splits a score into one new score per piece, written beside it in the library and
    /// catalogued at once (never over a file: a taken name gets a number); the book stays.
    public func split(score id: Int64, _ input: SplitInput) throws -> [SplitPiece] {
        let (book, path) = try score(id)
        var request = PieceFiles.SplitRequest(file: path, by: input.by)
        request.dryRun = input.dryRun ?? false
        let result = try PieceFiles.split(request, catalog: catalog)
        // The pieces stand beside the book: their library paths are its folder's.
        let folder = (book.path as NSString).deletingLastPathComponent
        return try result.pieces.map { piece in
            let relative = (folder as NSString).appendingPathComponent((piece.path as NSString).lastPathComponent)
            return SplitPiece(title: piece.title, start: piece.pages.lowerBound, end: piece.pages.upperBound, path: relative,
                              score: request.dryRun ? nil : try entry(relative))
        }
    }

    /// What to merge: scores by id, in order, into a new score named `name` (a plain file
    /// name; beside the first score; a taken name gets a number), titled `title`.
    ///
    /// ```swift
    /// let suite = try service.merge(MergeInput(scores: [3, 4, 5], name: "Suite.pdf", title: "Suite No. 1"))
    /// ```
    public struct MergeInput: Codable, Sendable {
        public var scores: [Int64]
        public var name: String
        public var title: String?

        public init(scores: [Int64], name: String, title: String? = nil) {
            (self.scores, self.name, self.title) = (scores, name, title)
        }
    }

    /// The most scores one merge takes.
    public static let maxMerged = 200

    /// Merges scores into a new catalogued score (`PieceFiles.merge`, as `folio merge`), each
    /// with an outline entry and a bookmark carrying its metadata.
    public func merge(_ input: MergeInput) throws -> Score {
        guard (1...Self.maxMerged).contains(input.scores.count) else {
            throw LibraryError(.invalidArgument, "scores must list 1 to \(Self.maxMerged) scores' ids")
        }
        let name = try Self.receivedName(input.name.lowercased().hasSuffix(".pdf") ? input.name : input.name + ".pdf")
        let scores = try input.scores.map { try score($0) }
        let folder = (scores[0].1 as NSString).deletingLastPathComponent
        var names = LibraryFileName(folder: folder)
        let fileName = names.claim(name)
        let files = scores.map(\.1)
        _ = try PieceFiles.merge(PieceFiles.MergeRequest(files: files, output: (folder as NSString).appendingPathComponent(fileName),
                                                         title: input.title), catalog: catalog)
        return try entry(((scores[0].0.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(fileName))
    }
}
