import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// The journaled append in place, in the engine: the journal's format, how an
/// interrupted save is settled in each state it can leave, what a reader sees while a
/// writer is appending, and edits that would overwrite someone else's.
final class SaveJournalTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("score.pdf").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile(TestEnvironment.annotatedScore), toPath: path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func bytes() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "score.pdf" }.sorted()
    }

    /// A real update for the file (a new title), and a journal for appending it.
    private func pendingUpdate() throws -> (original: [UInt8], update: [UInt8], journal: SaveJournal) {
        let document = try PDFDocument(path: path)
        try document.setInfo("Title", to: "Interrupted")
        let update = try IncrementalWriter.update(for: document)
        let original = try bytes()
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        let journal = original.withUnsafeBytes { originalBytes in
            update.withUnsafeBytes { updateBytes in
                SaveJournal(originalLength: original.count, updateLength: update.count, device: UInt64(info.st_dev),
                            inode: UInt64(info.st_ino), original: originalBytes, update: updateBytes)
            }
        }
        return (original, update, journal)
    }

    private func append(_ bytes: ArraySlice<UInt8>) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    func testJournalTextRoundTripsAndAnyDamageIsRefused() throws {
        let (_, _, journal) = try pendingUpdate()
        let text = Array(journal.text.utf8)
        XCTAssertEqual(SaveJournal.parse(text), journal)
        for cut in [0, 10, text.count / 2, text.count - 2] {
            XCTAssertNil(SaveJournal.parse(Array(text[..<cut])), "a journal torn at \(cut) bytes")
        }
        var altered = text
        let digit = try XCTUnwrap(journal.text.range(of: "original-length: ")).upperBound
        let offset = journal.text.utf8.distance(from: journal.text.utf8.startIndex, to: digit)
        altered[offset] = altered[offset] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        XCTAssertNil(SaveJournal.parse(altered), "a changed length breaks the journal's own hash")
        XCTAssertNil(SaveJournal.parse(text + [UInt8](repeating: 0x20, count: 5000)), "oversized")
        XCTAssertNil(SaveJournal.parse(Array("folio-journal 1\njournal-sha256: 00\n".utf8)))
    }

    func testHalfAppendedUpdateIsRolledBackOnOpen() throws {
        let (original, update, journal) = try pendingUpdate()
        try journal.write(beside: path)
        try append(update[..<(update.count / 2)])
        XCTAssertNotNil(SaveJournal.pending(for: path))
        let document = try PDFDocument(path: path)
        XCTAssertEqual(document.source.settledJournal, .rolledBack(journal, removedBytes: update.count / 2))
        XCTAssertEqual(document.source.count, original.count)
        XCTAssertEqual(try bytes(), original)
        XCTAssertEqual(try leftovers(), [])
    }

    func testCompleteUpdateIsKeptOnOpen() throws {
        let (original, update, journal) = try pendingUpdate()
        try journal.write(beside: path)
        try append(update[...])
        let document = try PDFDocument(path: path)
        XCTAssertEqual(document.source.settledJournal, .keptCompleteUpdate(journal))
        XCTAssertEqual(try bytes(), original + update)
        XCTAssertEqual(document.info.title, "Interrupted")
        XCTAssertEqual(try leftovers(), [])
    }

    func testTornJournalMeansNothingWasAppended() throws {
        let (original, _, journal) = try pendingUpdate()
        let text = Array(journal.text.utf8)
        try Data(text[..<(text.count / 3)]).write(to: URL(fileURLWithPath: SaveJournal.path(for: path)))
        XCTAssertNil(SaveJournal.pending(for: path))
        let document = try PDFDocument(path: path)
        XCTAssertEqual(document.source.settledJournal, .discardedTorn)
        XCTAssertEqual(try bytes(), original)
        XCTAssertEqual(try leftovers(), [])
    }

    /// A journal that no longer describes the file never cuts it: the file was replaced,
    /// rewritten, or other bytes follow the original.
    func testStaleJournalIsDroppedAndTheFileLeftAlone() throws {
        let (original, update, journal) = try pendingUpdate()
        // Replaced by rename (another application's save): another inode.
        try journal.write(beside: path)
        let replacement = directory.appendingPathComponent("other.pdf").path
        try Data(original + Array("%more\n".utf8)).write(to: URL(fileURLWithPath: replacement))
        XCTAssertEqual(rename(replacement, path), 0)
        let replaced = try bytes()
        if case .droppedStale = try XCTUnwrap(try PDFDocument(path: path).source.settledJournal) {} else {
            XCTFail("a replaced file keeps its bytes")
        }
        XCTAssertEqual(try bytes(), replaced)
        XCTAssertEqual(try leftovers(), [])

        // The original bytes changed in place.
        let (_, _, second) = try pendingUpdate()
        try second.write(beside: path)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(replaced.count - 10))
        try handle.write(contentsOf: Data("%changed\n".utf8))
        try handle.close()
        let rewritten = try bytes()
        let outcome = try XCTUnwrap(try PDFDocument(path: path, options: PDFReadOptions()).source.settledJournal)
        guard case .droppedStale(_, let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.contains("original bytes changed"), reason)
        XCTAssertEqual(try bytes(), rewritten)

        // More bytes than the update, and not the update.
        try Data(original).write(to: URL(fileURLWithPath: path))
        let (_, _, third) = try pendingUpdate()
        try third.write(beside: path)
        try append(ArraySlice(update.map { $0 ^ 0x55 } + [0x0A, 0x0A]))
        let grown = try bytes()
        guard case .droppedStale = try XCTUnwrap(SafeFile.settleLeftovers(of: path)) else { return XCTFail() }
        XCTAssertEqual(try bytes(), grown)
        XCTAssertEqual(try leftovers(), [])
    }

    /// While a writer holds the lock between journal and removal, a reader sees the file
    /// as it was before the update, and settles nothing.
    func testReaderDuringAnAppendSeesTheOriginal() throws {
        let original = try bytes()
        final class Seen: @unchecked Sendable {
            var counts: [SaveStage: Int] = [:]
            var titles: [SaveStage: String?] = [:]
            var settled: [SaveJournal.Outcome?] = []
        }
        let seen = Seen()
        var options = SaveOptions(method: .journal)
        let target = path
        options.stageHook = { stage in
            let reader = try PDFDocument(path: target)
            seen.counts[stage] = reader.source.count
            seen.titles[stage] = reader.info.title
            seen.settled.append(reader.source.settledJournal)
        }
        try PDFSaver.update(path: path, save: options) { try $0.setInfo("Title", to: "Written") }
        for stage in [SaveStage.journalWritten, .appendedHalf, .appended, .synced] {
            XCTAssertEqual(seen.counts[stage], original.count, "\(stage)")
            XCTAssertEqual(seen.titles[stage] ?? "missing", try PDFDocument(source: ByteSource(data: original)).info.title)
        }
        XCTAssertGreaterThan(seen.counts[.journalRemoved] ?? 0, original.count)
        XCTAssertEqual(seen.titles[.journalRemoved] ?? nil, "Written")
        XCTAssertTrue(seen.settled.allSatisfy { $0 == nil }, "a reader never settles a live writer's journal")
        XCTAssertEqual(Array(try bytes().prefix(original.count)), original)
        XCTAssertEqual(try leftovers(), [])
    }

    /// Saving a document whose file changed since it was opened is refused, whatever
    /// the method: the other edit is never overwritten.
    func testSavingOverSomeoneElsesEditIsRefused() throws {
        for method in [SaveMethod.automatic, .journal, .copy] {
            let stale = try PDFDocument(path: path)
            try stale.setInfo("Title", to: "Mine \(method)")
            try PDFSaver.update(path: path) { try $0.setInfo("Subject", to: "Theirs \(method)") }
            let theirs = try bytes()
            XCTAssertThrowsError(try PDFSaver.saveIncrementally(stale, options: SaveOptions(method: method))) { error in
                XCTAssertEqual((error as? PDFError)?.code, .io)
                XCTAssertTrue("\(error)".contains("changed since it was opened"), "\(error)")
            }
            XCTAssertEqual(try bytes(), theirs, "\(method)")
            XCTAssertEqual(try PDFDocument(path: path).info.entries["Subject"], "Theirs \(method)")
        }
    }

    /// The report says which method wrote and why a cheaper one was not used.
    func testAutomaticChoosesByFilesystemAndSize() throws {
        let original = try bytes()
        var reports: [SaveReport] = []
        for threshold in [Int.max, 0] {
            final class Box: @unchecked Sendable { var report: SaveReport? }
            let box = Box()
            var options = SaveOptions(journalThreshold: threshold)
            options.onSave = { box.report = $0 }
            try PDFSaver.update(path: path, save: options) { try $0.setInfo("Title", to: "T\(threshold)") }
            reports.append(try XCTUnwrap(box.report))
        }
        let clones = FileClone.clone(from: try ByteSource(path: path), to: try TemporaryFile(beside: path, fixedName: false)) == nil
        if clones {
            XCTAssertEqual(reports.map(\.method), [.clone, .clone])
        } else {
            XCTAssertEqual(reports.map(\.method), [.copy, .journal])
            XCTAssertTrue(reports[0].fallbackReason?.contains("below the journal threshold") == true, "\(reports[0])")
            XCTAssertTrue(reports[1].fallbackReason?.contains("no block sharing") == true, "\(reports[1])")
        }
        XCTAssertEqual(Array(try bytes().prefix(original.count)), original)
        XCTAssertEqual(try PDFDocument(path: path).info.title, "T0")
        XCTAssertEqual(try leftovers(), [])
    }
}
