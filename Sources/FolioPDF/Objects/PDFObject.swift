/// A PDF object: the value type every part of the engine exchanges.
///
/// Indirect references stay unresolved; ask the ``PDFDocument`` to resolve them.
///
/// ```swift
/// let value: PDFObject = .dictionary(["Type": .name("Page"), "Rotate": .integer(90)])
/// value["Rotate"]?.intValue   // 90
/// ```
public enum PDFObject: Sendable, Equatable {
    case null
    case boolean(Bool)
    case integer(Int)
    case real(PDFReal)
    case string(PDFString)
    case name(String)
    case array([PDFObject])
    case dictionary(PDFDictionary)
    case stream(PDFStream)
    case reference(PDFReference)

    public var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return value.value.isFinite ? Int(exactly: value.value.rounded(.towardZero)) : nil
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value.value
        default: return nil
        }
    }

    public var nameValue: String? {
        if case .name(let value) = self { return value }
        return nil
    }

    public var stringValue: PDFString? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [PDFObject]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The dictionary of a dictionary or of a stream.
    public var dictionaryValue: PDFDictionary? {
        switch self {
        case .dictionary(let value): return value
        case .stream(let value): return value.dictionary
        default: return nil
        }
    }

    public var streamValue: PDFStream? {
        if case .stream(let value) = self { return value }
        return nil
    }

    public var referenceValue: PDFReference? {
        if case .reference(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Dictionary (or stream dictionary) lookup; nil for other kinds.
    public subscript(key: String) -> PDFObject? {
        dictionaryValue?[key]
    }
}

/// A real number that remembers how it was written, so an unchanged value is written
/// back byte for byte (no precision loss on a round trip).
///
/// ```swift
/// let real = PDFReal(0.5, text: ".50")   // written back as ".50"
/// real.value   // 0.5
/// ```
public struct PDFReal: Sendable, Equatable {
    public let value: Double
    /// The token as it stood in the file, if it came from one.
    public let text: String?

    public init(_ value: Double, text: String? = nil) {
        self.value = value
        self.text = text
    }
}

/// A PDF string: raw bytes plus whether it was written in hex form.
///
/// Use ``PDFTextString`` to turn a text string into Swift text.
///
/// ```swift
/// let title = PDFString(PDFTextString.encode("Dvořák"))
/// title.text   // "Dvořák"
/// ```
public struct PDFString: Sendable, Equatable, Hashable {
    public var bytes: [UInt8]
    public var isHex: Bool

    public init(_ bytes: [UInt8], isHex: Bool = false) {
        self.bytes = bytes
        self.isHex = isHex
    }

    /// The string decoded as a PDF text string (PDFDocEncoding, UTF-16BE or UTF-8).
    public var text: String { PDFTextString.decode(bytes) }
}

/// A dictionary that keeps its keys in file order (so a rewrite keeps them).
///
/// ```swift
/// var page: PDFDictionary = ["Type": .name("Page"), "Rotate": .integer(90)]
/// page["Rotate"] = nil
/// page.keys   // ["Type"]
/// ```
public struct PDFDictionary: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// Entries in insertion order. Most dictionaries have a handful of keys, found fastest
    /// by a look along them; past ``indexedCount`` a hash index is kept beside them.
    private var pairs: [(key: String, value: PDFObject)] = []
    /// Position of each key in `pairs`, kept only once there are more than ``indexedCount``.
    private var index: [String: Int]?
    private static let indexedCount = 16

    public init() {}

    public init(dictionaryLiteral elements: (String, PDFObject)...) {
        for (key, value) in elements { self[key] = value }
    }

    public var count: Int { pairs.count }
    public var isEmpty: Bool { pairs.isEmpty }
    /// Keys in insertion order.
    public var keys: [String] { pairs.map(\.key) }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return pairs.firstIndex { $0.key == key }
    }

    /// Setting `nil` (or `.null`, which PDF treats as absent) removes the key.
    public subscript(key: String) -> PDFObject? {
        get { position(of: key).map { pairs[$0].value } }
        set {
            if let newValue, newValue != .null {
                if let found = position(of: key) {
                    pairs[found].value = newValue
                } else {
                    pairs.append((key, newValue))
                    if index != nil { index?[key] = pairs.count - 1 } else { index = PDFDictionary.index(of: pairs) }
                }
            } else if let found = position(of: key) {
                pairs.remove(at: found)
                if index != nil { index = PDFDictionary.index(of: pairs) }
            }
        }
    }

    /// The positions of `pairs`' keys, or nil when they are few enough to look along.
    private static func index(of pairs: [(key: String, value: PDFObject)]) -> [String: Int]? {
        guard pairs.count > indexedCount else { return nil }
        return Dictionary(pairs.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Key/value pairs in order.
    public var entries: [(key: String, value: PDFObject)] { pairs }

    /// Equal when both hold the same keys with equal values, in whatever order.
    public static func == (lhs: PDFDictionary, rhs: PDFDictionary) -> Bool {
        guard lhs.pairs.count == rhs.pairs.count else { return false }
        for (offset, pair) in lhs.pairs.enumerated() {
            // Same order is the common case: compare in place before looking the key up.
            if rhs.pairs[offset].key == pair.key {
                if rhs.pairs[offset].value != pair.value { return false }
            } else if rhs[pair.key] != pair.value {
                return false
            }
        }
        return true
    }
}

/// A stream: its dictionary and its encoded (still filtered, already decrypted) bytes.
///
/// ```swift
/// let stream = PDFStream(dictionary: ["Length": .integer(4)], encodedData: Array("q Q\n".utf8))
/// let bytes = try document.decodedData(of: stream)
/// ```
public struct PDFStream: Sendable, Equatable {
    public var dictionary: PDFDictionary
    /// Data as stored in the file after decryption, before the /Filter chain is applied.
    public var encodedData: [UInt8]

    public init(dictionary: PDFDictionary, encodedData: [UInt8]) {
        self.dictionary = dictionary
        self.encodedData = encodedData
    }
}
