import FolioTestSupport
import Foundation
import XCTest

/// `folio meta adopt`, `folio meta from-names` and `folio lint` end to end on the shared
/// scores and on copies carrying the junk real collections have. Expected values come
/// from the files' Info as pikepdf reads it; results are read back by pikepdf; a second
/// run changes nothing.
final class MetadataShapeCommandTests: CommandTestCase, @unchecked Sendable {

    @discardableResult
    private func run(_ arguments: [String], status expected: Int32 = 0) throws -> (out: String, err: String) {
        let result = try TestEnvironment.run(folio, arguments)
        let err = String(decoding: result.stderr, as: UTF8.self)
        XCTAssertEqual(result.status, expected, "folio \(arguments.joined(separator: " ")): \(err)")
        return (String(decoding: result.stdout, as: UTF8.self), err)
    }

    private func copyScores(to name: String) throws -> URL {
        let folder = root.appendingPathComponent(name)
        try TestEnvironment.copy(at: try TestEnvironment.corpus.appendingPathComponent("scores"), to: folder)
        _ = try run(["library", "scan", folder.path])   // only a scan makes a catalog
        return folder
    }

    /// Tempo and time signature: set, read back from the XMP by pikepdf, shown by meta get
    /// and the catalog, cleared; out-of-range values refused with the range, the file untouched.
    func testTempoAndTimeSignature() throws {
        let folder = try copyScores(to: "tempo")
        let file = folder.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        for (arguments, message) in [(["--tempo", "0"], "valid: 1 to 999"), (["--tempo", "1000"], "valid: 1 to 999"),
                                     (["--time-signature", "5/3"], "valid: such as 3/4")] {
            XCTAssertTrue(try run(["meta", "set", file] + arguments, status: 64).err.contains(message), "\(arguments)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
        try run(["meta", "set", file, "--tempo", "66", "--time-signature", " 6 / 8", "--title", "Wiegenlied — Колыбельная"])
        let xmp = try TestEnvironment.runTool("python3", ["-c", """
            import sys, pikepdf, xml.etree.ElementTree as ET
            N = "{http://ns.folio.dev/score/1.0/}"
            found = {}
            pdf = pikepdf.open(sys.argv[1])
            for e in ET.fromstring(pdf.Root.Metadata.read_bytes()).iter():
                found.update({k[len(N):]: v for k, v in e.attrib.items() if k.startswith(N)})
                if e.tag.startswith(N) and (e.text or "").strip(): found[e.tag[len(N):]] = e.text.strip()
            print(found.get("tempo"), found.get("timeSignature"))
            """, file])
        XCTAssertEqual(String(decoding: xmp.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "66 6/8")
        let shown = try run(["meta", "get", file, "--json"]).out
        XCTAssertTrue(shown.contains("\"tempo\":66") && shown.contains("\"timeSignature\":\"6/8\""), shown)
        try run(["library", "scan", folder.path])
        let listed = try run(["library", "list", folder.path, "--json"]).out
        XCTAssertTrue(listed.contains("\"tempo\":66"), listed)
        try run(["meta", "set", file, "--clear", "time-signature", "--clear", "tempo"])
        let cleared = try run(["meta", "get", file, "--json"]).out
        XCTAssertTrue(!cleared.contains("\"tempo\"") && !cleared.contains("\"timeSignature\""), cleared)
    }

    func testAdoptTakesLilyPondFieldsOnceAndDryRunWritesNothing() throws {
        let folder = try copyScores(to: "adopt")
        let original = try FolderOracle.metadata(folder)
        let untouched = try FolderOracle.bytes(folder)
        let planned = try run(["meta", "adopt", "--library", folder.path, "--dry-run", "--json"])
        XCTAssertEqual(try FolderOracle.bytes(folder), untouched, "a dry run writes no PDF")
        XCTAssertFalse(planned.out.isEmpty)
        try run(["meta", "adopt", "--library", folder.path])
        let adopted = try FolderOracle.metadata(folder)
        for (name, entry) in original {
            let info = try XCTUnwrap(entry["info"] as? [String: String])
            let after = try XCTUnwrap(adopted[name]?["info"] as? [String: String])
            let creators = (adopted[name]?["xmp"] as? [String: Any])?["creator"] as? [String]
            guard let composer = info["Composer"] else { continue }
            // The composer's name: the /Composer text before life dates, a comma or a semicolon.
            let name0 = composer.split(whereSeparator: { "(,;".contains($0) }).first
                .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") } ?? ""
            let authors = (after["Author"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            XCTAssertEqual(authors.first, name0, name)
            // The arranger follows, by their surname (the last word before any dates); a poet is no composer.
            let people = ["Arranger"].compactMap { info[$0] }
            XCTAssertEqual(authors.count, 1 + people.count, name)
            for (person, author) in zip(people, authors.dropFirst()) {
                let surname = person.split(separator: "(").first?.split(separator: " ").last?
                    .trimmingCharacters(in: CharacterSet(charactersIn: ".")) ?? ""
                XCTAssertTrue(author.hasSuffix(surname), "\(name): \(author) for \(person)")
            }
            XCTAssertEqual(creators, authors, "\(name): XMP agrees")
            if let subtitle = info["Subtitle"] {
                let reference = (adopted[name]?["xmp"] as? [String: Any])?["reference"] as? String
                let title = after["Title"] ?? ""
                XCTAssertTrue(title.contains(subtitle.trimmingCharacters(in: CharacterSet(charactersIn: "`'")))
                              || reference != nil, "\(name): subtitle in the title or a reference")
            }
            XCTAssertEqual(after["Composer"], composer, "\(name): the custom entry is kept")
        }
        let settled = try FolderOracle.bytes(folder)
        let again = try run(["meta", "adopt", "--library", folder.path])
        XCTAssertEqual(again.out, "", "adopting twice changes nothing")
        XCTAssertEqual(try FolderOracle.bytes(folder), settled)
        for name in settled.keys {
            let check = try TestEnvironment.runTool("qpdf", ["--check", folder.appendingPathComponent(name).path])
            XCTAssertEqual(check.status, 0, name)
        }
    }

    func testFromNamesFillsOnlyEmptyFieldsUnlessOverwrite() throws {
        let folder = root.appendingPathComponent("names")
        let shelves = ["Gabriel_Fauré/Après un rêve.pdf", "Frédéric Chopin/Prélude_in_D-flat_major.pdf",
                       "Traditional/Greensleeves.pdf"]
        let scores = try FileManager.default.contentsOfDirectory(
            atPath: try TestEnvironment.corpus.appendingPathComponent("scores").path).filter { $0.hasSuffix(".pdf") }.sorted()
        for (index, relative) in shelves.enumerated() {
            let target = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try TestEnvironment.copy(at: try TestEnvironment.corpus.appendingPathComponent("scores/\(scores[index])"),
                                             to: target)
        }
        _ = try run(["library", "scan", folder.path])   // only a scan makes a catalog
        let before = try FolderOracle.metadata(folder)
        let refused = try run(["meta", "from-names", "--library", folder.path, "--pattern", "{composer}/{titel}.pdf"],
                              status: 64)
        XCTAssertTrue(refused.err.contains("unknown placeholder {titel}"), refused.err)
        try run(["meta", "from-names", "--library", folder.path, "--pattern", "{composer}/{title}.pdf"])
        let after = try FolderOracle.metadata(folder)
        for relative in shelves {
            let parts = relative.split(separator: "/")
            let composer = parts[0].replacingOccurrences(of: "_", with: " ")
            let info = try XCTUnwrap(after[relative]?["info"] as? [String: String])
            XCTAssertEqual(info["Author"], composer, relative)
            XCTAssertEqual(info["Title"], (before[relative]?["info"] as? [String: String])?["Title"],
                           "\(relative): a title already there is kept")
        }
        try run(["meta", "from-names", "--library", folder.path, "--pattern", "{composer}/{title}", "--overwrite"])
        let overwritten = try FolderOracle.metadata(folder)
        for relative in shelves {
            let title = String(relative.split(separator: "/")[1].dropLast(4)).replacingOccurrences(of: "_", with: " ")
            XCTAssertEqual((overwritten[relative]?["info"] as? [String: String])?["Title"], title, relative)
            XCTAssertEqual((overwritten[relative]?["xmp"] as? [String: Any])?["title"] as? [String], [title], relative)
        }
        let again = try run(["meta", "from-names", "--library", folder.path, "--pattern", "{composer}/{title}", "--overwrite"])
        XCTAssertEqual(again.out, "", "the names give nothing new")
    }

    func testLintFindsJunkFixesItAndFindsNothingAfter() throws {
        let folder = root.appendingPathComponent("junk")
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/junk_metadata.py").path
        let made = try TestEnvironment.runTool("python3", [script, folder.path,
                                                           try TestEnvironment.corpusFile("scores/Carcassi-Etude_3_Op_60_No_3.pdf")])
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: made.stdout) as? [String: [String]])
        let files = expected.keys.sorted().map { folder.appendingPathComponent($0).path }
        let untouched = try FolderOracle.bytes(folder)
        let report = try run(["lint", "--json"] + files, status: 2)
        XCTAssertEqual(try FolderOracle.bytes(folder), untouched, "lint without --fix writes nothing")
        var found: [String: [String]] = [:]
        for line in report.out.split(separator: "\n") {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let path = try XCTUnwrap(object["path"] as? String)
            found[(path as NSString).lastPathComponent, default: []].append(try XCTUnwrap(object["rule"] as? String))
            XCTAssertNotNil(object["severity"] as? String)
            XCTAssertNotNil(object["fix"] as? String, "every finding proposes a fix")
        }
        for (name, rules) in expected {
            XCTAssertEqual((found[name] ?? []).sorted(), rules.sorted(), name)
        }

        // A dry run of the fix prints the table it would apply, writes nothing, and leaves the findings (exit 2).
        let planned = try run(["lint", "--fix", "--dry-run"] + files, status: 2)
        XCTAssertTrue(planned.out.contains("→ Etude 3"), planned.out)
        XCTAssertEqual(try FolderOracle.bytes(folder), untouched, "lint --fix --dry-run wrote")
        try run(["lint", "--fix"] + files)
        let fixed = try FolderOracle.metadata(folder)
        func info(_ name: String) -> [String: String] { fixed[name]?["info"] as? [String: String] ?? [:] }
        XCTAssertEqual(info("word.pdf")["Title"], "Etude 3")
        XCTAssertNil(info("word.pdf")["Author"], "a user name is no composer")
        XCTAssertNil(info("scan.pdf")["Title"])
        XCTAssertEqual(info("scan.pdf")["Author"], "Johannes Brahms, Clara Schumann")
        XCTAssertEqual(info("scan.pdf")["Keywords"], "Piano, rating:4")
        XCTAssertEqual(info("markup.pdf")["Title"], "Tom & Jerry Rag")
        XCTAssertEqual(info("markup.pdf")["Author"], "Gabriel Fauré")
        XCTAssertEqual(info("markup.pdf")["Subject"], "Lied")
        XCTAssertEqual(info("markup.pdf")["Keywords"], "difficulty:3")
        XCTAssertEqual((fixed["mismatch.pdf"]?["xmp"] as? [String: Any])?["title"] as? [String], ["Greensleeves"])
        XCTAssertEqual(info("Etude_in_C.pdf")["Title"], "Etude in C")
        XCTAssertEqual(try FolderOracle.bytes(folder)["clean.pdf"], untouched["clean.pdf"], "a clean file is not written")
        for name in expected.keys {
            XCTAssertNil(fixed[name]?["error"], "\(name): pikepdf reads the fixed XMP")
            let check = try TestEnvironment.runTool("qpdf", ["--check", folder.appendingPathComponent(name).path])
            XCTAssertEqual(check.status, 0, name)
        }
        let settled = try FolderOracle.bytes(folder)
        let again = try run(["lint", "--fix"] + files)
        XCTAssertEqual(again.out, "", "a fixed file has nothing left to fix")
        XCTAssertEqual(try FolderOracle.bytes(folder), settled)
    }
}
