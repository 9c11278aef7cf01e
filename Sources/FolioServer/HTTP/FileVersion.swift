import FolioPDF
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A file's version as an HTTP entity tag: its size and modification time. Every save
/// Folio makes changes both (an incremental update appends; the rename gives a new
/// time), so an edit based on an older view is recognised and refused with 409.
///
/// ```swift
/// let tag = FileVersion.tag(of: "/lib/score.pdf")   // "\"1843-1700000000123456789\""
/// ```
public enum FileVersion {
    public static func tag(of path: String) -> String? {
        FileStatus(path: path).map(tag(of:))
    }

    /// The tag of what `fstat` or `stat` said of a file.
    static func tag(of info: stat) -> String {
        tag(of: FileStatus(info))
    }

    /// The tag of a file's status, as a save reports it.
    static func tag(of status: FileStatus) -> String {
        "\"\(status.size)-\(status.modified)\""
    }

    /// Whether `If-None-Match` names `tag`: `*`, or a list of tags, weak ones compared
    /// weakly as RFC 9110 §13.1.2 says.
    static func matches(ifNoneMatch header: String?, tag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            let item = item.trimmingCharacters(in: .whitespaces)
            return item == "*" || item == tag || item == "W/" + tag
        }
    }
}
