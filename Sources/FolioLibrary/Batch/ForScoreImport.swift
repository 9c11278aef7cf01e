import FolioPDF
import FolioScore
import Foundation

/// Brings forScore's backups, archives (4SB) and containers (4SC) into a folder, with
/// everything forScore knew written into the PDFs themselves (`ForScoreMarkings`) and
/// the setlists stored in the folder's catalog.
///
/// An archive's files are first written, complete, into a hidden staging folder inside
/// the target; only when every file has been read, opened and marked are they moved to
/// their names (free names: nothing existing is overwritten). A backup (no files) marks
/// the PDFs already in the folder, matched by file name as 4SS matching does, each
/// replaced atomically after all are ready. On any error the folder is left as it was.
///
/// ```swift
/// let report = try ForScoreImport.importArchive(at: "Archive.4sb", into: "/scores", dryRun: true)
/// report.lines.forEach { print($0) }
/// ```
public enum ForScoreImport {
    /// What an import did (or, with `dryRun`, would do): files, setlists and what was not read.
    ///
    /// ```swift
    /// let report = try ForScoreImport.importArchive(at: "Backup.4sb", into: "/scores", dryRun: true)
    /// print(report.kind, report.files, report.setlists, report.unread)
    /// ```
    public struct Report: Sendable {
        public var kind: String
        /// One line per file, setlist and skipped marking.
        public var lines: [String] = []
        /// Keys of the metadata not applied, with why.
        public var unread: [String] = []
        public var files = 0
        public var setlists = 0
    }

    /// What one import may cost. Every record is inflated under a bound as its bytes come: an
    /// archive's files straight into files of the staging folder (the memory of one piece,
    /// whatever their size), its metadata and drawings into memory, and all of them together
    /// under ``total``; a 4SC's property list holds its PDF, so it is inflated into memory
    /// under ``container``. Past a bound the import fails with `limitExceeded`, nothing written.
    ///
    /// ```swift
    /// let limits = ForScoreImport.Limits.server(read: .server(seconds: 20))
    /// let report = try ForScoreImport.importArchive(at: "Archive.4sb", into: "/scores", limits: limits)
    /// ```
    public struct Limits: Sendable {
        /// An archive's metadata record (record 0), inflated.
        public var metadata = ForScoreArchive.maxMetadataSize
        /// One drawing (a page's picture) of an archive, inflated.
        public var drawing = 256 << 20
        /// One file of an archive, inflated (onto disk).
        public var file = ForScoreArchive.maxFileSize
        /// All of an archive's records together, inflated.
        public var total = 64 << 30
        /// A 4SC's whole property list (its PDF included), inflated.
        public var container = ForScoreContainer.maxSize
        /// How the PDFs are read and marked.
        public var read = PDFReadOptions()

        public init() {}

        /// The bounds `folio serve` imports with, where many requests share one machine:
        /// metadata 16 MiB, a drawing 16 MiB, a file (on disk) 256 MiB as an upload, 1 GiB in all,
        /// a 4SC 64 MiB (its property list, its PDF and the marked copy are all in memory).
        public static func server(read: PDFReadOptions) -> Limits {
            var limits = Limits()
            limits.metadata = 16 << 20
            limits.drawing = 16 << 20
            limits.file = 256 << 20
            limits.total = 1 << 30
            limits.container = 64 << 20
            limits.read = read
            return limits
        }
    }

    /// What is left of ``Limits/total`` while one archive is read.
    private struct Budget {
        var left: Int
        let total: Int

        /// Inflates one record with `inflate`, which is given the most it may produce: what is
        /// left, and at most `limit`. Past what is left, the error says the archive's total.
        mutating func inflate(_ limit: Int, _ inflate: (Int) throws -> Int) throws {
            let bound = min(limit, left)
            let produced: Int
            do { produced = try inflate(bound) } catch let error as ScoreError where error.code == .limitExceeded && bound < limit {
                throw ScoreError(.limitExceeded, "the archive inflates to more than \(total) bytes in all (valid: up to \(total)); nothing was imported")
            }
            left -= produced
        }
    }

    public static func importArchive(at path: String, into folder: String, dryRun: Bool = false, limits: Limits = Limits()) throws -> Report {
        let archive = try ForScoreArchive(path: path)
        for record in archive.records {
            guard let name = record.documentName ?? record.drawingLayer?.file, let refusal = refusal(ofName: name) else { continue }
            throw LibraryError(.invalidArgument, "the archive's file name \(refusal); nothing was imported")
        }
        var budget = Budget(left: limits.total, total: limits.total)
        var plist: [UInt8] = []
        try budget.inflate(limits.metadata) { bound in
            plist = try archive.payload(of: archive.records[0], limit: bound)
            return plist.count
        }
        let data = try ForScoreLibraryData(plist: plist, source: "record 0 (\(archive.records[0].name))")
        var report = Report(kind: archive.kind.rawValue)
        report.unread = data.unread
        if data.settingsSkipped > 0 { report.lines.append("\(data.settingsSkipped) forScore settings (&SYS;) ignored") }
        var layers: [String: [(page: Int, layer: String?, record: ForScoreArchive.Record)]] = [:]
        for record in archive.records {
            if let layer = record.drawingLayer { layers[layer.file, default: []].append((layer.page, layer.layer, record)) }
        }
        // A dry run reads the folder (which may not exist yet) and never creates a catalog.
        let catalog = dryRun ? nil : try LibraryCatalog(folder: folder, create: true)
        if let catalog { _ = try LibraryScanner(catalog: catalog).scan() }
        let base = catalog?.folder ?? URL(fileURLWithPath: folder).standardizedFileURL.path
        let staging = Staging(folder: base)
        defer { staging.remove() }
        var renamed: [String: String] = [:]

        if archive.kind == .archive {
            var names = LibraryFileName(folder: base)
            var staged: [(file: String, final: String)] = []
            // Every file's name first: a score's tracks name audio files that may come after it.
            let documents = archive.records.dropFirst().compactMap { record in record.documentName.map { (record, $0) } }
            let finals = documents.map { _, name in names.claim(name, extension: (name as NSString).pathExtension.lowercased()) }
            for ((_, name), final) in zip(documents, finals) { renamed[name] = final }
            for ((record, name), final) in zip(documents, finals) {
                let isPDF = (name as NSString).pathExtension.lowercased() == "pdf"
                var file = data.files[name] ?? ForScoreLibraryData.File(name: name)
                file.tracks = file.tracks.map { track in
                    var track = track
                    track.file = renamed[track.file] ?? renamed[(track.file as NSString).lastPathComponent] ?? track.file
                    return track
                }
                var line = "\(name) → \(final)"
                if dryRun {
                    if isPDF {
                        line += ": \(ScoreEditSummary.fields(file)) fields, \(file.bookmarks.count) bookmarks, "
                            + "\(file.textBoxes.values.reduce(0) { $0 + $1.count }) text boxes, \(layers[name]?.count ?? 0) drawing layers"
                    }
                    report.lines.append(line)
                    report.files += 1
                    continue
                }
                let stagedFile = try staging.file(index: staged.count)
                try budget.inflate(limits.file) { bound in try archive.extract(record, to: stagedFile, limit: bound) }
                if isPDF {
                    file.drawings += try drawings(layers[name] ?? [], in: archive, limits: limits, budget: &budget)
                    let applied = try mark(stagedFile, with: file, name: name, options: limits.read)
                    line += ": " + describe(applied)
                    report.lines += notes(applied, name: name)
                }
                staged.append((stagedFile, final))
                report.lines.append(line)
                report.files += 1
            }
            for item in staged { try staging.place(item.file, at: (base as NSString).appendingPathComponent(item.final)) }
        } else {
            let matcher = try catalog?.setlistMatcher() ?? SetlistMatcher(scores: [], bookmarks: [])
            var updates: [(file: String, target: String, size: Int)] = []
            for name in data.fileNames {
                guard var file = data.files[name], file.hasMetadata || !file.bookmarks.isEmpty || !file.textBoxes.isEmpty || !file.pages.isEmpty
                        || !file.tracks.isEmpty
                        || layers[name] != nil else { continue }
                guard let match = dryRun ? try dryMatch(name, in: base) : matcher.score(path: name) else {
                    report.lines.append("\(name): no such PDF in \(folder); its metadata was not applied")
                    continue
                }
                renamed[name] = match.path
                let target = (base as NSString).appendingPathComponent(match.path)
                if dryRun {
                    report.lines.append("\(name) → \(match.path) (\(match.level.rawValue)): \(ScoreEditSummary.fields(file)) fields, \(file.bookmarks.count) bookmarks")
                    report.files += 1
                    continue
                }
                file.drawings += try drawings(layers[name] ?? [], in: archive, limits: limits, budget: &budget)
                guard let size = fileSize(target) else { throw LibraryError(.io, "cannot read \(match.path)") }
                let stagedFile = try staging.file(index: updates.count)
                let applied = try mark(target, into: stagedFile, with: file, name: match.path, options: limits.read)
                updates.append((stagedFile, target, size))
                report.lines.append("\(name) → \(match.path) (\(match.level.rawValue)): " + describe(applied))
                report.lines += notes(applied, name: name)
                report.files += 1
            }
            if !dryRun {
                for update in updates {
                    guard fileSize(update.target) == update.size else {
                        throw LibraryError(.io, "\(update.target) changed during the import; nothing more was written")
                    }
                    try staging.replace(update.target, with: update.file)
                }
            }
        }
        guard let catalog else {
            for setlist in data.setlists { report.lines.append("setlist \(setlist.title): \(setlist.entries.count) entries") }
            report.setlists = data.setlists.count
            return report
        }
        _ = try LibraryScanner(catalog: catalog).scan()
        let matcher = try catalog.setlistMatcher()
        for setlist in data.setlists {
            var name = setlist.title
            var number = 2
            while try catalog.hasSetlist(name) { name = "\(setlist.title) (forScore \(number))"; number += 1 }
            let targets: [SetlistTarget] = setlist.entries.map { entry in
                guard let path = entry.path else { return .placeholder(title: entry.title) }
                let local = renamed[path] ?? matcher.score(path: path)?.path
                guard let local else { return .placeholder(title: entry.title) }
                if entry.kind == .bookmark {
                    return matcher.bookmark(path: local, title: entry.title).map { .bookmark(path: $0.bookmark.path, title: $0.bookmark.title) }
                        ?? .placeholder(title: entry.title)
                }
                return .score(path: local)
            }
            try catalog.createSetlist(name, entries: targets)
            report.lines.append("setlist \(name): \(targets.count) entries, \(targets.filter { if case .placeholder = $0 { return true } else { return false } }.count) placeholders")
            report.setlists += 1
        }
        return report
    }

    /// Imports a 4SC into `folder`: the PDF with its metadata and markings, under the
    /// container's name (or `fallbackName`, by default the 4SC's own), made free. A name that
    /// leads out of the folder (`..`, an absolute path) is refused. Returns the new file's
    /// path and a report.
    public static func importContainer(at path: String, into folder: String, dryRun: Bool = false,
                                       fallbackName: String? = nil, limits: Limits = Limits()) throws -> (String, [String]) {
        let bytes = try readBounded(path, limit: limits.container)
        let container = try ForScoreContainer(bytes: bytes, limit: limits.container)
        if let name = container.name, let refusal = refusal(ofName: name) { throw LibraryError(.invalidArgument, "the container's file name \(refusal)") }
        var names = LibraryFileName(folder: folder)
        let fallback = (((fallbackName ?? path) as NSString).lastPathComponent as NSString).deletingPathExtension
        let final = names.claim(container.name ?? fallback)
        let target = (folder as NSString).appendingPathComponent(final)
        var file = container.file
        file.name = final
        let (marked, applied) = try mark(container.pdf, with: file, name: final, options: limits.read)
        var lines = ["\(container.name ?? fallback) → \(final): " + describe(applied)]
        lines += notes(applied, name: nil) + container.unread.map { "  not read: \($0)" }
        if !dryRun {
            do { try SafeFile.create(at: target, bytes: marked) } catch { throw LibraryError(.io, "cannot write \(target): \(error)") }
        }
        return (target, lines)
    }

    /// A 4SC of the PDF at `path`: the file with its metadata and bookmarks under forScore's keys.
    public static func exportContainer(pdf path: String) throws -> [UInt8] {
        let bytes = try readBounded(path, limit: ForScoreContainer.maxSize)
        let document = try PDFDocument(bytes: bytes)
        let (metadata, _) = ScoreMetadata.read(from: document)
        let bookmarks = XMPBookmarkProvider(document: document).bookmarks
        return try ForScoreContainer.encode(pdf: bytes, name: (path as NSString).lastPathComponent, metadata: metadata, bookmarks: bookmarks)
    }

    // MARK: Helpers

    /// Why a file name in a forScore archive or container is refused: it leads out of the
    /// folder it is imported into.
    static func refusal(ofName name: String) -> String? {
        if PathName.isAbsolute(name, windows: true) {
            return "\"\(name)\" is an absolute path (valid: a name inside forScore's Documents folder)"
        }
        if PathName.climbs(name, separators: "/\\") { return "\"\(name)\" leads out of the folder with .. (valid: a name inside forScore's Documents folder)" }
        return nil
    }

    private static func mark(_ bytes: [UInt8], with file: ForScoreLibraryData.File, name: String,
                             options: PDFReadOptions) throws -> ([UInt8], ForScoreMarkings.Applied) {
        try refusingUnmarkable(name) {
            let document = try PDFDocument(bytes: bytes, options: options)
            let applied = try ForScoreMarkings.apply(file, to: document)
            return (try PDFSaver.incrementalBytes(document), applied)
        }
    }

    /// Marks the PDF at `path` with an incremental update written to `output` (by default the
    /// file itself, a staged copy of the import's own); the PDF's bytes are read from the file, not copied into memory.
    private static func mark(_ path: String, into output: String? = nil, with file: ForScoreLibraryData.File, name: String,
                             options: PDFReadOptions) throws -> ForScoreMarkings.Applied {
        try refusingUnmarkable(name) {
            try PDFSaver.update(path: path, output: output ?? path, options: options) { try ForScoreMarkings.apply(file, to: $0) }
        }
    }

    private static func refusingUnmarkable<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as PDFError where error.code != .limitExceeded {
            throw LibraryError(.invalidArgument, "\(name) is not a PDF Folio can mark: \(error.message)")
        } catch let error as PDFError {
            throw ScoreError(.limitExceeded, "\(name): \(error.message)")
        }
    }

    private static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    private static func describe(_ applied: ForScoreMarkings.Applied) -> String {
        var parts = ["\(applied.fields) fields", "\(applied.bookmarks) bookmarks"]
        if applied.duplicateBookmarks > 0 { parts.append("\(applied.duplicateBookmarks) duplicate bookmarks dropped") }
        parts += ["\(applied.textBoxes) text boxes", "\(applied.drawingLayers) drawing layers"]
        if applied.layers > 0 { parts.append("\(applied.layers) named layers") }
        if applied.rotatedPages > 0 { parts.append("\(applied.rotatedPages) pages turned") }
        if applied.croppedPages > 0 { parts.append("\(applied.croppedPages) pages cropped") }
        if applied.tracks > 0 { parts.append("\(applied.tracks) audio tracks kept") }
        return parts.joined(separator: ", ")
    }

    /// The report's lines under a file: what is approximate and what was not written, with why.
    private static func notes(_ applied: ForScoreMarkings.Applied, name: String?) -> [String] {
        let prefix = name.map { "  \($0): " } ?? "  "
        return applied.approximated.map { prefix + "approximate: " + $0 } + applied.skipped.map { prefix + "not written: " + $0 }
    }

    /// The drawings an archive keeps for one file, read (each bounded by the canvas's size).
    private static func drawings(_ records: [(page: Int, layer: String?, record: ForScoreArchive.Record)],
                                 in archive: ForScoreArchive, limits: Limits, budget: inout Budget) throws -> [ForScoreLibraryData.Drawing] {
        try records.map { item in
            var png: [UInt8] = []
            try budget.inflate(limits.drawing) { bound in
                png = try archive.payload(of: item.record, limit: bound)
                return png.count
            }
            return ForScoreLibraryData.Drawing(page: item.page, layer: item.layer, png: png)
        }
    }

    private static func dryMatch(_ name: String, in folder: String) throws -> SetlistMatcher.ScoreMatch? {
        let files = ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).filter {
            $0.lowercased().hasSuffix(".pdf") && $0.unicodeScalars.first != "."
        }
        return SetlistMatcher(scores: files, bookmarks: []).score(path: name)
    }

    static func readBounded(_ path: String, limit: Int) throws -> [UInt8] {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw LibraryError(.notFound, "cannot open \(path): no such file")
        }
        guard size <= limit else { throw LibraryError(.invalidArgument, "\(path) is \(size) bytes (valid: up to \(limit))") }
        guard let data = FileManager.default.contents(atPath: path) else { throw LibraryError(.io, "cannot read \(path)") }
        return Array(data)
    }

    /// A hidden folder inside the target where files wait until all are ready.
    private final class Staging {
        let path: String
        private var created = false

        init(folder: String) {
            path = (folder as NSString).appendingPathComponent(".folio-import-\(UUID().uuidString.prefix(8))")
        }

        /// The path of staged file `index` (the folder made when first needed); the caller writes it.
        func file(index: Int) throws -> String {
            if !created {
                do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) } catch {
                    throw LibraryError(.io, "cannot create the staging folder \((path as NSString).lastPathComponent): \(error.localizedDescription)")
                }
                created = true
            }
            return (path as NSString).appendingPathComponent("\(index)")
        }

        /// Moves a staged file to a new name; never over an existing file.
        func place(_ file: String, at target: String) throws {
            guard link(file, target) == 0 else { throw LibraryError(.io, "cannot create \(target): \(String(cString: strerror(errno)))") }
            unlink(file)
        }

        func replace(_ target: String, with file: String) throws {
            guard rename(file, target) == 0 else { throw LibraryError(.io, "cannot replace \(target): \(String(cString: strerror(errno)))") }
        }

        func remove() {
            if created { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}

/// Counts for a plan line.
enum ScoreEditSummary {
    static func fields(_ file: ForScoreLibraryData.File) -> Int {
        file.hasMetadata ? ScoreEdit(setting: file.metadata).setFields.count : 0
    }
}
