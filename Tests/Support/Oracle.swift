import Foundation

/// The answers of established tools (qpdf, pikepdf) for every corpus file, computed once
/// per test run by `Tests/Oracle/oracle.py`. Nothing here is pasted by hand.
public struct OracleEntry: Decodable, Sendable {
    public let password: String?
    public let qpdf_pages: Int?
    public let title: String?
    public let title_hex: String?
    public let author: String?
    public let author_hex: String?
    public let producer: String?
    public let created_raw: String?
    public let encrypted: Bool?
    public let streams: [String: String]?
    public let pike_error: String?
}

public enum Oracle {
    /// Computed on first use; a failure (tool missing) fails every test that needs it.
    static let answers: Result<[String: OracleEntry], TestFailure> = {
        do {
            let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/oracle.py").path
            let result = try TestEnvironment.runTool("python3", [script, try TestEnvironment.corpus.path], timeout: 900)
            guard result.status == 0 else {
                let message = String(decoding: result.stderr.suffix(2000), as: UTF8.self)
                return .failure(TestFailure("oracle.py failed (are qpdf and pikepdf installed?): \(message)"))
            }
            return .success(try JSONDecoder().decode([String: OracleEntry].self, from: result.stdout))
        } catch {
            return .failure(TestFailure("oracle could not run: \(error)"))
        }
    }()

    /// The answers; skipped (or failed, in CI) without the corpus, like every corpus test.
    public static func load() throws -> [String: OracleEntry] {
        _ = try TestEnvironment.corpus
        return try answers.get()
    }
}
