import Foundation

/// What the file system says of a file: its size and its modification time in
/// nanoseconds. A save reports it as taken right after writing, under the file's lock, so
/// a caller can name the version it saved (the server's ETag) without looking again —
/// when another writer may already have followed.
///
/// ```swift
/// let (_, report) = try PDFSaver.updateReporting(path: "Janáček - Sinfonietta.pdf") { document in
///     try document.setInfo("Title", to: "Sinfonietta")
/// }
/// report.written?.size   // the file's size after this save
/// ```
public struct FileStatus: Sendable, Hashable {
    public let size: Int
    /// Nanoseconds since 1970.
    public let modified: Int64

    public init(size: Int, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    /// What `stat` says of `path` now; nil when it cannot be read.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The status in a `stat` or `fstat` answer.
    public init(_ info: stat) {
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        self.init(size: Int(info.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}
