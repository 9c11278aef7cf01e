import FolioPDF
import Foundation

/// A file an export or a new-file operation writes — a CSV index, a 4SS setlist, a
/// setlist's PDF, a 4SC, a piece split from an anthology — written whole through the
/// engine's safe path (a temporary file, fsync, rename), so a failed write leaves what was
/// there; a failure is a ``LibraryError`` (`io`) naming the path.
///
/// ```swift
/// try ExportFile.write(Array(csv.utf8), to: "Zpěvník.csv")              // replaces an older export
/// try ExportFile.create(pieceBytes, at: "Dvořák – Humoreska.pdf")        // never over an existing file
/// ```
public enum ExportFile {
    /// Writes `bytes` to `path`, replacing a file there.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try named(path) { try SafeFile.write(to: path, bytes: bytes) }
    }

    /// Writes `bytes` to a new file at `path`; refused when something is there.
    public static func create(_ bytes: [UInt8], at path: String) throws {
        try named(path) { try SafeFile.create(at: path, bytes: bytes) }
    }

    private static func named(_ path: String, _ body: () throws -> Void) throws {
        do { try body() } catch {
            let reason = (error as? PDFError)?.description ?? error.localizedDescription
            throw LibraryError(.io, "cannot write \(path): \(reason)")
        }
    }
}
