import FolioLibrary
import FolioServer
import FolioTestSupport
import Foundation
import Hummingbird
import XCTest

/// The drops' limits, each one freeing itself: the files a drop holds, its bytes, the drops
/// waiting at once, their lifetime; ids of every shape refused or taken; a stopped server's
/// drops removed at the next start.
final class UploadDropsTests: XCTestCase {
    private var folder: URL!
    private var spool: UploadSpool!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-drops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        spool = try UploadSpool(folder: folder.path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A received file of `bytes` bytes in the spool.
    private func received(_ bytes: Int) throws -> String {
        let path = spool.directory + "/upload-\(UUID().uuidString).part"
        try Data(repeating: 0x41, count: bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func kind(of error: any Error) -> FailureKind? { (error as? any Failure)?.kind }

    func testIDsOfEveryShape() {
        let valid = ["0123456789abcdef", String(repeating: "Z", count: 64), "a1b2c3d4-e5f6-7890-abcd-ef0123456789"]
        let invalid = ["", "short", String(repeating: "a", count: 65), "0123456789abcdef/..", "0123456789abcdef ",
                       "0123456789abcdéf", "0123456789abcde\u{0}", "../../../../etc/passwd", "0123456789_abcdef"]
        for id in valid { XCTAssertTrue(UploadDrops.isValidID(id), id) }
        for id in invalid { XCTAssertFalse(UploadDrops.isValidID(id), id) }
        // Random strings: valid exactly when every character is a letter, digit or dash and the length fits.
        var generator = SeededGenerator(#function)
        let alphabet = Array("abcXYZ019-_/. é\u{0}")
        for _ in 0..<2_000 {
            let id = String((0..<Int.random(in: 0...80, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let expected = (16...64).contains(id.utf8.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            XCTAssertEqual(UploadDrops.isValidID(id), expected, id)
        }
    }

    func testEveryLimitIsAnsweredAndFreesItself() async throws {
        let drops = try UploadDrops(spool: spool, maxFiles: 2, maxBytes: 10, maxDrops: 1, lifetime: 600)
        let id = "aaaaaaaaaaaaaaaa", other = "bbbbbbbbbbbbbbbb"
        let first = try await drops.stage(file: try received(4), name: "Ноктюрн.pdf", drop: id)
        let second = try await drops.stage(file: try received(6), name: "Νυχτερινό.csv", drop: id)
        XCTAssertEqual([first, second], [0, 1])
        // A third file, and a file past the bytes: tooLarge; the received file is left to the caller.
        let extra = try received(1)
        do { _ = try await drops.stage(file: extra, name: "x.pdf", drop: id); XCTFail("a third file") } catch {
            XCTAssertEqual(kind(of: error), .tooLarge)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: extra))
        // Another drop while one waits: busy, with when to try again.
        do { _ = try await drops.stage(file: extra, name: "x.pdf", drop: other); XCTFail("a second drop") } catch {
            XCTAssertEqual(kind(of: error), .busy)
            XCTAssertEqual((error as? any Failure)?.retryAfter, 5)
        }
        // Taken while the server was busy, it is put back to wait and taken again whole.
        await drops.restore(id, files: try await drops.take(id))
        let files = try await drops.take(id)
        XCTAssertEqual(files.map { ($0 as NSString).lastPathComponent }, ["Ноктюрн.pdf", "Νυχτερινό.csv"])
        XCTAssertTrue(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        drops.finish(id)
        XCTAssertFalse(files.contains { FileManager.default.fileExists(atPath: $0) }, "taken in, its files are gone")
        // Taken, the drop no longer counts: another may wait.
        _ = try await drops.stage(file: extra, name: "x.pdf", drop: other)
        let load = await drops.load()
        XCTAssertEqual(load.drops, 1)

        XCTAssertEqual(load.files, 1)
        do { _ = try await drops.take(id); XCTFail("taken twice") } catch { XCTAssertEqual(kind(of: error), .notFound) }
        do { _ = try await drops.take("../../etc"); XCTFail("a bad id") } catch { XCTAssertEqual(kind(of: error), .notFound) }
    }

    func testAnUntouchedDropIsRemovedAndAStoppedServersDropsAtTheNextStart() async throws {
        let drops = try UploadDrops(spool: spool, maxBytes: 100, lifetime: 0)
        _ = try await drops.stage(file: try received(3), name: "Serenade.pdf", drop: "cccccccccccccccc")
        try await Task.sleep(nanoseconds: 20_000_000)
        do { _ = try await drops.take("cccccccccccccccc"); XCTFail("expired") } catch { XCTAssertEqual(kind(of: error), .notFound) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: drops.directory), [], "its files went with it")

        let kept = try UploadDrops(spool: spool, maxBytes: 100)
        _ = try await kept.stage(file: try received(3), name: "Serenade.pdf", drop: "dddddddddddddddd")
        _ = try UploadDrops(spool: spool, maxBytes: 100)   // the server restarted
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: kept.directory), [])
    }

    /// One device filling the room: its next drop gets 429 (tooMany) with when to try again,
    /// while another device's drop is still taken; the room frees itself as drops are taken.
    func testOneDeviceCannotTakeEveryonesRoom() async throws {
        let drops = try UploadDrops(spool: spool, maxFiles: 5, maxBytes: 100, maxDrops: 3, maxDropsPerClient: 2, lifetime: 600)
        let ids = ["aaaaaaaaaaaaaaa1", "aaaaaaaaaaaaaaa2", "aaaaaaaaaaaaaaa3", "aaaaaaaaaaaaaaa4"]
        for id in ids.prefix(2) { _ = try await drops.stage(file: try received(1), name: "Ноктюрн.pdf", drop: id, client: "10.0.0.7") }
        let extra = try received(1)
        do { _ = try await drops.stage(file: extra, name: "x.pdf", drop: ids[2], client: "10.0.0.7"); XCTFail("a third drop") } catch {
            XCTAssertEqual(kind(of: error), .tooMany)
            XCTAssertEqual((error as? any Failure)?.retryAfter, 5)
        }
        // A file more for a drop it has is no new drop.
        _ = try await drops.stage(file: try received(1), name: "夜想曲.csv", drop: ids[0], client: "10.0.0.7")
        // Another device is not held up, until the server's own room is full (busy, 503).
        _ = try await drops.stage(file: extra, name: "x.pdf", drop: ids[2], client: "10.0.0.8")
        do { _ = try await drops.stage(file: try received(1), name: "x.pdf", drop: ids[3], client: "10.0.0.9"); XCTFail("a fourth drop") } catch {
            XCTAssertEqual(kind(of: error), .busy)
        }
        _ = try await drops.take(ids[0])
        drops.finish(ids[0])
        _ = try await drops.stage(file: try received(1), name: "x.pdf", drop: ids[3], client: "10.0.0.7")
        let load = await drops.load()
        XCTAssertEqual(load.drops, 3)
    }

    /// Uploads in flight are bounded per address and in all, beside each one's size: a device
    /// past its share is 429 (`.tooMany`), everyone past the total 503 (`.busy`); a refused or
    /// finished upload frees what it held, and its part file is gone.
    func testBytesInFlightAreBoundedPerAddressAndInAllAndFreeThemselves() async throws {
        let spool = try UploadSpool(folder: folder.path, perClient: 1_000, total: 1_500)
        @Sendable func send(_ bytes: Int, from client: String) async -> String {
            do {
                spool.discard(try await spool.receive(AsyncStream { $0.yield(ByteBuffer(repeating: 0x42, count: bytes)); $0.finish() },
                                                      limit: 10_000, client: client))
                return "ok"
            } catch let error as LibraryError {
                return error.code.rawValue
            } catch {
                return "\(error)"
            }
        }
        // An upload from 192.0.2.1 holds 800 bytes while the others are sent, between its two chunks.
        final class Steps: @unchecked Sendable { var count = 0; var answers: [String] = [] }
        let steps = Steps()
        let held = AsyncStream<ByteBuffer>(unfolding: {
            defer { steps.count += 1 }
            switch steps.count {
            case 0: return ByteBuffer(repeating: 0x41, count: 800)
            case 1:
                steps.answers = [await send(300, from: "192.0.2.1"), await send(200, from: "192.0.2.1"),
                                 await send(800, from: "198.51.100.2"), await send(700, from: "198.51.100.2")]
                return ByteBuffer(repeating: 0x41, count: 100)
            default: return nil
            }
        })
        let file = try await spool.receive(held, limit: 10_000, client: "192.0.2.1")
        XCTAssertEqual(steps.answers, ["tooMany", "ok", "busy", "ok"], "past its share, within it, past the total, within it")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)).count, 900)
        spool.discard(file)
        // All freed: the whole share again, and no part file left.
        let again = await send(1_000, from: "192.0.2.1")
        XCTAssertEqual(again, "ok")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: spool.directory).filter { $0.hasSuffix(".part") }, [])
    }
}
