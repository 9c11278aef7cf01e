#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// An advisory lock (flock) that keeps two Folio writers from interleaving on one file.
///
/// Saves replace the file by rename, so the lock is taken on the file as it is when
/// the lock is granted: a writer that waited re-checks that the path still names the
/// file it locked, and otherwise locks the new one. It then reads what the first writer
/// wrote, so both edits land, one after the other.
///
/// Whoever holds the lock is the only writer, so taking it is also when what a killed
/// save left beside the file (a journal, a temporary file) is settled.
///
/// ```swift
/// try FileLock.withExclusiveLock(on: "score.pdf") { /* open, edit, save */ }
/// ```
public enum FileLock {
    public static func withExclusiveLock<T>(on path: String, timeout: TimeInterval = 10,
                                            _ body: () throws -> T) throws -> T {
        try withExclusiveLock(on: path, timeout: timeout) { _ in try body() }
    }

    /// Locks `path`, settles what an interrupted save left beside it (see
    /// ``SaveJournal``) and runs `body` with what that did.
    static func withExclusiveLock<T>(on path: String, timeout: TimeInterval,
                                     _ body: (SaveJournal.Outcome?) throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw PDFError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    throw PDFError(.io, "cannot lock \(path): \(String(cString: strerror(errno)))")
                }
                guard Date() < deadline else {
                    throw PDFError(.io, "\(path) is locked by another writer (waited \(Int(timeout)) s)")
                }
                usleep(10_000)
            }
            if SafeFile.pathNamesFile(path, fd) {
                return try body(try SafeFile.settleLeftovers(of: path))
            }
            // Replaced while we waited: lock the new file.
        }
    }
}
