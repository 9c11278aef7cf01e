@testable import FolioLibrary
import FolioPDF
import FolioScore
import Foundation
import XCTest

/// The library's side of issue 51: archives imported under a budget with nothing written when
/// it is spent, names that look like other names refused, no path a user gives reaching Folio's
/// own hidden files, and what a killed process left settled at start.
final class LibraryLimitsTests: XCTestCase {
    private var folder: URL!
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.samples.appendingPathComponent(name)))
    }

    /// Every file below the folder with its bytes, hidden ones included.
    private func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path))
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    func testAnArchivePastItsBudgetImportsNothing() throws {
        let brahms = try sample("Brahms-Cancion_de_Cuna.pdf")
        let metadata = try PropertyListSerialization.data(fromPropertyList: ["Píseň.pdf|title": "Píseň – 歌", "Píseň.pdf|minutes": 1e300],
                                                          format: .binary, options: 0)
        func archive(_ records: [(name: String, data: [UInt8])]) throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("folio-\(UUID().uuidString).4sb").path
            FileManager.default.createFile(atPath: path, contents: Data(try ForScoreArchive.encode(kind: .archive, records: records)))
            return path
        }
        let good = try archive([(name: "Archive", data: Array(metadata)), (name: "{%DOCUMENTS_DIR%}/Píseň.pdf", data: brahms)])
        let bomb = try archive([(name: "Archive", data: Array(metadata)), (name: "{%DOCUMENTS_DIR%}/Píseň.pdf", data: brahms),
                                (name: "{%DOCUMENTS_DIR%}/Nuly.pdf", data: [UInt8](repeating: 0, count: 48 << 20))])
        let bigMetadata = try archive([(name: "Archive", data: [UInt8](repeating: 0x20, count: 20 << 20))])
        defer { for path in [good, bomb, bigMetadata] { unlink(path) } }
        var limits = ForScoreImport.Limits.server(read: PDFReadOptions.server(seconds: 20))
        limits.file = 32 << 20
        let before = try snapshot()
        for (path, what) in [(bomb, "one file past its bound"), (bigMetadata, "metadata past its bound")] {
            XCTAssertThrowsError(try ForScoreImport.importArchive(at: path, into: folder.path, limits: limits), what) { error in
                XCTAssertEqual((error as? ScoreError)?.code, .limitExceeded, "\(what): \(error)")
            }
            XCTAssertEqual(try snapshot().filter { !$0.key.hasPrefix(".folio/") }, before, "\(what): nothing written")
        }
        limits.file = 64 << 20
        limits.total = 40 << 20
        XCTAssertThrowsError(try ForScoreImport.importArchive(at: bomb, into: folder.path, limits: limits), "past the total") { error in
            XCTAssertEqual((error as? ScoreError)?.code, .limitExceeded)
            XCTAssertTrue("\(error)".contains("in all"), "\(error)")
        }
        XCTAssertEqual(try snapshot().filter { !$0.key.hasPrefix(".folio/") }, before)
        // Within the bounds the archive imports, its impossible duration reported, not applied.
        let report = try ForScoreImport.importArchive(at: good, into: folder.path, limits: .server(read: .server(seconds: 20)))
        XCTAssertEqual(report.files, 1)
        XCTAssertTrue(report.unread.contains { $0.contains("minutes") }, "\(report.unread)")
        let imported = try PDFDocument(path: folder.appendingPathComponent("Píseň.pdf").path)
        XCTAssertEqual(ScoreMetadata.read(from: imported).0.title, "Píseň – 歌")
        XCTAssertNil(ScoreMetadata.read(from: imported).0.duration)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasPrefix(".folio-import-") })
    }

    func testNamesThatLookLikeOthersAreRefusedAndScriptsKeepTheirJoiners() {
        for name in ["Sc\u{200B}ore.pdf", "Score\u{2060}.pdf", "\u{FEFF}Score.pdf", "So\u{00AD}nate.pdf", "Sc\u{200C}ore.pdf",
                     "Score\u{200D}.pdf", "\u{200D}Score.pdf", "Etude\u{E0041}.pdf"] {
            XCTAssertNotNil(CatalogPath.refusal(ofFileName: name), name.debugDescription)
            XCTAssertEqual(CatalogPath.refusal(ofFileName: CatalogPath.stripped(name)), nil, "stripped: \(name.debugDescription)")
        }
        // Persian and Hindi need ZWNJ and ZWJ, emoji sequences ZWJ and tags: all kept.
        for name in ["می\u{200C}خواهم.pdf", "क्\u{200D}ष.pdf", "👩\u{200D}🎤 – Sólo.pdf", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} Anthem.pdf",
                     "Dvořák – Humoreska.pdf", "ドヴォルザーク.pdf", "Ελληνικά.pdf"] {
            XCTAssertNil(CatalogPath.refusal(ofFileName: name), name.debugDescription)
            XCTAssertEqual(CatalogPath.stripped(name), name)
        }
    }

    func testNoPathAUserGivesReachesFolioOwnHiddenFiles() throws {
        let catalog = try LibraryCatalog(folder: folder.path, create: true)
        FileManager.default.createFile(atPath: folder.appendingPathComponent("Píseň.pdf").path, contents: Data(try sample("Brahms-Cancion_de_Cuna.pdf")))
        FileManager.default.createFile(atPath: folder.appendingPathComponent(".Píseň.pdf.folio-journal").path, contents: Data("x".utf8))
        _ = try LibraryScanner(catalog: catalog).scan()
        XCTAssertNotNil(catalog.files.resolve("Píseň.pdf"))
        for path in [".folio/library.sqlite", ".folio", "./.folio/library.sqlite", "a/../.folio/library.sqlite", ".Píseň.pdf.folio-journal"] {
            XCTAssertNil(catalog.files.resolve(path), path)
            XCTAssertThrowsError(try catalog.resolve(fileName: path), path)
        }
    }

    /// A path a user gives goes through `LibraryPaths` whichever way it comes in: a CSV row's
    /// file, `library show` by absolute path, the folder reached through a link; a link that
    /// leads out of the library is no file of it, and the catalog's folder is its real path.
    func testEveryWayInResolvesPathsAsLibraryPathsDoes() throws {
        let outside = folder.appendingPathComponent("Mimo – 外")
        let library = folder.appendingPathComponent("Knihovna – 図書館")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Dvořák"), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: outside.appendingPathComponent("Tajné.pdf").path, contents: Data(try sample("Brahms-Cancion_de_Cuna.pdf")))
        FileManager.default.createFile(atPath: library.appendingPathComponent("Dvořák/Humoreska.pdf").path,
                                       contents: Data(try sample("Brahms-Cancion_de_Cuna.pdf")))
        try FileManager.default.createSymbolicLink(atPath: library.appendingPathComponent("Ven.pdf").path,
                                                   withDestinationPath: outside.appendingPathComponent("Tajné.pdf").path)
        let linked = folder.appendingPathComponent("Odkaz – リンク")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: library.path)

        let catalog = try LibraryCatalog(folder: linked.path, create: true)
        XCTAssertEqual(catalog.folder, catalog.files.root, "one kind of path")
        XCTAssertEqual(catalog.folder, try XCTUnwrap(LibraryPaths.realPath(library.path)))
        _ = try LibraryScanner(catalog: catalog).scan()

        XCTAssertEqual(try catalog.resolve(fileName: "Dvořák/Humoreska.pdf"), "Dvořák/Humoreska.pdf")
        XCTAssertEqual(try catalog.resolve(fileName: "Humoreska.pdf"), "Dvořák/Humoreska.pdf", "a bare name, as forScore exports")
        XCTAssertNil(catalog.files.resolve("Ven.pdf"))
        XCTAssertThrowsError(try catalog.resolve(fileName: "Ven.pdf"), "a link out of the library") { error in
            XCTAssertEqual((error as? LibraryError)?.code, .notFound)
        }
        for path in [linked.appendingPathComponent("Dvořák/Humoreska.pdf").path, library.appendingPathComponent("Dvořák/Humoreska.pdf").path] {
            XCTAssertEqual(try catalog.show(path).first?.path, "Dvořák/Humoreska.pdf", path)
        }
        XCTAssertThrowsError(try catalog.show(outside.appendingPathComponent("Tajné.pdf").path))

        XCTAssertEqual(LibraryPaths.prefix(from: library.path, to: linked.path), "")
        XCTAssertEqual(LibraryPaths.prefix(from: outside.path, to: linked.path), "../Knihovna – 図書館/")
        XCTAssertEqual(LibraryPaths.prefix(from: library.appendingPathComponent("Dvořák").path, to: library.path), "../")
    }

    func testWhatAKilledProcessLeftIsSettledAtStart() throws {
        let score = folder.appendingPathComponent("Sbor/Píseň.pdf")
        try FileManager.default.createDirectory(at: score.deletingLastPathComponent(), withIntermediateDirectories: true)
        let bytes = try sample("Brahms-Cancion_de_Cuna.pdf")
        FileManager.default.createFile(atPath: score.path, contents: Data(bytes))
        // A journal in no format of ours beside a score (torn as it was written), one beside a
        // score that is gone, a save's temporary copy, and an import's staging folder.
        let journal = folder.appendingPathComponent("Sbor/.Píseň.pdf.folio-journal").path
        FileManager.default.createFile(atPath: journal, contents: Data("folio-journal 1\ntorn".utf8))
        let orphan = folder.appendingPathComponent("Sbor/.Zmizelá.pdf.folio-journal").path
        FileManager.default.createFile(atPath: orphan, contents: Data("folio-journal 1\n".utf8))
        let staging = folder.appendingPathComponent(".folio-import-1a2b3c4d")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: staging.appendingPathComponent("0").path, contents: Data(bytes))
        let report = LibraryLeftovers.clean(folder: folder.path)
        XCTAssertEqual(report.settled, ["Sbor/Píseň.pdf"])
        XCTAssertEqual(Set(report.removed), [".folio-import-1a2b3c4d", "Sbor/.Zmizelá.pdf.folio-journal"])
        for path in [journal, orphan, staging.path] { XCTAssertFalse(FileManager.default.fileExists(atPath: path), path) }
        XCTAssertEqual(Array(try Data(contentsOf: score)), bytes, "the score itself is untouched")
        XCTAssertEqual(LibraryLeftovers.clean(folder: folder.path), LibraryLeftovers.Report(), "nothing the second time")
    }
}
