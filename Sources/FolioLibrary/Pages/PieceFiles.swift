import FolioPDF
import FolioScore
import Foundation

/// Splitting an anthology into one file per piece and merging files into one: the one
/// home of both, for `folio split`, `folio merge` and the server's split and merge. New
/// files are never written over existing ones (a split numbers a taken name; a merge
/// refuses it); a split that fails removes the pieces it wrote; in a library the new files
/// are catalogued at once.
///
/// ```swift
/// let split = try PieceFiles.split(PieceFiles.SplitRequest(file: "Real Book.pdf", by: "toc"))
/// split.pieces.map(\.path)   // ["01 Blue Bossa.pdf", …]
/// ```
public enum PieceFiles {
    /// What to split and how.
    public struct SplitRequest: Sendable {
        /// The anthology.
        public var file: String
        /// bookmarks, toc, or page ranges such as "1-4,5-9"; nil: bookmarks when the file
        /// has any, else the outline.
        public var by: String?
        /// Where the pieces go; nil: beside the file.
        public var folder: String?
        /// The file name template: {n} (or {n:02}), {title}, {composer}, {start}, {end}, {file}.
        public var template = PieceFiles.defaultTemplate
        public var password: String?
        /// Whether an encrypted file may be split (the pieces are written decrypted).
        public var decrypt = false
        /// Name the pieces, write nothing.
        public var dryRun = false
        /// Refuse a damaged file (`PDFDocument.damage`) instead of splitting it with a warning.
        public var strict = false

        public init(file: String, by: String? = nil, folder: String? = nil) {
            (self.file, self.by, self.folder) = (file, by, folder)
        }

        /// The folder the pieces go to: ``folder``, else the file's own.
        public var destination: String {
            let beside = (file as NSString).deletingLastPathComponent
            return folder ?? (beside.isEmpty ? "." : beside)
        }
    }

    /// One piece written (or, in a dry run, planned): its pages, title and new file.
    public struct WrittenPiece: Sendable, Equatable {
        public var title: String
        public var pages: ClosedRange<Int>
        public var path: String
    }

    /// What a split did: the pieces, the folder they are in, and what it warns of (a damaged
    /// file's pieces may be incomplete).
    public struct SplitResult: Sendable, Equatable {
        public var folder: String
        public var pieces: [WrittenPiece]
        public var warnings: [String] = []
    }

    /// The warning for a damaged source (nil when sound), or the refusal when `strict`.
    static func damageWarning(_ document: ScoreFile.Document, name: String, strict: Bool) throws -> String? {
        guard let damage = document.damage else { return nil }
        if strict { throw LibraryError(.unreadable, "\(name) is damaged (\(damage)); refused (strict), nothing was written") }
        return "\(name) is damaged (\(damage)); its pages are copied as read"
    }

    /// The name pieces get unless told: "01 Blue Bossa.pdf".
    public static let defaultTemplate = "{n:02} {title}.pdf"

    /// Splits `request.file` into its pieces; when `catalog` is given (the file is in that
    /// library), the new files are catalogued. On a failure the pieces written are removed.
    public static func split(_ request: SplitRequest, catalog: LibraryCatalog? = nil) throws -> SplitResult {
        let document = try ScoreFile(request.file, password: request.password).openAsSource(decrypt: request.decrypt)
        let method = try request.by.map { try ScoreSplit.Method(parsing: $0, pageCount: document.pageCount) }
        let pieces = try ScoreSplit.pieces(of: document, by: method)
        let warnings = try damageWarning(document, name: request.file, strict: request.strict).map { [$0] } ?? []
        let outline = document.outline()
        let folder = request.destination
        let source = ScoreMetadata.title(forFile: request.file)
        var names = LibraryFileName(folder: folder)
        let planned = try pieces.enumerated().map { index, piece in
            let name = names.claim(try ScoreSplit.name(for: piece, number: index + 1, file: source, template: request.template))
            return WrittenPiece(title: piece.title, pages: piece.pages, path: (folder as NSString).appendingPathComponent(name))
        }
        guard !request.dryRun else { return SplitResult(folder: folder, pieces: planned, warnings: warnings) }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw LibraryError(.io, "cannot create \(folder): \(error.localizedDescription)")
        }
        var written: [String] = []
        do {
            for (piece, target) in zip(pieces, planned) {
                try ExportFile.create(try ScoreSplit.file(for: piece, of: document, outline: outline), at: target.path)
                written.append(target.path)
            }
        } catch {
            for path in written { try? FileManager.default.removeItem(atPath: path) }
            let failure = error as? any Failure
            throw LibraryError(failure?.kind == .noSpace ? .noSpace : .io,
                               "\(failure?.message ?? "\(error)"); the \(written.count) pieces written were removed")
        }
        if let catalog { try catalogue(written, in: catalog) }
        return SplitResult(folder: folder, pieces: planned, warnings: warnings)
    }

    /// What to merge: the files in order, the new file, its title.
    public struct MergeRequest: Sendable {
        public var files: [String]
        /// The PDF to create; it must not exist.
        public var output: String
        public var title: String?
        public var password: String?
        public var decrypt = false
        /// Refuse damaged files (`PDFDocument.damage`) instead of merging them with a warning.
        public var strict = false
        /// Check and plan, write nothing.
        public var dryRun = false

        public init(files: [String], output: String, title: String? = nil) {
            (self.files, self.output, self.title) = (files, output, title)
        }
    }

    /// What a merge wrote: each file's pages in the new one, and what it gave up.
    public struct MergeResult: Sendable, Equatable {
        public var output: String
        public var pieces: [PageRangeBookmark]
        public var warnings: [String]
        public var pages: Int { pieces.last?.end ?? 0 }
    }

    /// Merges `request.files` into a new file, each with an outline entry and a bookmark
    /// carrying its metadata; when `catalog` is given, the new file is catalogued.
    public static func merge(_ request: MergeRequest, catalog: LibraryCatalog? = nil) throws -> MergeResult {
        guard !request.files.isEmpty else { throw LibraryError(.invalidArgument, "no files to merge") }
        if FileManager.default.fileExists(atPath: request.output) {
            throw LibraryError(.invalidArgument, "\(request.output) exists; Folio never overwrites it (choose another name)")
        }
        var damaged: [String] = []
        let pieces = try request.files.map {
            let document = try ScoreFile($0, password: request.password).openAsSource(decrypt: request.decrypt)
            if let warning = try damageWarning(document, name: $0, strict: request.strict) { damaged.append(warning) }
            return ScoreMerge.Piece(document: document, name: ($0 as NSString).lastPathComponent)
        }
        let merged = try ScoreMerge.merge(pieces, title: request.title)
        if !request.dryRun {
            try ExportFile.create(merged.bytes, at: request.output)
            if let catalog { try catalogue([request.output], in: catalog) }
        }
        return MergeResult(output: request.output, pieces: merged.pieces, warnings: damaged + merged.warnings)
    }

    /// Brings new files into the catalog, by their paths inside the library.
    private static func catalogue(_ paths: [String], in catalog: LibraryCatalog) throws {
        let scanner = LibraryScanner(catalog: catalog)
        for path in paths {
            guard let relative = catalog.files.relative(path) else { continue }
            _ = try scanner.update(path: relative)
        }
    }
}
