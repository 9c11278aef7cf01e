import FolioTestSupport
import Foundation
import XCTest

/// Every command of the tree, as `folio --experimental-dump-help` lists it (ArgumentParser's
/// own description of the tree, so a command added later is walked too), keeps the exit-code
/// table of docs/saves.md on the lines a person gets wrong first: its help exits 0 on
/// standard output; an unknown option, a missing argument and a misspelt command word exit
/// 64 with one line in one style ("folio COMMAND: …", naming where the help is) on standard
/// error and nothing on standard output.
final class CommandTreeExitTests: CommandTestCase, @unchecked Sendable {
    /// A command of the tree: its words after `folio`, and whether it needs an argument.
    private struct Command { let path: [String]; let needsArgument: Bool; let groups: [String]; let isGroup: Bool }

    private func commands() throws -> [Command] {
        let dump = try invoke(["--experimental-dump-help"])
        let tool = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
        var found: [Command] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter { $0["commandName"] as? String != "help" }
            if subcommands.isEmpty {
                let arguments = command["arguments"] as? [[String: Any]] ?? []
                let needs = arguments.contains { ($0["isOptional"] as? Bool) == false }
                found.append(Command(path: path, needsArgument: needs, groups: [], isGroup: false))
            } else {
                // A group with a default command (toc, annot) reads an unknown word as that command's argument.
                let groups = command["defaultSubcommand"] == nil ? subcommands.compactMap { $0["commandName"] as? String } : []
                found.append(Command(path: path, needsArgument: false, groups: groups, isGroup: true))
                for sub in subcommands { if let name = sub["commandName"] as? String { walk(sub, path + [name]) } }
            }
        }
        walk(try XCTUnwrap(tool["command"] as? [String: Any]), [])
        return found
    }

    func testEveryCommandKeepsTheExitCodeTable() throws {
        let all = try commands()
        let leaves = all.filter { !$0.isGroup }
        XCTAssertGreaterThan(leaves.count, 60, "the tree as ArgumentParser lists it")
        for required in [["library", "search"], ["setlist", "export"], ["meta", "set"], ["serve"], ["members", "add"], ["undo"]] {
            XCTAssertTrue(leaves.contains { $0.path == required }, "\(required) is walked")
        }
        let folder = URL(fileURLWithPath: path("walk"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let unknown = "--hudba-ž"
        var walked = 0
        for command in leaves {
            let name = (["folio"] + command.path).joined(separator: " ")
            let help = try invoke(command.path + ["--help"], in: folder, status: 0)
            XCTAssertTrue(help.out.contains("USAGE:"), "\(name) --help: \(help.out.prefix(200))")
            XCTAssertEqual(help.err, "", "\(name) --help")

            let refused = try invoke(command.path + [unknown], in: folder, status: 64)
            XCTAssertEqual(refused.out, "", "\(name) \(unknown)")
            XCTAssertTrue(refused.err.hasPrefix("\(name): unknown option '\(unknown)'"), "\(name): \(refused.err)")
            XCTAssertTrue(refused.err.contains("\(name) --help"), "\(name) names its help: \(refused.err)")
            XCTAssertEqual(refused.err.split(separator: "\n").count, 1, "\(name): one line, not the help tree: \(refused.err)")

            if command.needsArgument {
                let missing = try invoke(command.path, in: folder, status: 64)
                XCTAssertEqual(missing.out, "", name)
                XCTAssertTrue(missing.err.hasPrefix("\(name): "), "\(name) alone: \(missing.err)")
                XCTAssertTrue(missing.err.contains("\(name) --help"), "\(name) alone: \(missing.err)")
            }
            walked += 1
        }
        // A misspelt word under every group is refused, its group's nearest commands offered.
        for group in all where !group.groups.isEmpty {
            let name = (["folio"] + group.path).joined(separator: " ")
            let word = try XCTUnwrap(group.groups.first) + "x"
            let refused = try invoke(group.path + [word], in: folder, status: 64)
            XCTAssertEqual(refused.out, "", name)
            XCTAssertTrue(refused.err.hasPrefix("\(name): '\(word)' is not a \(name) command"),
                          "\(name) \(word): \(refused.err)")
            XCTAssertTrue(refused.err.contains("did you mean '\(try XCTUnwrap(group.groups.first))'"), "\(name) \(word): \(refused.err)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no command wrote anything")
        print("walked \(walked) commands and \(all.filter { !$0.groups.isEmpty }.count) groups")
    }

    /// A negative number after an option is that option's value ("--by -90", "--page-offset -2"),
    /// never an unknown option or a missing value; a value out of range is named as such.
    func testANegativeNumberIsAnOptionsValue() throws {
        let pdf = path("Clair de lune – Лунный свет.pdf")
        try TestEnvironment.copy(atPath: TestEnvironment.repositoryRoot.appendingPathComponent("Samples/Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf").path,
                                 toPath: pdf)
        try invoke(["pages", "rotate", pdf, "--by", "-90", "--pages", "2"])
        let info = try TestEnvironment.runTool("pdfinfo", ["-f", "1", "-l", "2", pdf])
        let rotations = String(decoding: info.stdout, as: UTF8.self).split(separator: "\n").filter { $0.contains(" rot:") }
            .map { $0.split(separator: " ").last.map(String.init) ?? "" }
        XCTAssertEqual(rotations, ["0", "270"], "pdfinfo: page 2 turned a quarter anticlockwise")

        // A book whose page 1 is the PDF's page 3 less 2: "Prélude" on book page 3 is PDF page 1.
        let index = path("index.csv")
        try "title,page\nPrélude,3\nМенуэт,4\n".write(toFile: index, atomically: true, encoding: .utf8)
        try invoke(["bookmarks", "import", pdf, "--from", index, "--page-offset", "-2"])
        let listed = try invoke(["bookmarks", "list", pdf, "--json"])
        let bookmarks = (try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])?["bookmarks"] as? [[String: Any]]
        XCTAssertEqual(bookmarks?.map { "\($0["name"] ?? "") \($0["start"] ?? "")" }, ["Prélude 1", "Менуэт 2"], listed.out)

        let before = try Data(contentsOf: URL(fileURLWithPath: pdf))
        for (arguments, expected) in [(["pages", "crop", pdf, "--auto", "--margin", "-3"], "valid: 0 to 200"),
                                      (["meta", "set", pdf, "--rating", "-1"], "valid: 0 to 5"),
                                      (["bookmarks", "add", pdf, "--name", "Ária", "--page", "-4"], "valid: 1 to 4")] {
            let refused = try invoke(arguments, status: 64)
            XCTAssertTrue(refused.err.contains(expected), "\(arguments): \(refused.err)")
            XCTAssertFalse(refused.err.contains("Missing value"), "\(arguments): \(refused.err)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pdf)), before, "refused values leave the file byte-identical")
    }

    /// A command named without its group is found in the group below ("folio search" is
    /// "folio library search").
    func testACommandNamedWithoutItsGroupIsOffered() throws {
        for (arguments, expected) in [(["search", "Чайковский"], "'search' is not a folio command; did you mean 'library search'?"),
                                      (["scan"], "did you mean 'library scan'?"),
                                      (["adopt", "Widmung.pdf"], "'meta adopt'")] {
            let refused = try invoke(arguments, status: 64)
            XCTAssertTrue(refused.err.contains(expected), "\(arguments): \(refused.err)")
            XCTAssertEqual(refused.out, "")
        }
    }
}
