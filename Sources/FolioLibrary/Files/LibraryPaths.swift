import FolioPDF
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The files a request may reach: only those inside the library folder. A relative path
/// with `..`, `.`, a hidden component (`.folio/library.sqlite`, a save's journal), an
/// absolute path, a NUL byte, or a symbolic link that leads out of the folder resolves to
/// nothing (the server answers 404).
///
/// ```swift
/// let paths = try LibraryPaths(folder: "Samples")
/// paths.resolve("Bach/Prelude.pdf")   // "/home/me/Samples/Bach/Prelude.pdf"
/// paths.resolve("../etc/passwd")      // nil
/// ```
public struct LibraryPaths: Sendable {
    /// The folder with every symbolic link resolved.
    public let root: String

    public init(folder: String) throws {
        guard let real = Self.realPath(folder) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: folder])
        }
        root = real
    }

    /// The real absolute path of an existing file `relative` to the library, or nil when it
    /// does not exist or lies outside the library.
    public func resolve(_ relative: String) -> String? {
        guard !relative.isEmpty, relative.utf8.count < 4096, !PathName.isAbsolute(relative), !relative.utf8.contains(0),
              !PathName.climbs(relative, dot: true), !PathName.touchesHidden(relative)
        else { return nil }
        guard let real = Self.realPath(root + "/" + relative), PathName.isInside(real, folder: root) else { return nil }
        return real
    }

    /// The path inside the library of an existing file given by any path (the inverse of
    /// ``resolve(_:)``), or nil when it lies outside the library.
    ///
    /// ```swift
    /// paths.relative("/home/me/Samples/Bach/Prelude.pdf")   // "Bach/Prelude.pdf"
    /// ```
    public func relative(_ path: String) -> String? {
        guard let real = Self.realPath(path), PathName.isInside(real, folder: root), real.count > root.count else { return nil }
        return String(real.dropFirst(root.hasSuffix("/") ? root.count : root.count + 1))
    }

    /// The path from folder `from` to folder `to`, both with their links resolved as the
    /// library's root is, ending in "/" ("" for the same folder, "../Scores/" for a sibling):
    /// `prefix + path` finds a library file from `from`.
    ///
    /// ```swift
    /// LibraryPaths.prefix(from: "/home/me/Export", to: "/home/me/Noty – 楽譜")   // "../Noty – 楽譜/"
    /// ```
    public static func prefix(from: String, to: String) -> String {
        func components(_ path: String) -> [String] {
            PathName.components(realPath(path) ?? URL(fileURLWithPath: path).standardizedFileURL.path, keepingEmpty: false)
        }
        let base = components(from), target = components(to)
        var common = 0
        while common < base.count, common < target.count, base[common] == target[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        return parts.isEmpty ? "" : parts.joined(separator: "/") + "/"
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
