import FolioPDF
import Foundation

/// Names for files Folio brings into a folder: only the last component of whatever path
/// came with them (never a folder, `..` or an absolute path), made a PDF name, and made
/// free ("Name 2.pdf") beside what exists and what is already planned.
///
/// ```swift
/// var names = LibraryFileName(folder: "/scores")
/// names.claim("../../etc/Autumn Leaves")   // "Autumn Leaves.pdf" (or "Autumn Leaves 2.pdf")
/// ```
public struct LibraryFileName: Sendable {
    public let folder: String
    /// Names in use, lowercased: the folder may be on a case-insensitive filesystem.
    private var taken: Set<String>

    public init(folder: String) {
        self.folder = folder
        taken = Set(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map {
            $0.precomposedStringWithCanonicalMapping.lowercased()
        })
    }

    /// The file name `path` reduces to, with a `.pdf` extension.
    public static func sanitized(_ path: String, extension wanted: String = "pdf") -> String {
        let last = PathName.components(path, separators: "/\\").last ?? ""
        var name = CatalogPath.key(CatalogPath.stripped(last).replacingOccurrences(of: ":", with: ""))
            .trimmingCharacters(in: .whitespaces)
        while name.unicodeScalars.first == "." { name.unicodeScalars.removeFirst() }
        if name.isEmpty { name = "Imported score" }
        if (name as NSString).pathExtension.lowercased() != wanted { name += "." + wanted }
        // Keep within the 255-byte limit of common filesystems.
        while name.utf8.count > 240 {
            let stem = (name as NSString).deletingPathExtension
            name = String(stem.dropLast()) + "." + wanted
        }
        return name
    }

    /// A free name for `path` in the folder, reserved for this import.
    public mutating func claim(_ path: String, extension wanted: String = "pdf") -> String {
        let name = Self.sanitized(path, extension: wanted)
        let stem = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        var candidate = name
        var number = 2
        while isTaken(candidate) {
            candidate = "\(stem) \(number).\(ext)"
            number += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }

    private func isTaken(_ name: String) -> Bool {
        taken.contains(CatalogPath.key(name).lowercased())
            || FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name))
    }

    /// Moves the file at `source` (in the same filesystem) into the folder under a free name
    /// for `path` (see ``claim(_:extension:)``), never over a file: a name another writer took
    /// meanwhile moves on to the next. Returns the name used.
    public mutating func moveIn(_ path: String, from source: String) throws -> String {
        for _ in 0..<1000 {
            let name = claim(path)
            let target = (folder as NSString).appendingPathComponent(name)
            do {
                try SafeFile.moveIn(from: source, to: target)
                return name
            } catch where FileManager.default.fileExists(atPath: target) {
                continue   // taken meanwhile by another writer; claim has reserved it, so the next is tried
            }
        }
        throw LibraryError(.io, "\(Self.sanitized(path)) and a thousand numbered names after it are taken")
    }
}
