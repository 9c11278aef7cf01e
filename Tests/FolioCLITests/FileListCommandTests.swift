import FolioTestSupport
import Foundation
import XCTest

/// A long list of files on the command line (a shell's wildcard over a folder): every name is
/// read once, in order, whatever comes before it — flags, an option and its value, a
/// subcommand left to its default — and what is wrong with the line is said as for a short one.
final class FileListCommandTests: CommandTestCase, @unchecked Sendable {
    /// 150 copies of a score named in Czech and Greek, a damaged file among them.
    private func names() throws -> [String] {
        let score = try TestEnvironment.corpusFile("scores/Faure-Apres_un_Reve_Op_7.pdf")
        var names: [String] = []
        for index in 1...150 {
            let name = path(String(format: "Píseň %03d – Ωδή.pdf", index))
            try FileManager.default.linkItem(atPath: score, toPath: name)
            names.append(name)
        }
        let damaged = path("Πάθος – poškozený.pdf")
        try Data("%PDF-1.7\nnot a PDF at all\n".utf8).write(to: URL(fileURLWithPath: damaged))
        names.insert(damaged, at: 75)
        return names
    }

    private func paths(_ jsonLines: String) throws -> [String] {
        try jsonLines.split(separator: "\n").map {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            return try XCTUnwrap(object["path"] as? String)
        }
    }

    func testEveryNameIsReadOnceInOrder() throws {
        let names = try names()
        let alone = try invoke(["info", "--json", names[3]]).out
        for (arguments, expected) in [(["info", "--json"], Int32(1)), (["info", "--json", "--password", "tajné"], 1),
                                      (["annot", "--json"], 1), (["annot", "list", "--json"], 1),
                                      (["meta", "get", "--json"], 1), (["toc", "--json"], 1),
                                      (["bookmarks", "list", "--json"], 1)] {
            let result = try invoke(arguments + names, status: expected)
            XCTAssertEqual(try paths(result.out), names, arguments.joined(separator: " "))
            if arguments.first == "info" { XCTAssertEqual(result.out.split(separator: "\n")[3] + "\n", Substring(alone)) }
        }
        // Flags after the names: the line is parsed as it always was.
        XCTAssertEqual(try paths(try invoke(["info"] + names + ["--json"], status: 1).out), names)
    }

    func testALineThatIsWrongIsRefusedAsAShortOneIs() throws {
        let names = try names()
        for (arguments, message) in [(["annot", "list", "--page", "0"], "page 0 is out of range (valid: 1 or more)"),
                                     (["info", "--strange"], "unknown option '--strange'"),
                                     (["bookmarks", "list", "--store", "csv", "--index", path("rejstřík.csv")],
                                      "--index takes exactly one FILE")] {
            let long = try invoke(arguments + names, status: 64)
            let short = try invoke(arguments + Array(names.prefix(2)), status: 64)
            XCTAssertTrue(long.err.contains(message), long.err)
            XCTAssertEqual(long.err.components(separatedBy: "\n").first, short.err.components(separatedBy: "\n").first)
            XCTAssertEqual(long.out, "")
        }
    }
}
