import Foundation

/// A standard font (one of the 14 every viewer has, never embedded) in WinAnsiEncoding,
/// with the glyph widths needed to measure and wrap text.
///
/// ```swift
/// let width = StandardFont.helvetica.width(of: "Allegro", size: 12)   // in points
/// let bytes = try StandardFont.helvetica.encode("Dvořák")   // throws: ř is not in WinAnsi
/// ```
public struct StandardFont: Sendable, Equatable {
    /// The PostScript name (`/BaseFont`).
    public let baseFont: String
    /// The resource name appearances and `/DA` use for it.
    public let resourceName: String
    private let widths: [UInt16]

    public static let helvetica = StandardFont(baseFont: "Helvetica", resourceName: "Helv",
                                               widths: StandardFontWidths.helvetica)
    public static let timesBoldItalic = StandardFont(baseFont: "Times-BoldItalic", resourceName: "TiBI",
                                                     widths: StandardFontWidths.timesBoldItalic)
    public static let helveticaBold = StandardFont(baseFont: "Helvetica-Bold", resourceName: "HeBo",
                                                   widths: StandardFontWidths.helveticaBold)
    public static let timesRoman = StandardFont(baseFont: "Times-Roman", resourceName: "TiRo",
                                                widths: StandardFontWidths.timesRoman)
    public static let timesBold = StandardFont(baseFont: "Times-Bold", resourceName: "TiBo",
                                               widths: StandardFontWidths.timesBold)
    public static let helveticaOblique = StandardFont(baseFont: "Helvetica-Oblique", resourceName: "HeOb",
                                                      widths: StandardFontWidths.helvetica)
    public static let timesItalic = StandardFont(baseFont: "Times-Italic", resourceName: "TiIt",
                                                 widths: StandardFontWidths.timesItalic)
    public static let courierOblique = StandardFont(baseFont: "Courier-Oblique", resourceName: "CoOb",
                                                    widths: StandardFontWidths.courier)
    public static let courier = StandardFont(baseFont: "Courier", resourceName: "Cour", widths: StandardFontWidths.courier)
    public static let courierBold = StandardFont(baseFont: "Courier-Bold", resourceName: "CoBo",
                                                 widths: StandardFontWidths.courierBold)

    public static func == (lhs: StandardFont, rhs: StandardFont) -> Bool { lhs.baseFont == rhs.baseFont }

    /// The font dictionary to put in an appearance's resources.
    public var dictionary: PDFDictionary {
        ["Type": .name("Font"), "Subtype": .name("Type1"), "BaseFont": .name(baseFont),
         "Encoding": .name("WinAnsiEncoding")]
    }

    /// The text in WinAnsiEncoding; a character outside it is an
    /// ``PDFError/Code/invalidArgument`` error naming it.
    public func encode(_ text: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard let code = StandardFont.winAnsiCode(scalar) else {
                throw PDFError(.invalidArgument,
                               "the character \"\(scalar)\" (\(String(format: "U+%04X", scalar.value))) cannot be written with the standard font \(baseFont) (WinAnsiEncoding: Latin-1 letters, € and typographic quotes); use other characters")
            }
            bytes.append(code)
        }
        return bytes
    }

    /// Width of encoded text in points.
    public func width(ofEncoded bytes: [UInt8], size: Double) -> Double {
        Double(bytes.reduce(0) { $0 + glyphWidth($1) }) * size / 1000
    }

    /// Width of text in points (characters outside WinAnsi count as a bullet).
    public func width(of text: String, size: Double) -> Double {
        width(ofEncoded: text.unicodeScalars.map { StandardFont.winAnsiCode($0) ?? 0x95 }, size: size)
    }

    func glyphWidth(_ code: UInt8) -> Int {
        code >= 32 ? Int(widths[Int(code) - 32]) : 0
    }

    /// Breaks text into lines no wider than `maxWidth`: at explicit newlines, then between
    /// words; a word longer than a line is broken between characters. Each character is
    /// measured once, so the work grows with the text's length, not its square.
    public func wrap(_ text: String, size: Double, maxWidth: Double) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        let paragraphs = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        let scale = size / 1000
        let space = Double(glyphWidth(0x20)) * scale
        for paragraph in paragraphs {
            var line: [UInt8] = []
            var lineWidth = 0.0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let encoded = try encode(String(word))
                let widths = encoded.map { Double(glyphWidth($0)) * scale }
                let wordWidth = widths.reduce(0, +)
                let candidate = line.isEmpty ? wordWidth : lineWidth + space + wordWidth
                if candidate <= maxWidth || (line.isEmpty && encoded.isEmpty) {
                    if !line.isEmpty { line.append(0x20) }
                    line += encoded
                    lineWidth = candidate
                    continue
                }
                if !line.isEmpty {
                    lines.append(line)
                    line = []
                }
                // A word wider than the box: break it where it overflows.
                var rest = 0, restWidth = wordWidth
                while restWidth > maxWidth, encoded.count - rest > 1 {
                    var cut = rest + 1, taken = widths[rest]
                    while cut < encoded.count, taken + widths[cut] <= maxWidth {
                        taken += widths[cut]
                        cut += 1
                    }
                    lines.append(Array(encoded[rest..<cut]))
                    rest = cut
                    restWidth -= taken
                }
                line = Array(encoded[rest...])
                lineWidth = restWidth
            }
            lines.append(line)
        }
        return lines
    }

    /// The WinAnsiEncoding code of a character (Windows code page 1252), nil outside it.
    static func winAnsiCode(_ scalar: Unicode.Scalar) -> UInt8? {
        let value = scalar.value
        if (0x20...0x7E).contains(value) || (0xA0...0xFF).contains(value) { return UInt8(value) }
        return winAnsiHigh[value]
    }

    /// The character a WinAnsiEncoding (Windows-1252) code stands for; nil for controls and
    /// the five codes it leaves unassigned.
    public static func character(forWinAnsiCode code: UInt8) -> Unicode.Scalar? {
        switch code {
        case 0x20...0x7E, 0xA0...0xFF: Unicode.Scalar(code)
        default: winAnsiHigh.first { $0.value == code }.flatMap { Unicode.Scalar($0.key) }
        }
    }

    private static let winAnsiHigh: [UInt32: UInt8] = [
        0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87,
        0x02C6: 0x88, 0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E, 0x2018: 0x91,
        0x2019: 0x92, 0x201C: 0x93, 0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98,
        0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B, 0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
    ]
}
