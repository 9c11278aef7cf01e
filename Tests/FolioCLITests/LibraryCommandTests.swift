import FolioTestSupport
import Foundation
import XCTest

/// `folio library` end to end on the bundled samples: scan, list and search as JSON Lines,
/// a rescan that opens nothing, and the exit codes of a missing catalog and a bad filter.
final class LibraryCommandTests: XCTestCase {
    func testScanListSearchAndErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-libcli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = TestEnvironment.repositoryRoot.appendingPathComponent("Samples")
        let pdfs = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasSuffix(".pdf") }.sorted()
        XCTAssertFalse(pdfs.isEmpty)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Nested/Deeper"), withIntermediateDirectories: true)
        for (index, name) in pdfs.enumerated() {
            let target = index == 0 ? "Nested/Deeper/\(name)" : name
            try TestEnvironment.copy(at: samples.appendingPathComponent(name), to: folder.appendingPathComponent(target))
        }
        let folio = try TestEnvironment.folioBinary()
        func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            let result = try TestEnvironment.run(folio, arguments)
            return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
        }
        let missing = try run(["library", "list", folder.path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("library scan"), missing.err)

        let scan = try run(["library", "scan", folder.path])
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertTrue(scan.err.contains("\(pdfs.count) PDFs: \(pdfs.count) opened"), scan.err)
        let again = try run(["library", "scan", "--library", folder.path])
        XCTAssertTrue(again.err.contains("\(pdfs.count) PDFs: 0 opened"), again.err)

        let listed = try run(["library", "list", folder.path, "--json", "--sort", "title"])
        XCTAssertEqual(listed.status, 0, listed.err)
        let objects = try listed.out.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(objects.count, pdfs.count)
        // The metadata in its one JSON form (as the API's): lists always, unset fields left out.
        let always: Set = ["id", "path", "title", "composers", "genres", "tags", "labels", "pages", "bookmark"]
        let known = always.union(["reference", "rating", "difficulty", "duration", "durationText", "key", "tempo", "timeSignature",
                                  "credits"])
        for object in objects {
            XCTAssertTrue(always.isSubset(of: Set(object.keys)), "\(object.keys)")
            XCTAssertTrue(Set(object.keys).isSubset(of: known), "\(object.keys)")
        }
        XCTAssertEqual(Set(objects.compactMap { $0["path"] as? String }),
                       Set(pdfs.enumerated().map { $0.offset == 0 ? "Nested/Deeper/\($0.element)" : $0.element }))
        let titles = objects.compactMap { $0["title"] as? String }
        XCTAssertEqual(titles, titles.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending })
        for object in objects {
            let path = folder.appendingPathComponent(try XCTUnwrap(object["path"] as? String)).path
            let info = String(decoding: try TestEnvironment.runTool("pdfinfo", [path]).stdout, as: UTF8.self)
            let pages = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }?.split(separator: " ").last
            XCTAssertEqual(pages.flatMap { Int($0) }, object["pages"] as? Int, "pages as Poppler counts them")
        }

        let found = try run(["library", "search", folder.path, "--text", "CLAIR de lu", "--json"])
        XCTAssertEqual(found.status, 0, found.err)
        XCTAssertTrue(found.out.contains("Clair de Lune"), found.out)

        let invalid = try run(["library", "list", folder.path, "--rating", ">=9"])
        XCTAssertEqual(invalid.status, 64)
        XCTAssertTrue(invalid.err.contains("valid: 0 to 5"), invalid.err)
    }

    /// Ctrl-C during a scan: the batches written so far stay, the catalog is consistent,
    /// and the next scan reads only what the interrupted one did not store.
    func testInterruptedScanLeavesAConsistentCatalogAndTheNextOneContinues() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-sigint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scores = try TestEnvironment.corpus.appendingPathComponent("scores")
        let names = try FileManager.default.contentsOfDirectory(atPath: scores.path).filter { $0.hasSuffix(".pdf") }.sorted()
        let total = 3000
        for index in 0..<total {
            let shelf = folder.appendingPathComponent("Shelf \(index % 12)")
            if index < 12 { try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true) }
            try FileManager.default.linkItem(at: scores.appendingPathComponent(names[index % names.count]),
                                             to: shelf.appendingPathComponent("score \(index).pdf"))
        }
        let process = Process()
        process.executableURL = try TestEnvironment.folioBinary()
        process.arguments = ["library", "scan", folder.path, "--quiet"]
        process.standardError = FileHandle.nullDevice
        let database = folder.appendingPathComponent(".folio/library.sqlite").path
        try process.run()
        // Interrupt once the first batches are stored.
        let deadline = Date().addingTimeInterval(60)
        func stored() -> Int {
            let count = try? TestEnvironment.runTool("sqlite3", [database, "SELECT COUNT(*) FROM score"])
            return count.flatMap { Int(String(decoding: $0.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        }
        while process.isRunning, stored() < 64, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertTrue(process.isRunning, "the scan is still running when interrupted")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        let integrity = try TestEnvironment.runTool("sqlite3", [database, "PRAGMA integrity_check"])
        XCTAssertEqual(String(decoding: integrity.stdout, as: UTF8.self), "ok\n")
        let kept = stored()
        XCTAssertGreaterThan(kept, 0)
        XCTAssertLessThan(kept, total, "interrupted before the end")
        // Files are stored in the order they are listed, a transaction at a time: what an
        // interrupted scan kept is the first of them, however large its batches were.
        let listed = (0..<total).map { "Shelf \($0 % 12)/score \($0).pdf" }.sorted()
        let rows = try TestEnvironment.runTool("sqlite3", [database, "SELECT path FROM score"])
        let keptPaths = String(decoding: rows.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(Set(keptPaths), Set(listed.prefix(kept)), "whole transactions, in the order listed")
        let result = try TestEnvironment.run(try TestEnvironment.folioBinary(), ["library", "scan", folder.path])
        XCTAssertEqual(result.status, 0)
        let summary = String(decoding: result.stderr, as: UTF8.self)
        XCTAssertTrue(summary.contains("\(total) PDFs: \(total - kept) opened (\(total - kept) new"), summary)
        XCTAssertEqual(stored(), total)
    }
}
