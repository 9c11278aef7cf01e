import FolioLibrary
import FolioScore
import Foundation

extension ScoreService {
    /// Applies a page tool (FolioScore's `PageTool`, the one `folio pages` runs) when the
    /// file is still at version `expected`: one incremental save through the edit path,
    /// undoable; bookmarks follow their pages. 400 names what is valid.
    ///
    /// ```swift
    /// let (tag, result) = try service.applyPageTool(score: 7, expected: etag, PageTool(action: "rotate", pages: "2", by: 90))
    /// result.pages
    /// ```
    public func applyPageTool(score id: Int64, expected: String?, _ tool: PageTool) throws -> (tag: String, result: PageTool.Result) {
        try tool.validate()
        let saved = try edit(try score(id), expected: expected, change: tool.summary) { try tool.apply(to: $0) }
        return (saved.tag, saved.value)
    }

    /// A forScore container (.4sc) of the score: the PDF unchanged and its metadata and
    /// bookmarks under forScore's keys, with the file's version.
    public func container(score id: Int64) throws -> (tag: String, name: String, bytes: [UInt8]) {
        let (score, path) = try score(id)
        guard let tag = FileVersion.tag(of: path) else { throw LibraryError(.notFound, "no score \(id)") }
        let bytes = try ForScoreImport.exportContainer(pdf: path)
        let name = ((score.path as NSString).lastPathComponent as NSString).deletingPathExtension + ".4sc"
        return (tag, name, bytes)
    }
}
