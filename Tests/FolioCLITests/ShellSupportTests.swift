import FolioTestSupport
import Foundation
import XCTest

/// `Scripts/install-shell-support` installs completions for bash, zsh and fish where each shell
/// looks for them, and each is a script its shell parses, naming folio's commands and options.
/// (The man pages come from swift-argument-parser's plugin, which builds folio again in debug:
/// too slow for every run; the script's `--completions-only` leaves them out.)
final class ShellSupportTests: CommandTestCase, @unchecked Sendable {
    func testCompletionsAreInstalledAndParse() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        guard FileManager.default.isExecutableFile(atPath: repository.appendingPathComponent(".build/release/folio").path) else {
            throw XCTSkip("the script installs from .build/release/folio, which this build did not make")
        }
        let prefix = path("přípona – префикс")
        let run = try TestEnvironment.runTool("bash", [repository.appendingPathComponent("Scripts/install-shell-support").path,
                                                       prefix, "--completions-only"])
        let out = String(decoding: run.stdout, as: UTF8.self)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        let installed = ["bash": "share/bash-completion/completions/folio", "zsh": "share/zsh/site-functions/_folio",
                         "fish": "share/fish/vendor_completions.d/folio.fish"]
        for (shell, relative) in installed {
            let file = prefix + "/" + relative
            XCTAssertTrue(out.contains("\(shell) completion: \(file)"), out)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            XCTAssertTrue(text.contains("meta") && text.contains("rating") && text.contains("dry-run"), "\(shell) lacks commands")
        }
        let parsed = try TestEnvironment.runTool("bash", ["-n", prefix + "/" + (installed["bash"] ?? "")])
        XCTAssertEqual(parsed.status, 0, String(decoding: parsed.stderr, as: UTF8.self))
        // bash offers folio's commands after `folio `, as a user pressing Tab sees them.
        let offered = try TestEnvironment.runTool("bash", ["-c", """
            source "$1"; COMP_WORDS=(folio me); COMP_CWORD=1; COMP_LINE="folio me"; COMP_POINT=8
            _folio; printf '%s\\n' "${COMPREPLY[@]}"
            """, "bash", prefix + "/" + (installed["bash"] ?? "")])
        let words = Set(String(decoding: offered.stdout, as: UTF8.self).split(separator: "\n").map(String.init))
        XCTAssertTrue(words.isSuperset(of: ["meta", "merge", "setlist", "library"]), "\(words.sorted())")
    }
}
