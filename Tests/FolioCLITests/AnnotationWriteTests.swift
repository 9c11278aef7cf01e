import FolioTestSupport
import Foundation
import XCTest

/// `folio annot add` and `remove`, checked by tools nobody here wrote: for every kind on
/// pages turned 0/90/180/270 degrees with a crop box offset, PyMuPDF reads back subtype,
/// place, contents, colour and opacity; Poppler, MuPDF and PDFium draw it inside its
/// rectangle and nowhere else; removing it makes all three renderings identical to the
/// original again; the original bytes stay a prefix and qpdf --check finds nothing new.
final class AnnotationWriteTests: XCTestCase {
    static let score = TestEnvironment.annotatedScore
    static let cropBox = "30,40,560,800"

    struct Case {
        let kind: String
        let arguments: [String]
        /// What was asked, as displayed: a rectangle (x, y, w, h) the annotation must
        /// match, or points it must hold.
        var rect: [Double]?
        var points: [Double] = []
        var contents: String?
        var color: String?
        var textColor: [Double]?
        var opacity: Double = 1
    }

    static let cases: [Case] = [
        Case(kind: "freetext", arguments: ["--rect", "40,120,220,44", "--text", "Cut to bar 48 — attacca «Coda»",
                                           "--color", "#c00000", "--fill", "#ffffcc", "--width", "1", "--size", "11"],
             rect: [40, 120, 220, 44], contents: "Cut to bar 48 — attacca «Coda»", color: "#ffffcc",
             textColor: [0.753, 0, 0]),
        Case(kind: "square", arguments: ["--rect", "300,120,120,60", "--color", "#00a000", "--width", "2",
                                         "--opacity", "0.6"],
             rect: [300, 120, 120, 60], color: "#00a000", opacity: 0.6),
        Case(kind: "circle", arguments: ["--rect", "300,200,80,60", "--color", "#0000c0", "--fill", "#ddeeff"],
             rect: [300, 200, 80, 60], color: "#0000c0"),
        Case(kind: "highlight", arguments: ["--rect", "40,200,200,18", "--rect", "40,222,150,18", "--color", "#ffe600",
                                            "--opacity", "0.8", "--text", "Phrase to bring out"],
             rect: [40, 200, 200, 40], contents: "Phrase to bring out", color: "#ffe600", opacity: 0.8),
        Case(kind: "underline", arguments: ["--rect", "40,260,200,14", "--color", "#c00000"],
             rect: [40, 260, 200, 14], color: "#c00000"),
        Case(kind: "strikeout", arguments: ["--rect", "40,290,200,14", "--color", "#c00000"],
             rect: [40, 290, 200, 14], color: "#c00000"),
        Case(kind: "squiggly", arguments: ["--rect", "40,320,200,14", "--color", "#0000c0"],
             rect: [40, 320, 200, 14], color: "#0000c0"),
        Case(kind: "ink", arguments: ["--stroke", "60,360,80,380,100,365,120,390", "--stroke", "60,400,140,400",
                                      "--color", "#0000ff", "--width", "2"],
             points: [60, 360, 120, 390, 60, 400, 140, 400], color: "#0000ff"),
        Case(kind: "line", arguments: ["--points", "200,360,300,420", "--arrow", "end", "--color", "#c00000",
                                       "--width", "1.5"],
             points: [200, 360, 300, 420], color: "#c00000"),
        Case(kind: "note", arguments: ["--points", "420,360", "--text", "Breathe here", "--color", "#ffd900"],
             contents: "Breathe here", color: "#ffd900"),
        Case(kind: "stamp", arguments: ["--symbol", "fermata", "--rect", "350,440,40,24"],
             rect: [350, 440, 40, 24], color: "#000000"),
        Case(kind: "stamp", arguments: ["--symbol", "mf", "--rect", "400,440,40,24", "--color", "#a00000",
                                        "--opacity", "0.7"],
             rect: [400, 440, 40, 24], color: "#a00000", opacity: 0.7),
    ]

    private func folio(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, timeout: 120)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    static func oracle(_ arguments: [String]) throws -> Data {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/annots.py").path
        let run = try TestEnvironment.runTool("python3", [script] + arguments, timeout: 900)
        guard run.status == 0 else {
            throw TestFailure("annots.py \(arguments.first ?? ""): \(String(decoding: run.stderr.suffix(2000), as: UTF8.self))")
        }
        return run.stdout
    }

    static func qpdfProblems(_ path: String) throws -> Set<String> {
        try TestEnvironment.qpdfProblems(path)
    }

    static func isPrefix(_ original: String, of updated: String) throws -> Bool {
        let before = try Data(contentsOf: URL(fileURLWithPath: original))
        let after = try Data(contentsOf: URL(fileURLWithPath: updated))
        return after.count > before.count && after.prefix(before.count) == before
    }

    /// Folio's own listing of a file, by id.
    static func listed(_ path: String) throws -> [String: [String: Any]] {
        let run = try TestEnvironment.run(try TestEnvironment.folioBinary(), ["annot", "list", "--json", path])
        let object = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
        let entries = object?["annotations"] as? [[String: Any]] ?? []
        return Dictionary(entries.map { ($0["id"] as? String ?? "", $0) }) { first, _ in first }
    }

    static func makeVariants(in directory: URL) throws -> [(rotation: Int, path: String)] {
        try [0, 90, 180, 270].map { rotation in
            let path = directory.appendingPathComponent("variant-\(rotation).pdf").path
            _ = try oracle(["variant", try TestEnvironment.corpusFile(score), path, String(rotation), cropBox])
            return (rotation, path)
        }
    }

    func testEveryKindOnTurnedPagesReadsBackAndDrawsInPlaceInThreeEngines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-annot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var jobs: [[String: Any]] = []
        var checks: [(label: String, annotated: String, testCase: Case, id: String, display: [Double])] = []
        for (rotation, variant) in try Self.makeVariants(in: directory) {
            let baseline = try Self.qpdfProblems(variant)
            for (index, testCase) in Self.cases.enumerated() {
                let label = "\(testCase.kind) #\(index) on /Rotate \(rotation)"
                let annotated = directory.appendingPathComponent("a-\(rotation)-\(index).pdf").path
                let removed = directory.appendingPathComponent("r-\(rotation)-\(index).pdf").path
                try TestEnvironment.copy(atPath: variant, toPath: annotated)
                let added = try folio(["annot", "add", annotated, "--page", "1", "--type", testCase.kind,
                                       "--author", "Test Player"] + testCase.arguments)
                XCTAssertEqual(added.status, 0, "\(label): \(added.err)")
                let id = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
                XCTAssertFalse(id.isEmpty || id.contains("\n"), "\(label): add prints the id alone")
                XCTAssertTrue(try Self.isPrefix(variant, of: annotated), "\(label): original bytes are a prefix")
                XCTAssertEqual(try Self.qpdfProblems(annotated), baseline, "\(label): qpdf --check after add")
                let mine = try XCTUnwrap(try Self.listed(annotated)[id], "\(label): folio lists \(id)")
                let display = try XCTUnwrap(mine["display"] as? [Double])
                try TestEnvironment.copy(atPath: annotated, toPath: removed)
                let gone = try folio(["annot", "remove", removed, "--id", id])
                XCTAssertEqual(gone.status, 0, "\(label): \(gone.err)")
                XCTAssertTrue(try Self.isPrefix(annotated, of: removed), "\(label): removal appends")
                XCTAssertNil(try Self.listed(removed)[id], "\(label): removed")
                XCTAssertEqual(try Self.qpdfProblems(removed), baseline, "\(label): qpdf --check after remove")
                jobs.append(["files": [variant, annotated, removed], "page": 1])
                checks.append((label, annotated, testCase, id, display))
            }
        }
        // PyMuPDF reads back what was asked.
        let fitz = try JSONSerialization.jsonObject(with: try Self.oracle(["fitz-annots"] + checks.map(\.annotated)))
            as? [String: [[String: Any]]] ?? [:]
        for check in checks {
            let theirs = try XCTUnwrap(fitz[check.annotated]?.first { $0["name"] as? String == check.id },
                                       "\(check.label): PyMuPDF finds /NM \(check.id)")
            let subtype = check.testCase.kind == "note" ? "Text" : check.testCase.kind == "freetext" ? "FreeText"
                : check.testCase.kind == "strikeout" ? "StrikeOut" : check.testCase.kind.capitalized
            XCTAssertEqual(theirs["subtype"] as? String, subtype, check.label)
            let shown = try XCTUnwrap(theirs["display"] as? [Double])
            if let rect = check.testCase.rect {
                let asked = [rect[0], rect[1], rect[0] + rect[2], rect[1] + rect[3]]
                XCTAssertTrue(AnnotationCorpusTests.close(shown, asked, within: 0.5),
                              "\(check.label): PyMuPDF shows \(shown), asked \(asked)")
            }
            for pair in stride(from: 0, to: check.testCase.points.count, by: 2) {
                let (x, y) = (check.testCase.points[pair], check.testCase.points[pair + 1])
                XCTAssertTrue(shown[0] <= x && x <= shown[2] && shown[1] <= y && y <= shown[3],
                              "\(check.label): (\(x), \(y)) inside \(shown)")
            }
            XCTAssertEqual((theirs["contents"] as? String).flatMap { $0.isEmpty ? nil : $0 }, check.testCase.contents,
                           check.label)
            XCTAssertEqual(theirs["color"] as? String, check.testCase.color, check.label)
            let opacity = theirs["opacity"] as? Double ?? -1
            XCTAssertEqual(opacity < 0 ? 1 : opacity, check.testCase.opacity, accuracy: 0.001, check.label)
            if let textColor = check.testCase.textColor {
                let da = theirs["da"] as? String ?? ""
                XCTAssertTrue(da.contains(textColor.map { String(format: "%g", $0) }.joined(separator: " ") + " rg"),
                              "\(check.label): /DA \(da)")
            }
        }
        // Three engines: the annotation is drawn inside its rectangle and nowhere else;
        // without it the page is pixel-identical to the original.
        let jobsFile = directory.appendingPathComponent("jobs.json")
        try JSONSerialization.data(withJSONObject: jobs).write(to: jobsFile)
        let renders = try JSONSerialization.jsonObject(with: try Self.oracle(["render-batch", jobsFile.path]))
            as? [[String: [Any]]] ?? []
        XCTAssertEqual(renders.count, checks.count)
        for (check, render) in zip(checks, renders) {
            for engine in ["poppler", "mupdf", "pdfium"] {
                let results = render[engine] ?? []
                guard results.count == 2 else {
                    XCTFail("\(check.label): \(engine) rendered \(results)")
                    continue
                }
                if let box = results[0] as? [Double] {
                    let d = check.display
                    let inside = box[0] >= d[0] - 2 && box[1] >= d[1] - 2 && box[2] <= d[0] + d[2] + 2
                        && box[3] <= d[1] + d[3] + 2
                    XCTAssertTrue(inside, "\(check.label): \(engine) drew \(box), outside \(d)")
                } else {
                    XCTFail("\(check.label): \(engine) drew nothing (\(results[0]))")
                }
                XCTAssertTrue(results[1] is NSNull, "\(check.label): \(engine) after remove differs at \(results[1])")
            }
        }
    }
}
