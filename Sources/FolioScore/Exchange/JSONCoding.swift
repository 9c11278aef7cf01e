import Foundation

/// Folio's one JSON configuration: keys sorted (the same value is always the same text, so
/// digests and diffs are stable), "/" written as is, UTF-8 as is; pretty-printed for files a
/// person reads. The API's responses, the command line's `--json`, the catalog's stored values,
/// rehearsal messages and the files Folio writes all go through it. ``JSONText`` is the
/// hand-written writer for the few places where speed needs one.
///
/// ```swift
/// let text = try JSONCoding.text(ScoreMetadata(title: "Rusalka", composers: ["Antonín Dvořák"]))
/// // {"composers":["Antonín Dvořák"],"title":"Rusalka"}
/// let message = try JSONCoding.text(object: ["type": "move", "page": 3])   // {"page":3,"type":"move"}
/// ```
public enum JSONCoding {
    /// An encoder with Folio's configuration.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as JSON.
    public static func data<T: Encodable>(_ value: T, pretty: Bool = false) throws -> Data {
        try encoder(pretty: pretty).encode(value)
    }

    /// `value` as one line of JSON text.
    public static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try data(value), as: UTF8.self)
    }

    /// An untyped value (dictionaries, arrays, strings, numbers, as `JSONSerialization` takes
    /// them) as JSON, with the same configuration; throws ``ScoreError`` `.invalidValue` for a
    /// value JSON cannot hold.
    public static func data(object: Any) throws -> Data {
        guard JSONSerialization.isValidJSONObject(object) || object is String || object is NSNumber else {
            throw ScoreError(.invalidValue, "not a value JSON can hold: \(type(of: object))")
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    }

    /// An untyped value as one line of JSON text (see ``data(object:)``).
    public static func text(object: Any) throws -> String {
        String(decoding: try data(object: object), as: UTF8.self)
    }
}
