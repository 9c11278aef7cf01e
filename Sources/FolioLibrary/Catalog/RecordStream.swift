import Foundation

/// Files read on every core in the background and handed over in their order, a batch at a
/// time, to the one thread that stores them: what a scan stands on.
///
/// Each reader takes the next file as soon as it is done with one, up to `window` files
/// ahead of what was handed over, so no core waits for the slowest file of a batch (an
/// AES-256 file's password hash costs as much as fifty plain files) and memory holds at
/// most `window` records.
///
/// ```swift
/// let stream = RecordStream(stamps: stamps, folder: "/scores", window: 2048)
/// defer { stream.stop() }
/// while case let records = stream.next(atLeast: 256, atMost: 1024), !records.isEmpty { store(records) }
/// ```
final class RecordStream: @unchecked Sendable {  // every mutable property is guarded by `condition`
    private let stamps: [FileStamp]
    private let folder: String
    private let window: Int
    private let condition = NSCondition()
    private let readers = DispatchGroup()
    /// Ring of `window` slots: file `i` is kept in slot `i % window` until it is handed over.
    private var slots: [ScoreRecord?]
    /// The next file a reader takes.
    private var taken = 0
    /// Files handed over; every file before `ready` is read.
    private var handed = 0
    private var ready = 0
    private var stopped = false

    /// Starts reading `stamps` (paths relative to `folder`) on `readers` threads.
    init(stamps: [FileStamp], folder: String, window: Int,
         readers count: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.stamps = stamps
        self.folder = folder
        self.window = max(1, window)
        slots = Array(repeating: nil, count: min(self.window, stamps.count))
        for _ in 0..<max(1, min(count, stamps.count)) {
            DispatchQueue.global(qos: .userInitiated).async(group: readers) { self.readUntilDone() }
        }
    }

    /// The next records in order: waits until `minimum` are read (fewer at the end), then
    /// hands over all that are read, up to `maximum` (and `window`); none when all are
    /// handed over. A consumer slower than the readers takes large batches, one that keeps
    /// up takes small ones, so little is left to it when the last file is read.
    func next(atLeast minimum: Int, atMost maximum: Int) -> [ScoreRecord] {
        condition.lock()
        defer { condition.unlock() }
        let minimum = min(max(1, minimum), window)
        let end = min(handed + minimum, stamps.count)
        while ready < end && !stopped { condition.wait() }
        guard !stopped else { return [] }
        let last = min(ready, handed + min(max(minimum, maximum), window))
        var records: [ScoreRecord] = []
        records.reserveCapacity(last - handed)
        for index in handed..<last {
            if let record = slots[index % window] { records.append(record) }
            slots[index % window] = nil
        }
        handed = last
        condition.broadcast()  // room in the window
        return records
    }

    /// Lets the readers finish the file each is reading and waits for them; `next` hands
    /// over nothing more.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        readers.wait()
    }

    private func readUntilDone() {
        while true {
            condition.lock()
            while !stopped && taken < stamps.count && taken >= handed + window { condition.wait() }
            guard !stopped, taken < stamps.count else {
                condition.unlock()
                return
            }
            let index = taken
            taken += 1
            condition.unlock()
            let record = Self.read(stamps[index], in: folder)
            condition.lock()
            slots[index % window] = record
            let before = ready
            while ready < taken, slots[ready % window] != nil { ready += 1 }  // taken ≤ handed + window
            if ready != before { condition.broadcast() }
            condition.unlock()
        }
    }

    /// One file's record, its fingerprint from the bytes the PDF was read from, or from the
    /// file when it could not be opened as one.
    static func read(_ stamp: FileStamp, in folder: String) -> ScoreRecord {
        let absolute = folder + "/" + stamp.path
        var record = ScoreRecord.read(stamp, absolutePath: absolute)
        if record.stamp.fingerprint.isEmpty {
            do {
                record.stamp = try stamp.withFingerprint(absolutePath: absolute)
            } catch {
                record.error = record.error ?? "cannot read: \(error.localizedDescription)"
            }
        }
        return record
    }
}
