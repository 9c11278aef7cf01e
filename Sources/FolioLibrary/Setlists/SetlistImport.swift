import FolioPDF
import FolioScore
import Foundation

/// Imports a forScore Open Setlist (4SS) into a library, as forScore does: embedded PDFs
/// are written into the library (under a free name, after the engine has opened them),
/// scores are matched by path and bookmarks by path and title — exact, then ignoring
/// case, then ignoring case and diacritics — and what is not found becomes a placeholder
/// (a score without a title is omitted).
///
/// ```swift
/// let plan = try SetlistImport.plan(OpenSetlist(bytes: xml), catalog: catalog)
/// for line in plan.lines { print(line.summary) }
/// try plan.apply(to: catalog)
/// ```
public struct SetlistImport: Sendable {
    /// What became of one element of the file.
    ///
    /// ```swift
    /// let plan = try SetlistImport.plan(try OpenSetlist(bytes: bytes), catalog: catalog)
    /// for line in plan.lines { if case .placeholder(let title, let reason) = line.outcome { print(title, reason) } }
    /// ```
    public enum Outcome: Sendable, Equatable {
        case score(path: String, level: SetlistMatchLevel, candidates: Int)
        case bookmark(path: String, title: String, start: Int, end: Int, level: SetlistMatchLevel)
        /// Embedded PDF data, to be written under this name.
        case written(path: String, pages: Int)
        case placeholder(title: String, reason: String)
        case omitted(reason: String)
    }

    /// One element of the setlist file and what became of it.
    ///
    /// ```swift
    /// plan.lines.forEach { print($0.index, $0.summary) }
    /// ```
    public struct Line: Sendable, Equatable {
        /// 1-based position of the element in the file.
        public var index: Int
        public var element: String
        public var path: String?
        public var title: String?
        public var outcome: Outcome

        /// One line for people: what the element was and what became of it.
        public var summary: String {
            let what = "\(index). \(element) " + [title.map { "\"\($0)\"" }, path].compactMap { $0 }.joined(separator: " ")
            switch outcome {
            case .score(let found, let level, let candidates):
                return "\(what): score \(found) (\(level.rawValue)\(candidates > 1 ? ", first of \(candidates) files" : ""))"
            case .bookmark(let found, let title, let start, let end, let level):
                return "\(what): bookmark \"\(title)\" in \(found), pages \(start)–\(end) (\(level.rawValue))"
            case .written(let found, let pages):
                return "\(what): embedded PDF written to \(found) (\(pages) pages)"
            case .placeholder(let title, let reason):
                return "\(what): placeholder \"\(title)\" (\(reason))"
            case .omitted(let reason):
                return "\(what): omitted (\(reason))"
            }
        }
    }

    public var name: String
    public var lines: [Line]
    /// Embedded PDFs to write, by file name.
    var files: [(name: String, bytes: [UInt8])]

    public static func plan(_ setlist: OpenSetlist, catalog: LibraryCatalog, name: String? = nil) throws -> SetlistImport {
        let matcher = try catalog.setlistMatcher()
        var names = LibraryFileName(folder: catalog.folder)
        var lines: [Line] = []
        var files: [(name: String, bytes: [UInt8])] = []
        for (offset, item) in setlist.items.enumerated() {
            let index = offset + 1
            switch item {
            case .score(let path, let title, let data?):
                let pages: Int
                do {
                    let document = try PDFDocument(bytes: data)
                    pages = document.pageCount
                    guard pages > 0 else { throw PDFError(.damaged, "it has no pages") }
                } catch {
                    throw LibraryError(.invalidArgument, "element \(index) (score \(path)) embeds data that is not a PDF Folio can open: \(error)")
                }
                let file = names.claim(path)
                files.append((file, data))
                lines.append(Line(index: index, element: "score", path: path, title: title, outcome: .written(path: file, pages: pages)))
            case .score(let path, let title, nil):
                if let match = matcher.score(path: path) {
                    lines.append(Line(index: index, element: "score", path: path, title: title,
                                      outcome: .score(path: match.path, level: match.level, candidates: match.candidates)))
                } else if let title {
                    lines.append(Line(index: index, element: "score", path: path, title: title,
                                      outcome: .placeholder(title: title, reason: "no file \(path) in the library")))
                } else {
                    lines.append(Line(index: index, element: "score", path: path, title: nil,
                                      outcome: .omitted(reason: "no file \(path) in the library, and no title for a placeholder")))
                }
            case .bookmark(let path, let title):
                if let match = matcher.bookmark(path: path, title: title) {
                    lines.append(Line(index: index, element: "bookmark", path: path, title: title,
                                      outcome: .bookmark(path: match.bookmark.path, title: match.bookmark.title,
                                                         start: match.bookmark.start, end: match.bookmark.end, level: match.level)))
                } else {
                    let reason = matcher.score(path: path) == nil ? "no file \(path) in the library" : "\(path) has no bookmark of that title"
                    lines.append(Line(index: index, element: "bookmark", path: path, title: title,
                                      outcome: .placeholder(title: title, reason: reason)))
                }
            case .placeholder(let title):
                lines.append(Line(index: index, element: "placeholder", path: nil, title: title,
                                  outcome: .placeholder(title: title, reason: "a placeholder in the file")))
            }
        }
        return SetlistImport(name: name ?? setlist.title, lines: lines, files: files)
    }

    /// Writes the embedded PDFs (each new file created atomically, never over another),
    /// catalogues them and stores the setlist. On an error the files written are removed
    /// and no setlist is stored.
    public func apply(to catalog: LibraryCatalog, folder setlistFolder: String? = nil, replace: Bool = false) throws {
        if !replace, try catalog.hasSetlist(name) {
            throw LibraryError(.taken, "a setlist named \(name) already exists (replace it, or import under another name)")
        }
        var written: [String] = []
        do {
            for file in files {
                let path = (catalog.folder as NSString).appendingPathComponent(file.name)
                do {
                    try SafeFile.create(at: path, bytes: file.bytes)
                } catch {
                    throw LibraryError(.io, "cannot write \(path): \(error)")
                }
                written.append(path)
            }
            if !files.isEmpty { _ = try LibraryScanner(catalog: catalog).scan() }
            var entries: [LibraryCatalog.StoredSetlistEntry] = []
            for line in lines {
                switch line.outcome {
                case .score(let path, _, _), .written(let path, _):
                    entries.append(try catalog.storedEntry(.score(path: path)).0)
                case .bookmark(let path, let title, _, _, _):
                    entries.append(try catalog.storedEntry(.bookmark(path: path, title: title)).0)
                case .placeholder(let title, _):
                    entries.append(LibraryCatalog.StoredSetlistEntry(kind: .placeholder, title: title))
                case .omitted:
                    continue
                }
            }
            try catalog.storeSetlist(name, folder: setlistFolder, entries: entries, replace: replace)
        } catch {
            for path in written { try? FileManager.default.removeItem(atPath: path) }
            if !written.isEmpty { _ = try? LibraryScanner(catalog: catalog).scan() }
            throw error
        }
    }
}
