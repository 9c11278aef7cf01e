import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// The rebuild finds its keywords with memchr and tells object kinds by the names in each
/// object's first 512 bytes; here a byte-by-byte reading, written out straightforwardly,
/// must find the same objects, trailers and candidates in every corpus file and in files
/// made to put keywords at the edges.
final class XRefReconstructorTests: XCTestCase {
    private struct Found: Equatable {
        var offsets: [Int: (offset: Int, generation: Int)]
        var objectStreams: [Int]
        var catalogs: [PDFReference]
        var trailer: [String]

        static func == (a: Found, b: Found) -> Bool {
            a.offsets.mapValues { [$0.offset, $0.generation] } == b.offsets.mapValues { [$0.offset, $0.generation] }
                && a.objectStreams == b.objectStreams && a.catalogs == b.catalogs
                && a.trailer == b.trailer
        }
    }

    /// What the rebuild found: offsets from its table, the rest as it reports it.
    private func rebuilt(_ bytes: UnsafeRawBufferPointer) -> Found? {
        let log = WarningLog()
        guard let result = try? XRefReconstructor(bytes: bytes, log: log).reconstruct() else { return nil }
        var offsets: [Int: (offset: Int, generation: Int)] = [:]
        for (number, entry) in result.table.entries {
            if case .uncompressed(let offset, let generation) = entry { offsets[number] = (offset, generation) }
        }
        return Found(offsets: offsets, objectStreams: result.objectStreamCandidates,
                     catalogs: result.catalogCandidates, trailer: result.table.trailer.entries.map(\.key).sorted())
    }

    /// The same, read one byte at a time.
    private func byteByByte(_ bytes: UnsafeRawBufferPointer) -> Found? {
        let reconstructor = XRefReconstructor(bytes: bytes, log: WarningLog())
        func isWord(_ word: StaticString, at index: Int) -> Bool {
            guard index + word.utf8CodeUnitCount <= bytes.count, bytes[index] == word.utf8Start.pointee else { return false }
            return (1..<word.utf8CodeUnitCount).allSatisfy { bytes[index + $0] == word.utf8Start[$0] }
        }
        var offsets: [Int: (offset: Int, generation: Int)] = [:]
        var trailers: [PDFDictionary] = []
        for index in 0..<bytes.count {
            if isWord("obj", at: index), index + 3 == bytes.count || !ByteClass.isRegular(bytes[index + 3]),
                let (number, generation, start) = reconstructor.headerBefore(index)
            {
                offsets[number] = (start, generation)
            }
            if isWord("trailer", at: index), index == 0 || !ByteClass.isRegular(bytes[index - 1]),
                index + 7 == bytes.count || !ByteClass.isRegular(bytes[index + 7])
            {
                var parser = Parser(bytes: bytes, position: index + 7, log: nil)
                if case .dictionary(let trailer)? = try? parser.parseObject() { trailers.append(trailer) }
            }
        }
        guard !offsets.isEmpty else { return nil }
        var objectStreams: [Int] = [], catalogs: [PDFReference] = []
        var keys = Set<String>()
        for trailer in trailers { keys.formUnion(trailer.entries.map(\.key).filter { $0 != "Prev" && $0 != "XRefStm" }) }
        for (number, location) in offsets.sorted(by: { $0.value.offset < $1.value.offset }) {
            let end = min(location.offset + 512, bytes.count)
            func has(_ name: StaticString) -> Bool {
                (location.offset..<end).contains { isWord(name, at: $0) && $0 + name.utf8CodeUnitCount <= end }
            }
            if has("/ObjStm") { objectStreams.append(number) }
            if has("/Catalog") { catalogs.append(PDFReference(number: number, generation: location.generation)) }
            if has("/XRef"), let parsed = try? IndirectObjectParser(bytes: bytes, log: nil).parse(at: location.offset, length: { _ in nil }),
                case .stream(let stream) = parsed.object, stream.dictionary["Type"]?.nameValue == "XRef"
            {
                keys.formUnion(stream.dictionary.entries.map(\.key).filter { ["Root", "Info", "ID", "Encrypt"].contains($0) })
            }
        }
        return Found(offsets: offsets, objectStreams: objectStreams, catalogs: catalogs, trailer: keys.sorted())
    }

    private func assertSame(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        bytes.withUnsafeBytes { raw in
            XCTAssertEqual(rebuilt(raw), byteByByte(raw), name, file: file, line: line)
        }
    }

    /// Every corpus file of up to 256 KiB (the byte-by-byte reading is slow in a debug build).
    func testEveryCorpusFileIsRebuiltAsAByteByByteReadingFindsIt() throws {
        let root = try SharedCorpus.folder()
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
            .filter { name in
                name.lowercased().hasSuffix(".pdf")
                    && ((try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(name).path)[.size] as? Int) ?? 0) <= 256 << 10
            }.sorted() ?? []
        XCTAssertGreaterThan(files.count, 500)
        var rebuiltWithObjects = 0
        for name in files {
            let bytes = Array(try Data(contentsOf: root.appendingPathComponent(name)))
            assertSame(bytes, name)
            if bytes.withUnsafeBytes({ rebuilt($0) }) != nil { rebuiltWithObjects += 1 }
        }
        XCTAssertGreaterThan(rebuiltWithObjects, 500, "most corpus files have objects to find")
    }

    func testKeywordsAtTheEdgesAndInsideOtherTokens() {
        let catalogPast512 = "1 0 obj\n<< /Pages 2 0 R " + String(repeating: " ", count: 480) + "/Type /Catalog >>\nendobj\n"
        let cases: [(String, String)] = [
            ("obj at the very end", "%PDF-1.7\n1 0 obj"),
            ("trailer at the very end", "%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer"),
            ("keywords inside names and strings", "%PDF-1.7\n1 0 obj\n<< /xobj (trailer) /objX 2 /Type /Catalog >>\nendobj\nxtrailer << /Root 9 0 R >>\n"),
            ("a /Catalog that begins inside the first 512 bytes and ends past them", "%PDF-1.7\n" + catalogPast512 + "trailer << /Root 1 0 R >>\n"),
            ("an object stream and an xref stream", """
                %PDF-1.7
                3 0 obj << /Type /ObjStm /N 0 /First 0 /Length 0 >> stream
                endstream endobj
                4 0 obj << /Type /XRef /Root 1 0 R /Info 5 0 R /Size 6 /W [1 2 1] /Length 0 >> stream
                endstream endobj
                1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
                """),
            ("later objects of the same number win", "%PDF-1.7\n1 0 obj << >> endobj\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >> trailer << /Info 3 0 R >>"),
            ("no objects", "%PDF-1.7\nnothing here, not even endobj\n"),
            ("Czech and Japanese text around the keywords", "%PDF-1.7\n1 0 obj (Dvořák – 交響曲 obj trailer) endobj\n"),
        ]
        for (name, text) in cases { assertSame(Array(text.utf8), name) }
    }
}
