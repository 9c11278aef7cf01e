import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// `folio make`.
struct MakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make", abstract: "Make a PDF from images (one per page) or from text and ChordPro files.",
        discussion: """
            Images: JPEGs are embedded byte for byte (gray, RGB, CMYK — Adobe's inverted CMYK handled — baseline or \
            progressive); PNGs keep their compressed data (1 to 16 bits, gray, RGB, palettes), only those with \
            transparency or interlacing are decoded, the alpha becoming a soft mask. Each page is the image's size at \
            its own resolution (JFIF density or pHYs, else 96 dpi), or --fit paper (turned to the image's shape, the \
            image scaled to fit and centred). An EXIF orientation turns the page. Images over 64 megapixels are \
            refused before anything is decoded. Images need --output. \
            Documents: RTF, Word (DOC, DOCX) and OpenDocument text, told by content, are converted by LibreOffice \
            headless (sudo apt-get install libreoffice-writer-nogui; exit 69 without it), each into its own PDF titled \
            from the document's properties or first heading. \
            Text (.txt and any other name): UTF-8 with or without a byte-order mark, UTF-16 with one, else \
            Windows-1252; tabs expanded, long lines wrapped between words, a form feed starts a page. A chord chart \
            (chord lines above lyric lines) is set in Courier, its chord and lyric lines wrapped together so chords stay \
            over their syllables; other text in Helvetica. The title is the first line when it is short, else the file \
            name. ChordPro (.cho, .chordpro, .chopro, .crd, or a text with a {title: …} line): title, subtitle, \
            artist/composer/lyricist, key, tempo, time, capo, duration, comments, chorus/verse/bridge/tab/grid \
            sections and [C] chords above their syllables; title, people, key, duration and tags become forScore \
            metadata. Text the standard fonts hold (Latin-1, € and typographic quotes) stays in them; any other script \
            is set in the installed fonts (DejaVu Sans, then Droid Sans Fallback for Chinese, Japanese and Korean), \
            each embedded as a subset of the glyphs used (--font times: DejaVu Serif; courier: DejaVu Sans Mono); \
            Hebrew and Arabic lines run from the right, in reading order, Arabic letters joined; --font-file puts a \
            TrueType font of your own first. A character no font has is an error naming it and its line. Without \
            --output each text file gets FILE.pdf beside it; with it, all go into one PDF, each from a new page with an \
            outline entry. \
            An output that exists is never overwritten.
            Examples: folio make scan-1.jpg scan-2.jpg --output "Trumpet 1.pdf" --fit a4
                      folio make "Amazing Grace.cho" --paper letter --size 12
            Exit codes: 0 written; 1 a file could not be read or written; 64 usage error, an existing output, an \
            image that is damaged, too large or of a kind PDF cannot hold, a character the font lacks.
            """)

    @Argument(help: "The images in page order, or the text files.") var files: [String]
    @Option(name: [.short, .long], help: "The PDF to create.") var output: String?
    @Option(help: "Fit each image onto paper: a4 or letter.") var fit: ScoreMake.Paper?
    @Option(help: "The title (default: for images the output's name; for text its first line or the file name).")
    var title: String?
    @Option(help: "Text: the paper, a4 or letter (default: from the locale, LC_PAPER or LANG).") var paper: ScoreMake.Paper?
    @Option(help: "Text: helvetica, times or courier (default: courier for chord charts, else helvetica).")
    var font: TextScore.Font?
    @Option(help: "Text: a TrueType font (.ttf) to set the text in first (embedded as a subset).") var fontFile: String?
    @Option(parsing: .unconditional, help: "Text: the size in points, 4 to 72.") var size: Double = 11
    @Option(parsing: .unconditional, help: "Text: the margin on every side in points.") var margin: Double = 50

    static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png"]

    func run() throws {
        try PageCommands.run("make") {
            guard !files.isEmpty else { throw LibraryError(.invalidArgument, "no files given") }
            let formats = try files.map { try IntakeKind.of(file: $0)?.officeFormat }
            if formats.contains(where: { $0 != nil }) {
                let documents = zip(files, formats).compactMap { file, format in format.map { (file, $0) } }
                guard documents.count == files.count else { throw LibraryError(.invalidArgument, "give either documents or images and text files, not both") }
                return try makeOffice(documents)
            }
            let images = files.filter { MakeCommand.imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            if images.isEmpty {
                try makeText()
            } else {
                guard images.count == files.count else {
                    throw LibraryError(.invalidArgument, "give either images or text files, not both")
                }
                try makeImages()
            }
        }
    }

    private func read(_ file: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: file) else { throw LibraryError(.io, "cannot read \(file)") }
        return Array(data)
    }

    private func makeImages() throws {
        guard let output else { throw LibraryError(.invalidArgument, "images need --output, the PDF to create") }
        try PageCommands.checkFree(output)
        let images = try files.map { ($0, try read($0)) }
        let bytes = try ScoreMake.images(images, fit: fit, title: title ?? ScoreMetadata.title(forFile: output))
        try PageCommands.create(output, bytes: bytes)
        print("wrote \(output): \(files.count) page(s)")
    }

    /// RTF, Word and OpenDocument text (each file with its format) through LibreOffice, each
    /// into its own PDF.
    private func makeOffice(_ documents: [(file: String, format: OfficeConverter.Format)]) throws {
        guard output == nil || documents.count == 1 else { throw LibraryError(.invalidArgument, "documents are converted one PDF each; --output takes one") }
        let converter = OfficeConverter()
        let jobs = documents.map { ($0.file, $0.format, output ?? ($0.file as NSString).deletingPathExtension + ".pdf") }
        for job in jobs { try PageCommands.checkFree(job.2) }
        for (file, format, target) in jobs {
            let made = try ScoreIntake.office(name: (file as NSString).lastPathComponent, bytes: try read(file), format: format, converter: converter)
            var bytes = made.bytes
            if let title { bytes = try ScoreIntake.retitled(bytes, title: title) }
            for warning in made.warnings { FileHandle.standardError.write(Data("folio make: \(file): \(warning)\n".utf8)) }
            try PageCommands.create(target, bytes: bytes)
            print("wrote \(target)")
        }
    }

    private func makeText() throws {
        var options = TextScore.Options()
        let environment = ProcessInfo.processInfo.environment
        let locale = ["LC_ALL", "LC_PAPER", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        options.paper = paper ?? ScoreMake.Paper.forLocale(locale)
        options.font = font
        options.size = size
        options.margin = margin
        if let fontFile { try options.useFontFile(try read(fontFile), name: fontFile) }
        let jobs: [(inputs: [String], output: String)] = output.map { [(files, $0)] }
            ?? files.map { ([$0], ($0 as NSString).deletingPathExtension + ".pdf") }
        for job in jobs { try PageCommands.checkFree(job.output) }
        for job in jobs {
            let inputs = try job.inputs.map { ($0, try read($0)) }
            let made = try TextScore.pdf(inputs, options: options,
                                         title: title ?? (inputs.count > 1 ? ScoreMetadata.title(forFile: job.output) : nil))
            for warning in made.warnings { FileHandle.standardError.write(Data("folio make: \(warning)\n".utf8)) }
            try PageCommands.create(job.output, bytes: made.bytes)
            print("wrote \(job.output): \(made.pages) page(s)")
        }
    }
}

extension ScoreMake.Paper: ExpressibleByArgument {}
extension TextScore.Font: ExpressibleByArgument {}
