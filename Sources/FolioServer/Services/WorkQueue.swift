import FolioLibrary
import FolioScore
import Dispatch
import Foundation

/// Where the server's heavy work runs — typesetting and checking uploads, page tools such as
/// auto-crop, merged setlists, forScore containers: off the threads that answer requests, at
/// most ``slots`` pieces at once (one per core by default), with at most ``waiting`` more
/// queued in order. Past that a request is turned away at once with 503 and `Retry-After`,
/// so a burst of uploads cannot take every core or a thread each. Each piece also gets a
/// time budget through `readOptions` (see `deadline`).
///
/// ```swift
/// let queue = WorkQueue(slots: 2, waiting: 16, seconds: 20)
/// let pages = try await queue.run { ScorePages.count(of: try ScoreFile(path).open(limits: queue.readOptions())) }
/// ```
public final class WorkQueue: Sendable {
    public let slots: Int
    public let waiting: Int
    /// Seconds of work a piece may take before reading the PDF fails.
    public let seconds: Double
    /// What it runs, as its 503 says ("heavy work", "password checks").
    public let work: String
    private let gate: Gate

    public init(slots: Int = max(1, ProcessInfo.processInfo.activeProcessorCount), waiting: Int = 16, seconds: Double = 20,
                work: String = "heavy work") {
        self.work = work
        self.slots = max(1, slots)
        self.waiting = max(0, waiting)
        self.seconds = seconds
        gate = Gate(slots: self.slots, waiting: self.waiting)
    }

    /// The limits a piece of work reads PDFs with: the server's
    /// (`ScoreFile.serverLimits(seconds:)`), its time budget starting now.
    public func readOptions() -> ReadLimits {
        ScoreFile.serverLimits(seconds: seconds)
    }

    /// Runs `body` on a worker thread once a slot is free; 503 when the queue is full.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard await gate.enter() else {
            throw LibraryError(.busy, "the server is busy with other \(work) (\(slots) running, \(waiting) waiting); try again shortly",
                               retryAfter: 2)
        }
        // The member acting goes along to the worker thread (a task-local does not cross
        // Dispatch by itself), so the edit path checks their rights there too.
        let member = MemberContext.current
        let result: Result<T, any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { try MemberContext.$current.withValue(member) { try body() } })
            }
        }
        await gate.leave()
        return try result.get()
    }

    /// Pieces running and waiting now.
    public func load() async -> (running: Int, waiting: Int) {
        await gate.load()
    }

    private actor Gate {
        let slots: Int
        let capacity: Int
        var running = 0
        var queue: [CheckedContinuation<Void, Never>] = []

        init(slots: Int, waiting: Int) {
            self.slots = slots
            capacity = waiting
        }

        func enter() async -> Bool {
            if running < slots {
                running += 1
                return true
            }
            guard queue.count < capacity else { return false }
            await withCheckedContinuation { queue.append($0) }
            return true   // the slot was handed over by leave()
        }

        func leave() {
            if queue.isEmpty {
                running -= 1
            } else {
                queue.removeFirst().resume()
            }
        }

        func load() -> (running: Int, waiting: Int) { (running, queue.count) }
    }
}
