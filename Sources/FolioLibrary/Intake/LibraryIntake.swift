#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import FolioPDF
import FolioScore
import Foundation

/// Whatever a musician drops into the library, made into what forScore makes of it
/// (`../shared/seeds/forscore-file-types.txt`), the kind told by content (`IntakeKind`),
/// never by name: a PDF, image, text or ChordPro file, or an RTF, Word or OpenDocument text
/// (converted by LibreOffice) becomes a score; a 4SS a setlist (forScore's matching rules,
/// placeholders for what is missing); a 4SB is imported (scores, metadata, bookmarks,
/// setlists, markings); a 4SC becomes a score with its metadata and markings; a CSV in
/// forScore's layout writes its metadata and bookmarks into the files it names, a CSV index
/// without file names becomes bookmarks of the score it is named after (or the one chosen);
/// an Open In dictionary gives its details to the score it is named after (or the one chosen).
/// `folio add` and the server's uploads both run ``add(file:name:catalog:options:)``.
/// Nothing in the library changes when a file is refused.
///
/// ```swift
/// let catalog = try LibraryCatalog(folder: "/scores", create: true)
/// let result = try LibraryIntake.add(file: "Koncert.4ss", catalog: catalog)
/// print(result.summary)   // "Koncert.4ss: forScore setlist → setlist "Koncert" (5 entries, 1 placeholder)"
/// ```
public enum LibraryIntake {
    /// How a file is taken in.
    ///
    /// ```swift
    /// var options = LibraryIntake.Options()
    /// options.score = "Real Book.pdf"   // where a CSV index's bookmarks go
    /// options.dryRun = true
    /// ```
    public struct Options: Sendable {
        /// Say what would become of the file; write nothing.
        public var dryRun = false
        /// The score (its path relative to the library) a CSV index's bookmarks or an Open In
        /// dictionary's details go to; nil: the score the file is named after.
        public var score: String?
        /// forScore's Open In dictionary that came with a file that becomes a score.
        public var openIn: Data?
        /// Whether a library CSV that sets scores' own fields is written (false: only a dry
        /// run, as the server shows it first). A CSV of bookmarks alone is always written.
        public var applyLibraryCSV = true
        /// Limits for reading PDFs.
        public var readOptions = PDFReadOptions()
        /// What a 4SB or 4SC may inflate to (see ``ForScoreImport/Limits``).
        public var forScore = ForScoreImport.Limits()
        /// How text and ChordPro are typeset.
        public var text = TextScore.Options()
        /// Office documents' converter (one conversion at a time per converter).
        public var converter = OfficeConverter()
        /// Who a change to an existing score (an index's bookmarks, a dictionary's details)
        /// is recorded as made by (see ``LibraryCatalog/edit(score:expected:change:author:right:marks:options:password:save:_:)``).
        public var author: String?

        public init() {}
    }

    /// What became of one file.
    ///
    /// ```swift
    /// let result = try LibraryIntake.add(file: "Ave Maria.docx", catalog: catalog)
    /// result.kind     // .docx
    /// result.scores   // ["Ave Maria.pdf"]
    /// ```
    public struct Result: Sendable, Equatable {
        /// The file's name as received.
        public var name: String
        public var kind: IntakeKind
        /// False for a dry run (or a library CSV shown first): nothing was written.
        public var applied: Bool
        /// One line for people: the file, its kind, what it became.
        public var summary: String
        /// The details: each setlist entry, archive file, changed field.
        public var lines: [String] = []
        /// Scores made, relative to the library.
        public var scores: [String] = []
        /// Scores changed, relative to the library.
        public var changed: [String] = []
        /// Setlists made.
        public var setlists: [String] = []
        /// What the caller should know (unknown keys, rows skipped).
        public var warnings: [String] = []
        /// Whether all of the file was taken: false when rows of a CSV were skipped or a
        /// score it names could not be changed (partial application is not success; the
        /// command line exits 1).
        public var complete = true
    }

    /// Takes in several files as one drop: the files that become scores first (told by
    /// their content), then the others in the order given — so a CSV index, a dictionary or
    /// a setlist dropped with its PDF finds it — and one that still finds no score of its
    /// name (`notFound`) once more at the end. `each` hears every file's outcome once, in
    /// the order taken. `folio add` runs it, and so does the server for a drop of several
    /// files (sent one by one, then taken together).
    ///
    /// ```swift
    /// LibraryIntake.addAll(files: ["Index.csv", "Book.pdf"], catalog: catalog) { file, outcome in print(file, outcome) }
    /// // Book.pdf taken first, then Index.csv, which finds it
    /// ```
    public static func addAll(files: [String], catalog: LibraryCatalog, options: Options = Options(),
                              each: (String, Swift.Result<Result, any Error>) -> Void) {
        addAll(files: files, catalog: catalog, options: { options }, each: each)
    }

    /// The same with options made for each file as its turn comes (a server's time budget
    /// starts for each file, not for the whole drop).
    public static func addAll(files: [String], catalog: LibraryCatalog, options: () -> Options,
                              each: (String, Swift.Result<Result, any Error>) -> Void) {
        let ordered = files.enumerated().map { index, file in
            (index, file, ((try? IntakeKind.of(file: file)) ?? nil)?.makesScore ?? false)
        }.sorted { ($0.2 ? 0 : 1, $0.0) < ($1.2 ? 0 : 1, $1.0) }.map(\.1)
        var waiting: [String] = []
        for file in ordered {
            do {
                each(file, .success(try add(file: file, catalog: catalog, options: options())))
            } catch let failure as any Failure where failure.kind == .notFound {
                waiting.append(file)
            } catch {
                each(file, .failure(error))
            }
        }
        for file in waiting {
            each(file, Swift.Result { try add(file: file, catalog: catalog, options: options()) })
        }
    }

    /// Takes in a copy of the file at `file` (left as it is), named `name` (default: its own).
    public static func add(file: String, name: String? = nil, catalog: LibraryCatalog, options: Options = Options()) throws -> Result {
        let name = name ?? (file as NSString).lastPathComponent
        let copy = try receive(copyOf: file, catalog: catalog)
        defer { unlink(copy) }
        return try take(received: copy, name: name, catalog: catalog, options: options)
    }

    /// Takes in `received`, a file written whole into the library's filesystem (the server's
    /// upload spool), which becomes the new score when it is one (moved in, never copied) and
    /// is otherwise left for the caller to discard. `kind` is the file's kind when the caller
    /// has told it already (`IntakeKind.of(file:)`), else it is told here.
    public static func take(received: String, name: String, kind known: IntakeKind? = nil, catalog: LibraryCatalog,
                            options: Options = Options()) throws -> Result {
        guard let kind = try known ?? IntakeKind.of(file: received) else {
            throw ScoreError(.invalidValue, IntakeKind.refusal(of: name))
        }
        var result = Result(name: name, kind: kind, applied: !options.dryRun, summary: "")
        let what = describe(kind)
        switch kind {
        case .pdf, .jpeg, .png, .text, .rtf, .doc, .docx, .odt:
            guard !options.dryRun else {
                result.summary = "\(name): \(what) → would become the score \(ScoreMetadata.title(forFile: name)).pdf"
                return result
            }
            let settled = try ScoreIntake.settle(file: received, name: name, openIn: options.openIn, readOptions: options.readOptions,
                                                 options: options.text, converter: options.converter)
            var names = LibraryFileName(folder: catalog.folder)
            let relative = try names.moveIn(settled.fileName, from: received)
            _ = try LibraryScanner(catalog: catalog).update(path: relative)
            result.scores = [relative]
            result.warnings = settled.warnings
            result.summary = "\(name): \(what) → score \(relative)"
        case .forScoreContainer:
            let (target, lines) = try ForScoreImport.importContainer(at: received, into: catalog.folder, dryRun: options.dryRun,
                                                                     fallbackName: name, limits: options.forScore)
            let relative = (target as NSString).lastPathComponent
            if !options.dryRun { _ = try LibraryScanner(catalog: catalog).update(path: relative) }
            result.scores = options.dryRun ? [] : [relative]
            result.lines = lines
            result.summary = "\(name): \(what) → \(options.dryRun ? "would become the score" : "score") \(relative)"
        case .forScoreArchive:
            let report = try ForScoreImport.importArchive(at: received, into: catalog.folder, dryRun: options.dryRun,
                                                         limits: options.forScore)
            result.lines = report.lines
            result.warnings = report.unread.map { "not read: \($0)" }
            result.summary = "\(name): \(what) (\(report.kind)) → \(options.dryRun ? "would import" : "imported") "
                + "\(report.files) file(s), \(report.setlists) setlist(s)"
            if !options.dryRun { _ = try LibraryScanner(catalog: catalog).scan() }
        case .setlist:
            let bytes = try ForScoreImport.readBounded(received, limit: OpenSetlist.maxFileSize)
            let plan = try SetlistImport.plan(try OpenSetlist(bytes: bytes), catalog: catalog)
            if !options.dryRun { try plan.apply(to: catalog) }
            result.lines = plan.lines.map(\.summary)
            let placeholders = plan.lines.filter { if case .placeholder = $0.outcome { true } else { false } }.count
            result.setlists = options.dryRun ? [] : [plan.name]
            result.summary = "\(name): \(what) → \(options.dryRun ? "would become the setlist" : "setlist") \"\(plan.name)\" "
                + "(\(plan.lines.count) entries, \(placeholders) placeholder(s))"
        case .csv:
            try takeCSV(received, name: name, catalog: catalog, options: options, into: &result)
        case .openIn:
            let data = Data(try ForScoreImport.readBounded(received, limit: OpenInDictionary.maxBytes))
            let (edit, notes) = try OpenInDictionary.edit(from: data)
            let target = try self.target(for: name, catalog: catalog, chosen: options.score, what: "an Open In dictionary")
            var change = ScoreChange()
            change.edit = edit
            result.lines = change.describe(current: ScoreMetadata()).map { "\($0.field): \($0.after)" }
            result.warnings = notes
            if !options.dryRun {
                result.warnings += try catalog.edit(score: target, expected: nil, change: "details from \(name)",
                                                    author: options.author, options: options.readOptions) { document in
                    try ScoreIntake.apply(data, to: document, date: Date())
                }.value
                result.changed = [target]
            }
            result.summary = "\(name): \(what) → \(options.dryRun ? "would set" : "set") \(result.lines.count) field(s) of \(target)"
        }
        return result
    }

    /// A CSV: with a Filename column, forScore's library layout (metadata and bookmarks of the
    /// files it names; shown first when it sets scores' own fields and the caller asks so);
    /// without, an index whose rows become bookmarks of one score.
    private static func takeCSV(_ received: String, name: String, catalog: LibraryCatalog, options: Options,
                                into result: inout Result) throws {
        let bytes = try ForScoreImport.readBounded(received, limit: CSVIndex.maxBytes)
        let text = try TextDecoding.decode(bytes).text
        if CSVIndex.headerFields(of: text).contains(.filename) {
            let sheet = try LibraryCSV.read(text)
            let hasScoreRows = sheet.files.contains { $0.score != nil }
            let dry = options.dryRun || (hasScoreRows && !options.applyLibraryCSV)
            let report = try LibraryCSVImport.run(text: text, catalog: catalog, dryRun: dry, author: options.author) { _ in }
            result.applied = !dry
            for outcome in report.outcomes {
                if let error = outcome.error { result.warnings.append("\(outcome.path): \(error)"); continue }
                result.lines += outcome.rows.map { "\(outcome.path): \($0.field): \($0.before.isEmpty ? "(none)" : $0.before) → \($0.after)" }
                if outcome.saved || (dry && !outcome.rows.isEmpty) { result.changed.append(outcome.path) }
            }
            result.warnings += report.problems
            result.complete = report.problems.isEmpty && !report.outcomes.contains { $0.error != nil }
            let files = Set(report.outcomes.filter { !$0.rows.isEmpty }.map(\.path)).count
            result.summary = "\(name): CSV in forScore's library layout → \(dry ? "would change" : "changed") \(files) score(s)"
                + (report.problems.isEmpty ? "" : ", \(report.problems.count) row(s) skipped")
            return
        }
        let target = try self.target(for: name, catalog: catalog, chosen: options.score, what: "a CSV index")
        let path = catalog.folder + "/" + target
        let dryRun = options.dryRun
        let index = BookmarkIndexImport(text: text, source: name)
        // Into the PDF's XMP, where the library's bookmarks are read from.
        let apply = { (document: ScoreFile.Document) throws -> BookmarkIndexImport.Report in
            let chain = try BookmarkChain(document: document, pdf: path, index: nil, text: nil)
            var manager = chain.manager
            let report = try index.apply(to: &manager, in: document)
            if !dryRun { try chain.save(manager, into: document) }
            return report
        }
        let report = options.dryRun
            ? try apply(try ScoreFile(path).open(limits: options.readOptions))
            : try catalog.edit(score: target, expected: nil, change: "bookmarks from \(name)", author: options.author,
                               options: options.readOptions, apply).value
        if !options.dryRun { result.changed = [target] }
        let lines = report.added.map { "\($0.name ?? ""): pages \($0.pages.map { "\($0.lowerBound)–\($0.upperBound)" } ?? "?")" }
        let warnings = report.problems.map { "\($0); skipped" }
        result.lines = lines
        result.warnings += warnings
        result.complete = report.problems.isEmpty
        result.summary = "\(name): CSV index → \(options.dryRun ? "would add" : "added") \(lines.count) bookmark(s) to \(target)"
    }

    /// The score a CSV index or a dictionary goes to: the one chosen (a path relative to the
    /// library), else the one named like the file (exact, then ignoring case, then diacritics).
    static func target(for name: String, catalog: LibraryCatalog, chosen: String?, what: String) throws -> String {
        if let chosen {
            let relative = try catalog.resolve(fileName: chosen)
            guard relative.lowercased().hasSuffix(".pdf") else { throw LibraryError(.invalidArgument, "\(chosen) is not a PDF score") }
            return relative
        }
        let stem = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let match = try catalog.setlistMatcher().score(path: stem + ".pdf") else {
            throw LibraryError(.notFound, "\(name) is \(what) and no score is named \(stem).pdf: choose the score it belongs to")
        }
        return match.path
    }

    /// Copies `file` into the library's upload folder (`.folio/uploads`, where the server
    /// spools uploads too), so that what becomes a score is moved in, not copied twice.
    static func receive(copyOf file: String, catalog: LibraryCatalog) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw LibraryError(.notFound, "cannot open \(file): no such file")
        }
        guard !isDirectory.boolValue else { throw LibraryError(.invalidArgument, "\(file) is a folder; give the files in it") }
        let folder = catalog.folder + "/.folio/uploads"
        let copy = folder + "/upload-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).part"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: copy)
        } catch {
            unlink(copy)
            throw LibraryError(.io, "cannot copy \(file) into \(folder): \(error.localizedDescription)")
        }
        return copy
    }

    /// The kind in words.
    public static func describe(_ kind: IntakeKind) -> String {
        switch kind {
        case .pdf: "PDF"
        case .jpeg: "JPEG image"
        case .png: "PNG image"
        case .text: "text"
        case .rtf: "RTF document"
        case .doc: "Word 97 document"
        case .docx: "Word document"
        case .odt: "OpenDocument text"
        case .setlist: "forScore setlist (4SS)"
        case .forScoreArchive: "forScore backup (4SB)"
        case .forScoreContainer: "forScore container (4SC)"
        case .csv: "CSV"
        case .openIn: "Open In dictionary"
        }
    }
}
