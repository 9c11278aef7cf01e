import FolioPDF
import Foundation

/// A stamp of words — "poco rit.", "Tempo I", "zpomalit", "ゆっくり", "לאט" — as forScore's
/// text stamps make them: one line in a bold italic serif that a Stamp annotation scales into
/// its box. Times Bold Italic (a standard font, nothing embedded) for text WinAnsiEncoding
/// holds; otherwise the installed serif fonts (DejaVu Serif, then the CJK font), embedded as
/// subsets, Hebrew and Arabic in visual order. The stamp's `/Contents` keeps the words, so an
/// edit draws them again.
///
/// ```swift
/// let art = try TextStamp.art("Tempo I")        // Times Bold Italic
/// let czech = try TextStamp.art("zpomalit")     // the same
/// let japanese = try TextStamp.art("ゆっくり")   // Droid Sans Fallback, embedded
/// ```
public enum TextStamp {
    /// The `/Name` of Folio's text stamps.
    public static let stampName = "FolioText"
    /// The text size the art is drawn at before the stamp scales it into its box.
    static let size = 20.0

    /// The art for `text` (line breaks become spaces). A character no installed font has is
    /// an invalid value naming it and the packages that would draw it.
    public static func art(_ text: String) throws -> PDFStampArt {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { throw ScoreError(.invalidValue, "a text stamp needs text") }
        var drawing = PDFDrawing()
        let baseline = PDFPoint(x: 1, y: size * 0.24)
        if let encoded = try? StandardFont.timesBoldItalic.encode(line) {
            drawing.text(encoded, font: .timesBoldItalic, size: size, at: baseline)
            let width = StandardFont.timesBoldItalic.width(ofEncoded: encoded, size: size) + 2
            return PDFStampArt(name: stampName, width: width, height: size, drawing: drawing)
        }
        let drawn = String(String.UnicodeScalarView(line.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        let fonts: [TrueTypeFont]
        do { fonts = try SystemFonts.covering(drawn, style: .serifItalic) } catch let error as PDFError {
            throw ScoreError(.invalidValue, error.message)
        }
        let width = try drawing.text(PDFTypeface.chain(fonts).visualLine(drawn), chain: fonts, size: size, at: baseline)
        return PDFStampArt(name: stampName, width: baseline.x + width + 1, height: size, drawing: drawing)
    }

    /// The art of a stamp Folio made, from its `/Name` and `/Contents`: the resolver
    /// annotation edits take (musical marks by name, text stamps by their words; words no
    /// font has are the error ``art(_:)`` names).
    ///
    /// ```swift
    /// try document.editAnnotation(id: id, change, stampArt: TextStamp.resolve)
    /// ```
    public static func resolve(name: String, contents: String?) throws -> PDFStampArt? {
        if name == stampName { return try contents.map(art) }
        return MusicalSymbol.art(forStampName: name)
    }
}
