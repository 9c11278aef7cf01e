import FolioTestSupport
import Foundation
import XCTest

/// `folio bookmarks from-toc` over every corpus file with an outline: forScore's rule (a
/// bookmark runs from its entry's page to the page before the next), checked against the
/// pages PyMuPDF reads.
final class BookmarksFromTocCorpusTests: XCTestCase {
    /// `folio bookmarks from-toc --json` on every corpus outline: the starts are the page
    /// targets PyMuPDF reports, in page order; each range ends before the next starts and
    /// the last at qpdf's page count.
    func testBookmarksFromTocFollowTheForScoreRule() throws {
        let expected = try OutlineOracle.expected().filter { $0.value.fitz?.isEmpty == false && $0.value.password == nil }
        let paths = expected.keys.sorted()
        let run = try TestEnvironment.run(try TestEnvironment.folioBinary(),
                                          ["bookmarks", "from-toc", "--json"] + paths.map(TestEnvironment.corpusFile))
        var failures: [String] = []
        var checked = 0
        let corpusPrefix = try TestEnvironment.corpus.path.count + 1
        for line in String(decoding: run.stdout, as: UTF8.self).split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = (object["path"] as? String).map({ String($0.dropFirst(corpusPrefix)) }),
                let bookmarks = object["bookmarks"] as? [[String: Any]], let fitz = expected[path]?.fitz,
                fitz.map({ $0[1].text ?? "" }) == expected[path]?.pike?.map({ $0[1].text ?? "" }) ?? fitz.map({ $0[1].text ?? "" })
            else { continue }
            let pages = try TestEnvironment.runTool("qpdf", ["--show-npages", try TestEnvironment.corpusFile(path)])
            guard let count = Int(String(decoding: pages.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            else { continue }
            checked += 1
            let starts = bookmarks.compactMap { $0["start"] as? Int }
            let ends = bookmarks.compactMap { $0["end"] as? Int }
            let theirs = fitz.compactMap { $0[2].int }.filter { $0 >= 1 && $0 <= count }.sorted()
            // MuPDF reads unresolvable pages as page 1 (see above): compare the others.
            if starts.filter({ $0 > 1 }) != theirs.filter({ $0 > 1 }), !OutlineOracle.dictionaryDestinations.contains(path) {
                failures.append("\(path): starts \(starts) vs PyMuPDF \(theirs)")
            }
            for index in starts.indices {
                let next = index + 1 < starts.count ? max(starts[index], starts[index + 1] - 1) : count
                if ends[index] != next { failures.append("\(path): bookmark \(index) ends at \(ends[index]), not \(next)") }
            }
        }
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        XCTAssertGreaterThan(checked, 50)
    }
}
