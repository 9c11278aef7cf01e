import FolioPDF

/// forScore's standardized page canvas, as public decodings measured it against forScore's
/// own exports: a drawing layer is a picture 2160 × 2824 pixels (the shape of a 612 × 800 pt
/// page) for every page, whatever its size. The page (after the user's crop) is scaled to
/// fit: one narrower than the canvas is centred with gaps left and right, a wider one sits
/// at the top with the gap below. Text boxes are placed on the same canvas in its 612 × 800
/// point units.
///
/// ```swift
/// let region = ForScoreCanvas.region(ofPageWidth: 595, height: 842)   // A4
/// region.x        // 88.1: gaps of 88 pixels left and right
/// region.height   // 2824
/// ```
public enum ForScoreCanvas {
    public static let width = 2160
    public static let height = 2824
    /// The canvas in points, the unit of text boxes' origins and sizes.
    public static let points = (width: 612.0, height: 800.0)
    /// The most pixels a drawing layer may have: four times the canvas (a layer of twice its
    /// resolution).
    public static let maxPixels = 4 * width * height

    /// A rectangle on a canvas, from its top left.
    ///
    /// ```swift
    /// let region = ForScoreCanvas.region(ofPageWidth: 612, height: 792)
    /// print(region.x, region.y, region.width, region.height)
    /// ```
    public struct Region: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
    }

    /// Where a page shown `width` × `height` points lies on a canvas `canvasWidth` ×
    /// `canvasHeight` (pixels, or points for text boxes).
    public static func region(ofPageWidth width: Double, height: Double,
                              canvasWidth: Double = Double(ForScoreCanvas.width),
                              canvasHeight: Double = Double(ForScoreCanvas.height)) -> Region {
        guard width > 0, height > 0 else { return Region(x: 0, y: 0, width: canvasWidth, height: canvasHeight) }
        let scale = min(canvasWidth / width, canvasHeight / height)
        let shown = (width: width * scale, height: height * scale)
        // Narrower than the canvas: centred across; wider: at the top.
        return Region(x: (canvasWidth - shown.width) / 2, y: 0, width: shown.width, height: shown.height)
    }

    /// Whether a picture `width` × `height` pixels has the canvas's shape (within 1 %): the
    /// canvas itself, or the same at another resolution.
    public static func hasCanvasShape(width: Int, height: Int) -> Bool {
        guard width >= 16, height >= 16 else { return false }
        let aspect = Double(width) / Double(height), canvas = Double(Self.width) / Double(Self.height)
        return abs(aspect / canvas - 1) <= 0.01
    }
}
