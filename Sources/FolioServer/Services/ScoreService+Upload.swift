import FolioLibrary
import FolioPDF
import FolioScore
import Foundation

extension ScoreService {
    /// Adds a received file, already written whole to `file` (see ``UploadSpool``), to the
    /// library folder: a PDF as it came, images and text made into a PDF, an Open In
    /// dictionary applied (see `ScoreIntake`). The file is moved in under the received name
    /// with `.pdf`, or "Name 2.pdf"… when that name is taken in any Unicode form or case —
    /// nothing is ever overwritten. Returns the catalogued score and notes about the file.
    /// 400 for a bad name or dictionary, 415 for a kind Folio does not take, 422 for a file
    /// that is not what its first bytes claim, 413 past the limits.
    public func upload(name: String, file: String, openIn: Data?) throws -> (score: Score, warnings: [String]) {
        let name = try Self.receivedName(name)
        guard (try? ScoreIntake.kind(ofFile: file)) ?? nil != nil else {
            throw ServiceError(.unsupportedKind, "\(name) is not a PDF, a JPEG or PNG image, or UTF-8/UTF-16 text")
        }
        let settled = try Self.mapped {
            do {
                return try ScoreIntake.settle(file: file, name: name, openIn: openIn, readOptions: work.readOptions())
            } catch let error as ScoreError where error.code == .malformed {
                throw ServiceError(.unreadable, error.message)
            } catch let error as ScoreError where error.code == .limitExceeded {
                throw ServiceError(.tooLarge, error.message)
            } catch let error as PDFError {
                throw ServiceError(.unreadable, "\(name): \(error.message)")
            }
        }
        var names = LibraryFileName(folder: catalog.folder)
        let relative = try Self.mapped { try names.moveIn(settled.fileName, from: file) }
        refreshCatalog(relative)
        guard let entry = try Self.mapped({ try catalog.show(relative) }).first(where: { $0.bookmark == nil }) else {
            throw ServiceError(.internal, "\(relative) was saved but not catalogued")
        }
        return (Score(entry), settled.warnings)
    }

    /// A received file's name in composed form (NFC): a plain name (no folders, not hidden),
    /// at most 200 bytes, without control characters (tabs, line ends) or bidirectional
    /// overrides, which can make a name look like another.
    static func receivedName(_ name: String) throws -> String {
        let trimmed = CatalogPath.key(name.trimmingCharacters(in: .whitespaces))
        if let refusal = CatalogPath.refusal(ofFileName: trimmed) {
            throw ServiceError(.invalidValue, "name: \(refusal)")
        }
        guard !trimmed.isEmpty, trimmed.utf8.count <= 200, !trimmed.hasPrefix("."),
              !trimmed.contains(where: { $0 == "/" || $0 == "\\" }) else {
            throw ServiceError(.invalidValue, "name must be a file name (no folders, not hidden, at most 200 bytes)")
        }
        return trimmed
    }
}
