import FolioTestSupport
import Foundation
import XCTest

/// What a folder of PDFs holds, for tests that change many files at once.
enum FolderOracle {
    /// pikepdf's reading of every PDF below `folder` (`Tests/Oracle/library_meta.py`), by
    /// relative path.
    static func metadata(_ folder: URL) throws -> [String: [String: Any]] {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/library_meta.py").path
        let result = try TestEnvironment.runTool("python3", [script, folder.path])
        guard result.status == 0 else {
            throw TestFailure("library_meta.py failed: \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: [String: Any]])
    }

    /// Every PDF's bytes below `folder` (hidden folders left out), by relative path.
    static func bytes(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".pdf"), !path.hasPrefix(".") else { continue }
            result[path] = try Data(contentsOf: folder.appendingPathComponent(path))
        }
        return result
    }
}
