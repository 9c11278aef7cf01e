import FolioPDF
import Foundation

/// A score's bookmarks where they are kept: a CSV index beside the PDF (forScore's layout,
/// when one is in use) before the PDF's XMP (Apple Preview's, Nutrient's and Folio's). The
/// one chain the command line and the server both read and write through.
///
/// ```swift
/// try BookmarkChain.update(ScoreFile("Real Book.pdf"), index: "Real Book.csv") { manager, _ in
///     manager.add(Bookmark(name: "Les feuilles mortes", action: .page(index: 11), pages: 12...13))
/// }
/// ```
public struct BookmarkChain: Sendable {
    public let manager: BookmarkManager
    /// Rows of the index that could not be read (they are skipped).
    public let problems: [String]
    /// The index in use, nil when bookmarks live in the PDF only.
    public let index: String?
    private let pdf: String

    /// Reads the PDF's bookmarks and, for `index`, the index file (none yet is empty).
    public init(document: PDFDocument, pdf: String, index: String?) throws {
        try self.init(document: document, pdf: pdf, index: index, text: try index.flatMap(Self.readIndex))
    }

    /// The same with the index's text already read (``readIndex(_:)``; nil: no file yet).
    public init(document: PDFDocument, pdf: String, index: String?, text: String?) throws {
        self.index = index
        self.pdf = pdf
        var providers: [any BookmarkProvider] = []
        var problems: [String] = []
        if let index {
            var csv = try CSVBookmarkProvider(text: text, pageCount: document.pageCount)
            problems = csv.problems.map { "\(index): \($0); skipped" }
            if csv.isNew { csv.score = ScoreMetadata.read(from: document).0 }
            providers.append(csv)
        }
        providers.append(XMPBookmarkProvider(document: document))
        manager = BookmarkManager(providers: providers)
        self.problems = problems
    }

    /// The chain of the PDF at `pdf` as a library keeps it: with the index beside it
    /// (``CSVBookmarkProvider/path(besidePDF:)``) when that file exists.
    public static func discovered(document: PDFDocument, pdf: String) throws -> BookmarkChain {
        let beside = CSVBookmarkProvider.path(besidePDF: pdf)
        return try BookmarkChain(document: document, pdf: pdf, index: FileManager.default.fileExists(atPath: beside) ? beside : nil)
    }

    /// The chain of `score` for reading, with its index when `index` names one.
    ///
    /// ```swift
    /// let (chain, _) = try BookmarkChain.read(ScoreFile("Чайковский.pdf"), index: nil)
    /// chain.manager.bookmarks(in: .pageBased).map(\.name)
    /// ```
    public static func read(_ score: ScoreFile, index: String?) throws -> (chain: BookmarkChain, document: PDFDocument) {
        let document = try score.open()
        return (try BookmarkChain(document: document, pdf: score.path, index: index), document)
    }

    /// The whole edit of a score's bookmarks: reads the index (when `index` names one) and
    /// the PDF, hands each unreadable index row to `problem`, lets `change` edit the
    /// bookmarks, then saves what changed — the index through a temporary file and a
    /// rename, the PDF incrementally through ``ScoreFile/update(output:saving:_:)`` (in
    /// place under its lock, or to `output`). An index that cannot be read is refused
    /// before the PDF is opened.
    ///
    /// ```swift
    /// try BookmarkChain.update(ScoreFile("Fauré.pdf"), index: "Fauré.csv") { manager, document in
    ///     for piece in TableOfContents.missingBookmarks(of: document, existing: manager.bookmarks) {
    ///         manager.add(piece.bookmark)
    ///     }
    /// }
    /// ```
    @discardableResult
    public static func update<T>(_ score: ScoreFile, index: String?, output: String? = nil,
                                 saving: SaveOptions = SaveOptions(), problem: (String) -> Void = { _ in },
                                 change: (inout BookmarkManager, PDFDocument) throws -> T) throws -> T {
        try update(score, index: index, saving: { edit in try score.update(output: output, saving: saving, edit) },
                   problem: problem, change: change)
    }

    /// The same edit saved by `saving`, which opens the PDF, runs the edit it is given and
    /// saves (a library's edit path, which also records the change). With `dryRun` the index
    /// file is not written either: `saving` then runs the edit on a document it does not save.
    ///
    /// ```swift
    /// try BookmarkChain.update(ScoreFile("Fauré.pdf"), index: nil, saving: { edit in try ScoreFile("Fauré.pdf").update(edit) }) { manager, _ in
    ///     manager.add(Bookmark(name: "Après un rêve", action: .page(index: 0), pages: 1...2))
    /// }
    /// ```
    @discardableResult
    public static func update<T>(_ score: ScoreFile, index: String?, saving: ((PDFDocument) throws -> T) throws -> T,
                                 dryRun: Bool = false, problem: (String) -> Void = { _ in },
                                 change: (inout BookmarkManager, PDFDocument) throws -> T) throws -> T {
        let text = try index.flatMap(readIndex)
        // `saving` runs the edit once, before it returns: nothing escapes.
        return try withoutActuallyEscaping(change) { change in
            try withoutActuallyEscaping(problem) { problem in
                try saving { document in
                    let chain = try BookmarkChain(document: document, pdf: score.path, index: index, text: text)
                    chain.problems.forEach(problem)
                    var manager = chain.manager
                    let result = try change(&manager, document)
                    try chain.save(manager, into: document, writingIndex: !dryRun)
                    return result
                }
            }
        }
    }

    /// Writes the providers whose bookmarks `edited` changed: the XMP into `document`
    /// (unsaved), the index file at once unless `writingIndex` is false.
    public func save(_ edited: BookmarkManager, into document: PDFDocument, writingIndex: Bool = true) throws {
        for (old, new) in zip(manager.providers, edited.providers) where old.bookmarks != new.bookmarks {
            if let xmp = new as? XMPBookmarkProvider {
                try xmp.write(to: document)
            } else if let csv = new as? CSVBookmarkProvider, let index, writingIndex {
                let text = csv.text(fileName: URL(fileURLWithPath: pdf).lastPathComponent,
                                    tabs: index.lowercased().hasSuffix(".tsv"))
                try SafeFile.write(to: index, bytes: Array(text.utf8))
            }
        }
    }

    /// The index's text; nil when there is no file yet. Refuses files over the index limit
    /// before reading them (`ScoreErrorCode.limitExceeded`) and text that is not UTF-8
    /// (`ScoreErrorCode.invalidValue`).
    public static func readIndex(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= CSVIndex.maxBytes else {
            throw ScoreError(.limitExceeded, "\(path): the index has \(size) bytes; at most \(CSVIndex.maxBytes) are read")
        }
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScoreError(.invalidValue, "\(path): not readable as UTF-8 text (\(error.localizedDescription))")
        }
    }
}
