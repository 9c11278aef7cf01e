import Foundation

/// What pikepdf and PyMuPDF read as every corpus file's outline (`Tests/Oracle/outlines.py`),
/// computed once per test run for the engine's and the command line's outline tests.
public enum OutlineOracle {
    public struct Expected: Decodable, Sendable {
        public let password: String?
        public let fitz: [[FitzValue]]?
        public let pike: [[FitzValue]]?
    }

    /// A JSON array element of mixed kinds.
    public enum FitzValue: Decodable, Equatable, Sendable {
        case int(Int), text(String), null

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null } else if let value = try? container.decode(Int.self) { self = .int(value) }
            else { self = .text(try container.decode(String.self)) }
        }

        public var int: Int? { if case .int(let value) = self { value } else { nil } }
        public var text: String? { if case .text(let value) = self { value } else { nil } }
    }

    /// Files whose outline points at pages through dictionaries MuPDF does not resolve.
    public static let dictionaryDestinations: Set<String> = ["pypdf/outlines-with-invalid-destinations.pdf"]

    private static let cached = Result { try read() }

    /// The answers by corpus path; skipped (or failed, in CI) without the corpus.
    public static func expected() throws -> [String: Expected] {
        try cached.get()
    }

    private static func read() throws -> [String: Expected] {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/outlines.py").path
        let run = try TestEnvironment.runTool("python3", [script, try TestEnvironment.corpus.path], timeout: 600)
        guard run.status == 0 else { throw TestFailure(String(decoding: run.stderr.suffix(2000), as: UTF8.self)) }
        return try JSONDecoder().decode([String: Expected].self, from: run.stdout)
    }
}
