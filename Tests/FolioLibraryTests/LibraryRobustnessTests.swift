@testable import FolioLibrary
import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import GRDB
import XCTest

/// A generated library of several hundred corpus files, and what goes wrong around a
/// scan: files that change between scans (exactly those are reopened), a file that
/// vanishes mid-scan, a database another process holds locked, a corrupt database.
final class LibraryRobustnessTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-robust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Up to `count` corpus PDFs copied into nested folders, some names accented.
    private func generate(_ count: Int) throws -> [String] {
        let corpus = try SharedCorpus.folder()
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: corpus.path), "no corpus at \(corpus.path)")
        var sources: [String] = []
        while let item = enumerator.nextObject() as? String {
            if item.lowercased().hasSuffix(".pdf") { sources.append(item) }
        }
        sources = Array(sources.sorted().prefix(count))
        var made: [String] = []
        for (index, source) in sources.sorted().enumerated() {
            let shelf = ["Barock/Bach", "Romantik/Dvořák", "Romantik/Fauré/Lieder", "Jazz", "Übungen"][index % 5]
            let name = (index % 7 == 0 ? "Stück \(index) – café" : "score-\(index)") + ".pdf"
            let relative = "\(shelf)/\(name)"
            let target = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try TestEnvironment.copy(at: corpus.appendingPathComponent(source), to: target)
            // A reference lives in XMP only: the catalog then depends on every packet being read.
            if index % 2 == 0 {
                var edit = ScoreEdit()
                edit.reference = "Ref. \(index)"
                try? PDFSaver.update(path: target.path) { _ = try ScoreWriter.write(edit, to: $0) }
            }
            made.append(relative)
        }
        return made
    }

    /// What the catalog holds for each readable score equals a plain serial read of the file.
    private func assertCatalogMatchesSerialReads(_ catalog: LibraryCatalog, _ paths: [String],
                                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let entries = Dictionary(try catalog.search(LibraryQuery()).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        var compared = 0
        for path in paths {
            guard let document = try? PDFDocument(path: folder.appendingPathComponent(path).path) else { continue }
            let (score, _) = ScoreMetadata.read(from: document)
            let entry = try XCTUnwrap(entries[path], path, file: file, line: line)
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            // The catalog drops NULs from titles (a few producers end a title with one).
            XCTAssertEqual(entry.title, (score.title ?? stem).replacingOccurrences(of: "\0", with: ""), path,
                           file: file, line: line)
            XCTAssertEqual(entry.metadata.composers, score.composers, path, file: file, line: line)
            XCTAssertEqual(entry.metadata.tags, score.tags, path, file: file, line: line)
            XCTAssertEqual(entry.metadata.reference, score.reference, path, file: file, line: line)
            XCTAssertEqual(entry.pages, document.pageCount, path, file: file, line: line)
            compared += 1
        }
        XCTAssertGreaterThan(compared, paths.count / 2, file: file, line: line)
    }

    func testSeveralHundredFilesRescanOpensExactlyTheChangedOnes() throws {
        var paths = try generate(400)
        XCTAssertGreaterThanOrEqual(paths.count, 300)
        let catalog = try LibraryCatalog(folder: folder.path)
        let scanner = LibraryScanner(catalog: catalog)
        let first = try scanner.scan()
        XCTAssertEqual(first.found, paths.count)
        XCTAssertEqual(first.opened, paths.count)
        try assertCatalogMatchesSerialReads(catalog, paths)

        // Every file read again in parallel, three times: the same answers each time.
        for _ in 0..<3 {
            for path in paths {
                try FileManager.default.setAttributes([.modificationDate: Date()],
                                                      ofItemAtPath: folder.appendingPathComponent(path).path)
            }
            XCTAssertEqual(try scanner.scan().opened, paths.count)
            try assertCatalogMatchesSerialReads(catalog, paths)
        }
        XCTAssertEqual(try scanner.scan().opened, 0)

        let ids = Dictionary(try catalog.search(LibraryQuery()).map { ($0.path, $0.id) }, uniquingKeysWith: { a, _ in a })
        let fm = FileManager.default
        // Change three (appending bytes changes size and time), add two, delete two, move two.
        for path in paths.prefix(3) {
            let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n% touched\n".utf8))
            try handle.close()
        }
        try fm.createDirectory(at: folder.appendingPathComponent("Neu"), withIntermediateDirectories: true)
        for (index, path) in paths[3..<5].enumerated() {
            try TestEnvironment.copy(at: folder.appendingPathComponent(path), to: folder.appendingPathComponent("Neu/copy-\(index).pdf"))
        }
        for path in paths[5..<7] { try fm.removeItem(at: folder.appendingPathComponent(path)) }
        let movedFrom = Array(paths[7..<9])
        for (index, path) in movedFrom.enumerated() {
            try fm.moveItem(at: folder.appendingPathComponent(path), to: folder.appendingPathComponent("Neu/moved-\(index).pdf"))
        }
        let summary = try scanner.scan()
        XCTAssertEqual(summary.opened, 3 + 2 + 2, "changed, added and moved files only")
        XCTAssertEqual([summary.updated, summary.added, summary.moved, summary.removed], [3, 2, 2, 2])
        let after = Dictionary(try catalog.search(LibraryQuery()).map { ($0.path, $0.id) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(after["Neu/moved-0.pdf"], ids[movedFrom[0]])
        XCTAssertEqual(after["Neu/moved-1.pdf"], ids[movedFrom[1]])
        paths.removeSubrange(5..<9)
        paths += ["Neu/copy-0.pdf", "Neu/copy-1.pdf", "Neu/moved-0.pdf", "Neu/moved-1.pdf"]
        XCTAssertEqual(try catalog.counts().scores, paths.count)
        try assertCatalogMatchesSerialReads(catalog, paths)
    }

    /// A batch is written in one transaction; a row the database refuses sends that batch
    /// back through savepoints, one per file: the refused file is reported once, every other
    /// file of the batch (before and after it) is stored once, and the counts add up.
    func testARefusedRowLeavesTheRestOfItsBatchStored() throws {
        let paths = try generate(12)
        let refused = try XCTUnwrap(paths.first { $0.contains("Dvořák") })
        let catalog = try LibraryCatalog(folder: folder.path)
        try catalog.write { db in
            // DDL takes no parameters: the path as an SQL literal.
            let literal = "'" + refused.replacingOccurrences(of: "'", with: "''") + "'"
            try db.execute(sql: """
                CREATE TEMP TRIGGER refuse BEFORE INSERT ON main.score WHEN NEW.path = \(literal)
                BEGIN SELECT RAISE(ABORT, 'refused for the test: Откажи'); END
                """)
        }
        var scanner = LibraryScanner(catalog: catalog)
        scanner.batchSize = 64   // all twelve in one batch
        let summary = try scanner.scan()
        XCTAssertEqual(summary.skipped.count, 1, "\(summary.skipped)")
        XCTAssertTrue(summary.skipped.first?.hasPrefix(refused + ": the catalog refused it") == true, "\(summary.skipped)")
        XCTAssertTrue(summary.skipped.first?.contains("Откажи") == true, "\(summary.skipped)")
        XCTAssertEqual(summary.added, paths.count - 1)
        XCTAssertEqual(summary.opened, paths.count)
        XCTAssertEqual(Set(summary.unreadable).count, summary.unreadable.count, "each unreadable file once")
        let stored = try catalog.search(LibraryQuery()).map(\.path)
        XCTAssertEqual(stored.sorted(), paths.filter { $0 != refused }.sorted())
    }

    func testFileVanishingDuringTheScanIsListedAndLeavesNextTime() throws {
        let paths = try generate(12)
        let catalog = try LibraryCatalog(folder: folder.path)
        var scanner = LibraryScanner(catalog: catalog)
        scanner.batchSize = 1
        let victim = try XCTUnwrap(paths.sorted().last)
        var deleted = false
        let summary = try scanner.scan { progress in
            if !deleted {
                deleted = true
                try? FileManager.default.removeItem(at: self.folder.appendingPathComponent(victim))
            }
        }
        XCTAssertTrue(deleted)
        XCTAssertTrue(summary.unreadable.contains { $0.hasPrefix(victim + ":") }, "\(summary.unreadable)")
        let next = try scanner.scan()
        XCTAssertEqual(next.removed, 1)
        XCTAssertEqual(try catalog.counts().scores, paths.count - 1)
    }

    func testALockedDatabaseIsWaitedFor() throws {
        _ = try generate(5)
        let catalog = try LibraryCatalog(folder: folder.path)
        // Another process's scan, as a second connection holding the write lock for a while.
        let other = try DatabaseQueue(path: catalog.databasePath)
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? other.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                _ = release.wait(timeout: .now() + 1.5)
                try db.execute(sql: "COMMIT")
            }
        }
        locked.wait()
        let start = Date()
        let summary = try LibraryScanner(catalog: catalog).scan()
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 1.0, "the scan waited for the other writer")
        XCTAssertEqual(summary.added, 5)
    }

    func testACorruptDatabaseIsRefusedAndKept() throws {
        _ = try generate(3)
        let database = folder.appendingPathComponent(".folio/library.sqlite")
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: database)
        XCTAssertThrowsError(try LibraryCatalog(folder: folder.path)) { error in
            let error = error as? LibraryError
            XCTAssertEqual(error?.code, .database)
            XCTAssertTrue(error?.message.contains(database.path) ?? false, "\(String(describing: error))")
        }
        XCTAssertEqual(try Data(contentsOf: database), garbage, "never a silent new catalog over it")
    }
}

extension LibraryRobustnessTests {
    /// Scores whose fields live partly in XMP, read in parallel again and again: every read
    /// finds the packet (a buffer freed during the packet's DTD check once made parallel
    /// scans refuse good packets now and then).
    func testParallelRescansReadEveryPacket() throws {
        let source = try SharedCorpus.folder().appendingPathComponent("scores/Chopin-Prelude_Op_28_No_15.pdf")
        let first = folder.appendingPathComponent("c0.pdf")
        try TestEnvironment.copy(at: source, to: first)
        var edit = ScoreEdit()
        edit.reference = "Op. 28 No. 15"
        edit.labels = ["Recital 2026"]
        edit.genres = ["Prélude", "Romantik"]
        edit.rating = 4
        try PDFSaver.update(path: first.path) { _ = try ScoreWriter.write(edit, to: $0) }
        for index in 1..<80 {
            try TestEnvironment.copy(at: first, to: folder.appendingPathComponent("c\(index).pdf"))
        }
        let catalog = try LibraryCatalog(folder: folder.path)
        let scanner = LibraryScanner(catalog: catalog)
        for round in 0..<8 {
            for index in 0..<80 {
                let name = "c\(index).pdf"
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(round))],
                                                      ofItemAtPath: folder.appendingPathComponent(name).path)
            }
            XCTAssertEqual(try scanner.scan().opened, 80)
            let entries = try catalog.search(LibraryQuery())
            XCTAssertEqual(entries.filter { $0.metadata.reference == "Op. 28 No. 15" && $0.metadata.labels == ["Recital 2026"] }.count, 80,
                           "round \(round)")
        }
    }
}

extension LibraryRobustnessTests {
    /// Identical files are grouped (confirmed by a full hash), a file differing only after the
    /// fingerprinted windows is not; different files of the same work are grouped apart.
    func testDuplicatesIdenticalAndSameWork() throws {
        let scores = try SharedCorpus.folder().appendingPathComponent("scores")
        let fm = FileManager.default
        try fm.createDirectory(at: folder.appendingPathComponent("Copies"), withIntermediateDirectories: true)
        let chopin = scores.appendingPathComponent("Chopin-Prelude_Op_28_No_15.pdf")
        try TestEnvironment.copy(at: chopin, to: folder.appendingPathComponent("Chopin.pdf"))
        try TestEnvironment.copy(at: chopin, to: folder.appendingPathComponent("Copies/Chopin copy.pdf"))
        // Same size and the same first and last 64 KiB, one byte different in the middle.
        var bytes = try Data(contentsOf: chopin)
        XCTAssertGreaterThan(bytes.count, 3 * 65_536)
        let middle = bytes.count / 2
        bytes[middle] = bytes[middle] == 0x20 ? 0x0A : 0x20
        try bytes.write(to: folder.appendingPathComponent("Copies/Chopin altered.pdf"))
        // Two different files with the same title and composers, in another case and spelling of accents.
        for (name, title, composer) in [("Faure.pdf", "Après un rêve", "Gabriel Fauré"),
                                        ("Faure 2.pdf", "APRES UN REVE", "gabriel faure")] {
            let source = scores.appendingPathComponent(name == "Faure.pdf" ? "Faure-Apres_un_Reve_Op_7.pdf"
                                                            : "Schumann-Widmung_Op_25_No_1.pdf")
            let target = folder.appendingPathComponent(name)
            try TestEnvironment.copy(at: source, to: target)
            var edit = ScoreEdit()
            edit.title = title
            edit.composers = [composer]
            try PDFSaver.update(path: target.path) { _ = try ScoreWriter.write(edit, to: $0) }
        }
        let catalog = try LibraryCatalog(folder: folder.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        let groups = try catalog.duplicates()
        XCTAssertEqual(groups.filter { $0.kind == .identical }.map(\.paths), [["Chopin.pdf", "Copies/Chopin copy.pdf"]])
        XCTAssertTrue(groups.contains { $0.kind == .sameWork && $0.paths == ["Faure 2.pdf", "Faure.pdf"] }, "\(groups)")
        XCTAssertFalse(groups.contains { $0.paths.contains("Copies/Chopin altered.pdf") && $0.kind == .identical })
    }
}
