import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// ``PDFDocument/damage``: a table rebuilt from the bytes, or an entry that does not lead to
/// its object, makes a file damaged however little of it is read; a cross-reference stream's
/// own stale entry (readers find it by its section's offset) does not. On the corpus, the
/// files qpdf calls "file is damaged" are compared at test time.
final class DamageTests: XCTestCase {
    private let info = "<< /Title (Ωδή στη χαρά) /Author (Бетховен) >>"

    func testSoundCutAndMisplacedFiles() throws {
        var builder = PDFBuilder.minimal(pages: 2, info: info)
        let sound = builder.classic(trailer: "/Root 1 0 R /Info 5 0 R")
        XCTAssertNil(try PDFDocument(bytes: sound).damage)

        let cut = try PDFDocument(bytes: Array(sound.prefix(sound.count - 60)))
        XCTAssertEqual(cut.pageCount, 2)
        XCTAssertTrue(cut.damage?.contains("rebuilt from the bytes") == true, cut.damage ?? "nil")

        // The Info entry two bytes off: nothing else read, the file is damaged all the same.
        builder.offsets[5] = (builder.offsets[5] ?? 0) + 2
        let misplaced = try PDFDocument(bytes: builder.classic(trailer: "/Root 1 0 R /Info 5 0 R"))
        XCTAssertEqual(misplaced.pageCount, 2)
        XCTAssertTrue(misplaced.damage?.contains("object 5 is not where it says") == true, misplaced.damage ?? "nil")
    }

    func testRefusedSaveWritesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sound = PDFBuilder.minimal(pages: 1, info: info).classic(trailer: "/Root 1 0 R /Info 4 0 R")
        let path = directory.appendingPathComponent("Ωδή.pdf").path
        let cut = Data(sound.prefix(sound.count - 60))
        try cut.write(to: URL(fileURLWithPath: path))
        var strict = SaveOptions()
        strict.refuseDamaged = true
        XCTAssertThrowsError(try PDFSaver.update(path: path, save: strict) { try $0.setInfo("Title", to: "Freude") }) { error in
            XCTAssertEqual((error as? PDFError)?.code, .damaged)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), cut)
        let report = try PDFSaver.updateReporting(path: path) { try $0.setInfo("Title", to: "Freude") }.report
        XCTAssertNotNil(report.damage)
    }

    func testCorpusAgreesWithQpdf() throws {
        var disagreements: [String] = []
        var damaged = 0, qpdfDamaged = 0
        for name in try TestEnvironment.corpusPDFs() {
            let path = try TestEnvironment.corpusFile(name)
            guard let document = try? PDFDocument(path: path), !document.isEncrypted else { continue }
            let check = try TestEnvironment.runTool("qpdf", ["--check", path])
            let qpdf = String(decoding: check.stdout + check.stderr, as: UTF8.self).contains("file is damaged")
            if document.damage != nil { damaged += 1 }
            if qpdf { qpdfDamaged += 1 }
            if qpdf && document.damage == nil { disagreements.append(name) }
        }
        // qpdf is stricter in places Folio reads without repair (a startxref past its last
        // 1,024 bytes, a trailer without /Size); the rest it calls damaged, Folio does too.
        print("damaged: Folio \(damaged), qpdf \(qpdfDamaged); qpdf only: \(disagreements)")
        XCTAssertGreaterThan(qpdfDamaged, 20)
        XCTAssertLessThanOrEqual(disagreements.count * 5, qpdfDamaged, "qpdf calls these damaged, Folio does not: \(disagreements)")
        // A hybrid file whose cross-reference stream's own entry is stale is sound.
        XCTAssertNil(try PDFDocument(path: try TestEnvironment.corpusFile("qpdf/good17.pdf")).damage)
    }
}
