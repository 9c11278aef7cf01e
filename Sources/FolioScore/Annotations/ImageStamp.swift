import FolioPDF

/// A stamp whose appearance is a picture of the user's — a PNG (its alpha channel a soft
/// mask, so transparent parts show the page) or a JPEG — as forScore makes custom stamps from
/// images. The image's bytes are kept (see `PDFImage`), drawn into the stamp's rectangle
/// keeping its proportions, placed and scaled like the musical stamps; `/Name` is
/// ``name``, so viewers without the appearance know it for a custom stamp.
///
/// ```swift
/// var request = AnnotationRequest(kind: .stamp, page: 1)
/// request.rects = [[400, 60, 80, 80]]
/// request.image = Array(try Data(contentsOf: URL(fileURLWithPath: "Dirigent.png")))
/// _ = try request.add(to: document)
/// ```
public enum ImageStamp {
    /// The `/Name` of a stamp of an image.
    public static let name = "FolioImage"
    /// The largest image taken, in pixels (a stamp is small; a photo of 16 megapixels is plenty).
    public static let maxPixels = 16_000_000
    /// The largest image file taken.
    public static let maxBytes = 32 << 20

    /// The image in `bytes` made ready to embed; throws ``ScoreError`` `.limitExceeded` past
    /// ``maxBytes`` or ``maxPixels`` and `.invalidValue` for anything but a JPEG or PNG.
    public static func prepared(_ bytes: [UInt8]) throws -> PDFImage {
        guard bytes.count <= maxBytes else {
            throw ScoreError(.limitExceeded, "the stamp image has \(bytes.count) bytes (valid: up to \(maxBytes))")
        }
        do {
            return try PDFImage(bytes: bytes, maxPixels: maxPixels)
        } catch let error as PDFError {
            throw ScoreError(error.code == .limitExceeded ? .limitExceeded : .invalidValue, "the stamp image: \(error.message)")
        }
    }

    /// Art drawing the image `reference` (added to the document) in the image's proportions.
    static func art(for image: PDFImage, reference: PDFReference) -> PDFStampArt {
        var drawing = PDFDrawing()
        let width = Double(image.width), height = Double(image.height)
        drawing.image(reference, in: PDFRect(x1: 0, y1: 0, x2: width, y2: height))
        return PDFStampArt(name: name, width: width, height: height, drawing: drawing)
    }
}
