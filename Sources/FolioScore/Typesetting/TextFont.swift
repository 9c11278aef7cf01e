import FolioPDF
import Foundation

/// A TrueType font a musician chose to set text in — a typeset score's lines, a FreeText's
/// words — before the installed fonts, which still draw what it lacks. Read and checked
/// once (tables, glyph counts, embedding licence), then embedded as a subset of the glyphs
/// each file uses.
///
/// ```swift
/// let font = try TextFont.read("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
/// var request = AnnotationRequest(kind: .freeText, page: 1)
/// request.text = "Dvořák: ritardando"
/// request.font = font
/// ```
public struct TextFont: Sendable, Equatable {
    let font: TrueTypeFont

    /// The font's PostScript name, as viewers list it ("DejaVuSerif").
    public var name: String { font.postScriptName }

    /// The font in `bytes`; bytes that are not a TrueType font Folio can embed are an
    /// invalid value naming `fileName` and what is wrong.
    ///
    /// ```swift
    /// let font = try TextFont(bytes: Array(data), fileName: "Gentium.ttf")
    /// ```
    public init(bytes: [UInt8], fileName: String) throws {
        do { font = try TrueTypeFont(bytes: bytes) } catch let error as PDFError {
            throw ScoreError(.invalidValue, "\(fileName): \(error.message)")
        }
    }

    /// The font file at `path`; a file that cannot be read is an invalid value naming it.
    ///
    /// ```swift
    /// let serif = try TextFont.read("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
    /// ```
    public static func read(_ path: String) throws -> TextFont {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScoreError(.invalidValue, "\(path): no such font file, or it cannot be read")
        }
        return try TextFont(bytes: Array(data), fileName: (path as NSString).lastPathComponent)
    }

    /// The installed faces a musician picks text in by name (Debian's DejaVu fonts): sans
    /// (the default chain), serif, serif italic (how "dolce" is printed), monospaced.
    ///
    /// ```swift
    /// let italic = try TextFont.installed(.serifItalic)   // DejaVu Serif Italic
    /// ```
    public enum Family: String, Sendable, CaseIterable {
        case sans, serif
        case serifItalic = "serif-italic"
        case mono
    }

    /// The font file of `family` as installed; nil for ``Family/sans`` (the default chain
    /// draws it). A family whose file is missing is `ScoreErrorCode.unavailable`, naming the package.
    public static func installed(_ family: Family) throws -> TextFont? {
        let style: SystemFonts.Style
        switch family {
        case .sans: return nil
        case .serif: style = .serif
        case .serifItalic: style = .serifItalic
        case .mono: style = .monospaced
        }
        guard let path = SystemFonts.candidates(style).first, FileManager.default.fileExists(atPath: path) else {
            throw ScoreError(.unavailable, "the \(family.rawValue) font is not installed (sudo apt-get install fonts-dejavu-extra fonts-dejavu-core)")
        }
        return try read(path)
    }
}
