import Foundation

/// The server's memory of its own saves, per file, so the last change can be undone:
/// every save is an incremental update, so the file before it is its first
/// `lengthBefore` bytes. Kept in memory only: a restart forgets it (the file keeps every
/// revision anyway).
///
/// ```swift
/// let log = UndoLog()
/// log.push(.init(lengthBefore: 1843, versionBefore: old, versionAfter: new, change: "Added a Square"), for: path)
/// log.last(for: path)?.change   // "Added a Square"
/// ```
final class UndoLog: @unchecked Sendable {
    struct Step: Sendable, Equatable {
        let lengthBefore: Int
        /// The version the change was made to.
        let versionBefore: String
        /// The file's version right after the save; undo is refused once it changed.
        var versionAfter: String
        /// What the change did, for the button's label ("Added a Square").
        let change: String
    }

    /// Steps kept per file; older ones are forgotten.
    static let depth = 50

    private let lock = NSLock()
    private var steps: [String: [Step]] = [:]

    func push(_ step: Step, for path: String) {
        lock.withLock {
            var list = steps[path] ?? []
            list.append(step)
            if list.count > Self.depth { list.removeFirst(list.count - Self.depth) }
            steps[path] = list
        }
    }

    func last(for path: String) -> Step? {
        lock.withLock { steps[path]?.last }
    }

    /// Forgets `step` once undone, leaving the file at `version`: the bytes it had before
    /// that step. The step before becomes undoable at `version` when that step's save is
    /// exactly what `step` started from (no other writer came in between).
    func undone(_ step: Step, version: String, for path: String) {
        lock.withLock {
            guard var list = steps[path], list.last == step else { return }
            list.removeLast()
            if let previous = list.last, previous.versionAfter == step.versionBefore {
                list[list.count - 1].versionAfter = version
            } else {
                list.removeAll()
            }
            steps[path] = list
        }
    }
}
