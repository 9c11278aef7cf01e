/// A point in PDF points.
///
/// ```swift
/// let p = PDFPoint(x: 72, y: 100)
/// ```
public struct PDFPoint: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle given by two corners, always normalised so that `x1 ≤ x2` and `y1 ≤ y2`.
///
/// ```swift
/// let r = PDFRect(x1: 300, y1: 40, x2: 100, y2: 20)   // [100, 20, 300, 40]
/// r.width   // 200
/// ```
public struct PDFRect: Sendable, Equatable, Hashable {
    public private(set) var x1: Double
    public private(set) var y1: Double
    public private(set) var x2: Double
    public private(set) var y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = min(x1, x2)
        self.y1 = min(y1, y2)
        self.x2 = max(x1, x2)
        self.y2 = max(y1, y2)
    }

    /// The smallest rectangle holding every point; nil for none.
    public init?(enclosing points: [PDFPoint]) {
        guard let first = points.first else { return nil }
        var box = PDFRect(x1: first.x, y1: first.y, x2: first.x, y2: first.y)
        for point in points.dropFirst() {
            box = PDFRect(x1: min(box.x1, point.x), y1: min(box.y1, point.y),
                          x2: max(box.x2, point.x), y2: max(box.y2, point.y))
        }
        self = box
    }

    public var width: Double { x2 - x1 }
    public var height: Double { y2 - y1 }
    public var array: [Double] { [x1, y1, x2, y2] }
    public var isEmpty: Bool { !(width > 0 && height > 0) }
    public var corners: [PDFPoint] {
        [PDFPoint(x: x1, y: y1), PDFPoint(x: x2, y: y1), PDFPoint(x: x2, y: y2), PDFPoint(x: x1, y: y2)]
    }

    /// Grown by `amount` on every side.
    public func insetBy(_ amount: Double) -> PDFRect {
        PDFRect(x1: x1 + amount, y1: y1 + amount, x2: x2 - amount, y2: y2 - amount)
    }

    public func union(_ other: PDFRect) -> PDFRect {
        PDFRect(x1: min(x1, other.x1), y1: min(y1, other.y1), x2: max(x2, other.x2), y2: max(y2, other.y2))
    }

    /// Whether `other` lies inside this rectangle, allowing `tolerance`.
    public func contains(_ other: PDFRect, tolerance: Double = 0.001) -> Bool {
        other.x1 >= x1 - tolerance && other.y1 >= y1 - tolerance && other.x2 <= x2 + tolerance
            && other.y2 <= y2 + tolerance
    }
}

/// An affine transform `[a b c d e f]`, as PDF writes matrices: a point maps to
/// `(a·x + c·y + e, b·x + d·y + f)`.
///
/// ```swift
/// let turn = PDFMatrix.rotation(quarterTurns: 1)
/// turn.apply(PDFPoint(x: 10, y: 0))   // (0, 10)
/// turn.concatenating(PDFMatrix(1, 0, 0, 1, 612, 0)).inverted
/// ```
public struct PDFMatrix: Sendable, Equatable {
    public var a, b, c, d, e, f: Double

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = PDFMatrix(1, 0, 0, 1, 0, 0)

    /// A turn counter-clockwise by a multiple of 90 degrees.
    public static func rotation(quarterTurns: Int) -> PDFMatrix {
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: return PDFMatrix(0, 1, -1, 0, 0, 0)
        case 2: return PDFMatrix(-1, 0, 0, -1, 0, 0)
        case 3: return PDFMatrix(0, -1, 1, 0, 0, 0)
        default: return .identity
        }
    }

    public func apply(_ point: PDFPoint) -> PDFPoint {
        PDFPoint(x: a * point.x + c * point.y + e, y: b * point.x + d * point.y + f)
    }

    /// This transform followed by `other`.
    public func concatenating(_ other: PDFMatrix) -> PDFMatrix {
        PDFMatrix(a * other.a + b * other.c, a * other.b + b * other.d,
                  c * other.a + d * other.c, c * other.b + d * other.d,
                  e * other.a + f * other.c + other.e, e * other.b + f * other.d + other.f)
    }

    public var array: [Double] { [a, b, c, d, e, f] }

    /// The inverse transform; nil for a singular matrix.
    public var inverted: PDFMatrix? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        return PDFMatrix(d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
    }

    /// The bounding box of `rect` transformed.
    public func apply(_ rect: PDFRect) -> PDFRect {
        PDFRect(enclosing: rect.corners.map(apply)) ?? rect
    }
}

/// How a page is shown: its crop box and rotation. Converts between the coordinates a UI
/// has — origin at the top-left of the page as displayed, y growing down, in points, with
/// `/Rotate` applied — and PDF user space.
///
/// ```swift
/// let geometry = PDFPageGeometry(cropBox: PDFRect(x1: 0, y1: 0, x2: 612, y2: 792), rotation: 90)
/// geometry.displaySize            // (792, 612)
/// geometry.toUser(PDFPoint(x: 0, y: 0))   // (0, 0): the top-left as shown is user space's origin
/// ```
public struct PDFPageGeometry: Sendable, Equatable {
    public let cropBox: PDFRect
    /// 0, 90, 180 or 270: how far the page is turned clockwise when shown.
    public let rotation: Int

    public init(cropBox: PDFRect, rotation: Int) {
        self.cropBox = cropBox
        self.rotation = ((rotation % 360) + 360) % 360 / 90 * 90
    }

    /// The geometry of a page; a page without a usable box gets US Letter, as viewers do.
    public init(page: PDFPage) {
        let box = page.cropBox ?? page.mediaBox ?? [0, 0, 612, 792]
        var crop = PDFRect(x1: box[0], y1: box[1], x2: box[2], y2: box[3])
        if let media = page.mediaBox {
            // Viewers clip the crop box to the media box.
            let mediaRect = PDFRect(x1: media[0], y1: media[1], x2: media[2], y2: media[3])
            let clipped = PDFRect(x1: max(crop.x1, mediaRect.x1), y1: max(crop.y1, mediaRect.y1),
                                  x2: min(crop.x2, mediaRect.x2), y2: min(crop.y2, mediaRect.y2))
            if !clipped.isEmpty { crop = clipped }
        }
        if crop.isEmpty { crop = PDFRect(x1: 0, y1: 0, x2: 612, y2: 792) }
        self.init(cropBox: crop, rotation: page.rotation)
    }

    /// Width and height of the page as shown.
    public var displaySize: (width: Double, height: Double) {
        rotation % 180 == 0 ? (cropBox.width, cropBox.height) : (cropBox.height, cropBox.width)
    }

    /// The user-space point shown at display point `point`.
    public func toUser(_ point: PDFPoint) -> PDFPoint {
        let box = cropBox
        switch rotation {
        case 90: return PDFPoint(x: box.x1 + point.y, y: box.y1 + point.x)
        case 180: return PDFPoint(x: box.x2 - point.x, y: box.y1 + point.y)
        case 270: return PDFPoint(x: box.x2 - point.y, y: box.y2 - point.x)
        default: return PDFPoint(x: box.x1 + point.x, y: box.y2 - point.y)
        }
    }

    /// Where user-space point `point` is shown.
    public func toDisplay(_ point: PDFPoint) -> PDFPoint {
        let box = cropBox
        switch rotation {
        case 90: return PDFPoint(x: point.y - box.y1, y: point.x - box.x1)
        case 180: return PDFPoint(x: box.x2 - point.x, y: point.y - box.y1)
        case 270: return PDFPoint(x: box.y2 - point.y, y: box.x2 - point.x)
        default: return PDFPoint(x: point.x - box.x1, y: box.y2 - point.y)
        }
    }

    /// A display rectangle `x, y, width, height` (top-left origin) in user space.
    public func toUser(x: Double, y: Double, width: Double, height: Double) -> PDFRect {
        PDFRect(enclosing: [toUser(PDFPoint(x: x, y: y)), toUser(PDFPoint(x: x + width, y: y + height))])
            ?? PDFRect(x1: 0, y1: 0, x2: 0, y2: 0)
    }

    /// Where an annotation is shown. One with the NoRotate flag (and every Text note, as
    /// viewers treat them) hangs upright from its user-space upper-left corner.
    public func toDisplay(_ rect: PDFRect, noRotate: Bool)
        -> (x: Double, y: Double, width: Double, height: Double)
    {
        guard noRotate, rotation != 0 else { return toDisplay(rect) }
        let corner = toDisplay(PDFPoint(x: rect.x1, y: rect.y2))
        return (corner.x, corner.y, rect.width, rect.height)
    }

    /// The user-space `/Rect` of an annotation shown at `x, y, width, height`.
    public func toUser(x: Double, y: Double, width: Double, height: Double, noRotate: Bool) -> PDFRect {
        guard noRotate, rotation != 0 else { return toUser(x: x, y: y, width: width, height: height) }
        let corner = toUser(PDFPoint(x: x, y: y))
        return PDFRect(x1: corner.x, y1: corner.y - height, x2: corner.x + width, y2: corner.y)
    }

    /// A user-space rectangle as shown: `x, y, width, height` with a top-left origin.
    public func toDisplay(_ rect: PDFRect) -> (x: Double, y: Double, width: Double, height: Double) {
        let box = PDFRect(enclosing: rect.corners.map(toDisplay)) ?? rect
        return (box.x1, box.y1, box.width, box.height)
    }

    /// The transform from an appearance's own upright frame (origin at the bottom-left of
    /// `rect` as shown, x right, y up as the viewer sees it) to user space. Its linear
    /// part is the appearance's `/Matrix`: content drawn in that frame reads upright on
    /// a turned page.
    public func uprightFrame(for rect: PDFRect) -> (toUser: PDFMatrix, size: (width: Double, height: Double)) {
        let turn = PDFMatrix.rotation(quarterTurns: rotation / 90)
        let size = rotation % 180 == 0 ? (rect.width, rect.height) : (rect.height, rect.width)
        let corner: PDFPoint
        switch rotation {
        case 90: corner = PDFPoint(x: rect.x2, y: rect.y1)
        case 180: corner = PDFPoint(x: rect.x2, y: rect.y2)
        case 270: corner = PDFPoint(x: rect.x1, y: rect.y2)
        default: corner = PDFPoint(x: rect.x1, y: rect.y1)
        }
        var matrix = turn
        matrix.e = corner.x
        matrix.f = corner.y
        return (matrix, size)
    }
}
