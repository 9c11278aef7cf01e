import FolioTestSupport
import Foundation
import XCTest

/// `folio annot list` on every corpus file with annotations, against pikepdf (the raw
/// /Annots entries, all fields) and PyMuPDF (its decoded annotations, links and widgets),
/// both computed at test time by Tests/Oracle/annots.py.
final class AnnotationCorpusTests: XCTestCase {
    struct Listed: Decodable {
        let path: String?
        let annotations: [Entry]?
    }

    struct Entry: Decodable {
        let id: String
        let object: Int?
        let page: Int
        let subtype: String
        let rect: [Double]
        let contents: String?
        let author: String?
        let color: String?
        let opacity: Double
    }

    struct Theirs: Decodable {
        let page: Int?
        let xref: Int?
        let subtype: String?
        let rect: [Double]?
        let contents: String?
        let author: String?
        let color: String?
        let opacity: Double?
    }

    struct Read: Decodable {
        let fitz: [Theirs]?
        let pike: [Theirs]?
        let userUnit: [Int]?
        let error: String?
    }

    static func close(_ a: [Double], _ b: [Double], within tolerance: Double) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    func testEveryCorpusAnnotationMatchesPikepdfAndPyMuPDF() throws {
        let folio = try TestEnvironment.folioBinary()
        let files = try TestEnvironment.corpusPDFs().map(TestEnvironment.corpusFile)
        let run = try TestEnvironment.run(folio, ["annot", "list", "--json"] + files, timeout: 600)
        var ours: [String: [Entry]] = [:]
        for line in String(decoding: run.stdout, as: UTF8.self).split(separator: "\n") {
            let listed = try JSONDecoder().decode(Listed.self, from: Data(line.utf8))
            if let path = listed.path, let annotations = listed.annotations, !annotations.isEmpty {
                ours[path] = annotations
            }
        }
        XCTAssertGreaterThan(ours.count, 100, "corpus files with annotations")
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/annots.py").path
        let oracle = try TestEnvironment.runTool("python3", [script, "read"] + ours.keys.sorted(), timeout: 900)
        XCTAssertEqual(oracle.status, 0, String(decoding: oracle.stderr.suffix(2000), as: UTF8.self))
        let theirs = try JSONDecoder().decode([String: Read].self, from: oracle.stdout)
        var failures: [String] = []
        var comparedPike = 0, comparedFitz = 0, rectsFitz = 0, unread = 0
        for (path, entries) in ours.sorted(by: { $0.key < $1.key }) {
            guard let read = theirs[path], let pike = read.pike, let fitz = read.fitz else {
                unread += 1
                continue
            }
            // pikepdf: every /Annots entry, in order, every field.
            if pike.count != entries.count {
                failures.append("\(path): pikepdf lists \(pike.count) annotations, Folio \(entries.count)")
                continue
            }
            for (mine, raw) in zip(entries, pike) {
                comparedPike += 1
                let same = mine.subtype == raw.subtype && mine.page == raw.page && mine.contents == raw.contents
                    && mine.author == raw.author && mine.color == raw.color
                    && (raw.rect.map { Self.close(mine.rect, $0, within: 0.01) } ?? true)
                    && abs(mine.opacity - min(1, max(0, raw.opacity ?? 1))) < 0.001
                if !same { failures.append("\(path): \(mine.id) differs from pikepdf: \(mine) vs \(raw)") }
            }
            // PyMuPDF: matched by object number.
            let byObject = Dictionary(entries.compactMap { entry in entry.object.map { ($0, entry) } }) { first, _ in first }
            for decoded in fitz {
                guard let xref = decoded.xref, xref > 0, let mine = byObject[xref] else { continue }
                comparedFitz += 1
                guard mine.subtype == decoded.subtype else {
                    failures.append("\(path): object \(xref) is \(mine.subtype) to Folio, \(decoded.subtype ?? "-") to PyMuPDF")
                    continue
                }
                if decoded.subtype != "Link", decoded.subtype != "Widget" {
                    if mine.contents != decoded.contents || mine.author != decoded.author || mine.color != decoded.color {
                        failures.append("\(path): object \(xref) differs from PyMuPDF: \(mine) vs \(decoded)")
                    }
                }
                // MuPDF resizes icons (Text, FileAttachment) to its own, pads highlights around
                // their quads, scales /UserUnit pages and lists widgets per field: rects
                // compared for the rest.
                let iconLike = ["Text", "FileAttachment", "Highlight", "Widget", "Link"].contains(mine.subtype)
                if !iconLike, !(read.userUnit ?? []).contains(mine.page), let rect = decoded.rect {
                    rectsFitz += 1
                    if !Self.close(mine.rect, rect, within: 0.01) {
                        failures.append("\(path): object \(xref) rect \(mine.rect), PyMuPDF \(rect)")
                    }
                }
            }
        }
        print("annotations: \(comparedPike) compared with pikepdf, \(comparedFitz) with PyMuPDF (\(rectsFitz) rects), \(unread) files the tools could not read")
        XCTAssertGreaterThan(comparedPike, 2000)
        XCTAssertGreaterThan(comparedFitz, 1000)
        XCTAssertGreaterThan(rectsFitz, 100)
        XCTAssertLessThan(unread, 10)
        XCTAssertEqual(failures, [], "\(failures.count) differences")
    }
}
