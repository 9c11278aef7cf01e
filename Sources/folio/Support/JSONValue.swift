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

    static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    static func optional(_ value: Int?) -> JSONValue {
        value.map(JSONValue.int) ?? .null
    }

    static func numbers(_ values: [Double]) -> JSONValue {
        .array(values.map(JSONValue.number))
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 10_000).rounded() / 10_000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        // Swift's shortest round-trip form; String(format:) cost more than reading the file.
        return "\(rounded)"
    }

    /// A score's fields in ``ScoreField`` order, lists always, unset values as null; a key
    /// as `key` renders it.
    static func fields(_ score: ScoreMetadata, key: (MusicalKey) -> JSONValue) -> [(String, JSONValue)] {
        ScoreField.allCases.map { field in
            let value: JSONValue = switch score[field] {
            case .text(let text): .string(text)
            case .list(let list): .strings(list)
            case .number(let number): .int(number)
            case .key(let musicalKey): key(musicalKey)
            case nil: field.kind == .list ? .array([]) : .null
            }
            return (field.rawValue, value)
        }
    }

    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map(JSONValue.string))
    }

    var encoded: String {
        switch self {
        case .string(let text): return JSONValue.quote(text)
        case .int(let value): return String(value)
        case .number(let value): return JSONValue.format(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.encoded).joined(separator: ",") + "]"
        case .object(let fields): return JSONValue.object(fields)
        }
    }

    static func object(_ fields: [(String, JSONValue)]) -> String {
        "{" + fields.map { quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
    }

    /// JSON string escaping (RFC 8259 §7): quote, backslash and control characters.
    /// Written out because JSONSerialization per field cost more than reading the PDF.
    static func quote(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
