import FolioTestSupport
import Foundation
import XCTest

/// `folio annot edit`, `flatten`, `export`/`import` and every refusal, end to end.
final class AnnotationCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-annotcmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func folio(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, timeout: 120)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    /// Adds an annotation and returns its id, failing the test when the add fails.
    private func add(_ file: String, _ arguments: [String], line: UInt = #line) throws -> String {
        let result = try folio(["annot", "add", file, "--page", "1"] + arguments)
        XCTAssertEqual(result.status, 0, result.err, line: line)
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func copy(_ source: String, _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try TestEnvironment.copy(atPath: source, toPath: path)
        return path
    }

    private func variant(rotation: Int) throws -> String {
        let path = directory.appendingPathComponent("v\(rotation).pdf").path
        _ = try AnnotationWriteTests.oracle(["variant", try TestEnvironment.corpusFile(AnnotationWriteTests.score), path,
                                             String(rotation), AnnotationWriteTests.cropBox])
        return path
    }

    private func render(_ files: [String]) throws -> [String: [Any]] {
        try JSONSerialization.jsonObject(with: try AnnotationWriteTests.oracle(["render"] + files + ["--page", "1"]))
            as? [String: [Any]] ?? [:]
    }

    private func fitz(_ file: String) throws -> [[String: Any]] {
        (try JSONSerialization.jsonObject(with: try AnnotationWriteTests.oracle(["fitz-annots", file]))
            as? [String: [[String: Any]]])?[file] ?? []
    }

    /// `annot add --help` spells the stamps' symbols out in its text (a list built at start-up would
    /// cost every command's start): that text names exactly the values `--symbol` takes.
    func testAddsHelpNamesTheSymbolsTheOptionTakes() throws {
        let help = try folio(["annot", "add", "--help"])
        XCTAssertEqual(help.status, 0, help.err)
        let text = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        func list(after marker: String, upTo end: String) -> [String] {
            guard let start = text.range(of: marker),
                  let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else { return [] }
            return text[start.upperBound..<stop.lowerBound].components(separatedBy: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let written = list(after: "Symbols: ", upTo: ". Coordinates")
        let taken = list(after: "The musical mark of a stamp. (values: ", upTo: ")")
        XCTAssertEqual(taken.count, 18, text)
        XCTAssertEqual(written, taken)
    }

    func testFlattenKeepsThePictureAndMakesTheTextPartOfThePage() throws {
        for rotation in [0, 90] {
            let source = try variant(rotation: rotation)
            let annotated = try copy(source, "a\(rotation).pdf")
            _ = try add(annotated, ["--type", "freetext", "--rect", "40,120,220,44", "--text", "Cut to bar 48", "--size", "14"])
            _ = try add(annotated, ["--type", "ink", "--stroke", "60,360,80,380,100,365", "--width", "2"])
            _ = try add(annotated, ["--type", "square", "--rect", "300,120,120,60", "--opacity", "0.5"])
            _ = try add(annotated, ["--type", "note", "--points", "420,360", "--text", "stays a note? no: flattened"])
            let flat = try copy(annotated, "f\(rotation).pdf")
            let result = try folio(["annot", "flatten", flat])
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertEqual(result.out.split(separator: "\n").count, 5, "four annotations and the note's popup: \(result.out)")
            XCTAssertTrue(try AnnotationWriteTests.isPrefix(annotated, of: flat))
            XCTAssertEqual(try AnnotationWriteTests.qpdfProblems(flat), try AnnotationWriteTests.qpdfProblems(source))
            let left = try AnnotationWriteTests.listed(flat).values.map { $0["subtype"] as? String ?? "" }
            XCTAssertEqual(Set(left), ["Link"], "only the links stay annotations")
            for (engine, results) in try render([annotated, flat]) {
                // Poppler rounds the place of an upright-kept note on a turned page to other
                // pixels than the same drawing in the content: allowed inside the note only.
                if engine == "poppler", rotation != 0, let box = results.first as? [Double] {
                    XCTAssertTrue(box[0] >= 418 && box[1] >= 358 && box[2] <= 442 && box[3] <= 382, "poppler: \(box)")
                    continue
                }
                XCTAssertTrue(results.first is NSNull, "/Rotate \(rotation): \(engine) draws the flattened page differently: \(results)")
            }
            let words = try JSONSerialization.jsonObject(with: try AnnotationWriteTests.oracle(["words", flat, "--page", "1"]))
                as? [[Any]] ?? []
            for word in ["Cut", "bar", "48"] {
                let box = try XCTUnwrap(words.first { $0.first as? String == word }, "/Rotate \(rotation): \(word) extracted")
                let numbers = box.dropFirst().compactMap { $0 as? Double }
                XCTAssertTrue(numbers[0] >= 40 && numbers[2] <= 260 && numbers[1] >= 115 && numbers[3] <= 164,
                              "/Rotate \(rotation): \(word) at \(numbers), inside the box asked")
                XCTAssertGreaterThan(numbers[2] - numbers[0], (numbers[3] - numbers[1]) * 0.5, "\(word) reads upright")
            }
        }
    }

    func testEditChangesTextStyleAndPlaceAndRegeneratesTheAppearance() throws {
        let source = try variant(rotation: 270)
        let file = try copy(source, "e.pdf")
        let text = try add(file, ["--type", "freetext", "--rect", "40,120,220,44", "--text", "Allegro", "--color", "#000000"])
        let ink = try add(file, ["--type", "ink", "--stroke", "60,360,80,380,100,365", "--color", "#0000ff"])
        let before = try copy(file, "before.pdf")
        var result = try folio(["annot", "edit", file, "--id", text, "--text", "Andante, poco rit.", "--color", "#0050c0",
                                "--size", "16", "--align", "center"])
        XCTAssertEqual(result.status, 0, result.err)
        result = try folio(["annot", "edit", file, "--id", ink, "--rect", "200,300,80,60", "--opacity", "0.5"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(try AnnotationWriteTests.isPrefix(before, of: file))
        XCTAssertEqual(try AnnotationWriteTests.qpdfProblems(file), try AnnotationWriteTests.qpdfProblems(source))
        let theirs = try fitz(file)
        let freeText = try XCTUnwrap(theirs.first { $0["name"] as? String == text })
        XCTAssertEqual(freeText["contents"] as? String, "Andante, poco rit.")
        XCTAssertTrue((freeText["da"] as? String ?? "").hasPrefix("/Helv 16 Tf 0 0.314 0.753 rg"), "\(freeText["da"] ?? "")")
        let moved = try XCTUnwrap(theirs.first { $0["name"] as? String == ink })
        XCTAssertTrue(AnnotationCorpusTests.close(moved["display"] as? [Double] ?? [], [200, 300, 280, 360], within: 0.5),
                      "PyMuPDF shows the moved ink at \(moved["display"] ?? "")")
        XCTAssertEqual(moved["opacity"] as? Double ?? 0, 0.5, accuracy: 0.001)
        // The moved stroke is drawn in its new place only: compared with the page without it.
        let withoutInk = try copy(file, "noink.pdf")
        XCTAssertEqual(try folio(["annot", "remove", withoutInk, "--id", ink]).status, 0)
        for (engine, results) in try render([withoutInk, file]) {
            let box = try XCTUnwrap(results.first as? [Double], "\(engine) draws the moved ink")
            XCTAssertTrue(box[0] >= 198 && box[1] >= 298 && box[2] <= 282 && box[3] <= 362, "\(engine): \(box)")
        }
        // The edited text is drawn anew: the picture changed where the box is.
        for (engine, results) in try render([before, withoutInk]) {
            XCTAssertTrue(results.first is [Double], "\(engine): the edit changed the drawing")
        }
    }

    func testExportImportGivesAnotherCopyTheSameMarks() throws {
        let source = try variant(rotation: 90)
        let teacher = try copy(source, "teacher.pdf")
        _ = try add(teacher, ["--type", "freetext", "--rect", "40,120,220,44", "--text", "Breath after the fermata",
                              "--fill", "#ffffcc", "--color", "#c00000"])
        _ = try add(teacher, ["--type", "ink", "--stroke", "60,360,80,380,100,365", "--stroke", "60,400,90,410"])
        _ = try add(teacher, ["--type", "highlight", "--rect", "40,200,200,18", "--rect", "40,222,150,18"])
        _ = try add(teacher, ["--type", "stamp", "--symbol", "ff", "--rect", "350,440,40,24"])
        _ = try add(teacher, ["--type", "note", "--points", "420,360", "--text", "Ask about the tempo"])
        _ = try add(teacher, ["--type", "line", "--points", "200,360,300,420", "--arrow", "both"])
        let exported = try folio(["annot", "export", teacher])
        XCTAssertEqual(exported.status, 0, exported.err)
        let marks = directory.appendingPathComponent("marks.json")
        try Data(exported.out.utf8).write(to: marks)
        let student = try copy(source, "student.pdf")
        let imported = try folio(["annot", "import", student, "--from", marks.path])
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertEqual(imported.out.split(separator: "\n").count, 6)
        func summary(_ path: String) throws -> [String] {
            try AnnotationWriteTests.listed(path).values.filter { $0["subtype"] as? String != "Link" }.map {
                let rect = ($0["rect"] as? [Double] ?? []).map { String(format: "%.2f", $0) }.joined(separator: ",")
                return "\($0["subtype"] ?? "") \($0["name"] ?? "") \(rect) \($0["contents"] ?? "") \($0["color"] ?? "") \($0["fill"] ?? "")"
            }.sorted()
        }
        XCTAssertEqual(try summary(student), try summary(teacher))
        for (engine, results) in try render([teacher, student]) {
            XCTAssertTrue(results.first is NSNull, "\(engine) draws the imported marks like the originals: \(results)")
        }
        let size = try Data(contentsOf: URL(fileURLWithPath: student)).count
        let again = try folio(["annot", "import", student, "--from", marks.path])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(again.out, "", "importing twice adds nothing")
        XCTAssertTrue(again.err.contains("6 already present"), again.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: student)).count, size, "nothing written")
        // A broken exchange file is refused before the PDF is touched.
        let broken = directory.appendingPathComponent("broken.json")
        try Data(#"{"format":"folio-annotations","version":1,"annotations":[{"page":"one"}]}"#.utf8).write(to: broken)
        let refused = try folio(["annot", "import", student, "--from", broken.path])
        XCTAssertEqual(refused.status, 64, refused.err)
        XCTAssertTrue(refused.err.contains("annotations"), refused.err)
        let far = directory.appendingPathComponent("far.json")
        let farText = exported.out.replacingOccurrences(of: "\"page\" : 1", with: "\"page\" : 99")
        try Data(farText.utf8).write(to: far)
        let outOfRange = try folio(["annot", "import", student, "--from", far.path])
        XCTAssertEqual(outOfRange.status, 64, outOfRange.err)
        XCTAssertTrue(outOfRange.err.contains("valid: 1 to 5"), outOfRange.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: student)).count, size)
        // Several copies in one call: each gets all six, its ids printed behind its name;
        // one that cannot be read is reported and the others still saved.
        let parts = try ["viola.pdf", "cello.pdf"].map { try copy(source, $0) }
        let missing = directory.appendingPathComponent("missing.pdf").path
        let several = try folio(["annot", "import", parts[0], missing, parts[1], "--from", marks.path])
        XCTAssertEqual(several.status, 1, several.err)
        XCTAssertTrue(several.err.contains("missing.pdf"), several.err)
        let lines = several.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        XCTAssertEqual(lines.map { $0.first ?? "" }, Array(repeating: parts[0], count: 6) + Array(repeating: parts[1], count: 6))
        for part in parts { XCTAssertEqual(try summary(part), try summary(teacher), part) }
    }

    func testOtherToolsAnnotationsEditedWhereFolioCanRedrawThem() throws {
        // A direct Ink dictionary without an appearance (sample-files): restyled and drawn.
        let direct = try copy(try TestEnvironment.corpusFile("sample-files/024-annotations/annotated_pdf.pdf"), "direct.pdf")
        let ink = try XCTUnwrap(try AnnotationWriteTests.listed(direct).first { $0.value["subtype"] as? String == "Ink" })
        XCTAssertEqual(ink.value["hasAppearance"] as? Bool, false)
        var result = try folio(["annot", "edit", direct, "--id", ink.key, "--color", "#0000ff", "--width", "3"])
        XCTAssertEqual(result.status, 0, result.err)
        let edited = try XCTUnwrap(try AnnotationWriteTests.listed(direct)[ink.key], "a direct annotation keeps its id")
        XCTAssertEqual(edited["hasAppearance"] as? Bool, true)
        // MuPDF lists no direct annotation dictionaries; pikepdf reads the raw entry.
        let raw = try JSONSerialization.jsonObject(with: try AnnotationWriteTests.oracle(["read", direct]))
            as? [String: [String: Any]]
        let pike = raw?[direct]?["pike"] as? [[String: Any]] ?? []
        XCTAssertEqual(pike.first { $0["subtype"] as? String == "Ink" }?["color"] as? String, "#0000ff")
        // Another tool's stamp: its art is not Folio's, so only text, author and place change.
        let stamped = try copy(try TestEnvironment.corpusFile("pypdf/example.pdf"), "stamp.pdf")
        let stamp = try XCTUnwrap(try AnnotationWriteTests.listed(stamped).first { $0.value["subtype"] as? String == "Stamp" })
        let before = try Data(contentsOf: URL(fileURLWithPath: stamped))
        result = try folio(["annot", "edit", stamped, "--id", stamp.key, "--color", "#ff0000"])
        XCTAssertEqual(result.status, 64, result.err)
        XCTAssertTrue(result.err.contains("cannot redraw"), result.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stamped)), before)
        result = try folio(["annot", "edit", stamped, "--id", stamp.key, "--text", "Approved by the conductor"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try AnnotationWriteTests.listed(stamped)[stamp.key]?["hasAppearance"] as? Bool, true)
        let original = directory.appendingPathComponent("stamp-before.pdf")
        try before.write(to: original)
        let page = stamp.value["page"] as? Int ?? 1
        let rendered = try JSONSerialization.jsonObject(with: try AnnotationWriteTests.oracle(
            ["render", original.path, stamped, "--page", String(page)])) as? [String: [Any]] ?? [:]
        XCTAssertEqual(rendered.count, 3)
        for (engine, results) in rendered {
            XCTAssertTrue(results.first is NSNull, "\(engine): a text edit leaves the stamp's picture as it was")
        }
    }

    func testRemoveAllByTypeSparesLinksAndTakesPopups() throws {
        let file = try copy(try TestEnvironment.corpusFile(AnnotationWriteTests.score), "all.pdf")
        let links = try AnnotationWriteTests.listed(file).count
        XCTAssertGreaterThan(links, 0, "the score has links")
        _ = try add(file, ["--type", "ink", "--stroke", "60,360,80,380"])
        _ = try add(file, ["--type", "ink", "--stroke", "60,400,80,420"])
        let note = try add(file, ["--type", "note", "--points", "420,360", "--text", "n"])
        _ = try add(file, ["--type", "square", "--rect", "300,120,120,60"])
        var result = try folio(["annot", "remove", file, "--all", "--type", "ink"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out.split(separator: "\n").count, 2)
        result = try folio(["annot", "remove", file, "--id", note])
        XCTAssertEqual(result.out.split(separator: "\n").count, 2, "the note and its popup: \(result.out)")
        result = try folio(["annot", "remove", file, "--all"])
        XCTAssertEqual(result.out.split(separator: "\n").count, 1, "the square")
        let left = try AnnotationWriteTests.listed(file)
        XCTAssertEqual(left.count, links)
        XCTAssertTrue(left.values.allSatisfy { $0["subtype"] as? String == "Link" })
    }

    func testBadInputIsRefusedWithTheValidRangeAndTheFileUntouched() throws {
        let file = try copy(try TestEnvironment.corpusFile(AnnotationWriteTests.score), "bad.pdf")
        let id = try add(file, ["--type", "square", "--rect", "300,120,120,60"])
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        let refusals: [([String], String)] = [
            (["add", file, "--page", "0", "--type", "square", "--rect", "1,1,10,10"], "valid: 1 or more"),
            (["add", file, "--page", "99", "--type", "square", "--rect", "1,1,10,10"], "valid: 1 to 5"),
            (["add", file, "--page", "1", "--type", "square", "--rect", "590,800,100,100"], "not inside the page"),
            (["add", file, "--page", "1", "--type", "square", "--rect", "10,10,0,10"], "above 0"),
            (["add", file, "--page", "1", "--type", "square", "--rect", "a,b,c,d"], "x,y,w,h"),
            (["add", file, "--page", "1", "--type", "ink", "--stroke", ""], "x,y pairs"),
            (["add", file, "--page", "1", "--type", "ink"], "at least one stroke"),
            (["add", file, "--page", "1", "--type", "square", "--rect", "1,1,10,10", "--color", "red"], "#RRGGBB"),
            (["add", file, "--page", "1", "--type", "stamp", "--rect", "1,1,10,10", "--symbol", "trumpet"], "fermata"),
            (["add", file, "--page", "1", "--type", "square", "--rect", "1,1,10,10", "--opacity", "1.5"], "valid: 0 to 1"),
            (["add", file, "--page", "1", "--type", "square", "--rect", "1,1,10,10", "--width", "500"], "valid: 0 to 100"),
            (["add", file, "--page", "1", "--type", "freetext", "--rect", "1,1,100,20", "--text", "Dvořák \u{10FFFD}"], "U+10FFFD"),
            (["add", file, "--page", "1", "--type", "note", "--points", "10,10", "--icon", "Bell"], "valid: Comment"),
            (["add", file, "--page", "1", "--type", "line", "--points", "10,10,10,10"], "the same"),
            (["add", file, "--page", "1", "--type", "square", "--rect", "1,1,10,10", "--name", id], "already on page 1"),
            (["edit", file, "--id", id], "nothing to change"),
            (["edit", file, "--id", id, "--rect", "590,800,100,100"], "not inside the page"),
            (["edit", file, "--id", "obj-15", "--color", "#000000"], "Link"),
            (["remove", file], "--id ID... or --all"),
            (["flatten", file, "--page", "7"], "valid: 1 to 5"),
        ]
        // An id that names no mark is "not found" (1, as the server's 404), the file untouched too.
        let missing = [(["edit", file, "--id", "no-such-id", "--color", "#000000"], "no annotation has the id"),
                       (["remove", file, "--id", "no-such-id"], "no annotation has the id")]
        for (arguments, message) in refusals + missing {
            let result = try folio(["annot"] + arguments)
            XCTAssertEqual(result.status, arguments.contains("no-such-id") ? 1 : 64, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), original, "\(arguments) left the file as it was")
        }
    }

    func testEncryptedFileThatForbidsAnnotatingNeedsTheOwnerPassword() throws {
        let locked = directory.appendingPathComponent("locked.pdf").path
        let made = try TestEnvironment.runTool("qpdf", ["--encrypt", "", "conductor", "256", "--annotate=n", "--",
                                                        try TestEnvironment.corpusFile(AnnotationWriteTests.score), locked])
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        let original = try Data(contentsOf: URL(fileURLWithPath: locked))
        let refused = try folio(["annot", "add", locked, "--page", "1", "--type", "square", "--rect", "10,10,50,50"])
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertTrue(refused.err.contains("owner password"), refused.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: locked)), original)
        let allowed = try folio(["annot", "add", locked, "--password", "conductor", "--page", "1", "--type", "square",
                                 "--rect", "10,10,50,50", "--text", "owner's mark"])
        XCTAssertEqual(allowed.status, 0, allowed.err)
        // Still encrypted, and PyMuPDF reads the new annotation's text through the encryption.
        let check = try TestEnvironment.runTool("qpdf", ["--show-encryption", locked])
        XCTAssertTrue(String(decoding: check.stdout, as: UTF8.self).contains("AESv3"))
        let theirs = try fitz(locked)
        XCTAssertEqual(theirs.first { $0["subtype"] as? String == "Square" }?["contents"] as? String, "owner's mark")
    }
}
