import Foundation

/// A JSON scalar for one-line output with keys in a fixed order. JSONEncoder neither keeps
/// key order nor writes explicit nulls for optionals, which JSON Lines consumers expect here.
enum JSONValue {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null

    static func optional(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    var encoded: String {
        switch self {
        case .string(let text): return JSONValue.quote(text)
        case .int(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    static func object(_ fields: [(String, JSONValue)]) -> String {
        "{" + fields.map { quote($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
    }

    /// JSON string escaping (RFC 8259 §7), via JSONSerialization so control characters
    /// and lone surrogates follow Foundation's rules.
    static func quote(_ text: String) -> String {
        if let data = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed, .withoutEscapingSlashes]),
            let array = String(data: data, encoding: .utf8), array.count >= 2
        {
            return String(array.dropFirst().dropLast())
        }
        return "\"\""
    }
}
