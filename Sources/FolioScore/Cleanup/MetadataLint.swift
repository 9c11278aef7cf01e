import FolioPDF
import Foundation

/// One thing `folio lint` finds in a score's metadata.
///
/// ```swift
/// LintFinding(rule: "junk-value", severity: .warning, field: .composers,
///             message: "Author 'Administrator' is a user name, not a composer", fix: "clear composers")
/// ```
public struct LintFinding: Sendable, Equatable {
    /// How much a finding matters: info, warning or error.
    ///
    /// ```swift
    /// let serious = MetadataLint.check(document, fileName: "scan.pdf").findings.filter { $0.severity >= .warning }
    /// ```
    public enum Severity: String, Sendable, Comparable {
        case info, warning, error

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            let order: [Severity] = [.info, .warning, .error]
            return order.firstIndex(of: lhs) ?? 0 < order.firstIndex(of: rhs) ?? 0
        }
    }

    public let rule: String
    public let severity: Severity
    public let field: ScoreField?
    public let message: String
    /// The proposed fix in words; nil when there is none.
    public let fix: String?

    public init(rule: String, severity: Severity, field: ScoreField?, message: String, fix: String?) {
        self.rule = rule
        self.severity = severity
        self.field = field
        self.message = message
        self.fix = fix
    }
}

/// Junk metadata and the fixes `folio lint --fix` applies. Each field's stored text goes
/// through the rules in turn and what comes out is the proposed value, so a fixed file has
/// nothing left to fix. The rules:
///
/// - `junk-value` (warning): scanner, converter and application names or user names where
///   a title or composer belongs — "CamScanner", "Scanned Document", "Untitled",
///   "Document1", "Microsoft Word - x.docx" (→ "x"), Author "Administrator", "User",
///   "Owner", "Microsoft Office User"… The value is removed.
/// - `markup-residue` (warning): text mangled by flattening markup — HTML entities
///   ("&amp;"), TeX quotes ("`Raindrop'"), LilyPond/TeX commands ("\\markup", "\\bold",
///   braces), UTF-8 read as Latin-1 ("FaurÃ©"). Decoded or removed.
/// - `title-is-file-name` (info): a title that is a file name ("Etude_3.pdf", or the
///   file's own name with underscores): extension dropped, `_` read as a space.
/// - `whitespace` (info): white space around or doubled inside a value.
/// - `doubled-separator` (info): empty items between commas, or composers separated by
///   semicolons, which forScore reads as one composer.
/// - `duplicate-value` (info): the same value twice in a list (case and accents ignored).
/// - `special-keyword` (warning): a keyword forScore reads as special but cannot use
///   ("rating:x", "difficulty:7", a tag that looks like "keysf:…"): dropped, or clamped to
///   the valid range as forScore reads it.
/// - `legacy-keyword` (info): the retired `forScore-rating`/`forScore-difficulty` beside
///   (or instead of) `rating`/`difficulty`: rewritten as the current keywords.
/// - `info-xmp-mismatch` (warning): the Info dictionary and the XMP packet disagree on a
///   field; Info (what forScore reads) is written to both.
/// - `point-and-click` (warning): an engraver's `textedit:` links (``PointAndClickLinks``),
///   which leak the paths of its source files: removed.
///
/// ```swift
/// let report = MetadataLint.check(try PDFDocument(path: "scan.pdf"), fileName: "scan.pdf")
/// for finding in report.findings { print(finding.rule, finding.message) }
/// ```
public enum MetadataLint {
    /// The findings and the change fixing them.
    ///
    /// ```swift
    /// let report = MetadataLint.check(try ScoreFile("scan.pdf").open(), fileName: "scan.pdf")
    /// report.findings.forEach { print($0.rule, $0.message) }
    /// ```
    public struct Report: Sendable {
        public var findings: [LintFinding] = []
        public var change = ScoreChange()
    }

    public static func check(_ document: PDFDocument, fileName: String) -> Report {
        let stored = StoredScore(document)
        var xmp: InfoFields?
        if let packet = stored.xmp {
            let creators = packet.array(XMPPacket.dc, "creator")
            xmp = InfoFields(title: packet.text(XMPPacket.dc, "title"),
                             author: creators.isEmpty ? nil : creators.joined(separator: ", "),
                             subject: packet.text(XMPPacket.dc, "description"),
                             keywords: packet.text(XMPPacket.pdf, "Keywords"))
        }
        var current = ForScoreInfo.read(stored.fields).0
        current.labels = stored.labels
        current.reference = stored.reference
        var report = check(fields: stored.fields, info: stored.info, xmp: xmp, current: current, fileName: fileName)
        // The engraver's point-and-click links: junk of the same making, fixed in the same save.
        if let links = try? PointAndClickLinks.find(in: document), let finding = PointAndClickLinks.finding(links) {
            report.findings.append(finding)
            report.change.removedLinks = links.ids
        }
        return report
    }

    /// The same from text: `fields` as forScore reads them (Info, XMP where Info lacks a
    /// field), `info` and `xmp` each as stored, `current` the score as read.
    public static func check(fields: InfoFields, info: InfoFields, xmp: InfoFields?, current: ScoreMetadata,
                             fileName: String) -> Report {
        var report = Report()
        var edit = ScoreEdit()
        func find(_ rule: String, _ severity: LintFinding.Severity, _ field: ScoreField?, _ message: String,
                  _ fix: String?) {
            report.findings.append(LintFinding(rule: rule, severity: severity, field: field, message: message, fix: fix))
            if let field, report.change.reasons[field] == nil { report.change.reasons[field] = rule }
        }

        // Title.
        if let raw = fields.title {
            var value: String? = raw
            if let word = raw.range(of: #"^\s*microsoft\s+(word|excel|powerpoint)\s*-\s*"#,
                                    options: [.regularExpression, .caseInsensitive]) {
                let inner = String(raw[word.upperBound...])
                value = inner
                find("junk-value", .warning, .title, "Title '\(raw)' is Microsoft Office's name for the document",
                     "title → '\(inner)'")
            } else if isJunk(raw, names: junkTitles) {
                value = nil
                find("junk-value", .warning, .title, "Title '\(raw)' is a scanner's or application's placeholder",
                     "clear the title")
            }
            if let text = value {
                let decoded = decodeMarkup(text)
                if decoded != text {
                    find("markup-residue", .warning, .title, "Title '\(text)' holds flattened markup", "title → '\(decoded)'")
                    value = decoded
                }
            }
            if let text = value, let name = fileTitle(text, fileName: fileName) {
                find("title-is-file-name", .info, .title, "Title '\(text)' is a file name", "title → '\(name)'")
                value = name
            }
            if let text = value {
                let cleaned = collapsingWhitespace(text)
                if cleaned != text {
                    find("whitespace", .info, .title, "Title '\(text)' has stray white space", "title → '\(cleaned)'")
                    value = cleaned.isEmpty ? nil : cleaned
                }
            }
            if value != raw {
                if let value { edit.title = value } else { edit.cleared.insert(.title) }
            }
        }

        // Composers, genres: Author and Subject as stored.
        let lists: [(ScoreField, String, String?, [String])] = [
            (.composers, "Author", fields.author, current.composers), (.genres, "Subject", fields.subject, current.genres),
        ]
        for (field, key, raw, values) in lists {
            guard let raw else { continue }
            let before = report.findings.count
            let cleaned = cleanList(raw, key: key, field: field, junk: field == .composers, find: find)
            if rawNeedsRewrite(raw), report.findings.count == before {
                find("whitespace", .info, field, "\(key) '\(raw)' has stray white space", "rewrite as forScore writes it")
            }
            if cleaned != values || rawNeedsRewrite(raw) {
                if cleaned.isEmpty { edit.cleared.insert(field) } else if field == .composers {
                    edit.composers = cleaned
                } else {
                    edit.genres = cleaned
                }
            }
        }

        // Keywords: tags, then the special keywords.
        if let raw = fields.keywords {
            var rewrite = rawNeedsRewrite(raw)
            if rewrite, !hasEmptyItems(raw) {
                find("whitespace", .info, .tags, "Keywords '\(raw)' has stray white space", "rewrite as forScore writes it")
            } else if rewrite {
                find("doubled-separator", .info, .tags, "Keywords '\(raw)' has empty items between commas", "drop them")
            }
            for item in ForScoreInfo.split(raw) {
                let lower = item.lowercased()
                guard let colon = lower.firstIndex(of: ":") else { continue }
                let name = String(lower[..<colon]).trimmingCharacters(in: .whitespaces)
                let value = item[item.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                let ranges: [String: ClosedRange<Int>] = [
                    "rating": 0...5, "difficulty": 0...3, "duration": 0...Int.max, "seconds": 0...Int.max,
                    "keysf": -7...7, "keymi": 0...1, "forscore-rating": 0...5, "forscore-difficulty": 0...3,
                ]
                guard let range = ranges[name] else { continue }
                if name.hasPrefix("forscore-") {
                    find("legacy-keyword", .info, .tags, "keyword '\(item)' is forScore's retired form",
                         "rewrite as \(name.dropFirst(9)):")
                    rewrite = true
                } else if let number = Int(value) {
                    if !range.contains(number) {
                        find("special-keyword", .warning, .tags, "keyword '\(item)' is out of range (valid: "
                             + "\(range.lowerBound) to \(range.upperBound)); forScore clamps it", "write the clamped value")
                        rewrite = true
                    }
                } else {
                    find("special-keyword", .warning, .tags, "keyword '\(item)' looks special to forScore but '\(value)' "
                         + "is not a whole number, so it is neither a \(name) nor a tag", "drop it")
                    rewrite = true
                }
            }
            var tags = current.tags
            let cleaned = cleanList(tags.joined(separator: ","), key: "Keywords", field: .tags, junk: false, find: find)
            if cleaned != tags { tags = cleaned; rewrite = true }
            if rewrite { edit.tags = tags }
        }

        // Labels and the reference live in XMP only.
        let labels = cleanList(current.labels.joined(separator: ","), key: "labels", field: .labels, junk: false,
                               find: find)
        if labels != current.labels { if labels.isEmpty { edit.cleared.insert(.labels) } else { edit.labels = labels } }
        if let reference = current.reference, collapsingWhitespace(reference) != reference {
            find("whitespace", .info, .reference, "reference '\(reference)' has stray white space", "trim it")
            if collapsingWhitespace(reference).isEmpty { edit.cleared.insert(.reference) } else { edit.reference = collapsingWhitespace(reference) }
        }

        // Info and XMP, for fields no other rule rewrites.
        if let xmp {
            let pairs: [(ScoreField, String, String?, String?, Bool)] = [
                (.title, "Title/dc:title", info.title, xmp.title, false),
                (.composers, "Author/dc:creator", info.author, xmp.author, true),
                (.genres, "Subject/dc:description", info.subject, xmp.subject, false),
                (.tags, "Keywords/pdf:Keywords", info.keywords, xmp.keywords, true),
            ]
            for (field, names, infoValue, xmpValue, isList) in pairs {
                guard let infoValue, let xmpValue, !edit.changedFields.contains(field) else { continue }
                let same = isList ? ForScoreInfo.split(infoValue) == ForScoreInfo.split(xmpValue) : infoValue == xmpValue
                guard !same else { continue }
                find("info-xmp-mismatch", .warning, field, "\(names) disagree: '\(infoValue)' and '\(xmpValue)'",
                     "write Info's value to both")
                switch field {
                case .title: edit.title = current.title
                case .composers: edit.composers = current.composers
                case .genres: edit.genres = current.genres
                default: edit.tags = current.tags
                }
            }
        }
        report.change.edit = edit
        return report
    }

    // MARK: Rules

    static let junkTitles = [
        "untitled", "untitled document", "document", "new document", "scanned document", "scanned file", "scan",
        "camscanner", "scanned with camscanner", "adobe scan", "microsoft word", "pdf",
    ]
    static let junkAuthors = [
        "administrator", "admin", "user", "owner", "unknown", "default", "root", "guest", "microsoft office user",
        "windows user", "camscanner", "adobe scan", "scanner", "epson", "canon", "hp", "brother", "xerox",
        "authorname", "author", "name",
    ]

    static func isJunk(_ text: String, names: [String]) -> Bool {
        let value = collapsingWhitespace(text).lowercased()
        if names.contains(value) { return true }
        // Numbered placeholders and scanner file names: Document1, Untitled-2, Scan_20230101, IMG_0042, CamScanner 03-12-2023.
        return value.range(of: #"^(document|untitled|doc|scan|img|image|dsc|binder|camscanner|new document)[\s_-]*[0-9][0-9 ._:-]*$"#,
                           options: .regularExpression) != nil
            || value.hasPrefix("scanned with ") || value.hasPrefix("camscanner ")
    }


    /// Whether the stored list text has empty items between commas (",,", a trailing comma).
    static func hasEmptyItems(_ raw: String) -> Bool {
        let items = raw.split(separator: ",", omittingEmptySubsequences: false)
        return items.count > 1 && items.contains { $0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Whether the stored list text has empty items or stray white space around items.
    static func rawNeedsRewrite(_ raw: String) -> Bool {
        let items = raw.split(separator: ",", omittingEmptySubsequences: false)
        guard items.count > 1 || !raw.isEmpty else { return false }
        for (index, item) in items.enumerated() {
            if item.trimmingCharacters(in: .whitespaces).isEmpty { return true }
            let expected = index == 0 ? collapsingWhitespace(String(item)) : " " + collapsingWhitespace(String(item))
            if item != expected && item != collapsingWhitespace(String(item)) { return true }
        }
        return false
    }

    /// A list field's values after the rules, each finding reported.
    static func cleanList(_ raw: String, key: String, field: ScoreField, junk: Bool,
                          find: (String, LintFinding.Severity, ScoreField?, String, String?) -> Void) -> [String] {
        let pieces = raw.split(separator: ",", omittingEmptySubsequences: false)
        if hasEmptyItems(raw) {
            find("doubled-separator", .info, field, "\(key) '\(raw)' has empty items between commas", "drop them")
        }
        var values: [String] = []
        for piece in pieces {
            var parts = [String(piece)]
            if field == .composers, piece.contains(";") {
                parts = piece.split(separator: ";").map(String.init)
                find("doubled-separator", .info, field, "\(key) '\(piece.trimmingCharacters(in: .whitespaces))' separates "
                     + "composers with ';', which forScore reads as one", "split at ';'")
            }
            for part in parts {
                var value = part
                if value.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
                if collapsingWhitespace(trimmed) != trimmed {
                    find("whitespace", .info, field, "\(key) value '\(trimmed)' has doubled white space",
                         "'\(collapsingWhitespace(trimmed))'")
                }
                value = collapsingWhitespace(value)
                if junk, isJunk(value, names: junkAuthors) {
                    find("junk-value", .warning, field, "\(key) '\(value)' is a user or device name, not a composer",
                         "remove it")
                    continue
                }
                let decoded = decodeMarkup(value)
                if decoded != value {
                    find("markup-residue", .warning, field, "\(key) value '\(value)' holds flattened markup", "'\(decoded)'")
                    value = decoded
                }
                if ForScoreInfo.isSpecialKeyword(value), field == .tags { continue }
                if values.contains(where: { fold($0) == fold(value) }) {
                    find("duplicate-value", .info, field, "\(key) has '\(value)' twice", "keep one")
                    continue
                }
                if !value.isEmpty { values.append(value) }
            }
        }
        return values
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// `text` with flattened markup decoded: Latin-1 mojibake, HTML entities, TeX quotes,
    /// TeX/LilyPond commands and braces.
    static func decodeMarkup(_ text: String) -> String {
        var value = text
        // UTF-8 read as Latin-1 (or Windows-1252): "FaurÃ©" → "Fauré". Only when the bytes decode.
        if value.range(of: "[ÃÂâ][\u{80}-\u{BF}\u{152}\u{153}\u{160}\u{161}\u{178}\u{17D}\u{17E}\u{192}\u{2C6}\u{2DC}\u{2013}-\u{203A}\u{20AC}\u{2122}]",
                       options: .regularExpression) != nil,
           let bytes = value.data(using: .windowsCP1252) ?? value.data(using: .isoLatin1),
           let repaired = String(data: bytes, encoding: .utf8) {
            value = repaired
        }
        if value.contains("&") {
            let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&apos;": "'", "&#39;": "'",
                            "&nbsp;": " "]
            for (entity, character) in entities { value = value.replacingOccurrences(of: entity, with: character) }
            while let range = value.range(of: #"&#(x[0-9a-fA-F]{1,6}|[0-9]{1,7});"#, options: .regularExpression) {
                let body = value[range].dropFirst(2).dropLast()
                let number = body.hasPrefix("x") ? UInt32(body.dropFirst(), radix: 16) : UInt32(body)
                let scalar = number.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? ""
                value.replaceSubrange(range, with: scalar)
            }
        }
        if value.contains("\\") || value.contains("{") || value.contains("}") {
            value = value.replacingOccurrences(of: #"\\[A-Za-z]+\*?"#, with: "", options: .regularExpression)
            value = value.replacingOccurrences(of: #"[{}\\]"#, with: "", options: .regularExpression)
            value = collapsingWhitespace(value)
        }
        value = ProducerConventions.withoutTeXQuotes(value)
        value = value.replacingOccurrences(of: "``", with: "“").replacingOccurrences(of: "''", with: "”")
        return value
    }

    /// The readable title a file-name title stands for; nil when `title` is not one.
    static func fileTitle(_ title: String, fileName: String) -> String? {
        let stem = ((fileName as NSString).lastPathComponent as NSString).deletingPathExtension
        let lower = title.lowercased()
        let extensions = ["pdf", "doc", "docx", "odt", "rtf", "txt", "tif", "tiff", "jpg", "jpeg", "png"]
            + ProducerConventions.notationExtensions
        var value = title
        if let dot = lower.lastIndex(of: "."), extensions.contains(String(lower[lower.index(after: dot)...])) {
            value = String(title[..<title.index(title.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: dot))])
        } else if !(title == stem && title.contains("_")) {
            return nil
        }
        let readable = collapsingWhitespace(value.replacingOccurrences(of: "_", with: " "))
        return readable.isEmpty || readable == title ? nil : readable
    }
}
