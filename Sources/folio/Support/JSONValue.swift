import FolioScore
import Foundation

/// A JSON value for one-line output with keys in a fixed order. JSONEncoder neither keeps
/// key order nor writes explicit nulls for optionals, which JSON Lines consumers expect here.
/// Round trips through a real JSON parser are tested (InfoCommandTests).
enum JSONValue {
    case string(String)
    case int(Int)
    /// A number written with at most four decimals.
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// An array of numbers, each as ``number(_:)`` writes it (made by ``numbers(_:)``).
    case numberList([Double])

    static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    static func optional(_ value: Int?) -> JSONValue {
        value.map(JSONValue.int) ?? .null
    }

    static func numbers(_ values: [Double]) -> JSONValue {
        .numberList(values)
    }

    static func format(_ value: Double) -> String {
        var bytes: [UInt8] = []
        format(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` with at most four decimals, appended: the digits of the whole number of
    /// ten-thousandths, so no text is made on the way. They are the digits Swift's shortest
    /// form of the rounded value writes, which is used past 10^11.
    static func format(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { return JSONFields.literal("null", to: &out) }
        let scaled = (value * 10_000).rounded()
        guard abs(scaled) < 1e15 else {
            let rounded = scaled / 10_000
            out.append(contentsOf: (rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : "\(rounded)").utf8)
            return
        }
        let whole = Int(scaled)
        if whole < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = whole.magnitude
        JSONFields.digits(magnitude / 10_000, to: &out)
        var fraction = magnitude % 10_000
        guard fraction > 0 else { return }
        out.append(UInt8(ascii: "."))
        // Digit by digit until nothing is left: trailing zeros are never written.
        var divisor: UInt = 1000
        while fraction > 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// A score's metadata in its one JSON form (`ScoreMetadata.jsonMembers`, as the API
    /// writes it): fields in ``ScoreField`` order, lists always, the key by its name, the
    /// duration in seconds and as written, unset values left out.
    static func fields(_ score: ScoreMetadata) -> [(String, JSONValue)] {
        score.jsonMembers.map { name, value in
            switch value {
            case .text(let text): (name, .string(text))
            case .texts(let list): (name, .strings(list))
            case .number(let number): (name, .int(number))
            }
        }
    }

    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map(JSONValue.string))
    }

    var encoded: String {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value's JSON text as UTF-8: one buffer for a whole tree, where joining
    /// strings level by level cost more than reading the annotations of the file.
    func write(to out: inout [UInt8]) {
        switch self {
        case .string(let text): JSONText.quote(text, to: &out)
        case .int(let value): JSONFields.integer(value, to: &out)
        case .number(let value): JSONValue.format(value, to: &out)
        case .bool(let value): JSONFields.literal(value ? "true" : "false", to: &out)
        case .null: JSONFields.literal("null", to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .numberList(let values):
            JSONFields.list(values, to: &out)
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.quote(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func object(_ fields: [(String, JSONValue)]) -> String {
        let value: JSONValue = .object(fields)
        return value.encoded
    }

    /// JSON string escaping (RFC 8259 §7): quote, backslash and control characters.
    /// Written out because JSONSerialization per field cost more than reading the PDF.
    static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONText.quote(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// An object's members written straight into a buffer, as ``JSONValue/write(to:)`` writes
/// them (numbers with at most four decimals, nil as null), for records written by the
/// thousand. Keys are identifiers the caller spells out, so they are written unescaped.
///
/// ```swift
/// var bytes: [UInt8] = []
/// var object = JSONFields(opening: &bytes)
/// object.string("title", "Ноктюрн", to: &bytes)
/// JSONFields.close(&bytes)   // {"title":"Ноктюрн"}
/// ```
struct JSONFields {
    private var first = true

    /// Opens an object in `out`.
    init(opening out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
    }

    /// Closes the object.
    static func close(_ out: inout [UInt8]) {
        out.append(UInt8(ascii: "}"))
    }

    mutating func key(_ name: StaticString, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(UInt8(ascii: "\""))
        JSONFields.literal(name, to: &out)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    /// `text`'s bytes, appended.
    static func literal(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// `value` in decimal, its sign first, appended (what JSON's integers and ``JSONValue/int(_:)`` write).
    static func integer(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        digits(value.magnitude, to: &out)
    }

    /// The decimal digits of `value`, appended, with no text made on the way.
    static func digits(_ value: UInt, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in  // UInt.max has 20 digits
            var start = buffer.count
            var rest = value
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    mutating func string(_ name: StaticString, _ value: String?, to out: inout [UInt8]) {
        key(name, to: &out)
        if let value { JSONText.quote(value, to: &out) } else { JSONFields.literal("null", to: &out) }
    }

    mutating func int(_ name: StaticString, _ value: Int?, to out: inout [UInt8]) {
        key(name, to: &out)
        if let value { JSONFields.integer(value, to: &out) } else { JSONFields.literal("null", to: &out) }
    }

    mutating func bool(_ name: StaticString, _ value: Bool, to out: inout [UInt8]) {
        key(name, to: &out)
        JSONFields.literal(value ? "true" : "false", to: &out)
    }

    mutating func number(_ name: StaticString, _ value: Double?, to out: inout [UInt8]) {
        key(name, to: &out)
        if let value { JSONValue.format(value, to: &out) } else { JSONFields.literal("null", to: &out) }
    }

    mutating func numbers(_ name: StaticString, _ values: [Double], to out: inout [UInt8]) {
        key(name, to: &out)
        JSONFields.list(values, to: &out)
    }

    mutating func strings(_ name: StaticString, _ values: [String], to out: inout [UInt8]) {
        key(name, to: &out)
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.quote(value, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Numbers as a JSON array, each as ``JSONValue/format(_:to:)`` writes it.
    static func list(_ values: [Double], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.format(value, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}
