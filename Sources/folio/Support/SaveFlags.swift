import ArgumentParser
import FolioPDF
import FolioScore
import Foundation

/// How editing commands save: `--save-method`, `--verbose`, `--strict` and `--force`.
///
/// ```
/// folio meta set big-scan.pdf --title "Mass in B minor" --save-method journal --verbose
/// ```
struct SaveFlags: ParsableArguments {
    @Option(name: .customLong("save-method"), help: """
        How a file is saved in place: auto (a clone where the filesystem shares blocks, else a journaled append for \
        files of 1 MiB or more, else a copy), clone, journal or copy. See docs/saves.md.
        """)
    var method: SaveMethod?

    @Flag(help: "Report on standard error how each file was saved.") var verbose = false

    @Flag(help: """
        Refuse to write a damaged file (one readable only by rebuilding its cross-reference table); without it, \
        such a file is written with a warning.
        """)
    var strict = false

    @Flag(help: """
        Write a file whose mode keeps even its owner from writing it (chmod 444) when running as root, whom the \
        system lets write it; without it Folio refuses such a file as it refuses everyone else.
        """)
    var force = false

    func options(command: String, file: String) -> SaveOptions {
        let tell: @Sendable (String) -> Void = { printError("folio \(command): \(file): \($0)") }
        let warn: @Sendable (String) -> Void = {
            printError("folio \(command): warning: \(file) is damaged (\($0)); written anyway (--strict refuses damaged files)")
        }
        var options = SaveOptions.shell(method: method, strict: strict, tell: verbose ? tell : nil, warn: warn)
        options.overridesReadOnlyMode = force
        return options
    }
}

extension SaveMethod: ExpressibleByArgument {}
