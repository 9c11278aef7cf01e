import FolioScore
import Foundation

extension ScoreService {
    /// A jump link made in the score view: a place on a page (x, y, width, height from the
    /// displayed page's top-left) and the page it goes to, both 1-based.
    ///
    /// ```swift
    /// let new = try JSONDecoder().decode(ScoreService.NewLink.self, from: Data(#"{"page":3,"rect":[480,700,60,40],"to":1}"#.utf8))
    /// let (id, tag) = try service.addLink(score: 7, expected: etag, new)
    /// ```
    public struct NewLink: Codable, Sendable {
        public var page: Int
        public var rect: [Double]
        public var to: Int
    }

    /// Adds a link (`ScoreLink` in FolioScore) when the file is still at `expected`; returns
    /// its id and the file's new version.
    public func addLink(score id: Int64, expected: String?, _ input: NewLink) throws -> (id: String, tag: String) {
        let added = try edit(try score(id), expected: expected, change: "Added a link to page \(input.to)") { document in
            try ScoreLink.add(to: document, from: input.page, rect: input.rect, to: input.to)
        }
        return (added.value, added.tag)
    }
}
