import FolioPDF
import Foundation

/// What a Folio process that was killed can leave in a library folder, dealt with when a
/// server starts rather than when each score is next opened: a save's journal or temporary
/// copy beside a score (`.NAME.pdf.folio-journal`, `.NAME.pdf.folio-save.tmp`) is settled
/// under the score's lock — a complete save kept, a partial one cut off — or removed when its
/// score is gone; an import's staging folder (`.folio-import-…`) is removed.
///
/// ```swift
/// let report = LibraryLeftovers.clean(folder: "/scores")
/// report.settled   // ["Suite/Menuet.pdf"]
/// ```
public enum LibraryLeftovers {
    /// What was settled and removed, as paths relative to the folder.
    ///
    /// ```swift
    /// let report = LibraryLeftovers.clean(folder: "/scores")
    /// print(report.settled.count, report.removed.count)
    /// ```
    public struct Report: Sendable, Equatable {
        /// Scores whose interrupted save was settled.
        public var settled: [String] = []
        /// Leftovers removed (journals of scores that are gone, staging folders).
        public var removed: [String] = []
    }

    static let suffixes = [".folio-journal", ".folio-save.tmp"]

    /// Whether `name` (one path component) is what a save or an import makes while it runs —
    /// a journal, a temporary copy (`.NAME.pdf.folio-save.tmp`, `.NAME.pdf.folio-k3x9.tmp`),
    /// an import's staging folder — rather than a file of the library.
    static func isInFlight(_ name: String) -> Bool {
        guard name.hasPrefix(".") else { return false }
        return name.hasPrefix(".folio-import-") || name.hasSuffix(".folio-journal")
            || (name.hasSuffix(".tmp") && name.contains(".folio-"))
    }

    /// Settles and removes what interrupted saves and imports left below `folder`.
    public static func clean(folder: String) -> Report {
        var report = Report()
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return report }
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard name.hasPrefix(".") else { continue }
            let path = (folder as NSString).appendingPathComponent(relative)
            if name == ".folio" {
                walker.skipDescendants()   // the catalog's own folder keeps its own files
            } else if name.hasPrefix(".folio-import-") {
                walker.skipDescendants()
                if (try? FileManager.default.removeItem(atPath: path)) != nil { report.removed.append(relative) }
            } else if let suffix = suffixes.first(where: { name.hasSuffix($0) }), name.count > suffix.count + 1 {
                let scoreName = String(name.dropFirst().dropLast(suffix.count))
                let score = ((relative as NSString).deletingLastPathComponent as NSString).appendingPathComponent(scoreName)
                let scorePath = (folder as NSString).appendingPathComponent(score)
                if FileManager.default.fileExists(atPath: scorePath) {
                    // Taking the lock settles what is beside the file (see `SaveJournal`).
                    if (try? FileLock.withExclusiveLock(on: scorePath, timeout: 2) {}) != nil,
                       !FileManager.default.fileExists(atPath: path) {
                        report.settled.append(score)
                    }
                } else if unlink(path) == 0 {
                    report.removed.append(relative)
                }
            }
        }
        return report
    }
}
