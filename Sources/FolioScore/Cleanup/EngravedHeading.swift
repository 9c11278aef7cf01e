import FolioPDF
import Foundation

/// The heading a notation program sets on a score's first page: the title largest, the
/// composer right-aligned under it, the lyricist left. MuseScore (3.x), Sibelius, Finale and
/// Dorico lay it out this way, and MuseScore writes the composer nowhere else in the file
/// (only the title reaches the Info dictionary), so the page is where a library finds it.
///
/// ```swift
/// let document = try PDFDocument(path: "Nocturne.pdf")   // made by MuseScore 3
/// if EngravedHeading.drawsComposerOnly(document.info.entries) {
///     EngravedHeading.composer(of: document)   // "John Field"
/// }
/// ```
public enum EngravedHeading {
    /// The programs whose files keep the composer only on the page, as `/Creator` or
    /// `/Producer` name them.
    public static let programs = ["MuseScore", "Sibelius", "Finale", "Dorico"]

    /// Whether a notation program of ``programs`` made the file and its Info dictionary
    /// names no author.
    public static func drawsComposerOnly(_ entries: [String: String]) -> Bool {
        let maker = [entries["Creator"], entries["Producer"]].compactMap { $0 }.joined(separator: " ")
        let author = entries["Author"]?.trimmingCharacters(in: .whitespaces) ?? ""
        return author.isEmpty && programs.contains { maker.range(of: $0, options: .caseInsensitive) != nil }
    }

    /// The composer in the first page's heading; nil when the page has none that looks like one.
    public static func composer(of document: PDFDocument) -> String? {
        guard document.pageCount > 0, let page = try? document.page(at: 0),
              let lines = try? document.textLines(ofPage: 0) else { return nil }
        guard let box = page.cropBox ?? page.mediaBox, box.count == 4 else { return nil }
        return composer(in: lines, box: PDFRect(x1: min(box[0], box[2]), y1: min(box[1], box[3]),
                                                x2: max(box[0], box[2]), y2: max(box[1], box[3])))
    }

    /// The composer among a page's `lines` (its box `box`): in the top 30 % of the page, the
    /// title is the largest line; the composer the topmost smaller line at or below the title's
    /// baseline that starts right of the middle and ends in the right quarter — "Music by",
    /// "arr." and such prefixes dropped, at most 100 characters, with a letter in it.
    ///
    /// ```swift
    /// let lines = try document.textLines(ofPage: 0)
    /// EngravedHeading.composer(in: lines, box: PDFRect(x1: 0, y1: 0, x2: 595, y2: 842))   // "John Field"
    /// ```
    public static func composer(in lines: [PDFTextLine], box: PDFRect) -> String? {
        let width = box.x2 - box.x1, height = box.y2 - box.y1
        guard width > 0, height > 0 else { return nil }
        let heading = lines.filter { $0.y >= box.y2 - 0.3 * height && $0.y <= box.y2 }
        guard let title = heading.max(by: { $0.size < $1.size || ($0.size == $1.size && $0.y < $1.y) }) else { return nil }
        let candidates = heading.filter { line in
            line.size < title.size * 0.95 && line.y <= title.y + 1
                && line.x > box.x1 + width * 0.5 && line.maxX > box.x1 + width * 0.75
        }
        guard let line = candidates.max(by: { $0.y < $1.y }) else { return nil }
        var text = line.text
        if let prefix = text.range(of: #"^(music|musique|musik|musica|música|composed|komponiert|comp\.)(\s+(by|de|von|di|par))?\s*:?\s+"#,
                                   options: [.regularExpression, .caseInsensitive]) {
            text.removeSubrange(prefix)
        }
        text = ProducerConventions.withoutRolePrefix(text)
        guard !text.isEmpty, text.count <= 100, text.contains(where: \.isLetter) else { return nil }
        return text
    }
}
