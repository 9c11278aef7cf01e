import Foundation

/// Prints results produced out of order (by parallel workers) in input order, as soon
/// as each prefix is complete, so output streams even for thousands of files.
final class OrderedOutput: @unchecked Sendable {
    // Guarded by `lock`; only touched inside `deliver`.
    private let lock = NSLock()
    private var pending: [Int: Printed] = [:]
    private var next = 0

    func deliver(_ index: Int, _ text: Printed) {
        lock.lock()
        defer { lock.unlock() }
        pending[index] = text
        while let ready = pending.removeValue(forKey: next) {
            ready.write()
            next += 1
        }
    }
}

/// One file's output as UTF-8 pieces written one after another: a text, or the pieces a
/// writer made side by side (a listing of megabytes is printed from its own buffers, with
/// no joined copy of it).
struct Printed: Sendable {
    private var pieces: [[UInt8]] = []
    private var text = ""

    /// Pieces below this size are gathered into one, so a page's comma is no write of its own.
    private static let smallPiece = 64 * 1024

    init() {}

    init(_ text: String) {
        self.text = text
    }

    /// Adds `bytes`, UTF-8, after what is there.
    mutating func append(_ bytes: [UInt8]) {
        if bytes.count >= Self.smallPiece || pieces.last.map({ $0.count >= Self.smallPiece }) ?? true {
            pieces.append(bytes)
        } else {
            pieces[pieces.count - 1].append(contentsOf: bytes)
        }
    }

    /// Writes it to standard output from its own bytes; a failure (a closed pipe: the
    /// reader is gone) is not reported.
    func write() {
        var text = self.text
        if !text.isEmpty { text.withUTF8 { try? FileHandle.standardOutput.write(contentsOf: UnsafeRawBufferPointer($0)) } }
        for piece in pieces {
            piece.withUnsafeBytes { try? FileHandle.standardOutput.write(contentsOf: $0) }
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
        run(files, command: command, json: json) { index, path in Printed(try render(index, path)) }
    }

    /// The same, for output made in pieces (see ``Printed``).
    static func run(_ files: [String], command: String, json: Bool,
                    render: @escaping @Sendable (Int, String) throws -> Printed) -> Bool {
        let output = OrderedOutput()
        let failures = FailureCount()
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let path = files[index]
            let text: Printed
            do {
                text = try render(index, path)
            } catch {
                failures.increment()
                let message = CommandError.describe(error)
                printError("folio \(command): \(path): \(message)")
                text = Printed(json ? InfoFormat.json(path: path, error: message) : "")
            }
            output.deliver(index, text)
        }
        return failures.count == 0
    }
}
