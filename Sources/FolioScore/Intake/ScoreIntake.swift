import FolioPDF
import Foundation

/// A file received for the library — uploaded, or opened in from another app — made into
/// the PDF to store: a PDF as it came (checked to open), images (JPEG, PNG) one per page,
/// text or ChordPro typeset; then forScore's Open In dictionary, when one came with it,
/// applied as an incremental update. The kind is told by content, never by name alone.
///
/// ```swift
/// let made = try ScoreIntake.make(name: "Autumn Leaves.jpg", bytes: jpeg,
///                                 openIn: Data(#"{"composers": "Joseph Kosma"}"#.utf8))
/// made.fileName   // "Autumn Leaves.pdf"
/// ```
public enum ScoreIntake {
    /// What a received file is, by its first bytes (and, for text, by decoding as text).
    ///
    /// ```swift
    /// ScoreIntake.kind(of: Array("Ой, то не вечер\n".utf8))   // .text
    /// ```
    public enum Kind: String, Sendable {
        case pdf, jpeg, png, text
    }

    /// What to store: the PDF's bytes, the name to give it (the received name with `.pdf`),
    /// and notes about the dictionary (unknown keys) or the typesetting.
    ///
    /// ```swift
    /// let made = try ScoreIntake.make(name: "Písnička.txt", bytes: Array("Ach synku, synku\n".utf8))
    /// made.fileName   // "Písnička.pdf"
    /// ```
    public struct Made: Sendable {
        public var bytes: [UInt8]
        public var fileName: String
        public var kind: Kind
        public var warnings: [String]
    }

    /// The kind of `bytes`; nil for anything else (an executable, an archive, a Word file).
    /// A PDF's header may follow up to 1,024 bytes of junk, as readers allow.
    public static func kind(of bytes: [UInt8]) -> Kind? {
        let head = bytes.prefix(1024)
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        let marker = Array("%PDF-".utf8)
        if head.count >= marker.count,
           (0...(head.count - marker.count)).contains(where: { head.dropFirst($0).starts(with: marker) }) { return .pdf }
        // Text: UTF-16 with its mark, or no control characters but tab, line ends and form
        // feed in the first 4 KiB (binary formats have them early).
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return .text }
        if !bytes.isEmpty, !bytes.prefix(4096).contains(where: { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }) {
            return .text
        }
        return nil
    }

    /// What `settle(file:name:openIn:readOptions:options:converter:date:maxInMemory:)` made of a received file.
    ///
    /// ```swift
    /// let settled = try ScoreIntake.settle(file: "/scores/.upload-1", name: "Étude.pdf", openIn: nil,
    ///                                      readOptions: PDFReadOptions())
    /// settled.kind   // .pdf
    /// ```
    public struct Settled: Sendable {
        /// The name to give the file (the received name with `.pdf`).
        public var fileName: String
        public var kind: IntakeKind
        public var warnings: [String]
    }

    /// The kind of the file at `path`, by its first 4 KiB; nil for a kind Folio does not take.
    public static func kind(ofFile path: String) throws -> Kind? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScoreError(.invalidValue, "\(path) cannot be read")
        }
        defer { try? handle.close() }
        return kind(of: Array((try? handle.read(upToCount: 4096)) ?? Data()))
    }

    /// Makes the received file at `file` (written there whole, in the library's filesystem)
    /// into the PDF to store, in place: a PDF is checked to open with `readOptions`' limits
    /// (never held in memory) and the Open In dictionary appended to it as an incremental
    /// update; an image or text (at most `maxInMemory` bytes) is made into a PDF (see
    /// ``make(name:bytes:openIn:options:date:)``), an RTF, Word or OpenDocument text converted
    /// by `converter` (LibreOffice, see ``OfficeConverter``) and titled from its properties or
    /// first heading. Other kinds (forScore's files, CSV) are refused: they are no score. On
    /// an error the file may be left half made: the caller discards it.
    ///
    /// ```swift
    /// let settled = try ScoreIntake.settle(file: "/scores/.folio/uploads/upload-1.part", name: "Étude.docx",
    ///                                      openIn: nil, readOptions: .server(seconds: 20), converter: OfficeConverter())
    /// settled.fileName   // "Étude.pdf"
    /// ```
    public static func settle(file: String, name: String, openIn: Data?, readOptions: PDFReadOptions,
                              options: TextScore.Options = .init(), converter: OfficeConverter = OfficeConverter(),
                              date: Date = Date(), maxInMemory: Int = 64 << 20) throws -> Settled {
        guard let kind = try IntakeKind.of(file: file), kind.makesScore, kind != .forScoreContainer else {
            throw ScoreError(.invalidValue, "\(name) is not a PDF, a JPEG or PNG image, UTF-8/UTF-16 text, or an RTF, Word or OpenDocument text")
        }
        guard kind == .pdf else {
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            let limit = kind.officeFormat == nil ? maxInMemory : converter.options.maxInput
            guard size <= limit else {
                throw ScoreError(.limitExceeded, "\(name) is \(size) bytes; \(kind.officeFormat == nil ? "images and text" : "documents") are taken up to \(limit) bytes")
            }
            guard let data = FileManager.default.contents(atPath: file) else { throw ScoreError(.invalidValue, "\(name) cannot be read") }
            let made: Made
            if let format = kind.officeFormat {
                made = try office(name: name, bytes: Array(data), format: format, openIn: openIn, converter: converter, date: date)
            } else {
                made = try make(name: name, bytes: Array(data), openIn: openIn, options: options, date: date)
            }
            try SafeFile.write(to: file, bytes: made.bytes)
            return Settled(fileName: made.fileName, kind: kind, warnings: made.warnings)
        }
        do { _ = try PDFDocument(path: file, options: readOptions) } catch let error as PDFError {
            throw ScoreError(.unreadable, "\(name) cannot be read as a PDF: \(error.message)")
        }
        var warnings: [String] = []
        if let openIn {
            warnings = try PDFSaver.update(path: file, options: readOptions) { try apply(openIn, to: $0, date: date) }
        }
        return Settled(fileName: fileName(for: name), kind: kind, warnings: warnings)
    }

    /// `bytes` (a PDF) with the title `title`, as one more incremental update.
    ///
    /// ```swift
    /// let titled = try ScoreIntake.retitled(made.bytes, title: "Ave Maria")
    /// ```
    public static func retitled(_ bytes: [UInt8], title: String) throws -> [UInt8] {
        try NewScoreFile.finish(bytes, edit: NewScoreFile.titled(title), date: Date()).bytes
    }

    /// The PDF LibreOffice makes of an office document, titled from the document (its
    /// properties, else its first heading, else the file's name), the Open In dictionary
    /// applied on top.
    ///
    /// ```swift
    /// let made = try ScoreIntake.office(name: "Ave Maria.rtf", bytes: rtf, format: .rtf, converter: OfficeConverter())
    /// made.fileName   // "Ave Maria.pdf"
    /// ```
    public static func office(name: String, bytes: [UInt8], format: OfficeConverter.Format, openIn: Data? = nil,
                              converter: OfficeConverter, date: Date = Date()) throws -> Made {
        let converted = try converter.convert(bytes, format: format, name: name)
        let title = converted.title ?? ScoreMetadata.title(forFile: name)
        var (made, warnings) = try NewScoreFile.finish(converted.pdf, edit: NewScoreFile.titled(title), date: date)
        if let openIn {
            let document = try PDFDocument(bytes: made)
            warnings += try apply(openIn, to: document, date: date)
            if document.hasChanges { made = try PDFSaver.incrementalBytes(document) }
        }
        let kind: Kind = .pdf
        return Made(bytes: made, fileName: fileName(for: name), kind: kind, warnings: converted.warnings + warnings)
    }

    /// Writes forScore's Open In dictionary into `document` (unsaved; nothing changes when it
    /// sets no field): the dictionary's notes and the writer's warnings.
    ///
    /// ```swift
    /// let notes = try PDFSaver.update(path: "Rusalka.pdf") { try ScoreIntake.apply(dictionary, to: $0, date: Date()) }
    /// ```
    public static func apply(_ openIn: Data, to document: PDFDocument, date: Date) throws -> [String] {
        let (edit, notes) = try OpenInDictionary.edit(from: openIn)
        guard !edit.isEmpty else { return notes }
        return notes + (try ScoreWriter.write(edit, to: document, options: .init(allowComma: false, date: date)))
    }

    /// The name a received file is stored under: its title from the name, with `.pdf`.
    static func fileName(for name: String) -> String {
        let base = ScoreMetadata.title(forFile: name)
        return (base.isEmpty ? "Untitled" : base) + ".pdf"
    }

    /// The PDF to store for a received file `name` holding `bytes`, with the Open In
    /// dictionary `openIn` (JSON, XML or binary property list) applied. Throws
    /// ``ScoreError`` `.invalidValue` for a kind Folio does not take, `.malformed` for a
    /// file that is not what it claims, and the dictionary's own errors.
    public static func make(name: String, bytes: [UInt8], openIn: Data? = nil, options: TextScore.Options = .init(),
                            date: Date = Date()) throws -> Made {
        guard let kind = kind(of: bytes) else {
            throw ScoreError(.invalidValue, "\(name) is not a PDF, a JPEG or PNG image, or UTF-8/UTF-16 text")
        }
        var warnings: [String] = []
        var made: [UInt8]
        switch kind {
        case .pdf:
            made = bytes
        case .jpeg, .png:
            made = try ScoreMake.images([(name, bytes)], title: ScoreMetadata.title(forFile: name), date: date)
        case .text:
            let typeset = try TextScore.pdf([(name, bytes)], options: options, date: date)
            made = typeset.bytes
            warnings += typeset.warnings
        }
        let document: PDFDocument
        do { document = try PDFDocument(bytes: made) } catch let error as PDFError {
            throw ScoreError(.unreadable, "\(name) cannot be read as a PDF: \(error.message)")
        }
        if let openIn {
            warnings += try apply(openIn, to: document, date: date)
            if document.hasChanges { made = try PDFSaver.incrementalBytes(document) }
        }
        return Made(bytes: made, fileName: fileName(for: name), kind: kind, warnings: warnings)
    }
}
