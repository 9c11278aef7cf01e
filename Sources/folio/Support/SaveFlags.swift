import ArgumentParser
import FolioScore
import Foundation

/// How editing commands save: `--save-method` and `--verbose`.
///
/// ```
/// folio meta set big-scan.pdf --title "Mass in B minor" --save-method journal --verbose
/// ```
struct SaveFlags: ParsableArguments {
    @Option(name: .customLong("save-method"), help: """
        How a file is saved in place: auto (a clone where the filesystem shares blocks, else a journaled append for \
        files of 1 MiB or more, else a copy), clone, journal or copy. See README, "How saves work".
        """)
    var method: SaveMethod = .automatic

    @Flag(help: "Report on standard error how each file was saved.") var verbose = false

    /// The engine's options for saving `file`. `FOLIO_TEST_KILL_AT=STAGE` (a ``SaveStage``
    /// name) kills the process there: the crash tests use it.
    func options(command: String, file: String) -> SaveOptions {
        var options = SaveOptions(method: method)
        if verbose {
            options.onSave = { report in
                if let settled = report.settled { printError("folio \(command): \(file): \(settled)") }
                printError("folio \(command): \(file): saved by \(report), \(report.appendedBytes) bytes appended")
            }
        }
        if let stage = ProcessInfo.processInfo.environment["FOLIO_TEST_KILL_AT"].flatMap(SaveStage.init(rawValue:)) {
            options.stageHook = { current in
                if current == stage { kill(getpid(), SIGKILL) }
            }
        }
        return options
    }
}

extension SaveMethod: ExpressibleByArgument {}
