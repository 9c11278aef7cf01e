import FolioPDF
import FolioTestSupport
import Foundation
import XCTest

@testable import FolioScore

/// `ScoreReading` reads the Info dictionary and the XMP packet once for what the catalog
/// keeps; it must give what the three readings it stands for give one by one.
final class ScoreReadingTests: XCTestCase {
    private func assertSameAsEachAlone(_ document: PDFDocument, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let reading = ScoreReading(document: document)
        let (metadata, warnings) = ScoreMetadata.read(from: document)
        let provider = XMPBookmarkProvider(document: document)
        XCTAssertEqual(reading.metadata, metadata, name, file: file, line: line)
        XCTAssertEqual(reading.metadataWarnings, warnings, name, file: file, line: line)
        XCTAssertEqual(reading.bookmarks, provider.bookmarks, name, file: file, line: line)
        XCTAssertEqual(reading.bookmarkWarnings, provider.warnings, name, file: file, line: line)
        XCTAssertEqual(reading.tracks, AudioTrackLink.links(of: document), name, file: file, line: line)
    }

    func testEveryCorpusFileReadsAsEachReadingAlone() throws {
        let root = try SharedCorpus.folder()
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
            .filter { $0.lowercased().hasSuffix(".pdf") }.sorted() ?? []
        var withFields = 0
        for name in files {
            guard let document = try? PDFDocument(path: root.appendingPathComponent(name).path) else { continue }
            assertSameAsEachAlone(document, name)
            if ScoreReading(document: document).metadata.title != nil { withFields += 1 }
        }
        XCTAssertGreaterThan(withFields, 20, "the corpus carries titles to compare")
    }

    func testAScoreWithStoredBookmarksTracksAndFields() throws {
        let path = try temporaryPDF(named: "Rusalka.pdf", info: "<< >>", xmp: nil)
        var piece = Bookmark(id: "R1", name: "Měsíčku na nebi hlubokém", action: .page(index: 0), pages: 1...1)
        piece.metadata.composers = ["Antonín Dvořák"]
        piece.metadata.labels = ["Μέτζο", "ソプラノ"]
        try PDFSaver.update(path: path) { document in
            var edit = ScoreEdit()
            edit.title = "Русалка"
            edit.composers = ["Antonín Dvořák"]
            edit.labels = ["オペラ"]
            edit.tempo = 72
            _ = try ScoreWriter.write(edit, to: document)
            var provider = XMPBookmarkProvider(document: document)
            XCTAssertTrue(provider.add(piece))
            try provider.write(to: document)
            try AudioTrackLink.write([AudioTrackLink(file: "Audio/Měsíčku.m4a", title: "Česká filharmonie", loopStart: 12, loopEnd: 48.5)],
                                     to: document)
        }
        let document = try PDFDocument(path: path)
        let reading = ScoreReading(document: document)
        XCTAssertEqual(reading.metadata.title, "Русалка")
        XCTAssertEqual(reading.metadata.labels, ["オペラ"])
        XCTAssertEqual(reading.metadata.tempo, 72)
        XCTAssertEqual(reading.bookmarks, [piece])
        XCTAssertEqual(reading.tracks.map(\.file), ["Audio/Měsíčku.m4a"])
        assertSameAsEachAlone(document, "Rusalka.pdf")
    }
}
