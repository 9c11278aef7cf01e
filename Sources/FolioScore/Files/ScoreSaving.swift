import FolioPDF
import Foundation

extension SaveOptions {
    /// How a shell saves a score: by `method` (nil: automatic); when `tell` is given, each save
    /// is told to it in a line (how the file was saved, what was appended, a journal settled
    /// first). A damaged file (one read only by rebuilding its cross-reference table) is
    /// refused when `strict`, else saved and `warn` told why it is damaged.
    /// `FOLIO_TEST_KILL_AT=STAGE` in the environment ends the process at that stage of
    /// every save, which is how the crash tests interrupt a save.
    ///
    /// ```swift
    /// let options = SaveOptions.shell(method: .journal) { line in print("Ηχοι.pdf: \(line)") }
    /// ```
    public static func shell(method: SaveMethod? = nil, strict: Bool = false, tell: (@Sendable (String) -> Void)? = nil,
                             warn: (@Sendable (String) -> Void)? = nil) -> SaveOptions {
        var options = SaveOptions(method: method ?? .automatic)
        options.refuseDamaged = strict
        if tell != nil || warn != nil {
            options.onSave = { report in
                if let damage = report.damage { warn?(damage) }
                guard let tell else { return }
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
