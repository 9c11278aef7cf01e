import Foundation

/// What a file dropped into the library is, told by its content, never by its name: a
/// `.pdf` that is really RTF is an RTF document, a `.txt` that is really a forScore setlist
/// is a setlist. Each kind becomes what forScore makes of it
/// (`../shared/seeds/forscore-file-types.txt`; see `LibraryIntake` in FolioLibrary).
///
/// ```swift
/// IntakeKind.of(bytes: Array(#"{\rtf1\ansi Ave Maria}"#.utf8))   // .rtf
/// IntakeKind.of(bytes: Array("Title,Page\nVltava,3\n".utf8))     // .csv
/// ```
public enum IntakeKind: String, Sendable, CaseIterable, Codable {
    /// A PDF: a score as it is.
    case pdf
    /// A JPEG or PNG image: a score of one page.
    case jpeg, png
    /// Plain text or ChordPro: typeset into a score.
    case text
    /// Office documents: converted by LibreOffice into a score.
    case rtf, doc, docx, odt
    /// forScore's Open Setlist (4SS): a setlist.
    case setlist
    /// forScore's backup or archive (4SB): scores, metadata, bookmarks, setlists, markings.
    case forScoreArchive
    /// forScore's container (4SC): one score with its metadata and markings.
    case forScoreContainer
    /// A CSV or TSV in forScore's layout or with an index's header (title and page columns):
    /// metadata of the files it names, or bookmarks of one score.
    case csv
    /// forScore's Open In dictionary (JSON or a property list): details of a score.
    case openIn

    /// The office format LibreOffice converts, for the office kinds.
    public var officeFormat: OfficeConverter.Format? {
        switch self {
        case .rtf: .rtf
        case .doc: .doc
        case .docx: .docx
        case .odt: .odt
        default: nil
        }
    }

    /// Whether the kind becomes a new score file.
    public var makesScore: Bool {
        [.pdf, .jpeg, .png, .text, .rtf, .doc, .docx, .odt, .forScoreContainer].contains(self)
    }

    /// What a refusal says of a file `name` whose kind Folio does not take.
    ///
    /// ```swift
    /// IntakeKind.refusal(of: "Píseň.xlsx")   // "Píseň.xlsx is none of the kinds Folio takes in: …"
    /// ```
    public static func refusal(of name: String) -> String {
        "\(name) is none of the kinds Folio takes in: PDF, JPEG, PNG, text or ChordPro, RTF, Word (DOC, DOCX), "
            + "OpenDocument text, forScore's 4SS, 4SB and 4SC, CSV, Open In dictionaries"
    }

    static let compoundSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// How many bytes from the start ``of(bytes:tail:)`` needs to tell a kind (a ZIP also needs its end).
    public static let headLength = 64 << 10

    /// The kind of the file at `path`, from its first 64 KiB (and, for a ZIP, its last
    /// 64 KiB, where the directory of its parts is); nil for a kind Folio does not take.
    public static func of(file path: String) throws -> IntakeKind? {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ScoreError(.invalidValue, "\(path) cannot be read") }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: headLength)) ?? Data())
        var tail: [UInt8] = []
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]), let size = try? handle.seekToEnd() {
            try? handle.seek(toOffset: size > UInt64(headLength) ? size - UInt64(headLength) : 0)
            tail = Array((try? handle.read(upToCount: headLength)) ?? Data())
        } else if head.starts(with: compoundSignature), let directory = compoundDirectory(head) {
            try? handle.seek(toOffset: UInt64(directory))
            tail = Array((try? handle.read(upToCount: 4096)) ?? Data())
        }
        return of(bytes: head, tail: tail)
    }

    /// The kind of a file that starts with `bytes` (its first ``headLength`` bytes suffice)
    /// and, for a ZIP, ends with `tail` — for a compound file, `tail` is its directory sector
    /// (the whole file's bytes serve for all).
    public static func of(bytes: [UInt8], tail: [UInt8]? = nil) -> IntakeKind? {
        let head = Array(bytes.prefix(headLength))
        let end = tail.flatMap { $0.isEmpty ? nil : $0 } ?? Array(bytes.suffix(headLength))
        if head.starts(with: Array("<--4SBV0".utf8)) { return .forScoreArchive }
        if head.starts(with: [0x1F, 0x8B]) { return .forScoreContainer }
        if head.starts(with: Array("bplist00".utf8)) { return .openIn }
        if head.starts(with: compoundSignature) {
            // A Word 97 document is a compound file with a "WordDocument" stream in its directory.
            let name = "WordDocument".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let directory = compoundDirectory(head).map { Array(bytes.dropFirst($0).prefix(4096)) } ?? []
            return contains(directory + (tail ?? []), sequence: name) ? .doc : nil
        }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            if contains(head.prefix(256), ascii: "mimetypeapplication/vnd.oasis.opendocument.text") { return .odt }
            return contains(end, ascii: "word/document.xml") ? .docx : nil
        }
        guard let base = ScoreIntake.kind(of: head) else { return nil }
        switch base {
        case .pdf: return .pdf
        case .jpeg: return .jpeg
        case .png: return .png
        case .text: break
        }
        guard let text = try? TextDecoding.decode(Array(head)).text else { return .text }
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if start.hasPrefix(#"{\rtf"#) { return .rtf }
        if start.hasPrefix("<") {
            if start.range(of: "<forScore") != nil, start.range(of: "setlist") != nil { return .setlist }
            if start.range(of: "<plist") != nil { return .openIn }
            return .text
        }
        if start.hasPrefix("{"), bytes.count < OpenInDictionary.maxBytes,
           (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] {
            return .openIn
        }
        let fields = CSVIndex.headerFields(of: String(start))
        if fields.contains(.filename) && fields.count >= 2 || fields.contains(.title) && fields.contains(.start) {
            return .csv
        }
        return .text
    }

    /// Where a compound file's (Word 97's) first directory sector is: after the 512-byte
    /// header, sector `first` of 2^shift bytes.
    static func compoundDirectory(_ head: [UInt8]) -> Int? {
        guard head.count >= 52 else { return nil }
        let shift = Int(head[30]) | Int(head[31]) << 8
        let first = Int(head[48]) | Int(head[49]) << 8 | Int(head[50]) << 16 | Int(head[51]) << 24
        guard shift == 9 || shift == 12, first < 0xFFFF_FFFA else { return nil }
        return (first + 1) << shift
    }

    private static func contains(_ bytes: some Collection<UInt8>, ascii: String) -> Bool {
        contains(Array(bytes), sequence: Array(ascii.utf8))
    }

    private static func contains(_ haystack: [UInt8], sequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
