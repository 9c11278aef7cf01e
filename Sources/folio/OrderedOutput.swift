import Foundation

/// Prints results produced out of order (by parallel workers) in input order, as soon
/// as each prefix is complete, so output streams even for thousands of files.
final class OrderedOutput: @unchecked Sendable {
    // Guarded by `lock`; only touched inside `deliver`.
    private let lock = NSLock()
    private var pending: [Int: String] = [:]
    private var next = 0

    func deliver(_ index: Int, _ text: String) {
        lock.lock()
        defer { lock.unlock() }
        pending[index] = text
        var out = ""
        while let ready = pending.removeValue(forKey: next) {
            out += ready
            next += 1
        }
        if !out.isEmpty {
            FileHandle.standardOutput.write(Data(out.utf8))
        }
    }
}

/// A counter shared by workers.
final class FailureCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
