import FolioPDF
import Foundation

/// A score on disk, named by its path (and its password when it is encrypted): the one way
/// the shells open a score to read it or to save one edit of it.
///
/// Reading is lazy (only what is asked is parsed); ``update(output:saving:_:)`` is the
/// engine's safe save — the read, the edit and the incremental save happen under the file's
/// lock, and a failure leaves the file byte-identical.
///
/// ```swift
/// let score = ScoreFile("Dvořák – Humoreska.pdf")
/// let (metadata, _) = ScoreMetadata.read(from: try score.open())
/// try score.update { document in
///     var edit = ScoreEdit()
///     edit.title = "Humoreska Ges dur"
///     try ScoreChange(edit: edit, reading: document).apply(to: document)
/// }
/// ```
public struct ScoreFile: Sendable, Equatable {
    /// An open score: the engine's lazy document, which FolioScore's operations read and edit.
    public typealias Document = PDFDocument

    /// The file's path.
    public var path: String
    /// The password of an encrypted file (user or owner), if it needs one.
    public var password: String?

    /// A score at `path`.
    ///
    /// ```swift
    /// let score = ScoreFile("Смычковый квартет.pdf", password: "quartet")
    /// ```
    public init(_ path: String, password: String? = nil) {
        self.path = path
        self.password = password
    }

    /// Opens the score for reading.
    ///
    /// ```swift
    /// let pages = try ScoreFile("Ηχοι.pdf").open().pageCount
    /// ```
    public func open() throws -> Document {
        try PDFDocument(path: path, password: password)
    }

    /// Opens the score for reading under `limits`: a server's time budget and sizes, so a
    /// crafted file fails instead of taking a core.
    ///
    /// ```swift
    /// let pages = ScorePages.count(of: try ScoreFile("Ηχοι.pdf").open(limits: ScoreFile.serverLimits(seconds: 20)))
    /// ```
    public func open(limits: ReadLimits) throws -> Document {
        try PDFDocument(path: path, password: password, options: limits)
    }

    /// The limits a server reads scores under: its sizes, and `seconds` of work from now.
    ///
    /// ```swift
    /// let document = try ScoreFile("Ηχοι.pdf").open(limits: ScoreFile.serverLimits(seconds: 20))
    /// ```
    public static func serverLimits(seconds: Double) -> ReadLimits {
        .server(seconds: seconds)
    }

    /// Opens the score as a source of pages for a new file (merge, split, pages): an
    /// encrypted score only when `decrypt` allows its pages to be written decrypted. A wrong
    /// or missing password is an invalid value, as is an encrypted file without `decrypt`; a
    /// file that cannot be read is `unreadable`. Every message names the file.
    ///
    /// ```swift
    /// let book = try ScoreFile("Real Book.pdf").openAsSource(decrypt: false)
    /// ```
    public func openAsSource(decrypt: Bool) throws -> Document {
        let document: PDFDocument
        do { document = try open() } catch let error as PDFError {
            let refused = error.code == .wrongPassword || error.code == .passwordRequired
            throw ScoreError(refused ? .invalidValue : .unreadable, "\(path): \(error.description)")
        }
        if document.isEncrypted, !decrypt {
            throw ScoreError(.invalidValue, "\(path) is encrypted and its pages would be written decrypted; "
                + "pass --decrypt (and --password if it needs one) to allow that")
        }
        return document
    }

    /// Opens the score, lets `edit` change it and saves the change incrementally: in place
    /// under the file's lock, or to `output` (then the score is only read). Returns what
    /// `edit` returns; when anything throws, nothing is written.
    ///
    /// ```swift
    /// try ScoreFile("Chopin.pdf").update(saving: SaveOptions(method: .journal)) { document in
    ///     try ScorePages.setLabels("i-iv,1-", in: document)
    /// }
    /// ```
    @discardableResult
    public func update<T>(output: String? = nil, saving: SaveOptions = SaveOptions(),
                          _ edit: (Document) throws -> T) throws -> T {
        try PDFSaver.update(path: path, output: output, password: password, save: saving, edit: edit)
    }
}
