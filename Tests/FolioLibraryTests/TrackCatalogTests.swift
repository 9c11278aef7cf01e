import FolioLibrary
import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// Tracks in the catalog: the links a score's XMP keeps (`folioscore:tracks`, as a 4SB import
/// writes them) are adopted on a scan, relative to the score's folder, waiting for a file that
/// is not there yet; adopted once per version of the list; a setlist's pieces open with their
/// tracks, a bookmark's own first; audio files that are replaced by something else leave.
class TrackCatalogTests: XCTestCase {
    var folder: URL!

    /// The catalog the tests run on (TrackCatalogPostgresTests: one kept in PostgreSQL).
    func makeCatalog() throws -> LibraryCatalog {
        try LibraryCatalog(folder: folder.path)
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-tracks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Janáček"), withIntermediateDirectories: true)
        let samples = TestEnvironment.repositoryRoot.appendingPathComponent("Samples")
        try TestEnvironment.copy(at: samples.appendingPathComponent("Brahms-Cancion_de_Cuna.pdf"),
                                         to: folder.appendingPathComponent("Janáček/Po zarostlém chodníčku.pdf"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func tone(_ relative: String) throws {
        try TestEnvironment.recording(at: folder.appendingPathComponent(relative).path, seconds: 2)
    }

    private func writeTracks(_ links: [AudioTrackLink]) throws {
        try PDFSaver.update(path: folder.appendingPathComponent("Janáček/Po zarostlém chodníčku.pdf").path) { document in
            try AudioTrackLink.write(links, to: document)
        }
    }

    func testXMPTracksAdoptedAndWaiting() throws {
        let score = "Janáček/Po zarostlém chodníčku.pdf"
        try writeTracks([AudioTrackLink(file: "Audio/Dobrú noc – Добрый вечер.ogg", title: "Firkušný", loopStart: 1, loopEnd: 1.5),
                         AudioTrackLink(file: "Frýdecká.m4a", offset: 0.5)])
        let catalog = try makeCatalog()
        var summary = try LibraryScanner(catalog: catalog).scan()
        XCTAssertEqual(summary.audio, 0)
        var tracks = try catalog.tracks(of: score)
        XCTAssertEqual(tracks.map(\.file), ["Janáček/Audio/Dobrú noc – Добрый вечер.ogg", "Janáček/Frýdecká.m4a"])
        XCTAssertEqual(tracks.map(\.missing), [true, true])
        XCTAssertEqual(tracks.first?.loopEnd, 1.5)
        XCTAssertNil(try catalog.queuedTrack(score: score), "a missing file was queued")

        // The files arrive (one elsewhere, found by its name): linked.
        try tone("Janáček/Audio/Dobrú noc – Добрый вечер.ogg")
        try tone("Nahrávky/Frýdecká.m4a")
        summary = try LibraryScanner(catalog: catalog).scan()
        XCTAssertEqual(summary.audio, 2)
        tracks = try catalog.tracks(of: score)
        XCTAssertEqual(tracks.map(\.missing), [false, true], "\(tracks)")
        XCTAssertEqual(tracks.first?.kind, .ogg)
        XCTAssertEqual(try catalog.queuedTrack(score: score)?.id, tracks.first?.id)

        // Unlinked, then the score read again with the same list: not brought back; a new list is adopted.
        try catalog.unlinkTrack(id: try XCTUnwrap(tracks.first?.id), of: score)
        try PDFSaver.update(path: folder.appendingPathComponent(score).path) { document in try document.setInfo("Subject", to: "Ση") }
        _ = try LibraryScanner(catalog: catalog).scan()
        XCTAssertEqual(try catalog.tracks(of: score).count, 1)
        XCTAssertThrowsError(try writeTracks([AudioTrackLink(file: "../Nahrávky/Frýdecká.m4a")]), "a link leading out was kept")
        try writeTracks([AudioTrackLink(file: "Audio/Dobrú noc – Добрый вечер.ogg", title: "Firkušný (1966)")])
        _ = try LibraryScanner(catalog: catalog).scan()
        XCTAssertEqual(try catalog.tracks(of: score).map(\.file).sorted(),
                       ["Janáček/Audio/Dobrú noc – Добрый вечер.ogg", "Janáček/Frýdecká.m4a"], "the new list was not adopted")

        // Replaced by something that is not audio: it leaves the catalog, the link waits at its path.
        try Data("Это не звук".utf8).write(to: folder.appendingPathComponent("Janáček/Audio/Dobrú noc – Добрый вечер.ogg"))
        summary = try LibraryScanner(catalog: catalog).scan()
        XCTAssertEqual(summary.notAudio, ["Janáček/Audio/Dobrú noc – Добрый вечер.ogg"])
        XCTAssertTrue(try catalog.tracks(of: score).allSatisfy(\.missing))
        XCTAssertEqual(try catalog.audioFiles().map(\.path), ["Nahrávky/Frýdecká.m4a"])
    }

    func testSetlistPiecesOpenWithTheirTracks() throws {
        let score = "Janáček/Po zarostlém chodníčku.pdf"
        try PDFSaver.update(path: folder.appendingPathComponent(score).path) { document in
            var edit = ScoreEdit()
            edit.tempo = 66
            edit.timeSignature = "3/4"
            _ = try ScoreWriter.write(edit, to: document)
        }
        try tone("a.flac")
        try tone("b.wav")
        let catalog = try makeCatalog()
        _ = try LibraryScanner(catalog: catalog).scan()
        try catalog.createSetlist("Koncert")
        try catalog.addToSetlist("Koncert", .score(path: score))
        try catalog.addToSetlist("Koncert", .placeholder(title: "Přídavek"))
        XCTAssertEqual(try catalog.setlistSound("Koncert").map { $0.track?.file }, [nil, nil])
        try catalog.linkTrack(TrackLink(score: score, audio: "b.wav"))
        try catalog.linkTrack(TrackLink(score: score, audio: "a.flac", offset: 1))
        let pieces = try catalog.setlistSound("Koncert")
        XCTAssertEqual(pieces.map { $0.track?.file }, ["b.wav", nil])
        XCTAssertEqual(pieces.first?.tempo, 66)
        XCTAssertEqual(pieces.first?.timeSignature, "3/4")
        XCTAssertNil(pieces.last?.score)
        XCTAssertThrowsError(try catalog.linkTrack(TrackLink(score: score, audio: "/etc/passwd")))
        XCTAssertThrowsError(try catalog.changeTrack(id: 999, of: score, TrackChange(offset: 1)))
    }
}
