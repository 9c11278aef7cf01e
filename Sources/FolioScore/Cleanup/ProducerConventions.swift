import FolioPDF
import Foundation

/// Notation programs' own metadata conventions, taken into forScore's fields
/// (`folio meta adopt`). A field that already has a value is never changed, so adopting
/// twice changes nothing. The rules, in order:
///
/// - `composer`: LilyPond writes the composer to a custom `/Composer` Info entry and never
///   to Author. With no composers, `/Composer` becomes the composer: life dates in
///   parentheses ("(1833-1897)") are dropped, and what follows them or a comma before
///   "Op."/"Opus"/a catalogue number ("M. Clementi, Opus 36 No. 1") becomes the reference
///   when there is none; text after a semicolon ("Traditional; 16th Century English
///   melody") is left in `/Composer` only.
/// - `arranger`: `/Arranger` joins the composers, after the composer, its "arr. by",
///   "Arreglo por"… prefix dropped. `/Poet` (the lyricist) is no composer and is left where it
///   is; the catalog shows and searches it as the lyricist (`ScoreCredit` in FolioLibrary).
/// - `page-heading`: a file from a notation program that writes the composer only on the page
///   (MuseScore, Sibelius, Finale, Dorico: `/Creator` or `/Producer` names it) and names no
///   one in its Info dictionary takes the composer from the first page's heading, where these
///   programs set it: right-aligned under the title (``EngravedHeading``).
/// - `subtitle`: `/Subtitle` that is a catalogue number ("KV 397 (385g)", "D 899-3",
///   "Op. 28 No. 15") becomes the reference; any other subtitle is added to the title in
///   parentheses ("Prelude (Raindrop)"), TeX quotes removed.
/// - `opus`: `/Opus` becomes the reference.
/// - `title-extension`: a title that is a notation file's name (MuseScore `.mscz`/`.mscx`,
///   Sibelius `.sib`, Finale `.mus`/`.musx`, Dorico `.dorico`, LilyPond `.ly`, MusicXML
///   `.mxl`/`.musicxml`/`.xml`, LibreOffice `.odt`, Word `.doc`/`.docx`) loses the extension.
/// - `title-whitespace`: white space around a title taken from a notation program is trimmed.
///
/// ```swift
/// let change = ProducerConventions.change(for: try PDFDocument(path: "Faure-Apres_un_Reve_Op_7.pdf"))
/// change.edit.composers   // ["Gabriel Fauré"] (Romain Bussine, the poet, stays in /Poet)
/// ```
public enum ProducerConventions {
    /// The change adopting `document`'s conventions; empty when there is nothing to take.
    public static func change(for document: PDFDocument) -> ScoreChange {
        let current = ScoreMetadata.read(from: document).0
        return change(entries: document.info.entries, current: current,
                      found: current.composers.isEmpty ? people(of: document) : ([], nil))
    }

    /// The same, from the Info entries and the score as forScore reads it.
    public static func change(entries: [String: String], current: ScoreMetadata) -> ScoreChange {
        change(entries: entries, current: current, found: people(in: entries))
    }

    /// The people of ``people(in:)``, and when the Info dictionary names none and a notation
    /// program that draws the composer only on the page made the file, the composer of its
    /// first page's heading (``EngravedHeading/composer(of:)``, rule `page-heading`).
    ///
    /// ```swift
    /// ProducerConventions.people(of: try PDFDocument(path: "Nocturne (MuseScore).pdf")).people.map(\.name)   // ["John Field"]
    /// ```
    public static func people(of document: PDFDocument) -> (people: [(name: String, rule: String)], reference: String?) {
        let entries = document.info.entries
        let found = people(in: entries)
        guard found.people.isEmpty, EngravedHeading.drawsComposerOnly(entries), let composer = EngravedHeading.composer(of: document) else {
            return found
        }
        let (name, rest) = splitComposer(composer)
        guard !name.isEmpty, !name.contains(",") else { return found }
        return ([(name, "page-heading")], found.reference ?? rest)
    }

    private static func change(entries: [String: String], current: ScoreMetadata,
                               found: (people: [(name: String, rule: String)], reference: String?)) -> ScoreChange {
        var change = ScoreChange()
        var reference = current.reference
        var referenceReason: String?
        func offerReference(_ text: String, _ rule: String) {
            guard reference == nil, !text.isEmpty else { return }
            reference = text
            referenceReason = rule
        }
        if current.composers.isEmpty {
            if let rest = found.reference { offerReference(rest, "composer") }
            // A poet wrote the words, not the music: they stay in /Poet (the catalog credits them
            // as the lyricist), never among the composers forScore reads.
            let composers = found.people.filter { $0.rule != "poet" }
            if !composers.isEmpty {
                change.edit.composers = composers.map(\.name)
                change.reasons[.composers] = composers.map(\.rule).joined(separator: "+")
            }
        }
        var title = current.title
        if let current = title, let extensionless = withoutNotationExtension(current) {
            title = extensionless
            change.reasons[.title] = "title-extension"
        }
        if let subtitle = entries["Subtitle"].map(collapsingWhitespace).map(withoutTeXQuotes), !subtitle.isEmpty {
            if isCatalogueNumber(subtitle) {
                offerReference(subtitle, "subtitle")
            } else if let base = title.map(collapsingWhitespace), !base.isEmpty, !base.contains(subtitle) {
                title = "\(base) (\(subtitle))"
                change.reasons[.title] = "subtitle"
            }
        }
        if let opus = entries["Opus"].map(collapsingWhitespace), !opus.isEmpty { offerReference(opus, "opus") }
        if let original = current.title, let new = title.map(collapsingWhitespace), !new.isEmpty, new != original {
            change.edit.title = new
            change.reasons[.title] = change.reasons[.title] ?? "title-whitespace"
        }
        if current.reference == nil, let reference {
            change.edit.reference = reference
            change.reasons[.reference] = referenceReason
        }
        return change
    }

    /// The people an engraver wrote where forScore does not look, in order: the composer
    /// (LilyPond's `/Composer`), the arranger (`/Arranger`) and the poet (`/Poet`), each
    /// with the rule that found them; and what followed the composer's name (a catalogue
    /// number, kept for the reference). A name with a comma is left out (forScore would read
    /// it as two). The catalog shows these people when forScore's fields name none; the file
    /// is not changed (`folio meta adopt` writes them).
    ///
    /// ```swift
    /// let found = ProducerConventions.people(in: ["Composer": "Johannes Brahms (1833-1897)",
    ///                                             "Arranger": "Arreglo por Diego F. Guillen"])
    /// found.people.map(\.name)   // ["Johannes Brahms", "Diego F. Guillen"]
    /// ```
    public static func people(in entries: [String: String]) -> (people: [(name: String, rule: String)], reference: String?) {
        var people: [(name: String, rule: String)] = []
        var reference: String?
        if let composer = entries["Composer"].map(collapsingWhitespace), !composer.isEmpty {
            let (name, rest) = splitComposer(composer)
            if !name.isEmpty { people.append((name, "composer")) }
            reference = rest
        }
        for (key, rule) in [("Arranger", "arranger"), ("Poet", "poet")] {
            guard let value = entries[key].map(collapsingWhitespace), !value.isEmpty else { continue }
            let name = withoutRolePrefix(value)
            if !name.isEmpty, !people.contains(where: { $0.name == name }) { people.append((name, rule)) }
        }
        return (people.filter { !$0.name.contains(",") }, reference)
    }

    /// "Johannes Brahms (1833-1897)" → ("Johannes Brahms", nil); "Franz Schubert (1797-1828)
    /// D 899 (Op. 90 No3., 1827)" → ("Franz Schubert", "D 899 (Op. 90 No3., 1827)");
    /// "M. Clementi, Opus 36 No. 1" → ("M. Clementi", "Opus 36 No. 1").
    static func splitComposer(_ text: String) -> (name: String, rest: String?) {
        var name = text
        if let semicolon = name.firstIndex(of: ";") { name = String(name[..<semicolon]) }
        if let dates = name.range(of: #"\(\s*(c\.\s*)?\d{3,4}\s*[-–—]\s*(c\.\s*)?\d{0,4}\s*\)"#, options: .regularExpression) {
            let rest = collapsingWhitespace(String(name[dates.upperBound...]))
            return (collapsingWhitespace(String(name[..<dates.lowerBound])), rest.isEmpty ? nil : rest)
        }
        if let comma = name.firstIndex(of: ","), isCatalogueNumber(collapsingWhitespace(String(name[name.index(after: comma)...]))) {
            return (collapsingWhitespace(String(name[..<comma])), collapsingWhitespace(String(name[name.index(after: comma)...])))
        }
        return (collapsingWhitespace(name), nil)
    }

    /// Catalogue numbers: Op./Opus, BWV, KV/K., D, L, Hob., WoO, RV, HWV, S., TWV, Sz, M. followed by a number.
    static func isCatalogueNumber(_ text: String) -> Bool {
        text.range(of: #"^(op\.?|opus|bwv|kv|k\.|d|l|hob\.?|woo|rv|hwv|s\.|twv|sz|m\.)\s*[0-9IVX]"#,
                   options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// "Arreglo por Diego F. Guillen" → "Diego F. Guillen"; "Poésie de Romain Bussine." → "Romain Bussine".
    static func withoutRolePrefix(_ text: String) -> String {
        var value = text
        let pattern = #"^(arr\.?|arranged|arrangement|arreglo|arrangiert|bearbeitet|bearb\.|transcribed|transcr\.?|"#
            + #"words|text|lyrics|poem|poésie|poesie|poème|paroles|poesía|letra|texte?|dichtung|worte)"#
            + #"(\s+(by|de|por|von|from|par))?\s*:?\s+"#
        if let prefix = value.range(of: pattern, options: [.regularExpression, .caseInsensitive]) {
            value.removeSubrange(prefix)
        }
        if let dates = value.range(of: #"\s*\(\s*\d{3,4}\s*[-–—]\s*\d{0,4}\s*\)"#, options: .regularExpression) {
            value.removeSubrange(dates)
        }
        value = collapsingWhitespace(value)
        // A sentence's full stop goes; an initial's ("Diego F.") stays.
        if value.hasSuffix("."), let last = value.split(separator: " ").last, last.count > 2 { value.removeLast() }
        return value
    }

    /// LilyPond's TeX-style quotes: "`Raindrop'" → "Raindrop".
    static func withoutTeXQuotes(_ text: String) -> String {
        var value = text
        for (open, close) in [("``", "''"), ("`", "'")] where value.hasPrefix(open) && value.hasSuffix(close)
            && value.count > open.count + close.count {
            value = String(value.dropFirst(open.count).dropLast(close.count))
            break
        }
        return value
    }

    static let notationExtensions = ["mscz", "mscx", "sib", "mus", "musx", "dorico", "ly", "mxl", "musicxml", "xml",
                                     "odt", "doc", "docx"]

    /// The title without a notation program's file extension; nil when it has none.
    static func withoutNotationExtension(_ title: String) -> String? {
        let trimmed = collapsingWhitespace(title)
        guard let dot = trimmed.lastIndex(of: "."), dot != trimmed.startIndex else { return nil }
        let ext = trimmed[trimmed.index(after: dot)...].lowercased()
        guard notationExtensions.contains(ext) else { return nil }
        return collapsingWhitespace(String(trimmed[..<dot]))
    }
}
