import FolioTestSupport
import Foundation
import XCTest

/// `folio split --by toc` on every corpus file with an outline (as pikepdf finds them): each
/// piece passes `qpdf --check`, has the pages of its range, and its first page renders (PDFium)
/// exactly as the source page.
final class CorpusSplitTests: XCTestCase {
    func testEveryOutlinedCorpusFileSplitsIntoCleanPieces() throws {
        let folio = try TestEnvironment.folioBinary()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("folio-corpus-split-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }

        let find = """
            import json, sys, pikepdf
            found = []
            for path in sys.argv[1:]:
                try:
                    with pikepdf.open(path) as pdf, pdf.open_outline() as outline:
                        if len(outline.root) > 0: found.append(path)
                except Exception:
                    pass
            print(json.dumps(found))
            """
        let files = try TestEnvironment.corpusPDFs().map(TestEnvironment.corpusFile)
        let listed = try TestEnvironment.runTool("python3", ["-c", find] + files)
        let outlined = try XCTUnwrap(try JSONSerialization.jsonObject(with: listed.stdout) as? [String])
        XCTAssertGreaterThan(outlined.count, 60)

        var pieces: [[Any]] = []
        var split = 0
        for (index, file) in outlined.enumerated() {
            let folder = root.appendingPathComponent("\(index)").path
            let result = try TestEnvironment.run(folio, ["split", file, "--by", "toc", "--decrypt", "--output-dir", folder])
            let out = String(decoding: result.stdout, as: UTF8.self), err = String(decoding: result.stderr, as: UTF8.self)
            guard result.status == 0 else {
                // Refusals must be clear: no page destinations, or a password needed.
                XCTAssertEqual(result.status, 64, "\(file): \(err)")
                XCTAssertTrue(err.contains("no outline entries with pages") || err.contains("password"), "\(file): \(err)")
                continue
            }
            split += 1
            // "3–7\tTitle\t→ path" per piece.
            for line in out.split(separator: "\n") where line.contains("\t→ ") {
                let fields = line.components(separatedBy: "\t")
                let range = fields[0].split(separator: "–").compactMap { Int($0) }
                guard range.count == 2, let path = fields.last?.replacingOccurrences(of: "→ ", with: "") else {
                    XCTFail("\(file): \(line)")
                    continue
                }
                pieces.append([file, path, range[0], range[1]])
            }
        }
        XCTAssertGreaterThan(split, 60)
        let list = root.appendingPathComponent("pieces.json")
        try JSONSerialization.data(withJSONObject: pieces).write(to: list)
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/split_check.py").path
        let checked = try TestEnvironment.runTool("python3", [script, list.path])
        XCTAssertEqual(checked.status, 0, String(decoding: checked.stderr, as: UTF8.self))
        let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: checked.stdout) as? [[String: Any]])
        XCTAssertEqual(results.count, pieces.count)
        for (piece, result) in zip(pieces, results) {
            let name = "\(piece[0]) → \(piece[1])"
            XCTAssertEqual(result["check"] as? Int, 0, name)
            XCTAssertEqual(result["pages"] as? Int, (piece[3] as? Int ?? 0) - (piece[2] as? Int ?? 0) + 1, name)
            XCTAssertEqual(result["same"] as? Bool, true, "\(name): \(result["same"] ?? "")")
        }
    }
}
