import FolioPDF
import Foundation

/// New scores made from images — scans, photos of parts — one image per page, each image's
/// bytes kept (see `PDFImage`): at its own resolution, or fitted onto paper.
///
/// ```swift
/// let bytes = try ScoreMake.images([("p1.jpg", jpeg), ("p2.png", png)], fit: .a4, title: "Trumpet 1")
/// ```
public enum ScoreMake {
    /// Paper for `--fit`, in points (portrait).
    ///
    /// ```swift
    /// let paper = ScoreMake.Paper.forLocale("cs_CZ.UTF-8")   // .a4
    /// paper.size.width                                     // 595.276
    /// ```
    public enum Paper: String, Sendable, CaseIterable {
        case a4, letter

        public var size: (width: Double, height: Double) {
            switch self {
            case .a4: (595.276, 841.89)
            case .letter: (612, 792)
            }
        }

        /// The paper a locale prints on ("en_US.UTF-8" → letter): the Americas' letter
        /// countries and the Philippines use Letter, the rest of the world A4.
        public static func forLocale(_ identifier: String?) -> Paper {
            guard let identifier else { return .a4 }
            let name = identifier.split(separator: ".").first.map(String.init) ?? identifier
            guard let region = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).dropFirst().first else { return .a4 }
            let letter: Set<Substring> = ["US", "CA", "MX", "CL", "CO", "VE", "PH", "PR", "GT", "CR", "PA", "SV", "DO", "NI", "BZ"]
            return letter.contains(region.prefix(2)) ? .letter : .a4
        }
    }

    /// The resolution assumed when an image does not say (as img2pdf assumes).
    public static let defaultDPI = 96.0

    /// A PDF of `images` (name, bytes) in order, titled `title`. An image's EXIF orientation
    /// turns its page (/Rotate); a mirrored orientation also mirrors the drawing. With `fit`,
    /// each page is that paper, turned to the image's shape, the image scaled to fill it
    /// without cropping and centred.
    public static func images(_ images: [(name: String, bytes: [UInt8])], fit: Paper? = nil, title: String? = nil,
                              date: Date = Date()) throws -> [UInt8] {
        guard !images.isEmpty else { throw ScoreError(.invalidValue, "no images given") }
        var pdf = PDFNewDocument()
        for (name, bytes) in images {
            let image: PDFImage
            do { image = try PDFImage(bytes: bytes) } catch let error as PDFError {
                throw ScoreError(error.code == .limitExceeded ? .limitExceeded : .unreadable, "\(name): \(error.message)")
            }
            var stream = image.stream
            if let mask = image.mask { stream.dictionary["SMask"] = .reference(pdf.add(.stream(mask))) }
            let reference = pdf.add(.stream(stream))
            // EXIF orientations: 3, 6, 8 turn the page; 2, 4, 5, 7 also mirror the image.
            let (rotate, mirror): (Int, Bool) = switch image.orientation {
            case 2: (0, true)
            case 3: (180, false)
            case 4: (180, true)
            case 5: (270, true)
            case 6: (90, false)
            case 7: (90, true)
            case 8: (270, false)
            default: (0, false)
            }
            let dpi = image.dpi ?? (defaultDPI, defaultDPI)
            var width = Double(image.width) * 72 / dpi.x, height = Double(image.height) * 72 / dpi.y
            // Pages stay within PDF's 200-inch limit.
            let shrink = min(1, PDFNewDocument.maxPageSide / max(width, height))
            width *= shrink
            height *= shrink
            guard fit != nil || min(width, height) >= 1 else {
                throw ScoreError(.unreadable, "\(name): an image of \(image.width) × \(image.height) px makes a page below PDF's 1 pt a side; "
                    + "fit it to a paper size")
            }
            var page = (width: width, height: height)
            var placed = (x: 0.0, y: 0.0, width: width, height: height)
            if let fit {
                let turned = rotate == 90 || rotate == 270
                let landscape = turned ? height > width : width > height
                let paper = fit.size
                // The media box is in the image's own (unturned) frame.
                let shown = landscape ? (paper.height, paper.width) : (paper.width, paper.height)
                page = turned ? (shown.1, shown.0) : (shown.0, shown.1)
                let scale = min(page.width / width, page.height / height)
                placed = ((page.width - width * scale) / 2, (page.height - height * scale) / 2, width * scale, height * scale)
            }
            let matrix = mirror
                ? "\(-placed.width) 0 0 \(placed.height) \(placed.x + placed.width) \(placed.y)"
                : "\(placed.width) 0 0 \(placed.height) \(placed.x) \(placed.y)"
            try pdf.addPage(width: page.width, height: page.height, content: Array("q \(matrix) cm /Im0 Do Q\n".utf8),
                            resources: ["XObject": .dictionary(["Im0": .reference(reference)])], rotate: rotate)
        }
        return try NewScoreFile.finish(try pdf.bytes(), edit: NewScoreFile.titled(title), date: date).bytes
    }
}
