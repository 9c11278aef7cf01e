import FolioPDF
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A file's version: its size and modification time, written as an HTTP entity tag. Every
/// save Folio makes changes both (an incremental update appends; the rename gives a new
/// time), so an edit based on an older view is recognised and refused (a conflict).
///
/// ```swift
/// let tag = FileVersion.tag(of: "/lib/score.pdf")   // "\"1843-1700000000123456789\""
/// ```
public enum FileVersion {
    public static func tag(of path: String) -> String? {
        FileStatus(path: path).map(tag(of:))
    }

    /// The tag of what `fstat` or `stat` said of a file.
    public static func tag(of info: stat) -> String {
        tag(of: FileStatus(info))
    }

    /// The tag of a file's status, as a save reports it.
    public static func tag(of status: FileStatus) -> String {
        "\"\(status.size)-\(status.modified)\""
    }
}
