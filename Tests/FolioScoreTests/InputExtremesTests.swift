import FolioTestSupport
import FolioPDF
@testable import FolioScore
import Foundation
import XCTest

/// Numbers from files and requests at their extremes: each is checked into its range before
/// any arithmetic (issue 51's archive whose minutes were 1e300 stopped the server), and
/// archives inflate under a bound, a piece at a time.
final class InputExtremesTests: XCTestCase {
    /// Values no field takes, in every type a property list can carry a number in.
    nonisolated(unsafe) static let extremes: [Any] = [1e300, -1e300, Double.infinity, Double.nan, 9.3e18, -9.3e18, Int.max, Int.min, 1 << 62,
                                  -(1 << 62), "9223372036854775807", "-9223372036854775808", "99999999999999999999", 1e19, 4.5e15]

    func testForScoresNumbersAtTheirExtremesAreReportedNotTrapped() throws {
        let name = "Dvořák – Rusalka, Píseň o měsíčku.pdf"
        for value in Self.extremes {
            var dictionary: [String: Any] = [:]
            for field in ["minutes", "seconds", "rating", "difficulty", "key", "bpm"] { dictionary["\(name)|\(field)"] = value }
            dictionary["\(name)|bookmarks"] = [["Title": "Árie – 月", "First Page": value, "Last Page": value]]
            dictionary["\(name)|\(String(describing: value))|rotation"] = 90
            dictionary["Setlist"] = ["Items": [["FilePath": name, "Bookmark": "Árie – 月", "First Page": value, "Last Page": value]]]
            let plist = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
            let data = try ForScoreLibraryData(plist: Array(plist), source: "extremes")
            let file = try XCTUnwrap(data.files[name.precomposedStringWithCanonicalMapping], "\(value)")
            let duration = try XCTUnwrap(ScoreField.duration.range)
            XCTAssertTrue(file.metadata.duration.map { duration.contains($0) } ?? true, "\(value): \(String(describing: file.metadata.duration))")
            XCTAssertTrue(file.metadata.rating.map { ScoreMetadata.ratingRange.contains($0) } ?? true, "\(value)")
            XCTAssertTrue(file.metadata.difficulty.map { ScoreMetadata.difficultyRange.contains($0) } ?? true, "\(value)")
            XCTAssertNil(file.metadata.tempo, "\(value)")
            XCTAssertNil(file.metadata.key, "\(value)")
        }
        // In range, minutes and seconds add up; past a year they are reported with the range.
        let ok = try PropertyListSerialization.data(fromPropertyList: ["\(name)|minutes": 3, "\(name)|seconds": 25.9, "\(name)|rating": 4.0],
                                                    format: .binary, options: 0)
        let read = try ForScoreLibraryData(plist: Array(ok), source: "ok")
        XCTAssertEqual(read.files[name.precomposedStringWithCanonicalMapping]?.metadata.duration, 205)
        XCTAssertEqual(read.files[name.precomposedStringWithCanonicalMapping]?.metadata.rating, 4)
        let long = try PropertyListSerialization.data(fromPropertyList: ["\(name)|minutes": 600_000, "\(name)|rating": 1e19],
                                                      format: .binary, options: 0)
        let unread = try ForScoreLibraryData(plist: Array(long), source: "long").unread
        XCTAssertTrue(unread.contains { $0.contains("|minutes") && $0.contains("out of range") && $0.contains("31622400") }, "\(unread)")
        XCTAssertTrue(unread.contains { $0.contains("|rating") } , "\(unread)")
    }

    func testAnnotationPagesAtTheirExtremesAreOutOfRange() throws {
        let document = try PDFDocument(bytes: TestPDF.make(info: "<< /Title (Test) >>", xmp: nil))
        for page in [Int.min, Int.min + 1, -1, 0, 2, Int.max] {
            XCTAssertThrowsError(try AnnotationListing.list(document, page: page)) { error in
                XCTAssertEqual((error as? PDFError)?.code, .invalidArgument, "\(page)")
                XCTAssertTrue("\(error)".contains("valid: 1 to 1"), "\(error)")
            }
            var request = AnnotationRequest(kind: .square, page: page)
            request.rects = [[10, 10, 50, 20]]
            XCTAssertThrowsError(try request.add(to: document), "\(page)")
            XCTAssertThrowsError(try ScoreLink.add(to: document, from: page, rect: [10, 10, 40, 20], to: 1), "\(page)")
            XCTAssertThrowsError(try ScoreLink.add(to: document, from: 1, rect: [10, 10, 40, 20], to: page), "\(page)")
        }
        XCTAssertEqual(try AnnotationListing.list(document, page: 1).count, 0)
    }

    func testGzipInflatesAPieceAtATimeUnderItsBound() throws {
        var generator = SeededGenerator(#function)
        let text = Array(String(repeating: "Příliš žluťoučký kůň úpěl ďábelské ódy – 音楽 ", count: 20_000).utf8)
        let packed = try Gzip.compress(text)
        // Pieces of one and two bytes always (a read may return that little), then random sizes.
        for round in 0..<20 {
            let piece = round < 2 ? round + 1 : Int.random(in: 1...70_000, using: &generator)
            var rest = packed[...]
            var out: [UInt8] = []
            let count = try Gzip.decompress(limit: text.count, read: { wanted in
                let take = rest.prefix(min(wanted, piece))
                rest = rest.dropFirst(take.count)
                return Array(take)
            }, write: { out += $0 })
            XCTAssertEqual(count, text.count)
            XCTAssertEqual(out, text, "pieces of \(piece) bytes")
        }
        func inflate(_ bytes: [UInt8], limit: Int) throws -> Int {
            var rest = bytes[...]
            var peak = 0
            let count = try Gzip.decompress(limit: limit, read: { wanted in
                let take = rest.prefix(wanted)
                rest = rest.dropFirst(take.count)
                return Array(take)
            }, write: { peak = max(peak, $0.count) })
            XCTAssertLessThanOrEqual(peak, 256 * 1024, "one piece at a time")
            return count
        }
        // A bomb (a gigabyte of zeros from a megabyte) stops at the bound, having held one piece.
        let bomb = try Gzip.compress([UInt8](repeating: 0, count: 64 << 20), level: 9)
        XCTAssertLessThan(bomb.count, 100_000)
        XCTAssertThrowsError(try inflate(bomb, limit: 1 << 20)) { XCTAssertEqual(($0 as? PDFError)?.code, .limitExceeded) }
        XCTAssertEqual(try inflate(bomb, limit: 64 << 20), 64 << 20, "exactly at the bound is allowed")
        // Cut short, damaged, followed by more, or not gzip at all: a clear error, never a hang.
        XCTAssertThrowsError(try inflate(Array(packed.prefix(packed.count / 2)), limit: 1 << 30)) { XCTAssertEqual(($0 as? PDFError)?.code, .filter) }
        XCTAssertThrowsError(try inflate(packed + [1, 2, 3], limit: 1 << 30)) { XCTAssertEqual(($0 as? PDFError)?.code, .filter) }
        var damaged = packed
        damaged[packed.count / 2] ^= 0xFF
        XCTAssertThrowsError(try inflate(damaged, limit: 1 << 30))
        XCTAssertThrowsError(try inflate(Array("%PDF-1.7".utf8), limit: 1 << 30)) { XCTAssertEqual(($0 as? PDFError)?.code, .filter) }
        XCTAssertThrowsError(try inflate([], limit: 1 << 30)) { XCTAssertEqual(($0 as? PDFError)?.code, .filter) }
        for _ in 0..<200 {
            let junk = [0x1F, 0x8B] + (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertThrowsError(try inflate(junk, limit: 1 << 20))
        }
    }

    func testAnArchiveRecordIsExtractedToAFileUnderItsBound() throws {
        let folder = try TestPDF.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = TestPDF.make(info: "<< /Title (Rusalka – 月) >>", xmp: nil)
        let archive = try ForScoreArchive.encode(kind: .archive, records: [
            (name: "Archive", data: Array(try PropertyListSerialization.data(fromPropertyList: [String: Any](), format: .binary, options: 0))),
            (name: "{%DOCUMENTS_DIR%}/Rusalka.pdf", data: pdf),
            (name: "{%DOCUMENTS_DIR%}/Zeros.pdf", data: [UInt8](repeating: 0, count: 8 << 20)),
        ])
        let path = folder.appendingPathComponent("a.4sb").path
        FileManager.default.createFile(atPath: path, contents: Data(archive))
        let opened = try ForScoreArchive(path: path)
        let target = folder.appendingPathComponent("Rusalka.pdf").path
        XCTAssertEqual(try opened.extract(opened.records[1], to: target, limit: 1 << 20), pdf.count)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: target))), pdf)
        let zeros = folder.appendingPathComponent("Zeros.pdf").path
        XCTAssertThrowsError(try opened.extract(opened.records[2], to: zeros, limit: 1 << 20)) { error in
            XCTAssertEqual((error as? ScoreError)?.code, .limitExceeded)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: zeros), "the partial file is removed")
    }
}
