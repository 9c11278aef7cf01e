import FolioPDF
import FolioScore
import Foundation
import XCTest

/// The listing read on several threads, each with its own copy of the file, gives every
/// page what the one-thread listing gives, in page order; errors stop it without a hang, and
/// readers stay within their window ahead of the pages handed over.
final class AnnotationListingReadersTests: XCTestCase {
    private static let pages = 7

    /// Seven pages; page p carries p + 1 squares, named and signed in Czech, Greek and Japanese.
    private func score() throws -> ScoreFile {
        var pdf = PDFNewDocument()
        for _ in 0..<Self.pages { try pdf.addPage(width: 600, height: 800, content: [], resources: [:]) }
        let document = try PDFDocument(bytes: try pdf.bytes())
        for page in 1...Self.pages {
            for mark in 0...page {
                var request = AnnotationRequest(kind: .square, page: page)
                request.rects = [[Double(10 + 20 * mark), Double(40 + 30 * page), 15, 25]]
                request.author = ["Jiří Dvořák", "Σοφία", "山田"][mark % 3]
                request.name = "značka-\(page)-\(mark)-σήμα-印"
                _ = try request.add(to: document)
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Ноктюрн – Νυχτερινό.pdf").path
        try Data(try PDFSaver.incrementalBytes(document)).write(to: URL(fileURLWithPath: path))
        return ScoreFile(path)
    }

    private static func summary(_ shown: [AnnotationListing.Shown]) -> [String] {
        shown.map { "\($0.annotation.id) \($0.annotation.subtype) \($0.annotation.author ?? "-") \($0.display)" }
    }

    func testEveryReaderCountListsWhatOneThreadLists() throws {
        let score = try score()
        var expected: [(Int, [String])] = []
        try AnnotationListing.forEachPage(try score.open()) { index, shown in expected.append((index, Self.summary(shown))) }
        XCTAssertEqual(expected.map(\.0), Array(0..<Self.pages))
        XCTAssertEqual(expected.map(\.1.count), (1...Self.pages).map { $0 + 1 })
        XCTAssertTrue(expected[2].1.joined().contains("značka-3-0-σήμα-印"), "\(expected[2].1)")
        for readers in [1, 2, 3, 5] {
            var listed: [(Int, [String])] = []
            try AnnotationListing.forEachPage(of: score, readers: readers) { _, shown in Self.summary(shown) } _: { index, summary in
                listed.append((index, summary))
            }
            XCTAssertEqual(listed.map(\.0), expected.map(\.0), "readers \(readers)")
            XCTAssertEqual(listed.map(\.1), expected.map(\.1), "readers \(readers)")
        }
    }

    func testReadersStayWithinTheirWindow() throws {
        let score = try score()
        let started = Counter()
        for readers in [2, 3] {
            started.reset()
            try AnnotationListing.forEachPage(of: score, readers: readers) { index, _ in
                // A page is taken only while fewer than 2 × readers wait to be handed over.
                let handed = started.value
                XCTAssertLessThan(index, handed + 1 + 2 * readers, "readers \(readers)")
                return index
            } _: { _, _ in
                started.increment()
                Thread.sleep(forTimeInterval: 0.02)  // readers would run ahead
            }
            XCTAssertEqual(started.value, Self.pages)
        }
    }

    func testTheFirstErrorStopsTheReadersAndIsThrown() throws {
        let score = try score()
        struct Refused: Error, Equatable { let page: Int }
        XCTAssertThrowsError(try AnnotationListing.forEachPage(of: score, readers: 2) { index, _ in
            if index == 3 { throw Refused(page: index) }
            return index
        } _: { _, _ in }) { XCTAssertEqual($0 as? Refused, Refused(page: 3)) }
        var handed: [Int] = []
        XCTAssertThrowsError(try AnnotationListing.forEachPage(of: score, readers: 3) { index, _ in index } _: { index, _ in
            handed.append(index)
            if index == 1 { throw Refused(page: index) }
        }) { XCTAssertEqual($0 as? Refused, Refused(page: 1)) }
        XCTAssertEqual(handed, [0, 1])
        // A file that cannot be opened fails as opening it does.
        let missing = ScoreFile(NSTemporaryDirectory() + "/nenalezeno-\(UUID().uuidString)/Ἦχος.pdf")
        var opening = ""
        XCTAssertThrowsError(try missing.open()) { opening = "\($0)" }
        XCTAssertThrowsError(try AnnotationListing.forEachPage(of: missing, readers: 2) { index, _ in index } _: { _, _ in
            XCTFail("nothing to hand over")
        }) { XCTAssertEqual("\($0)", opening) }
    }
}

/// A count shared by reader threads and the test.
private final class Counter: @unchecked Sendable {  // `count` is guarded by `lock`
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
    func reset() { lock.withLock { count = 0 } }
}
