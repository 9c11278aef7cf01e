import Foundation
import XCTest

@testable import FolioPDF

/// Every corpus file with an outline: titles and nesting as pikepdf reads them, target
/// pages and URLs as PyMuPDF's get_toc() reports them (Tests/Oracle/outlines.py).
final class OutlineCorpusTests: XCTestCase {
    struct Expected: Decodable, Sendable {
        let password: String?
        let fitz: [[FitzValue]]?
        let pike: [[FitzValue]]?
    }

    /// A JSON array element of mixed kinds.
    enum FitzValue: Decodable, Equatable, Sendable {
        case int(Int), text(String), null

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null } else if let value = try? container.decode(Int.self) { self = .int(value) }
            else { self = .text(try container.decode(String.self)) }
        }

        var int: Int? { if case .int(let value) = self { value } else { nil } }
        var text: String? { if case .text(let value) = self { value } else { nil } }
    }

    static let dictionaryDestinations: Set<String> = ["pypdf/outlines-with-invalid-destinations.pdf"]

    /// Titles compared without surrounding white space (MuPDF gives " " for a missing one).
    private func title(_ text: String?) -> String {
        (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The oracle's answers, computed once per test run (several tests compare with them).
    private static let cachedExpected = Result { try readExpected() }

    static func expected() throws -> [String: Expected] {
        try cachedExpected.get()
    }

    private static func readExpected() throws -> [String: Expected] {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/outlines.py").path
        let run = try TestEnvironment.runTool("python3", [script, TestEnvironment.corpus.path], timeout: 600)
        guard run.status == 0 else { throw TestFailure(String(decoding: run.stderr.suffix(2000), as: UTF8.self)) }
        return try JSONDecoder().decode([String: Expected].self, from: run.stdout)
    }

    func testOutlinesMatchPikepdfAndPyMuPDF() throws {
        var failures: [String] = []
        var compared = (pike: 0, fitz: 0, entries: 0)
        for (path, expected) in try OutlineCorpusTests.expected().sorted(by: { $0.key < $1.key }) {
            guard let document = try? PDFDocument(path: TestEnvironment.corpusFile(path), password: expected.password) else {
                failures.append("\(path): Folio cannot open it")
                continue
            }
            let entries = PDFOutlineItem.flatten(document.outline())
            if let pike = expected.pike {
                compared.pike += 1
                let theirs = pike.map { "\($0[0].int ?? -1) \($0[1].text ?? "")" }
                let ours = entries.map { "\($0.level) \($0.item.title)" }
                if theirs != ours { failures.append("\(path): pikepdf \(theirs.prefix(8)) vs \(ours.prefix(8))") }
            }
            // Pages are compared with PyMuPDF where its tree agrees with pikepdf's (on damaged
            // files MuPDF's own repair may find another outline: pikepdf, checked above, decides).
            if let fitz = expected.fitz,
                expected.pike == nil || fitz.map({ title($0[1].text) }) == expected.pike?.map({ title($0[1].text) })
            {
                compared.fitz += 1
                compared.entries += fitz.count
                if fitz.count != entries.count {
                    failures.append("\(path): PyMuPDF has \(fitz.count) entries, Folio \(entries.count)")
                    continue
                }
                for (theirs, (level, item)) in zip(fitz, entries) {
                    var page: Int?, uri: String?
                    switch item.target {
                    case .page(let index)?: page = index + 1
                    case .uri(let value)?: uri = value
                    default: break
                    }
                    let fitzPage = theirs[2].int.flatMap { $0 > 0 ? $0 : nil }
                    // MuPDF reads a destination whose page is null or no page object (a page
                    // dropped by qpdf's split) as page 1; Folio as no page.
                    var nullPage = false
                    if case .unresolved? = item.target, fitzPage == 1 { nullPage = true }
                    // A /Dest that refers to a dictionary with /D (pypdf's "valid destination"
                    // test) is followed by Folio and pdf.js, not by MuPDF.
                    let dictionaryDest = OutlineCorpusTests.dictionaryDestinations.contains(path) && fitzPage == nil
                    if level != (theirs[0].int ?? 0) - 1 || title(item.title) != title(theirs[1].text)
                        || (page != fitzPage && !nullPage && !dictionaryDest) || uri != theirs[3].text
                    {
                        failures.append("\(path): PyMuPDF \(theirs) vs Folio level \(level) '\(item.title)' "
                            + "page \(page.map(String.init) ?? "-") uri \(uri ?? "-")")
                        break
                    }
                }
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        XCTAssertGreaterThan(compared.pike, 60)
        XCTAssertGreaterThan(compared.fitz, 60)
    }

    /// `folio bookmarks from-toc --json` on every corpus outline: the starts are the page
    /// targets PyMuPDF reports, in page order; each range ends before the next starts and
    /// the last at qpdf's page count.
    func testBookmarksFromTocFollowTheForScoreRule() throws {
        let expected = try OutlineCorpusTests.expected().filter { $0.value.fitz?.isEmpty == false && $0.value.password == nil }
        let paths = expected.keys.sorted()
        let run = try TestEnvironment.run(try TestEnvironment.folioBinary(),
                                          ["bookmarks", "from-toc", "--json"] + paths.map(TestEnvironment.corpusFile))
        var failures: [String] = []
        var checked = 0
        for line in String(decoding: run.stdout, as: UTF8.self).split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = (object["path"] as? String).map({ String($0.dropFirst(TestEnvironment.corpus.path.count + 1)) }),
                let bookmarks = object["bookmarks"] as? [[String: Any]], let fitz = expected[path]?.fitz,
                fitz.map({ $0[1].text ?? "" }) == expected[path]?.pike?.map({ $0[1].text ?? "" }) ?? fitz.map({ $0[1].text ?? "" })
            else { continue }
            let pages = try TestEnvironment.runTool("qpdf", ["--show-npages", TestEnvironment.corpusFile(path)])
            guard let count = Int(String(decoding: pages.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            else { continue }
            checked += 1
            let starts = bookmarks.compactMap { $0["start"] as? Int }
            let ends = bookmarks.compactMap { $0["end"] as? Int }
            let theirs = fitz.compactMap { $0[2].int }.filter { $0 >= 1 && $0 <= count }.sorted()
            // MuPDF reads unresolvable pages as page 1 (see above): compare the others.
            if starts.filter({ $0 > 1 }) != theirs.filter({ $0 > 1 }), !OutlineCorpusTests.dictionaryDestinations.contains(path) {
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
