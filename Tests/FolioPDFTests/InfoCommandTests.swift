import Foundation
import XCTest

/// `folio info` as a user runs it.
final class InfoCommandTests: XCTestCase {
    private func folio(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, timeout: 300)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func testTextOutputOfAScore() throws {
        let path = TestEnvironment.corpusFile("scores/Faure-Apres_un_Reve_Op_7.pdf")
        let qpdf = try TestEnvironment.runTool("qpdf", ["--show-npages", path])
        let pages = String(decoding: qpdf.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try folio(["info", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("Pages:       \(pages)\n"), result.out)
        XCTAssertTrue(result.out.contains("Title:       Après un Rêve\n"), result.out)
        XCTAssertTrue(result.out.contains("Encrypted:   no\n"))
    }

    func testJSONKeysAndNulls() throws {
        let path = TestEnvironment.corpusFile("scores/Brahms-Cancion_de_Cuna.pdf")
        let result = try folio(["info", "--json", path])
        XCTAssertEqual(result.status, 0)
        let object = try XCTUnwrap(try jsonLines(result.out).first)
        XCTAssertEqual(Set(object.keys), ["path", "version", "pages", "encrypted", "title", "author", "subject", "keywords",
                                          "creator", "producer", "created", "modified", "xmp", "outlines", "warnings"])
        XCTAssertTrue(object["author"] is NSNull, "absent fields are null")
        XCTAssertEqual(object["path"] as? String, path)
        XCTAssertEqual(object["xmp"] as? Bool, true)
    }

    func testUnreadableFileGivesErrorLineAndExitOne() throws {
        let good = TestEnvironment.corpusFile("scores/Brahms-Cancion_de_Cuna.pdf")
        let result = try folio(["info", "--json", "/nonexistent/file.pdf", good,
                                TestEnvironment.corpusFile("pypdf/encryption/r2-user-password.pdf")])
        XCTAssertEqual(result.status, 1)
        let lines = try jsonLines(result.out)
        XCTAssertEqual(lines.count, 3)
        XCTAssertNotNil(lines[0]["error"] as? String)
        XCTAssertNil(lines[1]["error"])
        XCTAssertTrue((lines[2]["error"] as? String)?.contains("password") == true)
    }

    func testPasswordOption() throws {
        let path = TestEnvironment.corpusFile("pypdf/encryption/r4-aes-user-password.pdf")
        let result = try folio(["info", "--json", "--password", "asdfzxcv", path])
        XCTAssertEqual(result.status, 0, result.out)
        XCTAssertEqual(try jsonLines(result.out).first?["encrypted"] as? Bool, true)
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
        let lines = try jsonLines(result.out)
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
        try FileManager.default.copyItem(atPath: TestEnvironment.corpusFile("scores/Faure-Apres_un_Reve_Op_7.pdf"), toPath: path)
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
        XCTAssertEqual((object["key"] as? [String: Any])?["name"] as? String, "C minor")
        XCTAssertEqual((object["warnings"] as? [String])?.count, 1)
        XCTAssertTrue(object["difficulty"] is NSNull)
        XCTAssertEqual(object["title"] as? String, "Après un Rêve")
    }
}
