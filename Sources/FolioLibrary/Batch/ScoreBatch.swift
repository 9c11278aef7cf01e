import FolioPDF
import FolioScore
import Foundation

/// Runs one change over many PDFs — `meta set`, `meta apply`, CSV import, `meta adopt`,
/// `meta from-names`, `lint --fix`: each file opened under its lock, the change computed from what it holds
/// then, applied and saved incrementally (nothing written when there is nothing to change),
/// each failure reported and the next file taken. A dry run opens files read-only and
/// writes nothing. A file catalogued in a library (see ``CatalogLocator``) is changed through the
/// library's edit path (`LibraryCatalog.edit`): the change is recorded for `folio undo` and the
/// catalog row updated at once; any other file is changed in place.
///
/// ```swift
/// let batch = ScoreBatch(dryRun: true)
/// batch.run(files: ["Faure.pdf"]) { document, path in ProducerConventions.change(for: document) } report: { outcome in
///     for row in outcome.rows { print(outcome.path, row.field, row.before, "→", row.after) }
/// }
/// ```
public struct ScoreBatch: Sendable {
    /// What happened to one file.
    ///
    /// ```swift
    /// let batch = ScoreBatch(dryRun: true)
    /// _ = batch.run(files: ["Fauré.pdf"]) { document, _ in ProducerConventions.change(for: document) } report: { outcome in
    ///     print(outcome.path, outcome.rows.count, outcome.error ?? "")
    /// }
    /// ```
    public struct Outcome: Sendable {
        /// As given to ``run(files:change:report:)``; a library path with ``run(library:change:report:)``.
        public var path: String
        /// The before → after table; empty when nothing changes.
        public var rows: [FieldChange] = []
        public var warnings: [String] = []
        /// Why the file was not changed; nil when it was (or had nothing to change).
        public var error: String?
        /// Whether the file was written.
        public var saved = false
    }

    public var dryRun: Bool
    public var password: String?
    /// Where the changed file goes instead of over the original (one file only).
    public var output: String?
    /// Whether list fields may hold commas (forScore splits them there).
    public var allowComma = true
    /// How each file is saved.
    public var saveOptions: @Sendable (String) -> SaveOptions
    /// What the change is called in a library's record of changes ("meta set").
    public var changeName = "Changed the metadata"
    /// Who makes the change, recorded with it.
    public var author: String?

    public init(dryRun: Bool, password: String? = nil,
                saveOptions: @escaping @Sendable (String) -> SaveOptions = { _ in SaveOptions() }) {
        self.dryRun = dryRun
        self.password = password
        self.saveOptions = saveOptions
    }

    /// Applies `change` to each file in turn; `report` hears of each. Returns whether every
    /// file was read (and, unless a dry run, saved).
    @discardableResult
    public func run(files: [String], change: (PDFDocument, String) throws -> ScoreChange,
                    report: (Outcome) -> Void) -> Bool {
        var succeeded = true
        var libraries = CatalogLocator()
        for path in files {
            var outcome = Outcome(path: path)
            do {
                if dryRun {
                    let document = try PDFDocument(path: path, password: password)
                    let planned = try change(document, path)
                    outcome.rows = planned.describe(current: ScoreMetadata.read(from: document).0)
                } else {
                    let apply = { (document: PDFDocument) throws -> Outcome in
                        var result = Outcome(path: path)
                        let planned = try change(document, path)
                        guard !planned.isEmpty else { return result }
                        result.rows = planned.describe(current: ScoreMetadata.read(from: document).0)
                        result.warnings = try planned.apply(to: document, allowComma: allowComma)
                        result.saved = document.hasChanges
                        return result
                    }
                    outcome = try libraries.update(file: path, output: output, password: password, save: saveOptions(path),
                                                   change: changeName, author: author, apply)
                }
            } catch {
                // PDFError, ScoreError and LibraryError describe themselves with offsets and ranges.
                outcome.error = "\(error)"
                succeeded = false
            }
            report(outcome)
        }
        return succeeded
    }

    /// The same over every catalogued score of `catalog`'s library, the catalog brought up to
    /// date first (a score added since the last scan is included, one removed is not tried).
    /// `change` and `report` see each score by its path inside the library. Every change goes
    /// through the library's edit path, so each is recorded and its row current at once.
    ///
    /// ```swift
    /// let catalog = try LibraryCatalog(folder: "Партитуры")
    /// var batch = ScoreBatch(dryRun: false)
    /// batch.changeName = "folio lint"
    /// try batch.run(library: catalog) { document, _ in ProducerConventions.change(for: document) } report: { outcome in
    ///     print(outcome.path, outcome.rows.count)
    /// }
    /// ```
    @discardableResult
    public func run(library catalog: LibraryCatalog, change: (PDFDocument, String) throws -> ScoreChange,
                    report: (Outcome) -> Void) throws -> Bool {
        _ = try LibraryScanner(catalog: catalog).scan()
        let relative = try catalog.paths()
        var shown: [String: String] = [:]
        for path in relative { shown[catalog.folder + "/" + path] = path }
        return run(files: relative.map { catalog.folder + "/" + $0 }) { document, path in
            try change(document, shown[path] ?? path)
        } report: { outcome in
            var outcome = outcome
            outcome.path = shown[outcome.path] ?? outcome.path
            report(outcome)
        }
    }
}
