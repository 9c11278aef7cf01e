import Foundation

/// forScore's Open In dictionary (`../shared/seeds/forscore-open-in.txt`): the keys
/// title, composers, genres, tags, labels (comma-separated strings), rating, difficulty,
/// duration, keysf and keymi (numbers, or strings of digits), read from JSON or from a
/// property list (XML or binary), and written as either.
///
/// ```swift
/// let json = #"{"title": "Nocturne Op. 90 № 2", "composers": "Frédéric Chopin", "rating": 5}"#
/// let (edit, warnings) = try OpenInDictionary.edit(from: Data(json.utf8))
/// edit.composers   // ["Frédéric Chopin"]
/// let data = try OpenInDictionary.export(score, as: .plist)
/// ```
public enum OpenInDictionary {
    /// The formats a dictionary is written in.
    ///
    /// ```swift
    /// let plist = try OpenInDictionary.export(metadata, as: .plist)
    /// ```
    public enum Format: String, Sendable, CaseIterable {
        case json, plist
    }

    /// Largest dictionary file read: a real one is a few hundred bytes.
    public static let maxBytes = 1 << 20

    /// Reads a dictionary (JSON, XML or binary property list, told apart by content) into
    /// an edit that sets each field the dictionary holds. Unknown keys are warnings; a
    /// value of the wrong kind or out of range is an error naming the key and what is valid.
    public static func edit(from data: Data) throws -> (ScoreEdit, [String]) {
        guard data.count <= maxBytes else {
            throw ScoreError(.invalidValue, "the dictionary file has \(data.count) bytes; at most \(maxBytes) are read")
        }
        let values = try decode(data)
        var edit = ScoreEdit()
        var warnings: [String] = []
        for key in values.keys.sorted() where !known.contains(key) {
            warnings.append("unknown key '\(key)' ignored (known: \(known.sorted().joined(separator: ", ")))")
        }
        for field in ScoreField.allCases where field.isInOpenIn {
            let key = field.rawValue
            switch (field.kind, values[key]) {
            case (_, nil), (.key, _): continue
            case (.text, .string(let text)?): edit[field] = .text(text)
            case (.text, let value?): throw kindError(key, value, expected: "a string")
            case (.list, .string(let text)?): edit[field] = .list(ForScoreInfo.split(text))
            case (.list, .list(let items)?):
                edit[field] = .list(items.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty })
            case (.list, let value?):
                throw kindError(key, value, expected: "a string of comma-separated values or an array of strings")
            case (.number, _): edit[field] = try number(key, values, field.range ?? 0...Int.max).map(ScoreValue.number)
            }
        }
        let keysf = try number("keysf", values, -7...7)
        let keymi = try number("keymi", values, 0...1)
        if let keysf {
            edit[.key] = .key(try MusicalKey(keysf: keysf, keymi: keymi ?? 0))
        } else if keymi != nil {
            throw ScoreError(.invalidValue, "keymi is given without keysf; a key needs keysf (-7 to 7)")
        }
        return (edit, warnings)
    }

    /// The title forScore gives a file received without one: its name without `.pdf`.
    public static func defaultTitle(forFile path: String) -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.lowercased().hasSuffix(".pdf") ? String(name.dropLast(4)) : name
    }

    /// `score` as a dictionary in `format`; absent fields are left out, lists are joined
    /// with ", " as forScore expects, numbers are numbers.
    public static func export(_ score: ScoreMetadata, as format: Format) throws -> Data {
        let exported = Exported(score)
        switch format {
        case .json:
            return try JSONCoding.data(exported, pretty: true) + Data("\n".utf8)
        case .plist:
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .xml
            return try encoder.encode(exported)
        }
    }

    // MARK: Decoding

    static let known = Set(ScoreField.allCases.filter(\.isInOpenIn).flatMap {
        $0.kind == .key ? ["keysf", "keymi"] : [$0.rawValue]
    })

    /// A dictionary value, by kind, so that errors can say what was found.
    enum Value: Decodable {
        case string(String)
        case integer(Int)
        case fraction(Double)
        case boolean(Bool)
        case list([String])
        case null
        case other

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Bool.self) {
                self = .boolean(value)
            } else if let value = try? container.decode(Double.self) {
                self = .fraction(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([String].self) {
                self = .list(value)
            } else {
                self = .other
            }
        }

        /// A value as PropertyListSerialization gives it.
        init(propertyList value: Any) {
            if type(of: value) == Bool.self, let flag = value as? Bool {
                self = .boolean(flag)
            } else if let number = value as? Int {
                self = .integer(number)
            } else if let number = value as? Double {
                self = .fraction(number)
            } else if let text = value as? String {
                self = .string(text)
            } else if let items = value as? [Any], let texts = items as? [String] {
                self = .list(texts)
            } else {
                self = .other
            }
        }

        var kind: String {
            switch self {
            case .string(let text): "the string '\(text.prefix(40))'"
            case .integer(let value): "the number \(value)"
            case .fraction(let value): "the number \(value)"
            case .boolean(let value): "the boolean \(value)"
            case .list: "an array"
            case .null: "null"
            case .other: "a dictionary or a mixed array"
            }
        }
    }

    private static func decode(_ data: Data) throws -> [String: Value] {
        let head = data.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let isPropertyList = head.starts(with: Array("bplist".utf8)) || head.first == UInt8(ascii: "<")
        if isPropertyList {
            // Not PropertyListDecoder: it stops the process with a fatal error on some damaged binary
            // property lists (found by Fuzz/FuzzOpenIn); see PropertyList.
            let object: Any
            do { object = try PropertyList.read(Array(data)) } catch let error as ScoreError {
                throw ScoreError(.invalidValue, "the file is not a valid property list dictionary: \(error.message)")
            }
            guard let dictionary = object as? [String: Any] else {
                throw ScoreError(.invalidValue, "the property list does not hold a dictionary at its top level")
            }
            return dictionary.mapValues(Value.init(propertyList:))
        }
        do {
            return try JSONDecoder().decode([String: Value].self, from: data)
        } catch let error as DecodingError {
            let what = "JSON"
            switch error {
            case .typeMismatch, .valueNotFound:
                throw ScoreError(.invalidValue, "the \(what) does not hold a dictionary at its top level")
            default:
                throw ScoreError(.invalidValue, "the file is not a valid \(what) dictionary: \(describe(error))")
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context): context.underlyingError.map { "\($0.localizedDescription)" }
            ?? context.debugDescription
        default: "\(error)"
        }
    }

    private static func kindError(_ key: String, _ value: Value, expected: String) -> ScoreError {
        ScoreError(.invalidValue, "'\(key)' must be \(expected); found \(value.kind)")
    }

    /// A whole number given as a number or as a string of digits (with a sign for keysf).
    private static func number(_ key: String, _ values: [String: Value], _ range: ClosedRange<Int>) throws -> Int? {
        guard let value = values[key] else { return nil }
        let valid = "a whole number from \(range.lowerBound) to \(range.upperBound), as a number or a string of digits"
        let number: Int
        switch value {
        case .integer(let integer): number = integer
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let digits = trimmed.hasPrefix("-") || trimmed.hasPrefix("+") ? trimmed.dropFirst() : Substring(trimmed)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                let parsed = Int(trimmed)
            else { throw kindError(key, value, expected: valid) }
            number = parsed
        default: throw kindError(key, value, expected: valid)
        }
        guard range.contains(number) else {
            throw ScoreError(.outOfRange, "\(key) \(number) is out of range (valid: \(range.lowerBound) to \(range.upperBound))")
        }
        return number
    }

    // MARK: Encoding

    /// A score's fields by their Open In keys: lists joined with ", ", a key as keysf and keymi.
    private struct Exported: Encodable {
        let score: ScoreMetadata

        init(_ score: ScoreMetadata) { self.score = score }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: Key.self)
            for field in ScoreField.allCases where field.isInOpenIn {
                let key = Key(stringValue: field.rawValue)
                switch score[field] {
                case .text(let text): try values.encode(text, forKey: key)
                case .list(let list): try values.encode(list.joined(separator: ", "), forKey: key)
                case .number(let number): try values.encode(number, forKey: key)
                case .key(let musicalKey):
                    try values.encode(musicalKey.keysf, forKey: Key(stringValue: "keysf"))
                    try values.encode(musicalKey.keymi, forKey: Key(stringValue: "keymi"))
                case nil: continue
                }
            }
        }
    }
}
