import Foundation

/// The fonts installed from Debian's packages that Folio draws text in when the standard
/// fonts (WinAnsiEncoding) cannot show it: DejaVu Sans (`fonts-dejavu-core`: Latin, Greek,
/// Cyrillic, Hebrew, Arabic, ♩ ♯ ♭) first, Droid Sans Fallback (`fonts-droid-fallback`:
/// Chinese, Japanese, Korean) for what it lacks. Each is read only when the text needs it.
///
/// ```swift
/// let fonts = SystemFonts.chain(for: "Dvořák – 新世界より", style: .regular)
/// let face = PDFTypeface.chain(fonts)   // DejaVu Sans, then Droid Sans Fallback
/// if let lacking = face.firstMissing(in: text) { print(SystemFonts.advice(for: lacking, fonts: fonts)) }
/// ```
public enum SystemFonts {
    /// The kind of face wanted; bold, oblique, serif and monospaced faces fall back to the
    /// regular chain for characters they lack.
    ///
    /// ```swift
    /// SystemFonts.chain(for: "Rusalka — Měsíčku", style: .serif).first?.postScriptName   // "DejaVuSerif"
    /// ```
    public enum Style: Sendable, CaseIterable {
        case regular, bold, italic, monospaced, serif, serifBold, serifItalic
    }

    /// The font files tried for `style`, in order (installed or not).
    ///
    /// ```swift
    /// SystemFonts.candidates(.monospaced).first   // ".../dejavu/DejaVuSansMono.ttf"
    /// ```
    public static func candidates(_ style: Style) -> [String] {
        let regular = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                       "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"]
        let first: [String] = switch style {
        case .regular: []
        case .bold: ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"]
        case .italic: ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf"]
        case .monospaced: ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"]
        case .serif: ["/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"]
        case .serifBold: ["/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"]
        case .serifItalic: ["/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"]
        }
        return first + regular
    }

    /// The fonts that draw `text`: `first` (a user's font) when given, then the installed
    /// candidates of `style`, each read only while some character of `text` is still
    /// without a font (`load` reads a file: a document passes one that reads each file once).
    /// Characters no font has are left for the caller to name
    /// (`PDFTypeface.chain(fonts).firstMissing(in:)`, then ``advice(for:fonts:)``).
    ///
    /// ```swift
    /// let fonts = SystemFonts.chain(for: "Ελεγεία", style: .regular)   // [DejaVu Sans]
    /// ```
    public static func chain(for text: String, style: Style, first: TrueTypeFont? = nil,
                             load: (String) -> TrueTypeFont? = SystemFonts.read) -> [TrueTypeFont] {
        var fonts: [TrueTypeFont] = first.map { [$0] } ?? []
        var missing = Set(text.unicodeScalars.filter { scalar in
            scalar.properties.generalCategory != .control && !fonts.contains { $0.glyph(for: scalar) != nil }
        })
        for path in candidates(style) where !missing.isEmpty {
            guard let font = load(path), missing.contains(where: { font.glyph(for: $0) != nil }) else { continue }
            fonts.append(font)
            missing = missing.filter { font.glyph(for: $0) == nil }
        }
        return fonts
    }

    /// The fonts that draw every character of `text` but its controls (line breaks, tabs):
    /// ``chain(for:style:first:load:)``, or an ``PDFError/Code/invalidArgument`` error naming
    /// the first character none of them has and the packages that would draw it
    /// (``advice(for:fonts:)``).
    ///
    /// ```swift
    /// let fonts = try SystemFonts.covering("Tempo primo — テンポ", style: .serifItalic)
    /// ```
    public static func covering(_ text: String, style: Style, first: TrueTypeFont? = nil,
                                load: (String) -> TrueTypeFont? = SystemFonts.read) throws -> [TrueTypeFont] {
        let drawn = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        let fonts = chain(for: drawn, style: style, first: first, load: load)
        if let missing = PDFTypeface.chain(fonts).firstMissing(in: drawn) {
            throw PDFError(.invalidArgument, advice(for: missing, fonts: fonts))
        }
        return fonts
    }

    /// The font file at `path`; nil when it is missing or not a TrueType font Folio can embed.
    ///
    /// ```swift
    /// let dejaVu = SystemFonts.read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    /// ```
    public static func read(_ path: String) -> TrueTypeFont? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? TrueTypeFont(bytes: Array(data))
    }

    /// Why `scalar` cannot be drawn with `fonts`, and what would draw it.
    ///
    /// ```swift
    /// SystemFonts.advice(for: "\u{E000}", fonts: fonts)
    /// // "the character "" (U+E000) is in none of the fonts Folio found (DejaVuSans); install …"
    /// ```
    public static func advice(for scalar: Unicode.Scalar, fonts: [TrueTypeFont]) -> String {
        "the character \"\(scalar)\" (\(String(format: "U+%04X", scalar.value))) is in none of the fonts Folio found"
            + (fonts.isEmpty ? "" : " (\(fonts.map(\.postScriptName).joined(separator: ", ")))")
            + "; install Debian's fonts-dejavu-core (Latin, Greek, Cyrillic, Hebrew, Arabic) and fonts-droid-fallback "
            + "(Chinese, Japanese, Korean), or give a TrueType font that has it"
    }
}
