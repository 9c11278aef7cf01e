@testable import FolioLibrary
import FolioTestSupport
import Foundation
import XCTest

/// The scan's reading stream hands records over in the files' order, each what reading the
/// file alone gives, whatever the window, the batch (a window smaller than the batch hands
/// over a window at a time) and the number of readers; stopped, it hands over nothing more
/// and its readers end.
final class RecordStreamTests: XCTestCase {
    private var folder: URL!
    private var stamps: [FileStamp] = []

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-stream-\(UUID().uuidString)")
        let corpus = try SharedCorpus.folder()
        // Scores, a damaged file, files that need a password (AES-256 among them) and a plain
        // one, under Czech, Greek and Japanese names.
        let sources = try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent("scores").path)
            .filter { $0.hasSuffix(".pdf") }.sorted().prefix(8).map { "scores/" + $0 }
            + ["qpdf/bad11.pdf", "qpdf/enc-XI-R6,V5,U=view,O=master.pdf", "pypdf/encryption/r6-empty-password.pdf",
               "pypdf/encryption/r4-aes-user-password.pdf", "pypdf/crazyones.pdf"]
        let names = ["Dvořák", "Μότσαρτ", "武満徹"]
        for (index, source) in sources.enumerated() {
            let target = folder.appendingPathComponent("\(names[index % names.count])/\(index) \(names[(index + 1) % names.count]).pdf")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try TestEnvironment.copy(at: corpus.appendingPathComponent(source), to: target)
        }
        stamps = try LibraryScanner.files(in: folder.path).scores
        XCTAssertEqual(stamps.count, sources.count)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testRecordsComeInOrderAsEachFileReadAloneGivesThem() {
        let alone = stamps.map { RecordStream.read($0, in: folder.path) }
        XCTAssertTrue(alone.contains { $0.error != nil }, "the damaged and locked files are among them")
        XCTAssertTrue(alone.contains { $0.error == nil && $0.encrypted }, "an encrypted file opened with the empty password")
        for (window, batch, readers) in [(1, 1, 1), (2, 3, 4), (3, 5, 2), (64, 4, 2), (5, 100, 3)] {
            let stream = RecordStream(stamps: stamps, folder: folder.path, window: window, readers: readers)
            var handed: [ScoreRecord] = []
            var batches = 0
            while case let records = stream.next(atLeast: batch, atMost: batch), !records.isEmpty {
                XCTAssertLessThanOrEqual(records.count, min(batch, window))
                handed += records
                batches += 1
            }
            stream.stop()
            XCTAssertEqual(handed, alone, "window \(window), batch \(batch), \(readers) readers")
            XCTAssertEqual(batches, (stamps.count + min(batch, window) - 1) / min(batch, window))
            XCTAssertTrue(handed.allSatisfy { !$0.stamp.fingerprint.isEmpty })
        }
    }

    func testAStoppedStreamHandsOverNothingMore() {
        let stream = RecordStream(stamps: stamps, folder: folder.path, window: 2, readers: 2)
        XCTAssertEqual(stream.next(atLeast: 2, atMost: 2).map(\.stamp.path), Array(stamps.prefix(2)).map(\.path))
        stream.stop()  // returns once the readers have ended
        XCTAssertEqual(stream.next(atLeast: 2, atMost: 2), [])
        let empty = RecordStream(stamps: [], folder: folder.path, window: 4)
        XCTAssertEqual(empty.next(atLeast: 10, atMost: 10), [])
        empty.stop()
    }

    func testBatchesBetweenAMinimumAndAMaximumTakeWhatIsRead() {
        let alone = stamps.map { RecordStream.read($0, in: folder.path) }
        for (window, minimum, maximum, readers) in [(4, 1, 3, 2), (8, 2, 8, 3), (3, 2, 100, 1), (64, 5, 5, 2)] {
            let stream = RecordStream(stamps: stamps, folder: folder.path, window: window, readers: readers)
            var handed: [ScoreRecord] = []
            while case let records = stream.next(atLeast: minimum, atMost: maximum), !records.isEmpty {
                XCTAssertLessThanOrEqual(records.count, min(maximum, window))
                // Fewer than the minimum only at the end.
                if handed.count + records.count < stamps.count {
                    XCTAssertGreaterThanOrEqual(records.count, min(minimum, window))
                }
                handed += records
            }
            stream.stop()
            XCTAssertEqual(handed, alone, "window \(window), \(minimum)…\(maximum), \(readers) readers")
        }
    }
}
