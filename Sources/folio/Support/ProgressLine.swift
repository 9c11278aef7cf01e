import Foundation

/// A one-line progress bar on standard error: count, rate and time left.
final class ProgressLine {
    private let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(_ done: Int, of total: Int, _ item: String) {
        guard enabled, total > 0 else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let name = item.count > 40 ? "…" + item.suffix(39) : item
        let line = "\r\u{1B}[K[\(bar)] \(done)/\(total)  \(Int(rate.rounded())) files/s  ETA \(Int(left.rounded())) s  \(name)"
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
