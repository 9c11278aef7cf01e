#if canImport(Glibc)
import Glibc
#endif
import FolioTestSupport
import Foundation
import XCTest

/// `folio info` over the whole shared corpus in one call.
final class InfoCorpusCommandTests: XCTestCase {
    /// Every corpus file through the `folio info` binary in one call: no crash, no hang,
    /// bounded memory, one JSON line per file, exit 1 because some files are unreadable.
    func testFolioInfoOverWholeCorpus() throws {
        let files = try TestEnvironment.corpusPDFs().map(TestEnvironment.corpusFile)
        XCTAssertGreaterThan(files.count, 700)
        var before = rusage()
        getrusage(RUSAGE_CHILDREN_WHO, &before)
        let started = Date()
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), ["info", "--json"] + files, timeout: 300)
        let elapsed = Date().timeIntervalSince(started)
        var after = rusage()
        getrusage(RUSAGE_CHILDREN_WHO, &after)
        XCTAssertEqual(result.status, 1, "some corpus files need a password, so the exit code is 1")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, files.count, "one line per file")
        var paths: [String] = []
        var errors = 0
        for line in lines {
            let object = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            paths.append(try XCTUnwrap(object["path"] as? String))
            if object["error"] != nil {
                errors += 1
            } else {
                for key in ["version", "pages", "encrypted", "title", "author", "subject", "keywords", "creator",
                            "producer", "created", "modified", "xmp", "warnings"] {
                    XCTAssertTrue(object.keys.contains(key), "\(key) missing in \(line)")
                }
            }
        }
        XCTAssertEqual(paths, files, "lines come in argument order")
        XCTAssertGreaterThan(errors, 0)
        XCTAssertLessThan(errors, 60, "only files that even qpdf cannot open should fail")
        // The child's peak resident memory (ru_maxrss is in KiB on Linux).
        XCTAssertLessThan(after.ru_maxrss, 1_048_576, "peak memory above 1 GiB")
        XCTAssertLessThan(elapsed, 120, "the whole corpus must take well under two minutes")
    }
}

#if canImport(Glibc)
let RUSAGE_CHILDREN_WHO = __rusage_who_t(RUSAGE_CHILDREN.rawValue)
#else
let RUSAGE_CHILDREN_WHO = RUSAGE_CHILDREN
#endif
