import FolioPDF
import FolioScore
import FolioTestSupport
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

    /// A page of more than ``AnnotationListing/partSize`` annotations, all in object streams
    /// (pikepdf writes it), is read in parts by every reader and named as a whole: a /NM
    /// unique on the page names its annotation, one that two parts share names neither. The
    /// listing equals the one-thread listing, and pikepdf's reading of every /NM and /Rect.
    func testAPageOfThousandsOfAnnotationsIsReadInPartsAndNamedAsAWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Odkazy – Σύνδεσμοι – リンク.pdf").path
        let count = 2 * AnnotationListing.partSize + 500
        // Every 7th named uniquely in Czech, Greek and Japanese; "společná" on one annotation
        // in the first part and one in the third; the rest unnamed. A second page of three.
        _ = try TestEnvironment.python("""
            import sys, pikepdf
            count, part = int(sys.argv[2]), int(sys.argv[3])
            pdf = pikepdf.new()
            for _ in range(2):
                pdf.add_blank_page(page_size=(595, 842))
            for page, total in ((0, count), (1, 3)):
                annots = pikepdf.Array()
                for k in range(total):
                    x, y = 20 + (k * 7) % 550, 20 + (k * 13) % 800
                    a = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[x, y, x + 6, y + 8],
                                           Border=[0, 0, 0])
                    if k in (5, 2 * part + 9):
                        a.NM = pikepdf.String("společná")
                    elif k % 7 == 0:
                        a.NM = pikepdf.String(f"odkaz-{page}-{k}-σύνδεσμος-リンク")
                    annots.append(pdf.make_indirect(a))
                pdf.pages[page].Annots = pdf.make_indirect(annots)
            pdf.save(sys.argv[1], object_stream_mode=pikepdf.ObjectStreamMode.generate)
            """, path, String(count), String(AnnotationListing.partSize))
        let score = ScoreFile(path)
        var expected: [[String]] = []
        try AnnotationListing.forEachPage(try score.open()) { _, shown in expected.append(Self.summary(shown)) }
        XCTAssertEqual(expected.map(\.count), [count, 3])
        // pikepdf's /NM and /Rect of every annotation on page 1, in order.
        let pikepdf = try TestEnvironment.python("""
            import sys, pikepdf
            with pikepdf.open(sys.argv[1]) as pdf:
                for a in pdf.pages[0].Annots:
                    print(str(a.get("/NM", "")) + "|" + ",".join(str(float(v)) for v in a.Rect))
            """, path).split(separator: "\n").map(String.init)
        XCTAssertEqual(pikepdf.count, count)
        let listed = try AnnotationListing.list(try score.open(), page: 1)
        XCTAssertEqual(listed.map { "\($0.annotation.name ?? "")|" + $0.annotation.rect.array.map { "\($0)" }.joined(separator: ",") }, pikepdf)
        for (position, shown) in listed.enumerated() {
            let name = shown.annotation.name ?? ""
            let unique = !name.isEmpty && name != "společná"
            XCTAssertEqual(shown.annotation.id, unique ? name : "obj-\(try XCTUnwrap(shown.annotation.reference).number)", "position \(position)")
        }
        for readers in [2, 3] {
            var results: [(Int, [String])] = []
            try AnnotationListing.forEachPage(of: score, readers: readers) { _, shown in Self.summary(shown) } _: { index, summary in
                results.append((index, summary))
            }
            // Page 1 comes in parts of partSize, in order; page 2 whole.
            XCTAssertEqual(results.map(\.0), [0, 0, 0, 1], "readers \(readers)")
            XCTAssertEqual(results.map(\.1.count), [AnnotationListing.partSize, AnnotationListing.partSize, 500, 3])
            XCTAssertEqual([results[0...2].flatMap(\.1), results[3].1], expected, "readers \(readers)")
        }
        // A failing transform of a part stops the listing with its error.
        struct Refused: Error {}
        XCTAssertThrowsError(try AnnotationListing.forEachPage(of: score, readers: 2) { _, shown in
            if shown.count == 500 { throw Refused() }
            return shown.count
        } _: { _, _ in }) { XCTAssertTrue($0 is Refused, "\($0)") }
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
