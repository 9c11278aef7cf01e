import ArgumentParser
import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

/// `folio make`.
struct MakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make", abstract: "Make a PDF from JPEG and PNG images, one per page.",
        discussion: """
            JPEGs are embedded byte for byte (gray, RGB, CMYK — Adobe's inverted CMYK handled — baseline or
            progressive); PNGs keep their compressed data (1 to 16 bits, gray, RGB, palettes), only those with
            transparency are decoded, the alpha becoming a soft mask. Each page is the image's size at its own
            resolution (JFIF density or pHYs, else 96 dpi), or --fit paper (turned to the image's shape, the image
            scaled to fit and centred). An EXIF orientation turns the page. Images over 64 megapixels are refused
            before anything is decoded. The output must not exist. Interlaced PNGs, TIFF and text are not read yet.
            Example: folio make scan-1.jpg scan-2.jpg --output "Trumpet 1.pdf" --fit a4
            Exit codes: 0 written; 1 a file could not be read or written; 64 usage error, an existing output, an
            image that is damaged, too large or of a kind PDF cannot hold.
            """)

    @Argument(help: "The images, in page order.") var files: [String]
    @Option(name: [.short, .long], help: "The PDF to create.") var output: String
    @Option(help: "Fit each image onto paper: a4 or letter.") var fit: ScoreMake.Paper?
    @Option(help: "The title (default: the output's file name without extension).") var title: String?

    func run() throws {
        try AssemblyCommand.run("make") {
            guard !files.isEmpty else { throw LibraryError(.invalidArgument, "no images given") }
            try AssemblyCommand.checkFree(output)
            let images = try files.map { file -> (String, [UInt8]) in
                guard let data = FileManager.default.contents(atPath: file) else { throw LibraryError(.io, "cannot read \(file)") }
                return (file, Array(data))
            }
            let bytes = try ScoreMake.images(images, fit: fit,
                                             title: title ?? ((output as NSString).lastPathComponent as NSString).deletingPathExtension)
            do { try SafeFile.create(at: output, bytes: bytes) } catch {
                throw LibraryError(.io, "cannot write \(output): \(ScoreUpdate.describe(error))")
            }
            print("wrote \(output): \(files.count) page(s)")
        }
    }
}

extension ScoreMake.Paper: ExpressibleByArgument {}
