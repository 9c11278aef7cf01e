/// File paths taken apart by their Unicode scalars, not their characters. Swift compares
/// strings by grapheme cluster, so a "/" followed by a combining mark ("/\u{301}x") is one
/// character that is not "/": `split(separator: "/")` and `hasPrefix("/")` miss it, while
/// the file system sees a separator. Every check of a path that comes from outside (a
/// request, an archive, a CSV row) goes through these.
///
/// ```swift
/// PathName.components("../\u{301}x.pdf")      // ["..", "\u{301}x.pdf"]
/// PathName.isAbsolute("/\u{301}etc")          // true
/// PathName.parent(of: "a/b/\u{301}c.pdf")     // "a/b"
/// PathName.isInside("/lib/\u{301}x", folder: "/lib")  // true
/// ```
public enum PathName {
    /// The parts between separators (`separators` are "/" alone unless told, e.g. "/\\"
    /// for names from archives written on Windows); empty parts kept when asked.
    public static func components(_ path: String, separators: String = "/", keepingEmpty: Bool = false) -> [String] {
        let separators = Set(separators.unicodeScalars)
        return path.unicodeScalars
            .split(omittingEmptySubsequences: !keepingEmpty, whereSeparator: { separators.contains($0) })
            .map { String(String.UnicodeScalarView($0)) }
    }

    /// Whether `path` starts at the root ("/", or with `windows` also "\\" and a drive "C:").
    public static func isAbsolute(_ path: String, windows: Bool = false) -> Bool {
        let scalars = Array(path.unicodeScalars.prefix(2))
        guard let first = scalars.first else { return false }
        if first == "/" { return true }
        return windows && (first == "\\" || (scalars.count == 2 && scalars[1] == ":"))
    }

    /// Whether `path` has a part that is `..` (or, with `dot`, `.`), which would lead out
    /// of the folder it is taken in.
    public static func climbs(_ path: String, separators: String = "/", dot: Bool = false) -> Bool {
        components(path, separators: separators, keepingEmpty: true).contains { $0 == ".." || (dot && $0 == ".") }
    }

    /// Whether a component of `path` is hidden (begins with "."): Folio's own `.folio` folder,
    /// save journals and staging folders are, and no path a user gives may reach them.
    ///
    /// ```swift
    /// PathName.touchesHidden(".folio/library.sqlite")   // true
    /// PathName.touchesHidden("Bach/Prelude.pdf")        // false
    /// ```
    public static func touchesHidden(_ path: String, separators: String = "/") -> Bool {
        components(path, separators: separators, keepingEmpty: false).contains { $0.hasPrefix(".") }
    }

    /// The folder part of `path`: "." for a bare name, "/" for a file at the root.
    public static func parent(of path: String) -> String {
        // By UTF-8 bytes: "/" is one byte that no other scalar's bytes contain, and the bytes
        // are cheaper to walk than scalars (every file opened asks this twice, for the names
        // of a save's journal and leftover beside it).
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == bytes.startIndex ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    }

    /// The last part of `path` (the whole of it without a separator).
    public static func lastComponent(of path: String) -> String {
        let bytes = path.utf8, slash = UInt8(ascii: "/")
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        guard end > bytes.startIndex else { return path }   // "" or only slashes
        let start = bytes[..<end].lastIndex(of: slash).map(bytes.index(after:)) ?? bytes.startIndex
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Whether the absolute `path` lies inside `folder` (byte for byte, below it).
    public static func isInside(_ path: String, folder: String) -> Bool {
        let prefix = folder.unicodeScalars.last == "/" ? folder : folder + "/"
        return path.utf8.count > prefix.utf8.count && path.utf8.starts(with: prefix.utf8)
    }
}
