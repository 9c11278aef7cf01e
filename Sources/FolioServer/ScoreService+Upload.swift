import FolioLibrary
import FolioPDF
import FolioScore
import Foundation
import Hummingbird

extension ScoreService {
    /// Adds a received file to the library folder: a PDF as it came, images and text made
    /// into a PDF, an Open In dictionary applied (see ``ScoreIntake``). The file gets the
    /// received name with `.pdf`, or "Name 2.pdf"… when that is taken — nothing is ever
    /// overwritten. Returns the catalogued score and notes about the file. 400 for a bad
    /// name or dictionary, 415 for a kind Folio does not take, 422 for a file that is not
    /// what its first bytes claim.
    public func upload(name: String, bytes: [UInt8], openIn: Data?) throws -> (score: Score, warnings: [String]) {
        let name = try Self.receivedName(name)
        guard ScoreIntake.kind(of: bytes) != nil else {
            throw HTTPError(.unsupportedMediaType, message: "\(name) is not a PDF, a JPEG or PNG image, or UTF-8/UTF-16 text")
        }
        let made: ScoreIntake.Made
        do { made = try ScoreIntake.make(name: name, bytes: bytes, openIn: openIn) } catch let error as ScoreError {
            throw HTTPError(error.code == .malformed ? .unprocessableContent : .badRequest, message: error.message)
        } catch let error as PDFError {
            throw HTTPError(.unprocessableContent, message: "\(name): \(error.message)")
        }
        let relative = try Self.mapped { try store(made) }
        refreshCatalog(relative)
        guard let entry = try Self.mapped({ try catalog.show(relative) }).first(where: { $0.bookmark == nil }) else {
            throw HTTPError(.internalServerError, message: "\(relative) was saved but not catalogued")
        }
        return (Score(entry), made.warnings)
    }

    /// Writes a new file at the library's top level under the first free name.
    private func store(_ made: ScoreIntake.Made) throws -> String {
        let base = (made.fileName as NSString).deletingPathExtension
        for number in 1...1000 {
            let name = number == 1 ? made.fileName : "\(base) \(number).pdf"
            let path = (catalog.folder as NSString).appendingPathComponent(name)
            guard !FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try SafeFile.create(at: path, bytes: made.bytes)
                return name
            } catch where FileManager.default.fileExists(atPath: path) {
                continue  // taken meanwhile by another upload
            }
        }
        throw HTTPError(.conflict, message: "\(made.fileName) and 999 numbered names after it are taken")
    }

    /// A received file's name: a plain name (no folders, not hidden), at most 200 bytes.
    static func receivedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 200, !trimmed.hasPrefix("."),
              !trimmed.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" || $0.isNewline }) else {
            throw HTTPError(.badRequest, message: "name must be a file name (no folders, not hidden, at most 200 bytes)")
        }
        return trimmed
    }
}
