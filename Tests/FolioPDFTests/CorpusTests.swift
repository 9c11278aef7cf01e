import Crypto
import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// Every PDF in ../shared/corpus against what qpdf and pikepdf say about it.
final class CorpusTests: XCTestCase {
    /// Files where Folio knowingly reports more than `qpdf --show-npages`, with the reason.
    /// Each is still checked: Folio's answer must be what its tree walk finds.
    static let pageCountDeviations: [String: String] = [
        // The root's /Count is written "/Cou\nt": qpdf reads no /Count and reports 0; Folio
        // falls back to walking the tree and finds the one page pdfinfo also shows.
        "qpdf/bad-direct-root.pdf": "garbled /Count",
        // Truncated linearized file without a page tree: qpdf reports 0; Folio takes /N 4
        // from the linearization dictionary, as pdfinfo and files.json do.
        "sample-files/017-unreadable-meta-data/unreadablemetadata.pdf": "linearization /N",
    ]

    func testPageCountsMatchQpdf() throws {
        let oracle = try Oracle.load()
        var checked = 0
        var failures: [String] = []
        for (path, expected) in oracle.sorted(by: { $0.key < $1.key }) {
            guard let qpdfPages = expected.qpdf_pages else { continue }
            do {
                let document = try PDFDocument(path: try TestEnvironment.corpusFile(path), password: expected.password)
                let pages = document.pageCount
                if Self.pageCountDeviations[path] != nil {
                    if pages <= qpdfPages { failures.append("\(path): deviation no longer needed (\(pages))") }
                } else if pages != qpdfPages {
                    failures.append("\(path): folio \(pages), qpdf \(qpdfPages)")
                }
                checked += 1
            } catch {
                failures.append("\(path): qpdf opens it, folio fails: \(error)")
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        XCTAssertGreaterThan(checked, 600, "too few corpus files checked; is the corpus complete?")
    }

    func testTitleAndAuthorMatchPikepdf() throws {
        let oracle = try Oracle.load()
        var checked = 0
        var utf8Fallbacks = 0
        var failures: [String] = []
        for (path, expected) in oracle.sorted(by: { $0.key < $1.key }) where expected.pike_error == nil {
            let document: PDFDocument
            do {
                document = try PDFDocument(path: try TestEnvironment.corpusFile(path), password: expected.password)
            } catch {
                // Acceptable only where qpdf refuses the file too (pikepdf then shows an empty shell).
                if expected.qpdf_pages != nil { failures.append("\(path): pikepdf opens it, folio fails: \(error)") }
                continue
            }
            let info = document.infoDictionary
            for (key, value, hex) in [("Title", expected.title, expected.title_hex),
                                      ("Author", expected.author, expected.author_hex)] {
                let raw = info.flatMap { document.resolve($0[key]).stringValue }
                XCTAssertEqual(raw.map { hexString($0.bytes) }, hex, "\(path) /\(key) raw bytes")
                let ours = raw?.text
                if ours == value { continue }
                // Documented difference (DESIGN.md): raw UTF-8 without BOM is read as UTF-8,
                // where pikepdf shows PDFDocEncoding mojibake.
                if let bytes = raw?.bytes, bytes.contains(where: { $0 >= 0x80 }),
                    let utf8 = String(validating: bytes, as: UTF8.self), ours == utf8,
                    value == PDFTextString.pdfDocEncoding(bytes)
                {
                    utf8Fallbacks += 1
                    continue
                }
                failures.append("\(path) /\(key): folio \(ours ?? "nil"), pikepdf \(value ?? "nil")")
            }
            checked += 1
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        XCTAssertGreaterThan(checked, 600)
        XCTAssertLessThan(utf8Fallbacks, 5, "the UTF-8 rule should be rare")
    }

    /// Decoded stream data (filters, predictors and decryption) equals pikepdf's.
    func testStreamsDecodeLikePikepdf() throws {
        let oracle = try Oracle.load()
        var checked = 0
        var failures: [String] = []
        for (path, expected) in oracle.sorted(by: { $0.key < $1.key }) {
            guard let streams = expected.streams, !streams.isEmpty,
                let document = try? PDFDocument(path: try TestEnvironment.corpusFile(path), password: expected.password)
            else { continue }
            for (number, digest) in streams {
                guard let objectNumber = Int(number),
                    case .stream(let stream) = document.object(PDFReference(number: objectNumber))
                else {
                    failures.append("\(path) object \(number): not a stream in folio")
                    continue
                }
                do {
                    let data = try document.decodedData(of: stream)
                    let ours = hexString(Array(SHA256.hash(data: data)))
                    if ours != digest { failures.append("\(path) object \(number): decoded data differs") }
                } catch {
                    failures.append("\(path) object \(number): \(error)")
                }
                checked += 1
            }
        }
        XCTAssertEqual(failures, [], failures.prefix(50).joined(separator: "\n"))
        XCTAssertGreaterThan(checked, 1500)
    }

    /// The answer key of py-pdf/sample-files. Page count and encryption must match it
    /// exactly; for producer and creation date (hand-collected, with time zones dropped or
    /// invented) a mismatch is accepted only where pikepdf contradicts the key as well.
    func testSampleFilesAnswerKey() throws {
        let oracle = try Oracle.load()
        let keyURL = try TestEnvironment.corpus.appendingPathComponent("sample-files/files.json")
        let key = try JSONSerialization.jsonObject(with: Data(contentsOf: keyURL)) as? [String: Any]
        let entries = try XCTUnwrap(key?["data"] as? [[String: Any]])
        var checked = 0
        for entry in entries {
            let relative = "sample-files/" + (entry["path"] as? String ?? "")
            let path = try TestEnvironment.corpusFile(relative)
            guard FileManager.default.fileExists(atPath: path) else { continue }  // listed but not shipped
            let pike = oracle[relative]
            let document = try PDFDocument(path: path, password: pike?.password)
            let info = document.info
            XCTAssertEqual(document.pageCount, entry["pages"] as? Int, "\(relative) pages")
            XCTAssertEqual(document.isEncrypted, entry["encrypted"] as? Bool, "\(relative) encrypted")
            let producer = entry["producer"] as? String
            if producer == "?" {
                XCTAssertNil(info.producer, "\(relative): the key says the producer is unreadable")
            } else if info.producer != producer {
                XCTAssertEqual(info.producer, pike?.producer, "\(relative) producer: key \(producer ?? "nil")")
                XCTAssertNotEqual(pike?.producer, producer, "\(relative) producer")
            }
            let created = (entry["creation_date"] as? String).map { String($0.prefix(19)) }
            let ours = info.creationDate.map { String($0.iso8601.prefix(19)) }
            if ours != created {
                let pikeDate = pike?.created_raw.flatMap(PDFDate.init(parsing:)).map { String($0.iso8601.prefix(19)) }
                XCTAssertEqual(ours, pikeDate, "\(relative) creation date vs pikepdf's raw value")
                XCTAssertNotEqual(pikeDate, created, "\(relative) creation date: key \(created ?? "nil")")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 25)
    }

}

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
