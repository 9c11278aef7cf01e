import FolioTestSupport
import Foundation
import XCTest

/// `folio toc set`: what Folio writes, PyMuPDF and pikepdf read back exactly, and qpdf
/// --check finds nothing new.
final class TocWriteTests: XCTestCase {
    private func folio(_ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, timeout: 300)
        return (result.status, result.stdout, String(decoding: result.stderr, as: UTF8.self))
    }

    private func qpdfProblems(_ path: String) throws -> Set<String> {
        let result = try TestEnvironment.runTool("qpdf", ["--check", path])
        return Set(String(decoding: result.stdout + result.stderr, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("WARNING") || $0.contains("ERROR") }
            .map { $0.replacingOccurrences(of: path, with: "FILE") })
    }

    /// What `qpdf --check` reports of `copy` and not of `original`, and how many of those
    /// are latent defects of old objects: an update de-linearizes a file, so qpdf checks its
    /// old objects along another path and may report their defects (counted, not failed,
    /// as in CorpusWriteTests).
    private func newProblems(_ copy: String, original: String) throws -> (new: Set<String>, latent: Int) {
        var new = try qpdfProblems(copy).subtracting(try qpdfProblems(original))
        guard TestEnvironment.isLinearized(original) else { return (new, 0) }
        let old = new.filter { $0.contains("object ") }
        new.subtract(old)
        return (new, old.count)
    }

    /// The entries `toc --json` prints, as comparable lines: level, title, page, uri, and
    /// (with `open`) whether the entry shows its children.
    private func tocLines(_ data: Data, open: Bool = false) throws -> [String] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (object["entries"] as? [[String: Any]] ?? []).map {
            "\($0["level"] as? Int ?? -1) \($0["title"] as? String ?? "") p\($0["page"] as? Int ?? 0) \($0["uri"] as? String ?? "")"
                + (open ? " open:\($0["open"] as? Bool ?? false)" : "")
        }
    }

    func testEveryCorpusOutlineWrittenBackReadsTheSame() throws {
        let expected = try OutlineOracle.expected().filter { $0.value.password == nil && $0.value.pike != nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-toc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var written: [String: (original: String, lines: [String])] = [:]
        var failures: [String] = []
        var latent = 0
        for (index, path) in expected.keys.sorted().enumerated() {
            let original = try TestEnvironment.corpusFile(path)
            guard try TestEnvironment.runTool("qpdf", ["--check", original]).status != 2 else { continue }
            let shown = try folio(["toc", "--json", original])
            guard shown.status == 0, try !tocLines(shown.out).isEmpty else { continue }
            let copy = directory.appendingPathComponent("t\(index).pdf").path
            try TestEnvironment.copy(atPath: original, toPath: copy)
            let json = directory.appendingPathComponent("t\(index).json")
            try shown.out.write(to: json)
            let set = try folio(["toc", "set", copy, "--from", json.path])
            guard set.status == 0 else {
                failures.append("\(path): toc set failed: \(set.err)")
                continue
            }
            // Entries without a page in this file are written without a target.
            let lines = try tocLines(shown.out)
            XCTAssertEqual(try tocLines(try folio(["toc", "--json", copy]).out, open: true),
                           try tocLines(shown.out, open: true), "\(path): titles, targets and open state")
            let (new, old) = try newProblems(copy, original: original)
            latent += old
            if !new.isEmpty { failures.append("\(path): qpdf --check after toc set: \(new.sorted())") }
            written["t\(index).pdf"] = (path, lines)
        }
        // PyMuPDF and pikepdf read the written outlines.
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/outlines.py").path
        let run = try TestEnvironment.runTool("python3", [script, directory.path], timeout: 600)
        let readBack = try JSONDecoder().decode([String: OutlineOracle.Expected].self, from: run.stdout)
        for (name, (path, lines)) in written {
            guard let theirs = readBack[name], let fitz = theirs.fitz, let pike = theirs.pike else {
                failures.append("\(path): PyMuPDF or pikepdf read no outline back")
                continue
            }
            // MuPDF gives " " for an empty title.
            let fitzLines = fitz.map { "\(($0[0].int ?? 0) - 1) \($0[1].text == " " ? "" : $0[1].text ?? "") p\(max($0[2].int ?? 0, 0)) \($0[3].text ?? "")" }
            if fitzLines != lines { failures.append("\(path): PyMuPDF reads \(fitzLines.prefix(4)) for \(lines.prefix(4))") }
            let pikeLines = pike.map { "\($0[0].int ?? -1) \($0[1].text ?? "")" }
            if pikeLines != lines.map({ String($0[..<($0.range(of: " p")?.lowerBound ?? $0.endIndex)]) }) {
                failures.append("\(path): pikepdf reads \(pikeLines.prefix(4))")
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        XCTAssertGreaterThan(written.count, 50)
        XCTAssertLessThan(latent, 20, "latent defects revealed by de-linearizing must stay rare")
    }

    /// Single-entry edits (`toc rename`, `move`, `add`, `delete`) on copies of every corpus
    /// outline PyMuPDF and pikepdf agree on: after each step PyMuPDF reads the original tree
    /// with exactly that change (untouched entries keep their own destinations and pages),
    /// pikepdf the same titles and nesting; the original stays a prefix and qpdf --check
    /// finds nothing new.
    func testEntryEditsOnEveryCorpusOutline() throws {
        func trimmed(_ text: String?) -> String { (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        let expected = try OutlineOracle.expected().filter { _, value in
            guard value.password == nil, let fitz = value.fitz, !fitz.isEmpty, let pike = value.pike else { return false }
            return fitz.map { "\(($0[0].int ?? 0) - 1) \(trimmed($0[1].text))" }
                == pike.map { "\($0[0].int ?? -1) \(trimmed($0[1].text))" }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tocedit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        /// PyMuPDF's view of one entry: level (1-based), title, page, URL.
        func line(_ entry: [OutlineOracle.FitzValue]) -> String {
            "\(entry[0].int ?? 0)|\(trimmed(entry[1].text))|\(entry[2].int ?? -1)|\(entry[3].text ?? "")"
        }
        var stages: [String: (path: String, lines: [String])] = [:]
        var failures: [String] = []
        var latent = 0
        for (index, path) in expected.keys.sorted().enumerated() {
            let original = try TestEnvironment.corpusFile(path)
            guard let fitz = expected[path]?.fitz, try TestEnvironment.runTool("qpdf", ["--check", original]).status != 2
            else { continue }
            let copy = directory.appendingPathComponent("e\(index).pdf").path
            try TestEnvironment.copy(atPath: original, toPath: copy)
            let title = "Folio — renamed «1»"
            var renamed = fitz.map(line)
            renamed[0] = "1|\(title)|\(fitz[0][2].int ?? -1)|\(fitz[0][3].text ?? "")"
            let firstSubtree = 1 + fitz.dropFirst().prefix { ($0[0].int ?? 0) > 1 }.count
            let children = fitz[1..<firstSubtree].filter { $0[0].int == 2 }.count
            let topLevel = fitz.filter { $0[0].int == 1 }.count
            let steps: [([String], [String])] = [
                (["toc", "rename", copy, "1", "--title", title], renamed),
                (["toc", "move", copy, "1", "--top"], Array(renamed[firstSubtree...] + renamed[..<firstSubtree])),
                (["toc", "move", copy, "\(topLevel)", "--before", "1"], renamed),
                (["toc", "add", copy, "--title", "IMSLP", "--uri", "https://imslp.org/", "--under", "1"],
                 Array(renamed[..<firstSubtree] + ["2|IMSLP|-1|https://imslp.org/"] + renamed[firstSubtree...])),
                (["toc", "delete", copy, "1.\(children + 1)"], renamed),
            ]
            for (step, (arguments, lines)) in steps.enumerated() {
                let result = try folio(arguments)
                guard result.status == 0 else {
                    failures.append("\(path): \(arguments[1]) failed: \(result.err)")
                    break
                }
                let stage = "e\(index)-s\(step).pdf"
                try TestEnvironment.copy(atPath: copy, toPath: directory.appendingPathComponent(stage).path)
                stages[stage] = (path, lines)
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: original))
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)).prefix(before.count), before, path)
            let (new, old) = try newProblems(copy, original: original)
            latent += old
            if !new.isEmpty { failures.append("\(path): qpdf --check after the edits: \(new.sorted())") }
        }
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/outlines.py").path
        let run = try TestEnvironment.runTool("python3", [script, directory.path], timeout: 600)
        let readBack = try JSONDecoder().decode([String: OutlineOracle.Expected].self, from: run.stdout)
        for (stage, (path, lines)) in stages.sorted(by: { $0.key < $1.key }) {
            let fitz = readBack[stage]?.fitz?.map(line) ?? []
            if fitz != lines {
                let first = zip(fitz, lines).first { $0 != $1 }.map { "\($0) for \($1)" } ?? "\(fitz.count) entries for \(lines.count)"
                failures.append("\(path) \(stage): PyMuPDF reads \(first)")
            }
            let pike = readBack[stage]?.pike?.map { "\(($0[0].int ?? -1) + 1)|\(trimmed($0[1].text))" } ?? []
            if pike != lines.map({ $0.split(separator: "|", omittingEmptySubsequences: false).prefix(2).joined(separator: "|") }) {
                failures.append("\(path) \(stage): pikepdf reads \(pike.prefix(4))")
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        XCTAssertGreaterThan(Set(stages.values.map(\.path)).count, 50)
        XCTAssertLessThan(latent, 20, "latent defects revealed by de-linearizing must stay rare")
    }

    /// Entry edits with every kind of target, read by PyMuPDF; bad paths, pages and
    /// positions are usage errors that leave the file byte-identical.
    func testEntryEditCommandsTargetsAndRefusals() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tocedit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("book.pdf").path
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Bach-Partita_in_a_minor_BWV_1013.pdf"),
                                         toPath: path)
        let adds: [([String], String)] = [
            (["--title", "Partita", "--page", "1"], "1"),
            (["--title", "Corrente", "--page", "3", "--under", "1"], "1.1"),
            (["--title", "Allemande", "--page", "1", "--before", "1.1"], "1.1"),
            (["--title", "Parts", "--remote", "Partita-parts.pdf", "--remote-page", "2"], "2"),
            (["--title", "Open in forScore", "--uri", "forscore://open?title=Partita", "--after", "1"], "2"),
            (["--title", "Notes"], "4"),
        ]
        for (arguments, printed) in adds {
            let result = try folio(["toc", "add", path] + arguments)
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertEqual(String(decoding: result.out, as: UTF8.self), printed + "\n", arguments.joined(separator: " "))
        }
        XCTAssertEqual(try folio(["toc", "rename", path, "1.2", "--title", "Corrente — «Ré»"]).status, 0)
        XCTAssertEqual(try folio(["toc", "edit", path, "1", "--open"]).status, 0)
        XCTAssertEqual(try folio(["toc", "nest", path, "4"]).out, Data("3.1\n".utf8))
        XCTAssertEqual(try folio(["toc", "unnest", path, "3.1"]).out, Data("4\n".utf8))
        XCTAssertEqual(try folio(["toc", "delete", path, "4"]).status, 0)
        let script = """
            import sys, fitz, pikepdf
            toc = fitz.open(sys.argv[1]).get_toc(simple=False)
            print([[e[0], e[1], e[2], e[3].get("uri") or e[3].get("file")] for e in toc])
            with pikepdf.open(sys.argv[1]) as pdf:
                print(pdf.Root.Outlines.Count, pdf.Root.Outlines.First.Count)
            """
        let read = try TestEnvironment.runTool("python3", ["-c", script, path])
        let lines = String(decoding: read.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "[[1, 'Partita', 1, None], [2, 'Allemande', 1, None], [2, 'Corrente — «Ré»', 3, None], "
            + "[1, 'Open in forScore', -1, 'forscore://open?title=Partita'], [1, 'Parts', -1, 'Partita-parts.pdf']]",
            String(decoding: read.stderr, as: UTF8.self))
        XCTAssertEqual(lines.dropFirst().first, "5 2", "entry 1 is open: the root counts 5 visible entries, entry 1 +2")
        XCTAssertEqual(try qpdfProblems(path), [])

        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refusals: [([String], String)] = [
            (["rename", path, "9", "--title", "x"], "no outline entry 9 (valid at that level: 1 to 3)"),
            (["rename", path, "1.0", "--title", "x"], "1.0"),
            (["edit", path, "1"], "nothing to change"),
            (["edit", path, "1", "--page", "999"], "page 999, out of range (valid: 1 to"),
            (["add", path, "--title", "x", "--page", "0"], "page 0, out of range"),
            (["add", path, "--title", "x", "--page", "1", "--uri", "https://x"], "one of --page, --uri and --remote"),
            (["add", path, "--title", "x", "--remote-page", "2"], "--remote-page needs --remote"),
            (["add", path, "--title", "x", "--under", "1", "--top"], "one of --before, --after, --under and --top"),
            (["move", path, "1", "--under", "1.2"], "cannot move into itself"),
            (["move", path, "2"], "say where"),
            (["nest", path, "1"], "no entry before it"),
            (["unnest", path, "2"], "already at the top level"),
            (["delete", path, "1", "7"], "no outline entry 7"),
        ]
        for (arguments, message) in refusals {
            let result = try folio(["toc"] + arguments)
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, arguments.joined(separator: " "))
        }
    }

    func testAHandWrittenTableOfContents() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-toc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("book.pdf").path
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Bach-Partita_in_a_minor_BWV_1013.pdf"),
                                         toPath: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let toc = """
            {"entries": [{"title": "Partita in a minor", "page": 1, "open": true},
              {"title": "Allemande", "level": 1, "page": 1}, {"title": "Corrente", "level": 1, "page": 2},
              {"title": "Sarabande — «Ré»", "level": 1, "page": 3},
              {"title": "IMSLP", "uri": "https://imslp.org/wiki/Flute_Partita_(Bach)"},
              {"title": "Open in forScore", "uri": "forscore://open?title=Partita"}]}
            """
        let json = directory.appendingPathComponent("toc.json")
        try Data(toc.utf8).write(to: json)
        let set = try folio(["toc", "set", path, "--from", json.path])
        XCTAssertEqual(set.status, 0, set.err)
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(after.prefix(original.count), original, "incremental: the original is a prefix")
        XCTAssertEqual(try qpdfProblems(path), [])
        let script = """
            import sys, fitz, pikepdf
            toc = fitz.open(sys.argv[1]).get_toc(simple=False)
            print([[e[0], e[1], e[2], e[3].get("uri")] for e in toc])
            with pikepdf.open(sys.argv[1]) as pdf:
                print(pdf.Root.Outlines.Count, pdf.Root.Outlines.First.Count)
            """
        let result = try TestEnvironment.runTool("python3", ["-c", script, path])
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.first.map(String.init), "[[1, 'Partita in a minor', 1, None], [2, 'Allemande', 1, None], "
            + "[2, 'Corrente', 2, None], [2, 'Sarabande — «Ré»', 3, None], "
            + "[1, 'IMSLP', -1, 'https://imslp.org/wiki/Flute_Partita_(Bach)'], "
            + "[1, 'Open in forScore', -1, 'forscore://open?title=Partita']]", String(decoding: result.stderr, as: UTF8.self))
        XCTAssertEqual(lines.dropFirst().first.map(String.init), "6 3", "open entry: root counts 6 visible, the item +3")

        // A CSV index gives a flat TOC in page order.
        let csv = directory.appendingPathComponent("toc.csv")
        try Data("Title;Page\r\nCorrente;2\r\nAllemande;1\r\n".utf8).write(to: csv)
        let copy = directory.appendingPathComponent("csv.pdf").path
        try TestEnvironment.copy(atPath: path, toPath: copy)
        XCTAssertEqual(try folio(["toc", "set", copy, "--from", csv.path]).status, 0)
        let fromCSV = try TestEnvironment.runTool("python3", ["-c", "import sys, fitz; print(fitz.open(sys.argv[1]).get_toc())", copy])
        XCTAssertEqual(String(decoding: fromCSV.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                       "[[1, 'Allemande', 1], [1, 'Corrente', 2]]")

        // Bad input: a level jump and a page out of range are usage errors; the file stays.
        for (bad, message) in [(#"[{"title": "A", "level": 1, "page": 1}]"#, "level 1 is out of range"),
                               (#"[{"title": "A", "page": 999}]"#, "page 999 is out of range (valid: 1 to"),
                               (#"[{"page": 1}]"#, "lacks \"title\"")] {
            try Data(bad.utf8).write(to: json)
            let refused = try folio(["toc", "set", path, "--from", json.path])
            XCTAssertEqual(refused.status, 64, bad)
            XCTAssertTrue(refused.err.contains(message), refused.err)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), after, bad)
        }
    }
}
