import FolioTestSupport
import Foundation
import XCTest

/// Damage said out loud: a score cut off before its cross-reference table (readable only by
/// rebuilding it) is reported by `info` and `check`, written with a warning by every edit and
/// merge, and refused with `--strict` (the file byte-identical). Whether a file is damaged is
/// what `qpdf --check` says of it, asked at test time.
final class DamageCommandTests: CommandTestCase, @unchecked Sendable {
    private var sound = ""
    private var cut = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        sound = path("Колыбельная.pdf")
        cut = path("Ukolébavka (cut).pdf")
        let bytes = try Data(contentsOf: samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf"))
        try bytes.write(to: URL(fileURLWithPath: sound))
        try bytes.prefix(bytes.count * 9 / 10).write(to: URL(fileURLWithPath: cut))
        // The oracle: qpdf calls the cut file damaged and the whole one sound.
        let qpdfCut = try TestEnvironment.runTool("qpdf", ["--check", cut])
        XCTAssertTrue(String(decoding: qpdfCut.stderr, as: UTF8.self).contains("file is damaged"))
        XCTAssertEqual(try TestEnvironment.runTool("qpdf", ["--check", sound]).status, 0)
    }

    private func json(_ line: Substring) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func testInfoAndCheckReportDamage() throws {
        let info = try invoke(["info", "--json", "--warnings", sound, cut]).out.split(separator: "\n")
        XCTAssertEqual(info.count, 2)
        XCTAssertEqual(try json(info[0])["damaged"] as? Bool, false)
        let damaged = try json(info[1])
        XCTAssertEqual(damaged["damaged"] as? Bool, true)
        let messages = try XCTUnwrap(damaged["warningMessages"] as? [String])
        XCTAssertEqual(messages.count, damaged["warnings"] as? Int, "every counted warning is named")
        XCTAssertTrue(messages.contains { $0.contains("rebuilt") }, "\(messages)")
        let text = try invoke(["info", cut]).out
        XCTAssertTrue(text.contains("Damaged:     yes — its cross-reference table had to be rebuilt"), text)
        XCTAssertFalse(try invoke(["info", sound]).out.contains("Damaged"))

        let check = try invoke(["check", "--json", sound, cut], status: 3).out.split(separator: "\n")
        XCTAssertEqual(check.count, 2)
        XCTAssertEqual(try json(check[0])["damaged"] as? Bool, false)
        XCTAssertEqual(try json(check[0])["warnings"] as? [String], [])
        XCTAssertEqual(try json(check[1])["damaged"] as? Bool, true)
        XCTAssertEqual(try json(check[1])["pages"] as? Int, 1)
    }

    func testEditsWarnAndStrictRefuses() throws {
        let before = try sha256(cut)
        for method in ["auto", "journal", "copy"] {
            let refused = try invoke(["meta", "set", cut, "--title", "Ωδή", "--strict", "--save-method", method], status: 1)
            XCTAssertTrue(refused.err.contains("is damaged"), refused.err)
            XCTAssertTrue(refused.err.contains("nothing was written"), refused.err)
            XCTAssertEqual(try sha256(cut), before, method)
        }
        let annotated = try invoke(["annot", "add", cut, "--type", "square", "--page", "1", "--rect", "20,20,80,40", "--strict"], status: 1)
        XCTAssertTrue(annotated.err.contains("is damaged"), annotated.err)
        XCTAssertEqual(try sha256(cut), before)

        let written = try invoke(["meta", "set", cut, "--title", "Ωδή στη χαρά"])
        XCTAssertTrue(written.err.contains("warning: \(cut) is damaged"), written.err)
        XCTAssertTrue(written.err.contains("--strict"), written.err)
        XCTAssertEqual(try TestEnvironment.python("import pikepdf,sys; pdf = pikepdf.open(sys.argv[1]); print(pdf.docinfo['/Title'])", cut),
                       "Ωδή στη χαρά")
        let clean = try invoke(["meta", "set", sound, "--title", "Колыбельная"])
        XCTAssertFalse(clean.err.contains("damaged"), clean.err)
    }

    func testMergeAndSplitWarnAndStrictRefuses() throws {
        let merged = path("Сборник.pdf")
        let refused = try invoke(["merge", sound, cut, "-o", merged, "--strict"], status: 1)
        XCTAssertTrue(refused.err.contains("\(cut) is damaged"), refused.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: merged))

        let planned = try invoke(["merge", sound, cut, "-o", merged, "--dry-run", "--json"])
        XCTAssertEqual(planned.out.split(separator: "\n").count, 2, planned.out)
        XCTAssertEqual(try json(planned.out.split(separator: "\n")[1])["first"] as? Int, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: merged), "a dry run writes nothing")

        let done = try invoke(["merge", sound, cut, "-o", merged])
        XCTAssertTrue(done.err.contains("warning: \(cut) is damaged"), done.err)
        let pages = try TestEnvironment.python("import pikepdf,sys; pdf = pikepdf.open(sys.argv[1]); print(len(pdf.pages))", merged)
        XCTAssertEqual(pages, "2")

        let split = try invoke(["split", cut, "--by", "1", "--strict", "--output-dir", path("pieces")], status: 1)
        XCTAssertTrue(split.err.contains("is damaged"), split.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("pieces")))
        let splitJSON = try invoke(["split", merged, "--by", "1,2", "--json", "--dry-run"]).out.split(separator: "\n")
        XCTAssertEqual(splitJSON.count, 2)
        XCTAssertEqual(try json(splitJSON[1])["last"] as? Int, 2)
    }
}
