import FolioTestSupport
import Foundation
import XCTest

/// `folio info` as a user runs it.
final class InfoCommandTests: XCTestCase {
    private func folio(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, timeout: 300)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    func testTextOutputOfAScore() throws {
        let path = try TestEnvironment.corpusFile("scores/Faure-Apres_un_Reve_Op_7.pdf")
        let qpdf = try TestEnvironment.runTool("qpdf", ["--show-npages", path])
        let pages = String(decoding: qpdf.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try folio(["info", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("Pages:       \(pages)\n"), result.out)
        XCTAssertTrue(result.out.contains("Title:       Après un Rêve\n"), result.out)
        XCTAssertTrue(result.out.contains("Encrypted:   no\n"))
    }

    func testJSONKeysAndNulls() throws {
        let path = try TestEnvironment.corpusFile("scores/Brahms-Cancion_de_Cuna.pdf")
        let result = try folio(["info", "--json", path])
        XCTAssertEqual(result.status, 0)
        let object = try XCTUnwrap(try TestEnvironment.jsonLines(result.out).first)
        XCTAssertEqual(Set(object.keys), ["path", "version", "pages", "encrypted", "title", "author", "subject", "keywords",
                                          "creator", "producer", "created", "modified", "xmp", "outlines", "warnings", "damaged"])
        XCTAssertTrue(object["author"] is NSNull, "absent fields are null")
        XCTAssertEqual(object["path"] as? String, path)
        XCTAssertEqual(object["xmp"] as? Bool, true)
    }

    func testUnreadableFileGivesErrorLineAndExitOne() throws {
        let good = try TestEnvironment.corpusFile("scores/Brahms-Cancion_de_Cuna.pdf")
        let result = try folio(["info", "--json", "/nonexistent/file.pdf", good,
                                try TestEnvironment.corpusFile("pypdf/encryption/r2-user-password.pdf")])
        XCTAssertEqual(result.status, 1)
        let lines = try TestEnvironment.jsonLines(result.out)
        XCTAssertEqual(lines.count, 3)
        XCTAssertNotNil(lines[0]["error"] as? String)
        XCTAssertNil(lines[1]["error"])
        XCTAssertTrue((lines[2]["error"] as? String)?.contains("password") == true)
        XCTAssertTrue(result.err.contains("folio info: /nonexistent/file.pdf: "), result.err)
        // In text, errors go to standard error only; standard output holds the files read.
        let text = try folio(["info", "/nonexistent/Ноктюрн.pdf", good])
        XCTAssertEqual(text.status, 1)
        XCTAssertFalse(text.out.contains("Ноктюрн") || text.out.contains("Error"), text.out)
        XCTAssertTrue(text.out.contains("File:        \(good)"), text.out)
        XCTAssertTrue(text.err.contains("folio info: /nonexistent/Ноктюрн.pdf: "), text.err)
    }

    func testPasswordOption() throws {
        let path = try TestEnvironment.corpusFile("pypdf/encryption/r4-aes-user-password.pdf")
        let result = try folio(["info", "--json", "--password", "asdfzxcv", path])
        XCTAssertEqual(result.status, 0, result.out)
        XCTAssertEqual(try TestEnvironment.jsonLines(result.out).first?["encrypted"] as? Bool, true)
    }

    func testUsageErrorExitCode() throws {
        XCTAssertEqual(try folio(["info"]).status, 64)
        XCTAssertEqual(try folio(["info", "--bogus", "x.pdf"]).status, 64)
    }

    /// Thousands of files in one call: the whole corpus five times over.
    func testThousandsOfFiles() throws {
        let files = try TestEnvironment.corpusPDFs().map(TestEnvironment.corpusFile)
        let many = Array(repeating: files, count: 5).flatMap { $0 }
        XCTAssertGreaterThan(many.count, 3000)
        let result = try folio(["info", "--json"] + many)
        let lines = try TestEnvironment.jsonLines(result.out)
        XCTAssertEqual(lines.count, many.count)
        XCTAssertEqual(lines.compactMap { $0["path"] as? String }, many)
        // Each round gives the same answers.
        let firstRound = lines.prefix(files.count).map { ($0["pages"] as? Int) ?? -1 }
        let lastRound = lines.suffix(files.count).map { ($0["pages"] as? Int) ?? -1 }
        XCTAssertEqual(firstRound, lastRound)
    }
}

/// `folio meta get` on a file tagged through `folio set-info`.
final class MetaCommandTests: XCTestCase {
    func testMetaGetReadsForScoreFields() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-meta-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("score.pdf").path
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile("scores/Faure-Apres_un_Reve_Op_7.pdf"), toPath: path)
        let folio = try TestEnvironment.folioBinary()
        let set = try TestEnvironment.run(folio, ["set-info", path, "--entry", "Author=Gabriel Fauré",
                                                   "--entry", "Keywords=Song, rating:9, keysf:-3, keymi:1"])
        XCTAssertEqual(set.status, 0)
        let get = try TestEnvironment.run(folio, ["meta", "get", "--json", path])
        XCTAssertEqual(get.status, 0)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: get.stdout) as? [String: Any])
        XCTAssertEqual(object["composers"] as? [String], ["Gabriel Fauré"])
        XCTAssertEqual(object["tags"] as? [String], ["Song"])
        XCTAssertEqual(object["rating"] as? Int, 5)
        XCTAssertEqual(object["key"] as? String, "C minor")
        XCTAssertEqual((object["warnings"] as? [String])?.count, 1)
        XCTAssertNil(object["difficulty"], "unset fields are left out, as the API does")
        XCTAssertEqual(object["title"] as? String, "Après un Rêve")
    }
}

/// `folio meta set/apply/export` as a user runs them.
final class MetaWriteCommandTests: XCTestCase {
    private var directory: URL!
    private var source: String {
        get throws { try TestEnvironment.corpusFile("scores/Brahms-Cancion_de_Cuna.pdf") }
    }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-metaw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func copy(_ name: String, from path: String? = nil) throws -> String {
        let target = directory.appendingPathComponent(name).path
        try TestEnvironment.copy(atPath: try path ?? source, toPath: target)
        return target
    }

    private func folio(_ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, timeout: 300)
        return (result.status, result.stdout, String(decoding: result.stderr, as: UTF8.self))
    }

    private func get(_ path: String) throws -> [String: Any] {
        let result = try folio(["meta", "get", "--json", path])
        XCTAssertEqual(result.status, 0, result.err)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: result.out) as? [String: Any])
    }

    func testSeveralFilesAndOneFailure() throws {
        let first = try copy("first.pdf")
        let broken = directory.appendingPathComponent("broken.pdf").path
        try Data("not a pdf".utf8).write(to: URL(fileURLWithPath: broken))
        let last = try copy("last.pdf")
        let result = try folio(["meta", "set", first, broken, last, "--rating", "4", "--key", "bb minor"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.contains("broken.pdf"), result.err)
        XCTAssertFalse(result.err.contains("first.pdf"), result.err)
        for path in [first, last] {
            let object = try get(path)
            XCTAssertEqual(object["rating"] as? Int, 4)
            XCTAssertEqual(object["key"] as? String, "B♭ minor")
            XCTAssertEqual(object["title"] as? String, "Cancion de Cuna", "fields not given stay")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: broken)), Data("not a pdf".utf8))
    }

    func testBadInputIsAUsageErrorAndTouchesNothing() throws {
        let path = try copy("score.pdf")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let cases: [([String], String)] = [
            (["--rating", "9"], "valid: 0 to 5"), (["--difficulty", "4"], "valid: 0 to 3"),
            (["--key", "H major"], "valid forms"), (["--duration", "1:99"], "m:ss"),
            (["--clear", "colour"], "valid: title, composers"), (["--composer", "Bach, J. S."], "--allow-comma"),
            (["--tag", "rating:5"], "special keyword"), ([], "nothing to change"),
        ]
        for (arguments, message) in cases {
            let result = try folio(["meta", "set", path] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "\(arguments)")
        }
    }

    func testClearAndAllowComma() throws {
        let path = try copy("score.pdf")
        XCTAssertEqual(try folio(["meta", "set", path, "--composer", "Bach, J. S.", "--allow-comma", "--genre", "Lied"]).status, 0)
        XCTAssertEqual(try get(path)["composers"] as? [String], ["Bach", "J. S."], "as forScore will read it")
        XCTAssertEqual(try folio(["meta", "set", path, "--clear", "composer", "--clear", "title"]).status, 0)
        let object = try get(path)
        XCTAssertEqual(object["composers"] as? [String], [])
        XCTAssertNil(object["title"])
        XCTAssertEqual(object["genres"] as? [String], ["Lied"])
    }

    /// forScore's "Reference" has no place in Info: Folio's XMP namespace holds it, and
    /// exiftool reads it from there.
    func testReferenceIsStoredInXMPAndReadByExiftool() throws {
        let path = try copy("score.pdf")
        let set = try folio(["meta", "set", path, "--reference", "Op. 49 No. 4 — «Wiegenlied»"])
        XCTAssertEqual(set.status, 0, set.err)
        XCTAssertEqual(try get(path)["reference"] as? String, "Op. 49 No. 4 — «Wiegenlied»")
        let exif = try TestEnvironment.runTool("exiftool", ["-j", "-G1", "-XMP-folioscore:all", path])
        let object = try XCTUnwrap((try JSONSerialization.jsonObject(with: exif.stdout) as? [[String: Any]])?.first)
        XCTAssertEqual(object["XMP-folioscore:Reference"] as? String, "Op. 49 No. 4 — «Wiegenlied»", "\(object)")
        XCTAssertEqual(try folio(["meta", "set", path, "--clear", "reference"]).status, 0)
        XCTAssertNil(try get(path)["reference"])
    }

    func testOutputLeavesTheSourceAlone() throws {
        let path = try copy("score.pdf")
        let output = directory.appendingPathComponent("out.pdf").path
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(try folio(["meta", "set", path, "--title", "Wiegenlied", "--output", output]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        XCTAssertEqual(try get(output)["title"] as? String, "Wiegenlied")
    }

    func testEncryptedFileNeedsItsPassword() throws {
        let path = try copy("locked.pdf", from: try TestEnvironment.corpusFile("pypdf/encryption/r4-aes-user-password.pdf"))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try folio(["meta", "set", path, "--title", "X"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("password"), refused.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        XCTAssertEqual(try folio(["meta", "set", path, "--title", "X", "--password", "asdfzxcv"]).status, 0)
        let qpdf = try TestEnvironment.runTool("qpdf", ["--password=asdfzxcv", "--show-object=trailer", path])
        XCTAssertEqual(qpdf.status, 0)
        XCTAssertTrue(String(decoding: qpdf.stdout, as: UTF8.self).contains("/Encrypt"), "still encrypted")
    }

    func testApplyAndExport() throws {
        let untitled = try copy("Wiegenlied.pdf")
        XCTAssertEqual(try folio(["meta", "set", untitled, "--clear", "title"]).status, 0)
        let json = directory.appendingPathComponent("dict.json")
        try Data(#"{"composers": "Johannes Brahms", "rating": "5", "keysf": -1, "keymi": 0, "labels": "Gig"}"#.utf8)
            .write(to: json)
        let applied = try folio(["meta", "apply", untitled, "--from", json.path])
        XCTAssertEqual(applied.status, 0, applied.err)
        var object = try get(untitled)
        XCTAssertEqual(object["title"] as? String, "Wiegenlied", "no title anywhere: the file name, as forScore does")
        XCTAssertEqual(object["composers"] as? [String], ["Johannes Brahms"])
        XCTAssertEqual(object["labels"] as? [String], ["Gig"])
        XCTAssertEqual(object["key"] as? String, "F major")

        let exported = try folio(["meta", "export", untitled, "--format", "plist"])
        XCTAssertEqual(exported.status, 0, exported.err)
        let plist = try XCTUnwrap(try PropertyListSerialization.propertyList(from: exported.out, format: nil) as? [String: Any])
        XCTAssertEqual(plist["title"] as? String, "Wiegenlied")
        XCTAssertEqual(plist["rating"] as? Int, 5)
        XCTAssertEqual(plist["keysf"] as? Int, -1)
        XCTAssertEqual(plist["labels"] as? String, "Gig")

        // The exported dictionary applied to another file gives the same metadata.
        let other = try copy("other.pdf")
        let dictionary = directory.appendingPathComponent("exported.plist")
        try exported.out.write(to: dictionary)
        XCTAssertEqual(try folio(["meta", "apply", other, "--from", dictionary.path]).status, 0)
        object = try get(other)
        let first = try get(untitled)
        for key in ["title", "composers", "labels", "rating"] {
            XCTAssertEqual("\(object[key] ?? "")", "\(first[key] ?? "")", key)
        }
        XCTAssertEqual(object["key"] as? String, "F major")

        // A binary plist with a dictionary where a string belongs: usage error, file untouched.
        let bad = directory.appendingPathComponent("bad.plist")
        try PropertyListSerialization.data(fromPropertyList: ["title": ["nested": "x"]] as [String: Any],
                                           format: .binary, options: 0).write(to: bad)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let refused = try folio(["meta", "apply", other, "--from", bad.path])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.err.contains("'title' must be a string"), refused.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: other)), before)
    }
}
