/// How an incremental save puts its update after the original bytes.
///
/// ```swift
/// var options = SaveOptions()
/// options.method = .journal        // append in place, crash-safe through a journal
/// try PDFSaver.update(path: "big-scan.pdf", save: options) { try $0.setInfo("Title", to: "Mass in B minor") }
/// ```
public enum SaveMethod: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Clone where the filesystem shares blocks; else the journal for files of at least
    /// ``SaveOptions/journalThreshold`` bytes saved in place; else copy.
    case automatic = "auto"
    /// A temporary file that shares the original's blocks (`FICLONE` on Linux, `clonefile`
    /// on Apple platforms), the update appended, fsync, rename. O(change).
    case clone
    /// The update appended to the file itself, the original length recorded first in a
    /// journal beside it so that an interrupted save is rolled back. O(change).
    case journal
    /// A temporary copy of the whole file, the update appended, fsync, rename. O(file).
    case copy

    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .clone: "clone and rename"
        case .journal: "journaled append in place"
        case .copy: "copy and rename"
        }
    }
}

/// The points of a save at which tests stop it (kill it, or throw), in the order they
/// are reached. The copy and clone paths pass `created`, `copied`, `appendedHalf`,
/// `appended`, `synced`, `renamed`; the journal path `journalWritten`, `appendedHalf`,
/// `appended`, `synced`, `journalRemoved`.
///
/// ```swift
/// var options = SaveOptions()
/// options.stageHook = { stage in   // a test: the save fails half-way through its append
///     if stage == .appendedHalf { throw PDFError(.io, "disk removed") }
/// }
/// ```
public enum SaveStage: String, Sendable, CaseIterable {
    /// The temporary file exists (empty, or already a clone).
    case created
    /// The original bytes are in the temporary file.
    case copied
    /// Half of the update is written.
    case appendedHalf = "appended-half"
    /// The whole update is written, not yet synced.
    case appended
    /// The update is on disk; the temporary file not yet renamed, or the journal not yet removed.
    case synced
    /// The temporary file replaced the target; the folder is not yet synced.
    case renamed
    /// The journal is on disk; the file is not yet touched.
    case journalWritten = "journal-written"
    /// The journal is removed: the save is complete.
    case journalRemoved = "journal-removed"
}

/// What a save did: the method it used, and why it did not use a cheaper one.
///
/// ```swift
/// let report = try PDFSaver.saveIncrementally(document)
/// print(report)   // "journaled append in place (no block sharing here: Operation not supported)"
/// ```
public struct SaveReport: Sendable, CustomStringConvertible {
    /// The method that wrote the file (never `.automatic`); nil when nothing was written.
    public let method: SaveMethod?
    /// Why a cheaper method was not used, when one was tried or ruled out.
    public let fallbackReason: String?
    /// Bytes written after the original (0 for a save without changes).
    public let appendedBytes: Int
    /// What taking the file's lock found of an earlier, interrupted save and did about it.
    public internal(set) var settled: SaveJournal.Outcome?
    /// The target's size and modification time right after the save, still under its lock.
    public internal(set) var written: FileStatus?
    /// The document's ``PDFDocument/damage`` when it was written although damaged.
    public internal(set) var damage: String?

    public init(method: SaveMethod?, fallbackReason: String?, appendedBytes: Int, settled: SaveJournal.Outcome? = nil) {
        self.method = method
        self.fallbackReason = fallbackReason
        self.appendedBytes = appendedBytes
        self.settled = settled
    }

    public var description: String {
        (method?.description ?? "not written") + (fallbackReason.map { " (\($0))" } ?? "")
    }
}

/// Choices for one save.
///
/// ```swift
/// var options = SaveOptions()
/// options.journalThreshold = 1 << 20
/// options.onSave = { report in print("saved by \(report)") }
/// ```
public struct SaveOptions: Sendable {
    /// The method; `.automatic` picks the cheapest safe one.
    public var method: SaveMethod
    /// In automatic mode, files smaller than this are copied rather than journaled when
    /// they cannot be cloned: below it a copy costs no more than the journal's extra
    /// syncs, and other applications never see a half-written file.
    public var journalThreshold: Int
    /// Called after each save with what it did (for `--verbose`).
    public var onSave: (@Sendable (SaveReport) -> Void)?
    /// Called at each stage; a throw there makes the save fail as an I/O error would.
    /// For tests of the crash and failure paths.
    public var stageHook: (@Sendable (SaveStage) throws -> Void)?
    /// Whether a damaged document (``PDFDocument/damage``) is refused instead of saved:
    /// the save fails with ``PDFError/Code/damaged`` and nothing is written.
    public var refuseDamaged = false
    /// Whether a file (or folder) without its owner's write bit is written anyway when the
    /// process runs as root, whom the system lets write it (`folio … --force`). Other users
    /// are refused by the system regardless. See ``SafeFile/requireWritable(_:overridingMode:)``.
    public var overridesReadOnlyMode = false

    /// The default threshold, 1 MiB: where a copy and fsync costs what the journal's three
    /// syncs cost on a local disk (Benchmarks/save.sh; see docs/saves.md).
    public static let defaultJournalThreshold = 1 << 20

    public init(method: SaveMethod = .automatic, journalThreshold: Int = SaveOptions.defaultJournalThreshold) {
        self.method = method
        self.journalThreshold = journalThreshold
    }
}
