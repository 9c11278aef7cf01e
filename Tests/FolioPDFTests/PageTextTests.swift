@testable import FolioPDF
import FolioTestSupport
import Foundation
import XCTest

/// `PDFDocument.textLines(ofPage:)` read against PyMuPDF: the words of each corpus file's
/// first page, and lines joined where notation programs draw glyph by glyph.
final class PageTextTests: XCTestCase {

    /// Words as the oracle (Python's `[^\W\d_]+`) counts them: runs of letters, a combining
    /// mark ending a word, lowercased.
    private func words(_ text: String) -> [String] {
        var found: [String] = [], current = String.UnicodeScalarView()
        let letters: Set<Unicode.GeneralCategory> = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        for scalar in text.unicodeScalars {
            if letters.contains(scalar.properties.generalCategory) {
                current.append(scalar)
            } else if !current.isEmpty {
                found.append(String(current).lowercased())
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { found.append(String(current).lowercased()) }
        return found
    }

    func testFirstPagesReadLikePyMuPDFOnTheCorpus() throws {
        let fixtures = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Fixtures/Engravers")
        let engraved = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".pdf") }
            .map { fixtures.appendingPathComponent($0).path }
        XCTAssertEqual(engraved.count, 5)
        let files = try TestEnvironment.corpusPDFs().map(TestEnvironment.corpusFile) + engraved
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/page_words.py").path
        let result = try TestEnvironment.runTool("python3", [script] + files, timeout: 600)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: [String]])
        var compared = 0, agreeing = 0, report: [String] = []
        for (file, theirs) in expected.sorted(by: { $0.key < $1.key }) where theirs.count >= 5 || engraved.contains(file) {
            guard let document = try? PDFDocument(path: file), let lines = try? document.textLines(ofPage: 0) else { continue }
            let ours = lines.flatMap { words($0.text) }
            var pool = Dictionary(ours.map { ($0, 1) }, uniquingKeysWith: +)
            var found = 0
            for word in theirs where (pool[word] ?? 0) > 0 {
                pool[word, default: 0] -= 1
                found += 1
            }
            compared += 1
            let recall = Double(found) / Double(theirs.count)
            if recall >= 0.9 { agreeing += 1 } else { report.append("\(file): \(found)/\(theirs.count)") }
            // The engravers' own samples, every script in them, read in full.
            if engraved.contains(file) { XCTAssertEqual(found, theirs.count, "\(file): \(ours) against \(theirs)") }
        }
        print("page text: \(agreeing) of \(compared) first pages have 90 % of PyMuPDF's words\n" + report.joined(separator: "\n"))
        XCTAssertGreaterThan(compared, 100)
        XCTAssertGreaterThanOrEqual(Double(agreeing) / Double(compared), 0.95)
    }

    func testToUnicodeMapsAndGlyphNames() {
        let cmap = """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) >> def
            2 beginbfchar <0001> <0416> <0002> <D834DD1E> endbfchar
            2 beginbfrange <0010> <0012> <0061> <0020> <0021> [<05D0> <05D1>] endbfrange
            1 beginbfrange <0000> <FFFF> <0041> endbfrange
            endcmap
            """
        let map = ToUnicodeMap.parse(Array(cmap.utf8))
        XCTAssertEqual(map[1], "Ж")
        XCTAssertEqual(map[2], "𝄞")
        XCTAssertEqual([map[0x10], map[0x11], map[0x12]], ["a", "b", "c"])
        XCTAssertEqual([map[0x20], map[0x21]], ["א", "ב"])
        XCTAssertLessThanOrEqual(map.count, ToUnicodeMap.maxCodes, "a range of every code stays within the budget")
        XCTAssertEqual(SimpleFontText.glyphName("afii10021"), "Д")
        XCTAssertEqual(SimpleFontText.glyphName("afii10071"), "ё")
        XCTAssertEqual(SimpleFontText.glyphName("Scaron"), "Š")
        XCTAssertEqual(SimpleFontText.glyphName("uni05D0"), "א")
        XCTAssertEqual(SimpleFontText.glyphName("Omega"), "Ω")
        XCTAssertNil(SimpleFontText.glyphName("noteheads.s0"))
        XCTAssertEqual(SimpleFontText.text(0x96, differences: [:]), "–")
        XCTAssertEqual(PDFDocument.logicalOrder("ملاعلاب 2026 ابحرم"), "مرحبا 2026 بالعالم")
        XCTAssertEqual(PDFDocument.logicalOrder("Bach – Бах"), "Bach – Бах")
        XCTAssertEqual(PDFDocument.plainForms("ﺭﻳﺎﺽ"), "رياض")
    }

    /// Any bytes as a ToUnicode map, and glyphs anywhere: no crash, and the budget holds.
    func testHostileMapsAndGlyphsAreBounded() {
        var generator = SeededGenerator(#function)
        let words = ["beginbfchar", "endbfchar", "beginbfrange", "endbfrange", "<0000>", "<FFFFFFFF>", "<>", "<00>", "[", "]",
                     "<D800>", "<0041>", "(x)", "<<", ">>", "99999999999999999999"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0..<60, using: &generator)).map { _ in words.randomElement(using: &generator) ?? "" }
                .joined(separator: " ")
            XCTAssertLessThanOrEqual(ToUnicodeMap.parse(Array(text.utf8)).count, ToUnicodeMap.maxCodes)
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertLessThanOrEqual(ToUnicodeMap.parse(bytes).count, ToUnicodeMap.maxCodes)
        }
        let extremes: [Double] = [0, -0, 1e-300, 1e300, -1e300, .infinity, -.infinity, .nan, .greatestFiniteMagnitude]
        let glyphs = extremes.flatMap { value in
            extremes.map { other in PDFGlyph(text: "я", x0: value, x1: other, y: value, size: other) }
        }
        _ = PDFDocument.lines(of: glyphs)
        let many = (0..<50_000).map { PDFGlyph(text: "a", x0: Double($0 % 7) * 100, x1: Double($0 % 7) * 100 + 5, y: Double($0), size: 10) }
        XCTAssertLessThanOrEqual(PDFDocument.lines(of: many).count, PDFDocument.maxTextLines)
    }
}
