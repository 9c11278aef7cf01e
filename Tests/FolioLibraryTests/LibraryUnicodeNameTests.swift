import FolioLibrary
import FolioPDF
import Foundation
import XCTest

/// One name, two Unicode forms: `Dvořák.pdf` composed (NFC, as browsers and most Linux
/// tools write it) and decomposed (NFD, as Macs and forScore write it). The catalog looks
/// names up by their composed form and stores the bytes the folder holds.
final class LibraryUnicodeNameTests: XCTestCase {
    private var folder: URL!
    private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")
    private let nfc = "Dvořák – Humoreska.pdf".precomposedStringWithCanonicalMapping
    private let nfd = "Dvořák – Humoreska.pdf".decomposedStringWithCanonicalMapping

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-unicode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func copy(_ sample: String, to name: String) throws {
        try FileManager.default.copyItem(at: samples.appendingPathComponent(sample), to: folder.appendingPathComponent(name))
    }

    private func onDisk() throws -> [[UInt8]] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.map { Array($0.utf8) }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }

    func testADecomposedNameIsFoundByEitherFormAndFollowsARenameToTheOther() throws {
        try copy("Brahms-Cancion_de_Cuna.pdf", to: nfd)
        let catalog = try LibraryCatalog(folder: folder.path)
        let scanner = LibraryScanner(catalog: catalog)
        XCTAssertEqual(try scanner.scan().added, 1)
        let byNFC = try XCTUnwrap(try catalog.show(nfc).first)
        let byNFD = try XCTUnwrap(try catalog.show(nfd).first)
        XCTAssertEqual(byNFC.id, byNFD.id)
        XCTAssertEqual(Array(byNFC.path.utf8), Array(nfd.utf8), "stored as the folder holds it, so it opens")
        XCTAssertNotNil(catalog.files.resolve(byNFC.path))
        XCTAssertNotNil(try PDFDocument(path: try XCTUnwrap(catalog.files.resolve(byNFC.path))))
        XCTAssertEqual(try scanner.update(path: nfc).opened, 0, "one update by the other form finds it unchanged")

        // A sync tool rewrites the name in composed form: the same score, at the new bytes.
        try FileManager.default.moveItem(at: folder.appendingPathComponent(nfd), to: folder.appendingPathComponent(nfc))
        let summary = try scanner.scan()
        XCTAssertEqual(summary.added, 0)
        let after = try XCTUnwrap(try catalog.show(nfd).first)
        XCTAssertEqual(after.id, byNFC.id)
        XCTAssertEqual(Array(after.path.utf8), Array(nfc.utf8))
        XCTAssertNotNil(catalog.files.resolve(after.path))
    }

    func testTwoFilesWithOneNameAreBothCataloguedAndRescansNeverFail() throws {
        try copy("Brahms-Cancion_de_Cuna.pdf", to: nfc)
        let catalog = try LibraryCatalog(folder: folder.path)
        XCTAssertEqual(try LibraryScanner(catalog: catalog).scan().added, 1)
        try copy("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf", to: nfd)
        XCTAssertEqual(try onDisk().count, 2)

        let summary = try LibraryScanner(catalog: catalog).scan()
        XCTAssertEqual(summary.renamed.count, 1)
        XCTAssertEqual(summary.renamed.first.map { Array($0.from.utf8) }, Array(nfd.utf8), "the newcomer gives way")
        XCTAssertEqual(summary.renamed.first?.to, "Dvořák – Humoreska 2.pdf".precomposedStringWithCanonicalMapping)
        XCTAssertEqual(summary.skipped, [])
        XCTAssertEqual(summary.added, 1)
        let kept = try XCTUnwrap(try catalog.show(nfd).first)
        XCTAssertEqual(kept.pages, try Self.pdfinfoPages(samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf").path),
                       "the composed name still names the Brahms")
        XCTAssertEqual(try catalog.show("Dvořák – Humoreska 2.pdf").first?.pages,
                       try Self.pdfinfoPages(samples.appendingPathComponent("Debussy-Suite_Bergamasque_Clair_de_Lune_L75.pdf").path),
                       "the Debussy, under its new name")
        XCTAssertEqual(try onDisk().count, 2)
        for _ in 0..<2 {
            let again = try LibraryScanner(catalog: catalog).scan()
            XCTAssertEqual(again.opened + again.removed + again.renamed.count + again.skipped.count, 0)
        }
        // A restart: a new catalog on the same database, scanned as `folio serve` does at start.
        let restarted = try LibraryCatalog(folder: folder.path)
        let atStart = try LibraryScanner(catalog: restarted).scan()
        XCTAssertEqual(atStart.found, 2)
        XCTAssertEqual(atStart.opened, 0)
    }

    func testReceivedNamesAreRefusedWhenTheyHideWhatTheyAre() {
        XCTAssertNil(CatalogPath.refusal(ofFileName: "Чайковский – Лебединое озеро.pdf"))
        XCTAssertNil(CatalogPath.refusal(ofFileName: "עוּד – שיר.pdf"), "right-to-left script is fine; overrides are not")
        XCTAssertNotNil(CatalogPath.refusal(ofFileName: "invoice\u{202E}fdp.exe"))
        XCTAssertNotNil(CatalogPath.refusal(ofFileName: "a\tb.pdf"))
        XCTAssertNotNil(CatalogPath.refusal(ofFileName: "a\u{7F}.pdf"))
        XCTAssertEqual(LibraryFileName.sanitized("x\u{202E}fdp\tname"), "xfdpname.pdf")
        // "/" before a combining mark is one character to Swift, a folder to the file system.
        XCTAssertEqual(LibraryFileName.sanitized("Piano/\u{301}Étude.pdf"), "\u{301}Étude.pdf")
        XCTAssertEqual(LibraryFileName.sanitized(".\u{301}hidden"), "\u{301}hidden.pdf")
        XCTAssertTrue(CatalogPath.sameName(nfc, nfd))
        XCTAssertTrue(CatalogPath.key(nfd).utf8.elementsEqual(nfc.utf8), "the key of a decomposed name is composed")
        XCTAssertTrue(CatalogPath.key(nfc).utf8.elementsEqual(nfc.utf8))
        XCTAssertTrue(CatalogPath.key("Police 3/Box 1/score 00042.pdf").utf8.elementsEqual("Police 3/Box 1/score 00042.pdf".utf8))
        for name in ["Чайковский/Лебединое озеро.pdf", "Μότσαρτ", "武満徹/雨の樹.pdf", "Ha\u{0308}ndel/Messiah.pdf"] {
            XCTAssertTrue(CatalogPath.key(name).utf8.elementsEqual(name.precomposedStringWithCanonicalMapping.utf8), name)
        }
        XCTAssertFalse(CatalogPath.sameName(nfc, "dvořák – humoreska.pdf"))
    }

    /// The page count Poppler's pdfinfo reads.
    static func pdfinfoPages(_ path: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pdfinfo", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("Pages:") })
        return try XCTUnwrap(Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)))
    }
}
