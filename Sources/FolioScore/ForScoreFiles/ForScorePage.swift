import Foundation

extension ForScoreLibraryData {
    /// What forScore keeps about one page besides its drawings and text boxes, read from a
    /// page dictionary (`<file>|<page>`) or flat keys (`<file>|<page>|rotation`).
    ///
    /// ```swift
    /// let page = library.files["Real Book.pdf"]?.pages[3]
    /// page?.rotation   // 90
    /// page?.half       // 0.5: the half-page turn splits the page in the middle
    /// ```
    public struct Page: Sendable, Equatable {
        /// The turn the user gave the page, clockwise in degrees (0, 90, 180, 270).
        public var rotation: Int?
        /// Where the half-page turn splits the page: 0…1 of its height from the top.
        public var half: Double?
        /// forScore's landscape crop of the page (two halves side by side); not applied.
        public var croppedLandscape = false
        /// The user's crop of the page.
        public var crop: Crop?

        public init() {}
    }

    /// A page's crop as forScore keeps it.
    ///
    /// ```swift
    /// if case .rect(let x, let y, let width, let height, let normalized)? = page.crop { print(x, y, width, height, normalized) }
    /// ```
    public enum Crop: Sendable, Equatable {
        /// `rect`: the part of the page shown, from its top left as shown, in points (or, when
        /// every number is at most 1, in fractions of the page).
        case rect(x: Double, y: Double, width: Double, height: Double, normalized: Bool)
        /// `zoom` with `offset` or `trOffset`: a magnification and a shift of the view, whose
        /// mapping to the page the public decodings do not pin down.
        case zoom(factor: Double, offset: [Double])
    }

    /// One of forScore's named drawing layers (such as "Fingerings"), by its stable id.
    ///
    /// ```swift
    /// library.files["Dvořák.pdf"]?.layers.map { "\($0.id): \($0.name)" }
    /// ```
    public struct Layer: Sendable, Equatable {
        public var id: String
        public var name: String
        public var isVisible: Bool

        public init(id: String, name: String, isVisible: Bool) {
            self.id = id
            self.name = name
            self.isVisible = isVisible
        }
    }

    /// A drawing: the picture of one layer of one page on forScore's canvas
    /// (``ForScoreCanvas``); `layer` nil for the page's own drawing layer.
    ///
    /// ```swift
    /// for drawing in file.drawings { print(drawing.page, drawing.layer ?? "base", drawing.png.count) }
    /// ```
    public struct Drawing: Sendable, Equatable {
        /// 1-based.
        public var page: Int
        public var layer: String?
        public var png: [UInt8]

        public init(page: Int, layer: String?, png: [UInt8]) {
            self.page = page
            self.layer = layer
            self.png = png
        }
    }

    /// A page field's value into `page`; false when the field is not one of a page's.
    static func readPageField(_ field: String, _ value: Any, into page: inout Page, unread: inout [String], key: String) -> Bool {
        func number(_ value: Any?) -> Double? {
            guard let value else { return nil }
            let numbers = ForScoreLibraryData.numbers(value)
            return numbers.count == 1 && numbers[0].isFinite ? numbers[0] : nil
        }
        switch field {
        case "rotation":
            guard let degrees = number(value), degrees == degrees.rounded() else { unread.append("\(key): not a number"); return true }
            guard abs(degrees) <= 3600 else { unread.append("\(key): rotation \(degrees) (valid: a multiple of 90°)"); return true }
            var turn = Int(degrees)
            // Quarter turns (-3…3) or degrees.
            if (-3...3).contains(turn) { turn *= 90 }
            guard turn % 90 == 0 else { unread.append("\(key): rotation \(Int(degrees)) (valid: a multiple of 90°)"); return true }
            page.rotation = ((turn % 360) + 360) % 360
        case "half":
            guard let half = number(value), half > 0, half < 1 else {
                unread.append("\(key): half \(value) (valid: between 0 and 1 of the page's height)")
                return true
            }
            page.half = half
        case "croppedLandscape":
            page.croppedLandscape = (value as? Bool) ?? ((number(value) ?? 0) != 0)
        case "rect":
            let numbers = ForScoreLibraryData.numbers(value)
            guard numbers.count == 4, numbers.allSatisfy({ $0.isFinite && $0 >= 0 }), numbers[2] > 0, numbers[3] > 0 else {
                unread.append("\(key): a crop rectangle needs x, y, width and height, none negative")
                return true
            }
            page.crop = .rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3],
                              normalized: numbers.allSatisfy { $0 <= 1 })
        case "zoom", "offset", "trOffset":
            var factor = 1.0, offset: [Double] = []
            if case .zoom(let oldFactor, let oldOffset)? = page.crop { factor = oldFactor; offset = oldOffset }
            if case .rect? = page.crop { return true }
            if field == "zoom" {
                guard let zoom = number(value), zoom > 0 else { unread.append("\(key): not a positive number"); return true }
                factor = zoom
            } else {
                offset = ForScoreLibraryData.numbers(value)
            }
            page.crop = .zoom(factor: factor, offset: offset)
        default:
            return false
        }
        return true
    }

    /// A layer from its dictionary: `id` (or `identifier`, `uuid`), `name` (or `title`),
    /// `visible` (or `hidden`).
    static func layer(_ item: Any) -> Layer? {
        guard let dictionary = item as? [String: Any] else { return nil }
        let id = ["id", "identifier", "uuid", "ID"].lazy.compactMap { key -> String? in
            if let text = dictionary[key] as? String { return text }
            if let number = dictionary[key] as? Int { return String(number) }
            return nil
        }.first
        guard let id, !id.isEmpty, id.utf8.count <= 200 else { return nil }
        let name = ((dictionary["name"] ?? dictionary["title"]) as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
        let visible = (dictionary["visible"] as? Bool) ?? !((dictionary["hidden"] as? Bool) ?? false)
        return Layer(id: id, name: name.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) } ?? "Layer \(id)", isVisible: visible)
    }
}
