import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// Every corpus file with an outline: titles and nesting as pikepdf reads them, target
/// pages and URLs as PyMuPDF's get_toc() reports them (Tests/Oracle/outlines.py).
final class OutlineCorpusTests: XCTestCase {
    static let dictionaryDestinations = OutlineOracle.dictionaryDestinations

    /// Titles compared without surrounding white space (MuPDF gives " " for a missing one).
    private func title(_ text: String?) -> String {
        (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    typealias Expected = OutlineOracle.Expected
    typealias FitzValue = OutlineOracle.FitzValue

    static func expected() throws -> [String: Expected] {
        try OutlineOracle.expected()
    }

    func testOutlinesMatchPikepdfAndPyMuPDF() throws {
        var failures: [String] = []
        var compared = (pike: 0, fitz: 0, entries: 0)
        for (path, expected) in try OutlineCorpusTests.expected().sorted(by: { $0.key < $1.key }) {
            guard let document = try? PDFDocument(path: try TestEnvironment.corpusFile(path), password: expected.password) else {
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
}
