import FolioPDF
import Foundation

extension SaveOptions {
    /// How a shell saves a score: by `method` (nil: automatic); when `tell` is given, each save
    /// is told to it in a line (how the file was saved, what was appended, a journal settled
    /// first). `FOLIO_TEST_KILL_AT=STAGE` in the environment ends the process at that stage of
    /// every save, which is how the crash tests interrupt a save.
    ///
    /// ```swift
    /// let options = SaveOptions.shell(method: .journal) { line in print("Ηχοι.pdf: \(line)") }
    /// ```
    public static func shell(method: SaveMethod? = nil, tell: (@Sendable (String) -> Void)? = nil) -> SaveOptions {
        var options = SaveOptions(method: method ?? .automatic)
        if let tell {
            options.onSave = { report in
                if let settled = report.settled { tell("\(settled)") }
                tell("saved by \(report), \(report.appendedBytes) bytes appended")
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
