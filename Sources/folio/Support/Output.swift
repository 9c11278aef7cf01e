import FolioScore
import Foundation

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Prints each value as one line of JSON (JSON Lines: keys sorted, slashes unescaped),
/// as every `--json` prints its results; nothing for no values.
func printJSONLines<T: Encodable>(_ values: [T]) throws {
    let encoder = JSONCoding.encoder()
    for value in values { print(String(decoding: try encoder.encode(value), as: UTF8.self)) }
}

/// Prints one value as one line of JSON (see ``printJSONLines(_:)``).
func printJSONLine<T: Encodable>(_ value: T) throws {
    try printJSONLines([value])
}
