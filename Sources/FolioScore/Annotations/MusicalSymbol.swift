import FolioPDF

/// The musical marks Folio stamps on a score, as forScore's stamps offer them: each is
/// vector art (paths, or dynamics in Times Bold Italic, a standard font every viewer has)
/// that a Stamp annotation scales into its box.
///
/// ```swift
/// let art = MusicalSymbol.fermata.art        // PDFStampArt named "Fermata"
/// MusicalSymbol(rawValue: "mf")?.art.width   // natural width in points
/// ```
public enum MusicalSymbol: String, Sendable, CaseIterable {
    case fermata, breath, caesura, accent, staccato, tenuto
    case pp, p, mp, mf, f, ff, sfz
    case crescendo = "cresc"
    case diminuendo = "dim"
    case crescText = "cresc-text"
    case dimText = "dim-text"
    case volti = "vs"

    /// The stamp's `/Name`, by which Folio recognises its own stamps again.
    public var stampName: String {
        switch self {
        case .crescendo: "FolioCrescendo"
        case .diminuendo: "FolioDiminuendo"
        case .crescText: "FolioCrescText"
        case .dimText: "FolioDimText"
        case .volti: "FolioVoltiSubito"
        default: "Folio" + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        }
    }

    /// The symbol a stamp name stands for; nil for stamps Folio did not make.
    public init?(stampName: String) {
        guard let symbol = MusicalSymbol.allCases.first(where: { $0.stampName == stampName }) else { return nil }
        self = symbol
    }

    /// The text a dynamic or a word prints; nil for drawn marks.
    public var text: String? {
        switch self {
        case .pp, .p, .mp, .mf, .f, .ff, .sfz: rawValue
        case .crescText: "cresc."
        case .dimText: "dim."
        case .volti: "V.S."
        default: nil
        }
    }

    /// The art, in its natural size (about what it measures on a printed part).
    public var art: PDFStampArt {
        var drawing = PDFDrawing()
        if let text {
            let font = StandardFont.timesBoldItalic
            let size = 20.0
            // The text is WinAnsi by construction.
            let encoded = (try? font.encode(text)) ?? []
            let width = font.width(ofEncoded: encoded, size: size) + 2
            drawing.text(encoded, font: font, size: size, at: PDFPoint(x: 1, y: size * 0.24))
            return PDFStampArt(name: stampName, width: width, height: size * 1.0, drawing: drawing)
        }
        let size: (Double, Double)
        switch self {
        case .fermata:
            size = (24, 14)
            drawing.move(to: PDFPoint(x: 0, y: 1))
            drawing.curve(PDFPoint(x: 0, y: 18.5), PDFPoint(x: 24, y: 18.5), to: PDFPoint(x: 24, y: 1))
            drawing.line(to: PDFPoint(x: 22.6, y: 1))
            drawing.curve(PDFPoint(x: 22, y: 14.5), PDFPoint(x: 2, y: 14.5), to: PDFPoint(x: 1.4, y: 1))
            drawing.closePath()
            drawing.fill()
            drawing.ellipse(in: PDFRect(x1: 10, y1: 0.5, x2: 14, y2: 4.5))
            drawing.fill()
        case .breath:
            size = (8, 12)
            drawing.ellipse(in: PDFRect(x1: 1.5, y1: 6, x2: 7.5, y2: 12))
            drawing.fill()
            drawing.setLineWidth(1.6)
            drawing.setLineCap(1)
            drawing.move(to: PDFPoint(x: 7.2, y: 9))
            drawing.curve(PDFPoint(x: 7.6, y: 5), PDFPoint(x: 5, y: 1.5), to: PDFPoint(x: 1.5, y: 0.5))
            drawing.stroke()
        case .caesura:
            size = (12, 14)
            drawing.setLineWidth(1.8)
            drawing.move(to: PDFPoint(x: 1, y: 0.5))
            drawing.line(to: PDFPoint(x: 5.5, y: 13.5))
            drawing.move(to: PDFPoint(x: 6.5, y: 0.5))
            drawing.line(to: PDFPoint(x: 11, y: 13.5))
            drawing.stroke()
        case .accent:
            size = (16, 10)
            drawing.setLineWidth(1.6)
            drawing.setLineJoin(0)
            drawing.move(to: PDFPoint(x: 0.5, y: 9.2))
            drawing.line(to: PDFPoint(x: 15.2, y: 5))
            drawing.line(to: PDFPoint(x: 0.5, y: 0.8))
            drawing.stroke()
        case .staccato:
            size = (6, 6)
            drawing.ellipse(in: PDFRect(x1: 1, y1: 1, x2: 5, y2: 5))
            drawing.fill()
        case .tenuto:
            size = (16, 4)
            drawing.rectangle(PDFRect(x1: 0, y1: 1, x2: 16, y2: 3))
            drawing.fill()
        case .crescendo, .diminuendo:
            size = (48, 14)
            drawing.setLineWidth(1.3)
            drawing.setLineJoin(0)
            let (open, closed) = self == .crescendo ? (47.0, 1.0) : (1.0, 47.0)
            drawing.move(to: PDFPoint(x: open, y: 13))
            drawing.line(to: PDFPoint(x: closed, y: 7))
            drawing.line(to: PDFPoint(x: open, y: 1))
            drawing.stroke()
        default:
            size = (1, 1)
        }
        return PDFStampArt(name: stampName, width: size.0, height: size.1, drawing: drawing)
    }

    /// The art of a stamp Folio made, by its `/Name`: the resolver annotation edits take.
    public static func art(forStampName name: String) -> PDFStampArt? {
        MusicalSymbol(stampName: name)?.art
    }
}
