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
        while var ready = pending.removeValue(forKey: next) {
            // Written from the text's own bytes (a file's listing may be megabytes); a failure
            // (a closed pipe: the reader is gone) is not reported.
            ready.withUTF8 { try? FileHandle.standardOutput.write(contentsOf: UnsafeRawBufferPointer($0)) }
            next += 1
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

/// Reads many files on all cores and prints one block (or JSON line) per file, in
/// argument order; a file that fails gets an error block instead.
enum FileBatch {
    /// Returns true when every file rendered; `render` gets the index and the path. A file that
    /// fails is reported on standard error as `folio COMMAND: FILE: why`; with `json` its line
    /// `{"path","error"}` also keeps its place on standard output.
    static func run(_ files: [String], command: String, json: Bool,
                    render: @escaping @Sendable (Int, String) throws -> String) -> Bool {
        let output = OrderedOutput()
        let failures = FailureCount()
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let path = files[index]
            let text: String
            do {
                text = try render(index, path)
            } catch {
                failures.increment()
                let message = CommandError.describe(error)
                printError("folio \(command): \(path): \(message)")
                text = json ? InfoFormat.json(path: path, error: message) : ""
            }
            output.deliver(index, text)
        }
        return failures.count == 0
    }
}
