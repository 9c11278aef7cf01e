import FolioLibrary
import Foundation

/// A file an option names for its first line (a password, a token), read by one rule for
/// every command: a file that is not there exits 1 as any missing file does (docs/saves.md,
/// "Exit codes"), one that is a folder, larger than 64 KiB or not UTF-8 is a bad value (64).
///
/// ```swift
/// let password = try OptionFile.firstLine(of: "~/.folio-password", option: "--password-file")
/// ```
enum OptionFile {
    /// The largest file read: a password or a token is a line.
    static let limit = 64 * 1024

    /// The first line of the file at `path` (without its line end; "" for an empty file),
    /// named as `option` in what goes wrong.
    static func firstLine(of path: String, option: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw LibraryError(.notFound, "\(option) \(path): no such file")
        }
        guard !isFolder.boolValue else { throw LibraryError(.invalidArgument, "\(option) \(path) is a folder (valid: a file)") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LibraryError(.io, "\(option) \(path) cannot be read (see its permissions)")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw LibraryError(.io, "\(option) \(path) cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= limit else { throw LibraryError(.tooLarge, "\(option) \(path) is larger than 64 KiB (valid: one line)") }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LibraryError(.invalidArgument, "\(option) \(path) is not UTF-8 text")
        }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}
