import Foundation

/// An RGB colour with components from 0 to 1, as annotations carry it in `/C` and `/IC`
/// (gray and CMYK values are converted on reading).
///
/// ```swift
/// let red = try PDFColor(hex: "#ff0000")
/// red.hex          // "#ff0000"
/// red.components   // [1, 0, 0]
/// ```
public struct PDFColor: Sendable, Equatable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = PDFColor.clamp(red)
        self.green = PDFColor.clamp(green)
        self.blue = PDFColor.clamp(blue)
    }

    /// Parses `#RRGGBB` or `RRGGBB` (also the short `#RGB`); anything else is an
    /// ``PDFError/Code/invalidArgument`` error naming the accepted forms.
    public init(hex text: String) throws {
        var digits = text.trimmingCharacters(in: .whitespaces)
        if digits.hasPrefix("#") { digits.removeFirst() }
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            throw PDFError(.invalidArgument, "colour \"\(text)\" is not of the form #RRGGBB (hex digits 0-9, a-f)")
        }
        self.init(red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255,
                  blue: Double(value & 0xFF) / 255)
    }

    /// A colour array of 1 (gray), 3 (RGB) or 4 (CMYK) numbers; nil for an empty
    /// (transparent) or malformed array.
    public init?(components: [Double]) {
        switch components.count {
        case 1: self.init(red: components[0], green: components[0], blue: components[0])
        case 3: self.init(red: components[0], green: components[1], blue: components[2])
        case 4:
            let k = components[3]
            self.init(red: (1 - components[0]) * (1 - k), green: (1 - components[1]) * (1 - k),
                      blue: (1 - components[2]) * (1 - k))
        default: return nil
        }
    }

    public var components: [Double] { [red, green, blue] }

    /// `#rrggbb`, lower case.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for component in components {
            let byte = Int((component * 255).rounded())
            text.append(digits[byte >> 4])
            text.append(digits[byte & 15])
        }
        return text
    }

    public static let black = PDFColor(red: 0, green: 0, blue: 0)
    public static let yellow = PDFColor(red: 1, green: 0.85, blue: 0)

    private static func clamp(_ value: Double) -> Double {
        value.isFinite ? min(1, max(0, value)) : 0
    }
}
