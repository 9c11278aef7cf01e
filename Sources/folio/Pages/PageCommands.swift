import ArgumentParser
import FolioLibrary
import FolioScore
import Foundation

/// What the commands that write new page files (`merge`, `split`, `pages`, `make`) share:
/// reporting errors and writing new files.
enum PageCommands {
    /// Runs `body` as the library commands do (invalid values exit 64, files that cannot be
    /// read or written exit 1).
    static func run(_ name: String, _ body: () throws -> Void) throws {
        try LibraryCommand.run(name, program: name, body)
    }

    /// Writes a new file (never over an existing one); a failure exits 1.
    static func create(_ path: String, bytes: [UInt8]) throws {
        try ExportFile.create(bytes, at: path)
    }

    /// Refuses an output that exists, before any work.
    static func checkFree(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) {
            throw LibraryError(.invalidArgument, "\(path) exists; Folio never overwrites it (choose another name)")
        }
    }
}
