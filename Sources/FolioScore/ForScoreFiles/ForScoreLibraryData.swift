import FolioPDF
import Foundation

/// The metadata forScore keeps about its library, as a 4SB's record 0 and a 4SC carry
/// it: one flat property-list dictionary whose keys name a file and a field
/// (`<file>|title`), a page and a field (`<file>|<page>|textAnnotations`), a setlist
/// (`&SET;<name>`) or a setting (`&SYS;…`, ignored). File names are read in NFC.
///
/// Fields read per file: title, composer, genre, keywords (tags), labels, reference,
/// rating, difficulty, minutes and seconds (duration), key (a name such as "G minor" or
/// forScore's code, see ``key(code:)``), bpm (tempo), timeSignature, layers, bookmarks
/// (Title, First Page, Last Page — 0 meaning a single page —, Composer, Genre, Key,
/// Keyword); per page its fields (``Page``) and text boxes. Everything else is listed in
/// ``unread`` with why, never guessed.
///
/// ```swift
/// let data = try ForScoreLibraryData(plist: bytes, source: "record 0")
/// data.files["Clair de Lune.pdf"]?.metadata.title
/// ```
public struct ForScoreLibraryData: Sendable {
    /// A text box forScore draws over a page; geometry normalised to the page as shown
    /// (0…1, origin at the top left).
    ///
    /// ```swift
    /// for box in library.files["Dvořák.pdf"]?.textBoxes[1] ?? [] { print(box.text, box.x, box.y) }
    /// ```
    public struct TextBox: Sendable, Equatable {
        public var text: String
        public var font: String?
        public var fontSize: Double
        /// RGB components 0…1; nil for black.
        public var color: [Double]?
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        /// Whether the geometry is in the canvas's points (``ForScoreCanvas/points``) rather
        /// than in fractions of the page (every number at most 1).
        public var inCanvasPoints = false
        /// The id of the layer it belongs to (see ``Layer``).
        public var layer: String?
        public var isHidden = false
    }

    /// A bookmark forScore keeps for a file: a title and its 1-based pages.
    ///
    /// ```swift
    /// library.files["Real Book.pdf"]?.bookmarks.map { "\($0.title) \($0.first)–\($0.last)" }
    /// ```
    public struct BookmarkData: Sendable, Equatable {
        public var title: String
        /// 1-based pages.
        public var first: Int
        public var last: Int
        public var metadata: ScoreMetadata
    }

    /// What forScore knows of one file: its metadata, bookmarks, text boxes and drawings.
    ///
    /// ```swift
    /// let file = library.files["Clair de Lune.pdf"]
    /// file?.metadata.composers   // ["Claude Debussy"]
    /// ```
    public struct File: Sendable {
        public var name: String
        public var metadata = ScoreMetadata()
        /// Whether any field was set (a file only named by a setlist has none).
        public var hasMetadata = false
        public var bookmarks: [BookmarkData] = []
        /// Text boxes by 1-based page.
        public var textBoxes: [Int: [TextBox]] = [:]
        /// Drawings on forScore's canvas (a 4SC carries them; a 4SB in records).
        public var drawings: [Drawing] = []
        /// Page fields by 1-based page.
        public var pages: [Int: Page] = [:]
        /// The file's named drawing layers.
        public var layers: [Layer] = []
        /// Audio tracks linked to the file (`Tracks`), with their loop points.
        public var tracks: [AudioTrackLink] = []

        public init(name: String) {
            self.name = name
        }
    }

    /// Files by NFC name, and the order they were first seen in.
    public private(set) var files: [String: File] = [:]
    public private(set) var fileNames: [String] = []
    /// Setlists in forScore's order; entries' paths are file names.
    public private(set) var setlists: [Setlist] = []
    /// A 4SC's PDF.
    public private(set) var pdfData: [UInt8]?
    /// Keys and values not applied, each with why.
    public private(set) var unread: [String] = []
    /// How many `&SYS;` settings were skipped.
    public private(set) var settingsSkipped = 0

    public init(plist bytes: [UInt8], source: String) throws {
        let object: Any
        do { object = try PropertyList.read(bytes) } catch let error as ScoreError {
            throw ScoreError(error.code, "\(source) is not a property list: \(error.message)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw ScoreError(.malformed, "\(source) is a property list but not a dictionary")
        }
        try self.init(dictionary: dictionary)
    }

    init(dictionary: [String: Any]) throws {
        var setlistOrder: [String] = []
        var setlistItems: [String: [Any]] = [:]
        for key in dictionary.keys.sorted() {
            guard let value = dictionary[key] else { continue }
            if key == "pdfData" {
                guard let data = value as? Data else { unread.append("pdfData: not data"); continue }
                pdfData = Array(data)
            } else if key == "&SYS;setlists" {
                setlistOrder = (value as? [Any])?.compactMap { $0 as? String } ?? []
            } else if key.hasPrefix("&SET;") {
                guard let items = value as? [Any] else { unread.append("\(key): not a list"); continue }
                setlistItems[String(key.dropFirst(5))] = items
            } else if key.hasPrefix("&SYS;") {
                settingsSkipped += 1
            } else if let bar = key.lastIndex(of: "|") {
                var field = String(key[key.index(after: bar)...])
                var file = String(key[..<bar])
                var page: Int?
                if let inner = file.lastIndex(of: "|"), let number = Int(file[file.index(after: inner)...]) {
                    page = number
                    file = String(file[..<inner])
                } else if let number = Int(field), value is [String: Any] {
                    // A page dictionary: `<file>|<page>` → its fields.
                    page = number
                    field = ""
                }
                read(file: file.precomposedStringWithCanonicalMapping, page: page, field: field, value: value, key: key)
            } else {
                unread.append("\(key): not a file field, setlist or setting")
            }
        }
        for name in setlistOrder + setlistItems.keys.sorted() where setlistItems[name] != nil {
            setlists.append(Setlist(title: name, entries: (setlistItems[name] ?? []).compactMap(ForScoreLibraryData.setlistEntry)))
            setlistItems[name] = nil
        }
    }

    private mutating func read(file name: String, page: Int?, field: String, value: Any, key: String) {
        if files[name] == nil {
            files[name] = File(name: name)
            fileNames.append(name)
        }
        guard var file = files[name] else { return }
        defer { files[name] = file }
        let lowered = field.lowercased()
        if page == nil, lowered.hasSuffix(".png"), let number = Int(field.dropLast(4)) {
            guard number >= 1, let data = value as? Data else { unread.append("\(key): not a PNG layer"); return }
            file.drawings.append(Drawing(page: number, layer: nil, png: Array(data)))
            return
        }
        if let page {
            guard page >= 1, page <= 100_000 else { unread.append("\(key): page \(page) out of range (valid: 1 to 100000)"); return }
            if lowered.hasSuffix(".4se") || lowered.hasSuffix(".png") {
                // `<file>|<page>|<layer id>.4se`: that layer's picture of the page.
                guard let data = value as? Data else { unread.append("\(key): not a picture"); return }
                file.drawings.append(Drawing(page: page, layer: String(field.dropLast(4)), png: Array(data)))
                return
            }
            let fields: [(String, Any)] = field.isEmpty ? ((value as? [String: Any]) ?? [:]).sorted { $0.key < $1.key } : [(field, value)]
            for (name, value) in fields {
                let fieldKey = field.isEmpty ? "\(key)|\(name)" : key
                if name == "textAnnotations" {
                    let items = (value as? [Any]) ?? [value]
                    for item in items {
                        guard let box = item as? [String: Any], let parsed = ForScoreLibraryData.textBox(box) else {
                            unread.append("\(fieldKey): a text box without text or geometry")
                            continue
                        }
                        file.textBoxes[page, default: []].append(parsed)
                    }
                } else if !ForScoreLibraryData.readPageField(name, value, into: &file.pages[page, default: Page()], unread: &unread, key: fieldKey) {
                    unread.append("\(fieldKey): page field not read")
                }
            }
            return
        }
        func text() -> String? {
            let string = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            return string?.isEmpty == false ? string : nil
        }
        func list() -> [String] {
            if let array = value as? [Any] { return array.compactMap { ($0 as? String)?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
            return (text() ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        func number() -> Int? {
            ForScoreLibraryData.integer(value)
        }
        /// The number when it is in `field`'s range; one out of it is reported as not read.
        func number(in field: ScoreField) -> Int? {
            let range = field.range ?? 0...0
            guard let number = number(), range.contains(number) else {
                unread.append("\(key): \(value) is out of range (valid: a whole number from \(range.lowerBound) to \(range.upperBound))")
                return nil
            }
            return number
        }
        switch field {
        case "title": file.metadata.title = text()
        case "composer": file.metadata.composers = list()
        case "genre": file.metadata.genres = list()
        case "keywords": file.metadata.tags = list()
        case "labels": file.metadata.labels = list()
        case "reference": file.metadata.reference = text()
        case "rating": file.metadata.rating = number(in: .rating).flatMap { $0 > 0 ? $0 : nil }
        case "difficulty": file.metadata.difficulty = number(in: .difficulty).flatMap { $0 > 0 ? $0 : nil }
        case "minutes", "seconds":
            // Each part and their sum stay within a duration's range (a year), so nothing overflows.
            let limit = ScoreField.duration.range?.upperBound ?? 0
            guard let amount = number(), amount >= 0 else { unread.append("\(key): not a number"); return }
            let seconds = field == "minutes" ? (amount <= limit / 60 ? amount * 60 : nil) : amount
            let total = (file.metadata.duration ?? 0)
            guard let seconds, seconds <= limit - total else {
                unread.append("\(key): \(amount) \(field) is out of range (valid: a duration of 0 seconds to \(limit))")
                return
            }
            file.metadata.duration = total + seconds
        case "key":
            if let code = number() {
                guard let parsed = ForScoreLibraryData.key(code: code) else {
                    unread.append("\(key): key code \(code) not understood (valid: note 1–7 × 100 + sharp 0–1 × 10 + minor 0–1, such as 411 for F♯ minor)")
                    return
                }
                file.metadata.key = parsed
            } else {
                guard let name = text() else { return }
                if let key = try? MusicalKey(parsing: name) { file.metadata.key = key } else { unread.append("\(key): key \(name) not understood") }
            }
        case "bpm", "tempo":
            guard let bpm = number(), (1...999).contains(bpm) else { unread.append("\(key): tempo \(value) (valid: 1 to 999 beats per minute)"); return }
            file.metadata.tempo = bpm
        case "timeSignature", "timesig", "time signature", "meter":
            guard let signature = text().flatMap(ScoreField.timeSignature) else {
                unread.append("\(key): time signature \(value) (valid: such as 3/4, 6/8, C or ¢)")
                return
            }
            file.metadata.timeSignature = signature
        case "Tracks", "tracks":
            let items = (value as? [Any]) ?? [value]
            for item in items.prefix(AudioTrackLink.maxTracks) {
                guard let track = AudioTrackLink.forScore(item) else { unread.append("\(key): a track without a file"); continue }
                file.tracks.append(track)
            }
            return
        case "layers":
            guard let items = value as? [Any] else { unread.append("\(key): not a list"); return }
            for item in items.prefix(PDFDocument.maxOptionalContentGroups) {
                guard let layer = ForScoreLibraryData.layer(item) else { unread.append("\(key): a layer without an id"); continue }
                if !file.layers.contains(where: { $0.id == layer.id }) { file.layers.append(layer) }
            }
            return
        case "bookmarks":
            guard let items = value as? [Any] else { unread.append("\(key): not a list"); return }
            for item in items {
                guard let dictionary = item as? [String: Any], let bookmark = ForScoreLibraryData.bookmark(dictionary) else {
                    unread.append("\(key): a bookmark without Title or First Page")
                    continue
                }
                file.bookmarks.append(bookmark)
            }
            return
        default:
            unread.append("\(key): field \(field) not read")
            return
        }
        file.hasMetadata = true
    }

    /// A key from forScore's database code as the public decodings state the rule: hundreds
    /// the note 1–7 (C … B), tens 1 for sharp, units 1 for minor (100 C major, 411 F♯ minor).
    /// Their example "110 = C major" contradicts the rule; the rule is followed (110 is C♯ major).
    public static func key(code: Int) -> MusicalKey? {
        let note = code / 100, sharp = code / 10 % 10, minor = code % 10
        guard (1...7).contains(note), (0...1).contains(sharp), (0...1).contains(minor), code < 1000 else { return nil }
        let letter = ["C", "D", "E", "F", "G", "A", "B"][note - 1]
        return try? MusicalKey(parsing: letter + (sharp == 1 ? "#" : "") + (minor == 1 ? " minor" : " major"))
    }

    private static func bookmark(_ dictionary: [String: Any]) -> BookmarkData? {
        guard let title = (dictionary["Title"] as? String)?.trimmingCharacters(in: .whitespaces), !title.isEmpty,
              let first = integer(dictionary["First Page"]), first >= 1 else { return nil }
        let last = integer(dictionary["Last Page"]).flatMap { $0 >= first ? $0 : nil } ?? first
        var metadata = ScoreMetadata()
        metadata.title = title
        let split = { (value: Any?) in ((value as? String) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        metadata.composers = split(dictionary["Composer"])
        metadata.genres = split(dictionary["Genre"])
        metadata.tags = split(dictionary["Keyword"])
        metadata.key = (dictionary["Key"] as? String).flatMap { try? MusicalKey(parsing: $0) }
        return BookmarkData(title: title, first: first, last: last, metadata: metadata)
    }

    private static func setlistEntry(_ item: Any) -> SetlistEntry? {
        guard let dictionary = item as? [String: Any] else { return nil }
        let title = (dictionary["Title"] as? String) ?? (dictionary["Bookmark"] as? String) ?? ""
        guard let path = (dictionary["FilePath"] as? String).map({ $0.precomposedStringWithCanonicalMapping }), !path.isEmpty else {
            return title.isEmpty ? nil : SetlistEntry(kind: .placeholder, title: title)
        }
        if let bookmark = dictionary["Bookmark"] as? String, !bookmark.isEmpty {
            let first = integer(dictionary["First Page"])
            let last = integer(dictionary["Last Page"]).flatMap { $0 >= (first ?? 0) ? $0 : nil } ?? first
            return SetlistEntry(kind: .bookmark, title: bookmark, path: path, start: first, end: last)
        }
        return SetlistEntry(kind: .score, title: title.isEmpty ? (path as NSString).deletingPathExtension : title, path: path)
    }

    /// An integer from a property list's number or string; a real is taken when it is finite
    /// and within ±2^53 (beyond that it names no page, duration or rating), its fraction dropped.
    static func integer(_ value: Any?) -> Int? {
        if let int = value as? Int { return int }
        if let double = value as? Double, double.isFinite, abs(double) <= 9_007_199_254_740_992 { return Int(double) }
        return (value as? String).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// A text box from its dictionary: text; font or fontName; fontSize; color (components
    /// 0…1 as a list or "r,g,b[,a]", or "#rrggbb"); origin and size ("{x, y}", "{w, h}" or
    /// lists) or frame ("{{x, y}, {w, h}}"), normalised to the page.
    static func textBox(_ dictionary: [String: Any]) -> TextBox? {
        guard let text = (dictionary["text"] as? String) ?? (dictionary["string"] as? String), !text.isEmpty else { return nil }
        var geometry: [Double] = []
        if let frame = dictionary["frame"] ?? dictionary["rect"] {
            geometry = numbers(frame)
        } else if let origin = dictionary["origin"], let size = dictionary["size"] {
            geometry = numbers(origin) + numbers(size)
        }
        guard geometry.count == 4, geometry.allSatisfy({ $0.isFinite && abs($0) <= 100_000 }),
              geometry[2] > 0, geometry[3] > 0 else { return nil }
        let fontSize = numbers(dictionary["fontSize"] ?? 12).first ?? 12
        var color: [Double]?
        if let hex = dictionary["color"] as? String, hex.hasPrefix("#"), hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) {
            color = [Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255]
        } else if let value = dictionary["color"] {
            let components = numbers(value)
            if components.count >= 3, components.prefix(3).allSatisfy({ (0...1).contains($0) }) { color = Array(components.prefix(3)) }
        }
        let layer = (dictionary["layer"] as? String) ?? (dictionary["layer"] as? Int).map(String.init)
        let hidden = (dictionary["hidden"] as? Bool) ?? !((dictionary["visible"] as? Bool) ?? true)
        return TextBox(text: text, font: (dictionary["font"] as? String) ?? (dictionary["fontName"] as? String),
                       fontSize: fontSize, color: color,
                       x: geometry[0], y: geometry[1], width: geometry[2], height: geometry[3],
                       inCanvasPoints: !geometry.allSatisfy { $0 <= 1 }, layer: layer, isHidden: hidden)
    }

    /// Numbers in a list or in a CGPoint/CGRect-style string.
    static func numbers(_ value: Any) -> [Double] {
        if let array = value as? [Any] { return array.flatMap { numbers($0) } }
        if let double = value as? Double { return [double] }
        if let int = value as? Int { return [Double(int)] }
        guard let string = value as? String else { return [] }
        return string.split(whereSeparator: { !"0123456789.-eE".contains($0) }).compactMap { Double($0) }
    }
}
