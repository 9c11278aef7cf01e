import ArgumentParser
import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

/// What the commands that write new page files (`merge`, `split`, `pages`, `make`) share:
/// opening inputs and reporting errors.
enum PageCommands {
    /// Runs `body` as the library commands do (invalid values exit 64, files that cannot be
    /// read or written exit 1).
    static func run(_ name: String, _ body: () throws -> Void) throws {
        try LibraryCommand.run(name, program: name, body)
    }

    /// Opens `path`; an encrypted file only when its decrypted copy is wanted.
    static func open(_ path: String, password: String?, decrypt: Bool) throws -> PDFDocument {
        let document: PDFDocument
        do { document = try PDFDocument(path: path, password: password) } catch let error as PDFError {
            throw LibraryError(error.code == .wrongPassword || error.code == .passwordRequired ? .invalidArgument : .io,
                               "\(path): \(error.description)")
        }
        if document.isEncrypted, !decrypt {
            throw LibraryError(.invalidArgument, "\(path) is encrypted and its pages would be written decrypted; "
                + "pass --decrypt (and --password if it needs one) to allow that")
        }
        return document
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
