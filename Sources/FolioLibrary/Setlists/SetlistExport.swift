import FolioPDF
import FolioScore
import Foundation

/// A setlist written as a forScore Open Setlist (4SS), and what the format could not carry
/// as the library holds it, one line per entry — for `folio setlist export` and the
/// server's download alike.
///
/// ```swift
/// let export = try catalog.openSetlist(named: "Koncert – Praha", embed: true)
/// try ExportFile.write(export.xml(), to: "Koncert.4ss")
/// for warning in export.warnings { print(warning) }   // 2. Menuet: its note "attacca" is not carried (a 4SS has no notes)
/// ```
public struct SetlistExport: Sendable {
    /// The file's content.
    public var setlist: OpenSetlist
    /// Each entry the file carries differently or not at all, with its position and title:
    /// a note (the format has none), a bookmark embedded as its own PDF. (A file that cannot
    /// be read to embed is an error, not a warning.)
    public var warnings: [String]

    /// The 4SS file's bytes.
    public func xml() -> [UInt8] { setlist.xml() }
}

extension LibraryCatalog {
    /// The setlist `name` as a 4SS file. Scores carry their path in the library and their
    /// title; bookmarks their book's path and their title; placeholders their title. With
    /// `embed`, every entry carries the PDF it needs in `data` (forScore 14.3 and later): a
    /// score its file, and a bookmark — the format has no data for a bookmark — its pages
    /// as a PDF of its own ("Book – Piece.pdf", beside the book), with the piece's metadata.
    /// Notes are not carried (the format has none) and are named in the warnings; a file
    /// that cannot be read to embed is an error, with nothing written.
    public func openSetlist(named name: String, embed: Bool = false) throws -> SetlistExport {
        try openSetlist(try setlist(named: name), embed: embed)
    }

    /// ``openSetlist(named:embed:)`` of a setlist already read (the server's view of one says
    /// what its download leaves out without reading it again).
    public func openSetlist(_ setlist: Setlist, embed: Bool = false) throws -> SetlistExport {
        var items: [OpenSetlist.Item] = []
        var warnings: [String] = []
        var books: [String: PDFDocument] = [:]
        for (offset, entry) in setlist.entries.enumerated() {
            let position = "\(offset + 1). \(entry.title)"
            if let note = entry.note {
                warnings.append("\(position): its note \"\(note)\" is not carried (a 4SS has no notes)")
            }
            switch entry.kind {
            case .score:
                guard let path = entry.path else { continue }
                // forScore matches by file name: the path relative to the library is kept
                // so that Folio finds the very file again, and its last part is the name.
                items.append(.score(path: path, title: entry.title, data: embed ? try bytes(of: path) : nil))
            case .bookmark:
                guard let path = entry.path else { continue }
                guard embed, let start = entry.start else {
                    items.append(.bookmark(path: path, title: entry.title))
                    continue
                }
                let book = try books[path] ?? document(path)
                books[path] = book
                let piece = try bookmarkPiece(of: book, path: path, title: entry.title, pages: start...(entry.end ?? start))
                let carried = try ScoreSplit.name(for: piece, number: offset + 1, file: ScoreMetadata.title(forFile: path),
                                                  template: "{file} – {title}.pdf")
                let folder = (path as NSString).deletingLastPathComponent
                let carriedPath = folder.isEmpty ? carried : (folder as NSString).appendingPathComponent(carried)
                items.append(.score(path: carriedPath, title: entry.title, data: try ScoreSplit.file(for: piece, of: book)))
                warnings.append("\(position): a bookmark of \(path), carried as its own PDF of pages \(piece.pages.lowerBound)–"
                    + "\(piece.pages.upperBound) (\(carriedPath)): a 4SS cannot embed a book for a bookmark")
            case .placeholder:
                items.append(.placeholder(title: entry.title))
            }
        }
        return SetlistExport(setlist: OpenSetlist(title: setlist.title, items: items), warnings: warnings)
    }

    /// The bytes of the library's file `path`, to embed (an error naming it when unreadable).
    private func bytes(of path: String) throws -> [UInt8] {
        guard let absolute = files.resolve(path), let bytes = FileManager.default.contents(atPath: absolute) else {
            throw LibraryError(.io, "cannot read \(path) to embed it; nothing was written")
        }
        return Array(bytes)
    }

    private func document(_ path: String) throws -> PDFDocument {
        guard let absolute = files.resolve(path) else { throw LibraryError(.io, "cannot read \(path) to embed it; nothing was written") }
        do { return try PDFDocument(path: absolute) } catch {
            throw LibraryError(.unreadable, "cannot read \(path) to embed its bookmark (\(error)); nothing was written")
        }
    }

    /// The piece a bookmark names: its stored bookmark or outline entry of that title and
    /// pages (its own metadata over the book's), else those pages under the bookmark's title.
    private func bookmarkPiece(of book: PDFDocument, path: String, title: String, pages: ClosedRange<Int>) throws -> ScoreSplit.Piece {
        guard pages.lowerBound >= 1, pages.upperBound <= book.pageCount else {
            throw LibraryError(.conflict, "the bookmark \(title) names pages \(pages.lowerBound)–\(pages.upperBound) of \(path), "
                + "which has \(book.pageCount) (valid: 1 to \(book.pageCount)); rescan the library")
        }
        for method in [ScoreSplit.Method.bookmarks, .toc] {
            if let found = (try? ScoreSplit.pieces(of: book, by: method))?.first(where: { $0.pages == pages && $0.title == title }) {
                return found
            }
        }
        var piece = try ScoreSplit.pieces(of: book, by: .ranges([pages]))[0]
        piece.title = title
        piece.metadata.title = title
        return piece
    }
}
