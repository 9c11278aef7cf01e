import FolioTestSupport
import Foundation
import XCTest

/// `folio pages half-turn`: a split of the musician's own is kept in the file's XMP as
/// pikepdf reads it, the save is incremental and clean for qpdf, and a split out of range or
/// a page the file does not have changes nothing.
final class HalfTurnCommandTests: CommandTestCase, @unchecked Sendable {

    /// What `folio` printed (output, then errors), its status asserted.
    @discardableResult
    private func run(_ arguments: [String], status expected: Int32 = 0) throws -> String {
        let result = try invoke(arguments, status: expected)
        return result.out + result.err
    }

    /// The `folioscore:halfTurns` items of the file's XMP, as pikepdf reads the packet.
    private func pikepdfSplits(_ file: String) throws -> [String] {
        let script = """
            import sys, re, pikepdf
            with pikepdf.open(sys.argv[1]) as pdf:
                meta = pdf.Root.get('/Metadata')
                text = meta.read_bytes().decode('utf-8') if meta is not None else ''
            block = re.search(r'halfTurns>(.*?)</folioscore:halfTurns', text, re.S)
            print('\\n'.join(re.findall(r'<rdf:li>([^<]*)</rdf:li>', block.group(1))) if block else '')
            """
        let result = try TestEnvironment.runTool("python3", ["-c", script, file])
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testASplitOfOnesOwnIsKeptInTheFileAndCanBeReset() throws {
        let file = path("Шопен — Ноктюрн ор. 9.pdf")
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Clementi-Sonatina_O_36.pdf"), toPath: file)
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertEqual(try pikepdfSplits(file), [])

        XCTAssertTrue(try run(["pages", "half-turn", file, "--pages", "1-2", "--split", "0.42"]).contains("2 page(s) at 0.420"))
        XCTAssertEqual(try pikepdfSplits(file), ["1=0.42", "2=0.42"])
        let saved = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertEqual(saved.prefix(original.count), original, "an incremental update keeps the original bytes")
        let check = try TestEnvironment.runTool("qpdf", ["--check", file])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout + check.stderr, as: UTF8.self))
        XCTAssertEqual(try run(["pages", "half-turn", file]), "1\t0.420\n2\t0.420\n")
        XCTAssertEqual(try run(["pages", "half-turn", file, "--json"]), "{\"page\":1,\"split\":0.42}\n{\"page\":2,\"split\":0.42}\n")

        // Refused: out of range, a page the file lacks, both at once. The file is byte-identical.
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        XCTAssertTrue(try run(["pages", "half-turn", file, "--pages", "2", "--split", "0.99"], status: 64).contains("0.05 to 0.95"))
        XCTAssertTrue(try run(["pages", "half-turn", file, "--pages", "2", "--split=-1e308"], status: 64).contains("out of range"))
        XCTAssertTrue(try run(["pages", "half-turn", file, "--pages", "99", "--split", "0.5"], status: 64).contains("99"))
        XCTAssertTrue(try run(["pages", "half-turn", file, "--pages", "2", "--split", "0.5", "--reset"], status: 64).contains("split"))
        try run(["pages", "half-turn", file, "--pages", "2", "--split", "0.6", "--dry-run"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)

        try run(["pages", "half-turn", file, "--pages", "1", "--reset"])
        XCTAssertEqual(try pikepdfSplits(file), ["2=0.42"])
        XCTAssertEqual(try run(["pages", "half-turn", file]), "2\t0.420\n")
    }
}
