import Foundation
import XCTest

/// Where tests find the shared corpus of real PDFs (`$FOLIO_CORPUS`, else `../shared/corpus`
/// beside the repository), for the tests that read it. A user's clone has no corpus beside it:
/// those tests are then skipped, and the first of them says once, on standard error, where the
/// corpus was looked for and how to point `FOLIO_CORPUS` at one. With `FOLIO_REQUIRE_CORPUS=1`
/// (CI sets it) a missing corpus is a failure instead, so CI never skips them.
///
/// ```swift
/// let scores = try SharedCorpus.folder().appendingPathComponent("scores")
/// ```
public enum SharedCorpus {
    /// The repository root (two levels above this file's folder).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where the corpus is looked for.
    public static let location: URL = {
        if let path = ProcessInfo.processInfo.environment["FOLIO_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    /// Whether a missing corpus fails the tests that need it (`FOLIO_REQUIRE_CORPUS=1`).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["FOLIO_REQUIRE_CORPUS"] == "1" }

    /// The corpus folder; throws `XCTSkip` when it is absent (or a failure when it is required).
    public static func folder() throws -> URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: location.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return location
        }
        if isRequired {
            throw Missing(description: "the shared corpus is required (FOLIO_REQUIRE_CORPUS=1) but not at \(location.path)")
        }
        announceOnce()
        throw XCTSkip("no shared corpus at \(location.path) (set FOLIO_CORPUS to a corpus to run this test)")
    }

    /// A file of the corpus, by its path inside it.
    public static func file(_ relative: String) throws -> String {
        try folder().appendingPathComponent(relative).path
    }

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    private static let announcement: Void = {
        FileHandle.standardError.write(Data("""
            note: no shared corpus at \(location.path): the tests that read real PDFs from it are skipped; \
            set FOLIO_CORPUS=/path/to/corpus to run them (FOLIO_REQUIRE_CORPUS=1 makes its absence a failure)\n
            """.utf8))
    }()

    private static func announceOnce() { _ = announcement }
}
