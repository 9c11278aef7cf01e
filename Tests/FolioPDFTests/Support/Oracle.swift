import Foundation

/// The answers of established tools (qpdf, pikepdf) for every corpus file, computed once
/// per test run by `Tests/Oracle/oracle.py`. Nothing here is pasted by hand.
struct OracleEntry: Decodable, Sendable {
    let password: String?
    let qpdf_pages: Int?
    let title: String?
    let title_hex: String?
    let author: String?
    let author_hex: String?
    let producer: String?
    let created_raw: String?
    let encrypted: Bool?
    let streams: [String: String]?
    let pike_error: String?
}

enum Oracle {
    /// Computed on first use; a failure (tool missing) fails every test that needs it.
    static let answers: Result<[String: OracleEntry], TestFailure> = {
        do {
            let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/oracle.py").path
            let result = try TestEnvironment.runTool("python3", [script, TestEnvironment.corpus.path], timeout: 900)
            guard result.status == 0 else {
                let message = String(decoding: result.stderr.suffix(2000), as: UTF8.self)
                return .failure(TestFailure("oracle.py failed (are qpdf and pikepdf installed?): \(message)"))
            }
            return .success(try JSONDecoder().decode([String: OracleEntry].self, from: result.stdout))
        } catch {
            return .failure(TestFailure("oracle could not run: \(error)"))
        }
    }()

    static func load() throws -> [String: OracleEntry] {
        try answers.get()
    }
}
