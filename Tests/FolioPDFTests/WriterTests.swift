import FolioTestSupport
import Foundation
import Synchronization
import XCTest

@testable import FolioPDF

final class WriterTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    // MARK: Serializer

    func testSerializerRoundTripKeepsForms() throws {
        let text = "<< /Real 0.1000 /Int -42 /Hex <00ff41> /Lit (a\\(b\\)c\\\\) /Name /A#20B /Ref 12 0 R /Arr [1 2.50 true null] /Nested << /X /Y >> >>"
        let source = ByteSource(data: Array(text.utf8))
        var parser = Parser(bytes: source.bytes)
        let object = try withExtendedLifetime(source) { try parser.parseObject() }
        var out: [UInt8] = []
        try PDFSerializer.write(object, to: &out)
        let written = String(decoding: out, as: UTF8.self)
        XCTAssertTrue(written.contains("/Real 0.1000"), written)
        XCTAssertTrue(written.contains("2.50"), written)
        XCTAssertTrue(written.contains("<00FF41>"), written)
        XCTAssertTrue(written.contains("/A#20B"), written)
        let again = ByteSource(data: out)
        var reparser = Parser(bytes: again.bytes)
        XCTAssertEqual(try withExtendedLifetime(again) { try reparser.parseObject() }, object)
    }

    func testSerializerEscapesStringsAndNames() throws {
        var out: [UInt8] = []
        try PDFSerializer.write(.string(PDFString([0x28, 0x0D, 0x5C, 0x29, 0x00])), to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "(\\(\\r\\\\\\)\u{0})")
        out = []
        try PDFSerializer.write(.name("a/b#c d"), to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "/a#2Fb#23c#20d")
        XCTAssertEqual(PDFSerializer.format(612), "612")
        XCTAssertEqual(PDFSerializer.format(0.5), "0.5")
        XCTAssertEqual(PDFSerializer.format(-0.0001), "-0.0001")
    }

    // MARK: Incremental updates

    func testIncrementalUpdateOfClassicFile() throws {
        let original = PDFBuilder.minimal(info: "<< /Title (Old) /Producer (x) >>").classic(trailer: "/Root 1 0 R /Info 4 0 R /ID [<0102> <0304>]")
        let path = try file("a.pdf", original)
        let document = try PDFDocument(path: path)
        try document.setInfo("Title", to: "Frédéric Chopin")
        let added = document.add(.dictionary(["Note": .string(PDFString(Array("new".utf8)))]))
        XCTAssertEqual(added.number, 5)
        try PDFSaver.saveIncrementally(document)
        let updated = try bytes(path)
        XCTAssertEqual(Array(updated.prefix(original.count)), original, "original bytes are a prefix")
        let reread = try PDFDocument(path: path)
        XCTAssertEqual(reread.info.title, "Frédéric Chopin")
        XCTAssertEqual(reread.info.producer, "x", "untouched entries stay")
        XCTAssertEqual(reread.xref.sectionCount, 2)
        XCTAssertEqual(reread.xref.style, .table)
        XCTAssertEqual(reread.object(added)["Note"]?.stringValue?.bytes, Array("new".utf8))
        XCTAssertEqual(reread.warningCount, 0, reread.warningText)
        // /ID: first element kept, second renewed.
        let id = try XCTUnwrap(reread.trailer["ID"]?.arrayValue)
        XCTAssertEqual(id.first?.stringValue?.bytes, [0x01, 0x02])
        XCTAssertNotEqual(id.last?.stringValue?.bytes, [0x03, 0x04])
        XCTAssertEqual(reread.trailer["Size"]?.intValue, 6)
    }

    func testIncrementalUpdateKeepsXRefStreamStyle() throws {
        let original = try PDFBuilder.minimal(info: "<< /Title (Old) >>").withXRefStream(number: 5, trailer: "/Root 1 0 R /Info 4 0 R")
        let path = try file("s.pdf", original)
        try PDFSaver.update(path: path) { try $0.setInfo("Title", to: "New") }
        let reread = try PDFDocument(path: path)
        XCTAssertEqual(reread.xref.style, .stream)
        XCTAssertEqual(reread.info.title, "New")
        XCTAssertEqual(Array(try bytes(path).prefix(original.count)), original)
        XCTAssertEqual(reread.warningCount, 0, reread.warningText)
    }

    func testDeletedObjectBecomesFree() throws {
        let path = try file("d.pdf", PDFBuilder.minimal(info: "<< /Title (T) >>").classic(trailer: "/Root 1 0 R /Info 4 0 R"))
        let document = try PDFDocument(path: path)
        document.delete(PDFReference(number: 4))
        document.setTrailer("Info", nil)
        try PDFSaver.saveIncrementally(document)
        let reread = try PDFDocument(path: path)
        XCTAssertEqual(reread.xref.entries[4], .free)
        XCTAssertNil(reread.info.title)
        XCTAssertNil(reread.trailer["Info"])
    }

    func testNoChangesWritesNothing() throws {
        let original = PDFBuilder.minimal().classic(trailer: "/Root 1 0 R")
        let path = try file("n.pdf", original)
        try PDFSaver.saveIncrementally(try PDFDocument(path: path))
        XCTAssertEqual(try bytes(path), original)
    }

    func testStreamDataReplacementIsCompressed() throws {
        var builder = PDFBuilder.minimal()
        builder.addStream(4, "", Array("old".utf8))
        let path = try file("st.pdf", builder.classic(trailer: "/Root 1 0 R"))
        let content = Array(String(repeating: "0 0 m 10 10 l S\n", count: 200).utf8)
        try PDFSaver.update(path: path) { try $0.setStreamData(PDFReference(number: 4), content) }
        let reread = try PDFDocument(path: path)
        let stream = try XCTUnwrap(reread.object(PDFReference(number: 4)).streamValue)
        XCTAssertEqual(stream.dictionary["Filter"], .name("FlateDecode"))
        XCTAssertLessThan(stream.encodedData.count, content.count / 4)
        XCTAssertEqual(try reread.decodedData(of: stream), content)
    }

    func testEncryptedFileUpdateIsEncrypted() throws {
        for name in ["r2-empty-password.pdf", "r4-aes-v2-no-key-length.pdf", "r6-empty-password.pdf"] {
            let original = try bytes(try TestEnvironment.corpusFile("pypdf/encryption/\(name)"))
            let path = try file(name, original)
            try PDFSaver.update(path: path) { try $0.setInfo("Title", to: "Secret Sonata") }
            let updated = try bytes(path)
            // No plaintext of the new title anywhere in the appended bytes.
            let tail = Array(updated[original.count...])
            XCTAssertNil(Lexer(bytes: ByteSource(data: tail).bytes).find(Array("Secret".utf8), from: 0), name)
            XCTAssertEqual(try PDFDocument(path: path).info.title, "Secret Sonata", name)
        }
    }

    // MARK: Full rewrite

    func testRewriteDropsUnreachableAndRenumbers() throws {
        var builder = PDFBuilder.minimal(info: "<< /Title (Kept) >>")
        builder.add(9, "<< /Orphan true >>")
        builder.add(10, "3")
        builder.addStream(11, "", Array("q Q".utf8), length: "/Length 10 0 R")
        let source = try file("full.pdf", builder.classic(trailer: "/Root 1 0 R /Info 4 0 R"))
        let document = try PDFDocument(path: source)
        var page = try XCTUnwrap(document.object(PDFReference(number: 3)).dictionaryValue)
        page["Contents"] = .reference(PDFReference(number: 11))
        document.replace(PDFReference(number: 3), with: .dictionary(page))
        for objectStreams in [false, true] {
            let output = directory.appendingPathComponent("out-\(objectStreams).pdf").path
            try PDFSaver.rewrite(document, to: output, options: RewriteOptions(objectStreams: objectStreams))
            let reread = try PDFDocument(path: output)
            XCTAssertEqual(reread.info.title, "Kept")
            XCTAssertEqual(reread.pageCount, 1)
            let numbers = reread.xref.entries.compactMap { number, entry -> Int? in
                if case .free = entry { return nil }
                return number
            }
            // catalog, pages, page, info, content stream (+ object stream, xref stream)
            XCTAssertEqual(numbers.count, objectStreams ? 7 : 5, "\(numbers.sorted())")
            let contents = try XCTUnwrap(reread.resolve(reread.pages()[0].dictionary["Contents"]).streamValue)
            XCTAssertEqual(contents.dictionary["Length"], .integer(3), "indirect /Length made direct")
            XCTAssertEqual(reread.xref.style, objectStreams ? .stream : .table)
            XCTAssertEqual(reread.warningCount, 0, reread.warningText)
        }
    }

    func testRewriteDecryptsOrKeepsEncryption() throws {
        let source = try TestEnvironment.corpusFile("pypdf/encryption/r4-user-password.pdf")
        let document = try PDFDocument(path: source, password: "asdfzxcv")
        let plain = directory.appendingPathComponent("plain.pdf").path
        try PDFSaver.rewrite(document, to: plain, options: RewriteOptions(decrypt: true))
        XCTAssertFalse(try PDFDocument(path: plain).isEncrypted)
        XCTAssertEqual(try PDFDocument(path: plain).info.author, "cheng")
        let kept = directory.appendingPathComponent("kept.pdf").path
        try PDFSaver.rewrite(document, to: kept)
        XCTAssertThrowsError(try PDFDocument(path: kept))
        XCTAssertEqual(try PDFDocument(path: kept, password: "asdfzxcv").info.author, "cheng")
    }

    // MARK: Safe save

    func testFailureAtEveryStageLeavesTheFileUntouched() throws {
        let original = PDFBuilder.minimal(info: "<< /Title (Old) >>").classic(trailer: "/Root 1 0 R /Info 4 0 R")
        let path = try file("f.pdf", original)
        let paths: [(SaveMethod, [SaveStage])] = [
            (.copy, [.created, .copied, .appendedHalf, .appended, .synced]),
            (.journal, [.journalWritten, .appendedHalf, .appended, .synced]),
        ]
        for (method, stages) in paths {
            for stage in stages {
                struct Injected: Error {}
                var options = SaveOptions(method: method)
                options.stageHook = { if $0 == stage { throw Injected() } }
                XCTAssertThrowsError(try PDFSaver.update(path: path, save: options) { try $0.setInfo("Title", to: "New") },
                                     "\(method) \(stage)")
                XCTAssertEqual(try bytes(path), original, "\(method) \(stage): original must be byte-identical")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "f.pdf" }
                XCTAssertEqual(leftovers, [], "\(method) \(stage): temporary file and journal removed")
            }
        }
    }

    func testSaveKeepsPermissions() throws {
        let path = try file("p.pdf", PDFBuilder.minimal(info: "<< >>").classic(trailer: "/Root 1 0 R /Info 4 0 R"))
        chmod(path, 0o640)
        try PDFSaver.update(path: path) { try $0.setInfo("Title", to: "T") }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o640)
    }

    func testUnwritableFolderIsAClearErrorAndNothingChanges() throws {
        let original = PDFBuilder.minimal(info: "<< >>").classic(trailer: "/Root 1 0 R /Info 4 0 R")
        let path = try file("ro.pdf", original)
        let document = try PDFDocument(path: path)
        try document.setInfo("Title", to: "T")
        XCTAssertThrowsError(try PDFSaver.saveIncrementally(document, to: "/nonexistent-dir/out.pdf")) { error in
            XCTAssertEqual((error as? PDFError)?.code, .io)
        }
        XCTAssertEqual(try bytes(path), original)
    }

    /// Writers on one file from several threads, each with its own open of the file: every
    /// edit lands, one after the other, each its own update (the lock is the file's, not
    /// the process's; processes are tested by the command line's SaveCrashCommandTests).
    func testConcurrentWritersAllSucceedInTurn() throws {
        let path = try file("c.pdf", PDFBuilder.minimal(info: "<< >>").classic(trailer: "/Root 1 0 R /Info 4 0 R"))
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            do {
                try PDFSaver.update(path: path, lockTimeout: 30) { try $0.setInfo("Key\(index)", to: "Значение \(index)") }
            } catch {
                failures.withLock { $0.append("writer \(index): \(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let document = try PDFDocument(path: path)
        for index in 0..<4 { XCTAssertEqual(document.info.entries["Key\(index)"], "Значение \(index)") }
        XCTAssertEqual(document.xref.sectionCount, 5)
        XCTAssertEqual(document.warningCount, 0, document.warningText)
    }

    func testLockTimeoutIsAClearError() throws {
        let path = try file("l.pdf", PDFBuilder.minimal(info: "<< >>").classic(trailer: "/Root 1 0 R /Info 4 0 R"))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        XCTAssertThrowsError(try PDFSaver.update(path: path, lockTimeout: 0.2) { try $0.setInfo("Title", to: "T") }) { error in
            XCTAssertTrue((error as? PDFError)?.message.contains("locked") == true, "\(error)")
        }
    }
}
