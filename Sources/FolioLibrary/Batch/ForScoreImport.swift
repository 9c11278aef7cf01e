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

    public static func importArchive(at path: String, into folder: String, dryRun: Bool = false) throws -> Report {
        let archive = try ForScoreArchive(path: path)
        for record in archive.records {
            guard let name = record.documentName ?? record.drawingLayer?.file, let refusal = refusal(ofName: name) else { continue }
            throw LibraryError(.invalidArgument, "the archive's file name \(refusal); nothing was imported")
        }
        let data = try archive.metadata()
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
                var bytes = try archive.payload(of: record)
                if isPDF {
                    file.drawings += try drawings(layers[name] ?? [], in: archive)
                    let (marked, applied) = try mark(bytes, with: file, name: name)
                    bytes = marked
                    line += ": " + describe(applied)
                    report.lines += notes(applied, name: name)
                }
                staged.append((try staging.write(bytes, index: staged.count), final))
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
                file.drawings += try drawings(layers[name] ?? [], in: archive)
                guard let original = FileManager.default.contents(atPath: target) else { throw LibraryError(.io, "cannot read \(target)") }
                let (marked, applied) = try mark(Array(original), with: file, name: match.path)
                updates.append((try staging.write(marked, index: updates.count), target, original.count))
                report.lines.append("\(name) → \(match.path) (\(match.level.rawValue)): " + describe(applied))
                report.lines += notes(applied, name: name)
                report.files += 1
            }
            if !dryRun {
                for update in updates {
                    let size = (try? FileManager.default.attributesOfItem(atPath: update.target)[.size] as? Int) ?? -1
                    guard size == update.size else { throw LibraryError(.io, "\(update.target) changed during the import; nothing more was written") }
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
                                       fallbackName: String? = nil) throws -> (String, [String]) {
        let bytes = try readBounded(path, limit: ForScoreContainer.maxSize)
        let container = try ForScoreContainer(bytes: bytes)
        if let name = container.name, let refusal = refusal(ofName: name) { throw LibraryError(.invalidArgument, "the container's file name \(refusal)") }
        var names = LibraryFileName(folder: folder)
        let fallback = (((fallbackName ?? path) as NSString).lastPathComponent as NSString).deletingPathExtension
        let final = names.claim(container.name ?? fallback)
        let target = (folder as NSString).appendingPathComponent(final)
        var file = container.file
        file.name = final
        let (marked, applied) = try mark(container.pdf, with: file, name: final)
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

    private static func mark(_ bytes: [UInt8], with file: ForScoreLibraryData.File, name: String) throws -> ([UInt8], ForScoreMarkings.Applied) {
        do {
            let document = try PDFDocument(bytes: bytes)
            let applied = try ForScoreMarkings.apply(file, to: document)
            return (try PDFSaver.incrementalBytes(document), applied)
        } catch let error as PDFError {
            throw LibraryError(.invalidArgument, "\(name) is not a PDF Folio can mark: \(error.message)")
        }
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
                                 in archive: ForScoreArchive) throws -> [ForScoreLibraryData.Drawing] {
        try records.map { item in
            ForScoreLibraryData.Drawing(page: item.page, layer: item.layer, png: try archive.payload(of: item.record, limit: 256 << 20))
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

        func write(_ bytes: [UInt8], index: Int) throws -> String {
            if !created {
                do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) } catch {
                    throw LibraryError(.io, "cannot create \(path): \(error.localizedDescription)")
                }
                created = true
            }
            let file = (path as NSString).appendingPathComponent("\(index)")
            do { try SafeFile.write(to: file, bytes: bytes) } catch { throw LibraryError(.io, "cannot write \(file): \(error)") }
            return file
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
