import FolioTestSupport
import Foundation
import XCTest

/// `folio check` against `qpdf --check` on the corpus.
final class CheckCommandTests: XCTestCase {
    private func folio(_ arguments: [String]) throws -> (status: Int32, out: String) {
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, timeout: 600)
        return (result.status, String(decoding: result.stdout, as: UTF8.self))
    }

    func testExitCodes() throws {
        let clean = try folio(["check", try TestEnvironment.corpusFile("scores/Brahms-Cancion_de_Cuna.pdf")])
        XCTAssertEqual(clean.status, 0, clean.out)
        XCTAssertTrue(clean.out.contains("No structural problems found."))
        let damaged = try folio(["check", try TestEnvironment.corpusFile("qpdf/bad25.pdf")])
        XCTAssertEqual(damaged.status, 3, damaged.out)
        XCTAssertTrue(damaged.out.contains("WARNING: object 4 0"), damaged.out)
        let notPDF = try folio(["check", try TestEnvironment.corpusFile("pypdf/LICENSE")])
        XCTAssertEqual(notPDF.status, 2, notPDF.out)
        XCTAssertTrue(notPDF.out.contains("ERROR:"))
    }

    /// Where qpdf finds nothing, Folio must (almost always) find nothing either; where
    /// qpdf finds errors, Folio must not call the file clean.
    func testAgreesWithQpdfCheck() throws {
        let files = try TestEnvironment.corpusPDFs().map(TestEnvironment.corpusFile)
        let output = try folio(["check"] + files).out
        var verdicts: [String: Int] = [:]
        for block in output.components(separatedBy: "\nchecking ") {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            guard let first = lines.first else { continue }
            let path = String(first.hasPrefix("checking ") ? first.dropFirst("checking ".count) : first)
            let hasError = lines.contains { $0.hasPrefix("ERROR:") }
            let hasWarning = lines.contains { $0.hasPrefix("WARNING:") }
            verdicts[path] = hasError ? 2 : (hasWarning ? 3 : 0)
        }
        XCTAssertEqual(verdicts.count, files.count)
        var qpdfClean = 0, bothClean = 0, qpdfErrorsFolioClean: [String] = []
        for path in files {
            let qpdf = try TestEnvironment.runTool("qpdf", ["--check", path], timeout: 60).status
            if qpdf == 0 {
                qpdfClean += 1
                if verdicts[path] == 0 { bothClean += 1 }
            }
            if qpdf == 2, verdicts[path] == 0 { qpdfErrorsFolioClean.append(path) }
        }
        XCTAssertGreaterThan(qpdfClean, 500)
        XCTAssertGreaterThanOrEqual(Double(bothClean) / Double(qpdfClean), 0.95, "\(bothClean) of \(qpdfClean)")
        XCTAssertLessThanOrEqual(qpdfErrorsFolioClean.count, 2, "\(qpdfErrorsFolioClean)")
    }
}
