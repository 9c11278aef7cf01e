import FolioTestSupport
import Foundation
import XCTest

/// `folio pages labels` and `folio pages crop`, checked against pikepdf (labels) and PDFium's
/// rendering (where the ink is): labels read like pikepdf's on every corpus file that has
/// them, stay consecutive through deletes and inserts, and an auto crop holds all the ink.
final class PageLabelsAndCropTests: CommandTestCase, @unchecked Sendable {

    @discardableResult
    private func run(_ arguments: [String], status expected: Int32 = 0) throws -> String {
        let result = try TestEnvironment.run(folio, arguments)
        let out = String(decoding: result.stdout, as: UTF8.self)
        XCTAssertEqual(result.status, expected, "folio \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))\(out)")
        return out + String(decoding: result.stderr, as: UTF8.self)
    }

    private func oracle(_ script: String, _ arguments: [String]) throws -> Any {
        let path = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/\(script)").path
        let result = try TestEnvironment.runTool("python3", [path] + arguments)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return try JSONSerialization.jsonObject(with: result.stdout)
    }

    private func labels(_ file: String) throws -> [String] {
        try JSONSerialization.jsonObject(with: Data(try run(["pages", "labels", "--json", file]).utf8)) as? [String] ?? []
    }

    private func checkClean(_ file: String) throws {
        let check = try TestEnvironment.runTool("qpdf", ["--check", file])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout + check.stderr, as: UTF8.self))
    }

    func testLabelsReadLikePikepdfOnTheCorpus() throws {
        let files = try TestEnvironment.corpusPDFs().map(TestEnvironment.corpusFile)
        let expected = try XCTUnwrap(try oracle("page_labels.py", ["--labelled"] + files) as? [String: [String]])
        var compared = 0
        for (file, pages) in expected.sorted(by: { $0.key < $1.key }) {
            let result = try TestEnvironment.run(folio, ["pages", "labels", "--json", file])
            guard result.status == 0, let found = try? JSONSerialization.jsonObject(with: result.stdout) as? [String] else { continue }
            // pikepdf lists the pages its own tree walk finds; compare where both see the same pages.
            guard found.count == pages.count else { continue }
            XCTAssertEqual(found, pages, file)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 60)
    }

    func testLabelsAreWrittenAndStayConsecutiveThroughPageEdits() throws {
        let file = path("book.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Clementi-Sonatina_O_36.pdf"), toPath: file)
        try run(["pages", "insert-blank", file, "--at", "1", "--count", "3"])
        try run(["pages", "labels", file, "--set", "i-ii,A-1-A-2,1-"])
        func pikepdf() throws -> [String] { (try oracle("page_labels.py", [file]) as? [String: [String]])?[file] ?? [] }
        XCTAssertEqual(try pikepdf(), ["i", "ii", "A-1", "A-2", "1", "2"])
        XCTAssertEqual(try labels(file), try pikepdf())
        try checkClean(file)

        // Deleting the second roman page and the first A page: the ranges close up.
        try run(["pages", "delete", file, "--pages", "2,3"])
        XCTAssertEqual(try pikepdf(), ["i", "A-1", "1", "2"])
        try run(["pages", "insert-blank", file, "--at", "2"])
        XCTAssertEqual(try pikepdf(), ["i", "ii", "A-1", "1", "2"])
        // Moving pages keeps the labels on their positions.
        try run(["pages", "move", file, "--pages", "5", "--to", "1"])
        XCTAssertEqual(try pikepdf(), ["i", "ii", "A-1", "1", "2"])
        try checkClean(file)

        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertTrue(try run(["pages", "labels", file, "--set", "i-x"], status: 64).contains("the file has 5"))
        XCTAssertTrue(try run(["pages", "labels", file, "--set", "1-,i-"], status: 64).contains("only the last"))
        XCTAssertTrue(try run(["pages", "labels", file, "--set", "x-v"], status: 64).contains("FIRST-LAST"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
        try run(["pages", "labels", file, "--clear"])
        XCTAssertEqual(try pikepdf(), ["1", "2", "3", "4", "5"])
        XCTAssertEqual(try labels(file), ["1", "2", "3", "4", "5"])
    }

    func testAutoCropHoldsAllTheInkAndLittleMore() throws {
        let scores = ["Clementi-Sonatina_O_36.pdf", "Chopin-Prelude_Op_28_No_15.pdf", "Brahms-Cancion_de_Cuna.pdf"]
        for name in scores {
            let file = path(name)
            try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/" + name), toPath: file)
            let original = try Data(contentsOf: URL(fileURLWithPath: file))
            let before = try XCTUnwrap(try oracle("ink_box.py", [file]) as? [[String: Any]])
            try run(["pages", "crop", file, "--auto", "--margin", "0"])
            // The original bytes stay a prefix: an incremental update.
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)).prefix(original.count), original)
            try checkClean(file)
            let after = try XCTUnwrap(try oracle("ink_box.py", [file]) as? [[String: Any]])
            XCTAssertEqual(after.count, before.count)
            for (page, (old, new)) in zip(before, after).enumerated() {
                guard let ink = old["ink"] as? [Double], let crop = new["crop"] as? [Double] else { continue }
                // All the ink is inside the crop (a pixel of anti-aliasing allowed) ...
                XCTAssertLessThanOrEqual(crop[0], ink[0] + 1, "\(name) page \(page + 1)")
                XCTAssertLessThanOrEqual(crop[1], ink[1] + 1, "\(name) page \(page + 1)")
                XCTAssertGreaterThanOrEqual(crop[2], ink[2] - 1, "\(name) page \(page + 1)")
                XCTAssertGreaterThanOrEqual(crop[3], ink[3] - 1, "\(name) page \(page + 1)")
                // ... and the crop is not much larger (fonts' boxes reach past their glyphs).
                XCTAssertGreaterThan(crop[0], ink[0] - 15, "\(name) page \(page + 1)")
                XCTAssertGreaterThan(crop[1], ink[1] - 15, "\(name) page \(page + 1)")
                XCTAssertLessThan(crop[2], ink[2] + 15, "\(name) page \(page + 1)")
                XCTAssertLessThan(crop[3], ink[3] + 15, "\(name) page \(page + 1)")
                // The cropped page still shows the same ink.
                let inkAfter = try XCTUnwrap(new["ink"] as? [Double])
                for (a, b) in zip(ink, inkAfter) { XCTAssertEqual(a, b, accuracy: 1.0, "\(name) page \(page + 1)") }
            }
        }
    }

    func testCropToABoxAndBack() throws {
        let file = path("c.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Clementi-Sonatina_O_36.pdf"), toPath: file)
        try run(["pages", "crop", file, "--pages", "2", "--box", "36,50,500,700"])
        var boxes = try XCTUnwrap(try oracle("ink_box.py", [file]) as? [[String: Any]])
        XCTAssertEqual(boxes[1]["crop"] as? [Double], [36, 50, 536, 750])
        XCTAssertEqual(boxes[0]["crop"] as? [Double], boxes[2]["crop"] as? [Double], "other pages stay whole")
        let info = try TestEnvironment.runTool("pdfinfo", ["-f", "2", "-l", "2", "-box", file])
        let line = String(decoding: info.stdout, as: UTF8.self).split(separator: "\n").first { $0.contains("CropBox") }
        XCTAssertEqual(line.map { $0.split(separator: " ").suffix(4).compactMap { Double($0) } }, [36, 50, 536, 750])
        try checkClean(file)

        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertTrue(try run(["pages", "crop", file, "--box", "0,0,900,100"], status: 64).contains("does not fit page 1"))
        XCTAssertTrue(try run(["pages", "crop", file, "--auto", "--margin=-3"], status: 64).contains("0 to 200"))
        // "-3" after a space is the option's value too, refused by its range, never read as an option.
        XCTAssertTrue(try run(["pages", "crop", file, "--auto", "--margin", "-3"], status: 64).contains("0 to 200"))
        try run(["pages", "crop", file, "--auto", "--box", "1,1,1,1"], status: 64)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)

        try run(["pages", "crop", file, "--reset"])
        boxes = try XCTUnwrap(try oracle("ink_box.py", [file]) as? [[String: Any]])
        XCTAssertEqual(boxes[1]["crop"] as? [Double], boxes[0]["crop"] as? [Double])
    }
}
