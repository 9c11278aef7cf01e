import FolioTestSupport
import Foundation
import XCTest

/// `folio tracks` as a user runs it: recordings made by ffmpeg linked to scores and
/// bookmarks, with loops; links that follow renamed and moved files, wait for a deleted
/// recording and find it again; refusals that name what is valid; and a forScore archive's
/// Tracks linked to the recording it carries, under the name the import gave it.
final class TracksCommandTests: CommandTestCase, @unchecked Sendable {
    private var library: String { path("Knihovna") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let samples = TestEnvironment.repositoryRoot.appendingPathComponent("Samples")
        try FileManager.default.createDirectory(atPath: library + "/Nahrávky", withIntermediateDirectories: true)
        for name in ["Brahms-Cancion_de_Cuna.pdf", "Traditional-Greensleeves_hymntune.pdf"] {
            try TestEnvironment.copy(atPath: samples.appendingPathComponent(name).path, toPath: library + "/" + name)
        }
        try invoke(["library", "scan", library])   // only a scan makes a catalog
    }

    private func tone(_ relative: String, seconds: Double = 4, hertz: Int = 440) throws {
        try TestEnvironment.recording(at: library + "/" + relative, seconds: seconds, hertz: hertz)
    }

    private func tracks(_ score: String? = nil) throws -> [[String: Any]] {
        let run = try invoke(["tracks", "list"] + (score.map { [$0] } ?? []) + ["--json", "--library", library])
        return try TestEnvironment.jsonLines(run.out)
    }

    func testLinkLoopRenameUnlink() throws {
        try tone("Nahrávky/Ukolébavka – Колыбельная.flac")
        try tone("Nahrávky/Greensleeves – Πράσινα μανίκια.mp3")
        try Data("%PDF-1.4 not a recording".utf8).write(to: URL(fileURLWithPath: library + "/Nahrávky/fake.mp3"))
        let brahms = "Brahms-Cancion_de_Cuna.pdf"

        let audio = try invoke(["tracks", "list", "--audio", "--json", "--library", library])
        let files = try TestEnvironment.jsonLines(audio.out)
        XCTAssertEqual(files.map { $0["kind"] as? String }, ["mp3", "flac"], "fake.mp3 is no recording: \(files)")

        let linked = try invoke(["tracks", "link", brahms, "Nahrávky/Ukolébavka – Колыбельная.flac", "--a", "0:01.5", "--b", "3",
                                 "--title", "Wiegenlied – 子守歌", "--json", "--library", library])
        let track = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(linked.out.utf8)) as? [String: Any])
        XCTAssertEqual(track["loopStart"] as? Double, 1.5)
        XCTAssertEqual(track["loopEnd"] as? Double, 3)
        XCTAssertEqual(track["kind"] as? String, "flac")
        try invoke(["tracks", "link", brahms, "Greensleeves – Πράσινα μανίκια.mp3", "--offset", "2", "--library", library])

        // Refused, with what is valid; nothing linked.
        for (arguments, message) in [(["Nahrávky/fake.mp3"], "not audio by its content"),
                                     (["../../etc/passwd"], "lies outside the library"),
                                     (["Greensleeves – Πράσινα μανίκια.mp3", "--bookmark", "Trio"], "has no bookmark titled Trio"),
                                     (["Greensleeves – Πράσινα μανίκια.mp3", "--a", "3", "--b", "2"], "before it starts"),
                                     (["Greensleeves – Πράσινα μανίκια.mp3", "--offset", "90000"], "valid: 0 to 86400 seconds"),
                                     (["Greensleeves – Πράσινα μανίκια.mp3", "--a", "1:75"], "minutes:seconds")] {
            let refused = try invoke(["tracks", "link", "Traditional-Greensleeves_hymntune.pdf"] + arguments + ["--library", library], status: nil)
            XCTAssertNotEqual(refused.status, 0, "\(arguments)")
            XCTAssertTrue(refused.err.contains(message), "\(arguments): \(refused.err)")
        }
        XCTAssertEqual(try tracks("Traditional-Greensleeves_hymntune.pdf").count, 0)
        let twice = try invoke(["tracks", "link", brahms, "Nahrávky/Ukolébavka – Колыбельная.flac", "--library", library], status: 64)
        XCTAssertTrue(twice.err.contains("is linked to Brahms-Cancion_de_Cuna.pdf already (track "), twice.err)

        // Renamed and moved outside Folio: the links follow both files.
        try FileManager.default.createDirectory(atPath: library + "/Brahms", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: library + "/" + brahms, toPath: library + "/Brahms/Ukolébavka.pdf")
        try FileManager.default.moveItem(atPath: library + "/Nahrávky/Ukolébavka – Колыбельная.flac",
                                         toPath: library + "/Wiegenlied.flac")
        var listed = try tracks("Brahms/Ukolébavka.pdf")
        XCTAssertEqual(listed.map { $0["file"] as? String }, ["Wiegenlied.flac", "Nahrávky/Greensleeves – Πράσινα μανίκια.mp3"])
        XCTAssertEqual(listed.first?["title"] as? String, "Wiegenlied – 子守歌")

        // Deleted: the link waits at its path, and finds the file when it comes back.
        let saved = try Data(contentsOf: URL(fileURLWithPath: library + "/Wiegenlied.flac"))
        try FileManager.default.removeItem(atPath: library + "/Wiegenlied.flac")
        listed = try tracks("Ukolébavka.pdf")
        XCTAssertEqual(listed.first?["missing"] as? Bool, true)
        XCTAssertEqual(listed.first?["file"] as? String, "Wiegenlied.flac")
        XCTAssertNil(listed.first?["audio"])
        try saved.write(to: URL(fileURLWithPath: library + "/Wiegenlied.flac"))
        listed = try tracks("Ukolébavka.pdf")
        XCTAssertEqual(listed.first?["missing"] as? Bool, false)
        XCTAssertEqual(listed.first?["kind"] as? String, "flac")

        // The loop changed, then cleared; the offset removed; unlinked.
        let id = try XCTUnwrap(listed.first?["id"] as? Int)
        try invoke(["tracks", "loop", "Ukolébavka.pdf", "--track", String(id), "--b", "3.5", "--library", library])
        XCTAssertEqual(try tracks("Ukolébavka.pdf").first?["loopEnd"] as? Double, 3.5)
        XCTAssertEqual(try tracks("Ukolébavka.pdf").first?["loopStart"] as? Double, 1.5)
        let bad = try invoke(["tracks", "loop", "Ukolébavka.pdf", "--track", String(id), "--a", "5", "--library", library], status: 64)
        XCTAssertTrue(bad.err.contains("before it starts"), bad.err)
        try invoke(["tracks", "loop", "Ukolébavka.pdf", "--track", String(id), "--clear", "--library", library])
        XCTAssertNil(try tracks("Ukolébavka.pdf").first?["loopStart"])
        let second = try XCTUnwrap(try tracks("Ukolébavka.pdf").last?["id"] as? Int)
        try invoke(["tracks", "loop", "Ukolébavka.pdf", "--track", String(second), "--offset", "none", "--library", library])
        XCTAssertNil(try tracks("Ukolébavka.pdf").last?["offset"])
        let missing = try invoke(["tracks", "unlink", "Ukolébavka.pdf", "--track", "999", "--library", library], status: 1)
        XCTAssertTrue(missing.err.contains("no track 999"), missing.err)
        let wouldLoop = try invoke(["tracks", "loop", "Ukolébavka.pdf", "--track", String(id), "--b", "2", "--dry-run", "--json",
                                    "--library", library])
        XCTAssertEqual(try TestEnvironment.jsonLines(wouldLoop.out).first?["loopEnd"] as? Double, 2)
        try invoke(["tracks", "loop", "Ukolébavka.pdf", "--track", String(id), "--a", "5", "--b", "4", "--dry-run", "--library", library],
                   status: 64)
        let wouldUnlink = try invoke(["tracks", "unlink", "Ukolébavka.pdf", "--track", String(id), "--dry-run", "--library", library])
        XCTAssertTrue(wouldUnlink.out.hasPrefix("would unlink "), wouldUnlink.out)
        XCTAssertEqual(try tracks("Ukolébavka.pdf").count, 2, "a dry run unlinked")
        XCTAssertNil(try tracks("Ukolébavka.pdf").first?["loopEnd"], "a dry run set the loop")
        try invoke(["tracks", "unlink", "Ukolébavka.pdf", "--track", String(id), "--library", library])
        XCTAssertEqual(try tracks().map { $0["file"] as? String }, ["Nahrávky/Greensleeves – Πράσινα μανίκια.mp3"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: library + "/Wiegenlied.flac"), "unlinking removed the file")
    }

    func testArchiveTracksLinkTheRecordingItCarries() throws {
        // The folder holds a recording of the same name already: the archive's is imported
        // beside it under a free name, and the track links that one.
        try tone("Dobrú noc – Firkušný.wav", seconds: 2, hertz: 330)
        let carried = path("carried.wav")
        try TestEnvironment.recording(at: carried, seconds: 4, hertz: 660)
        let archive = path("Archiv.4sb")
        let made = try TestEnvironment.runTool("python3", [TestEnvironment.repositoryRoot.appendingPathComponent("Tests/Oracle/forscore_files.py").path,
                                                           "make-sound", archive,
                                                           library + "/Brahms-Cancion_de_Cuna.pdf", carried])
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        try invoke(["import-4sb", archive, library])
        let listed = try tracks()
        XCTAssertEqual(listed.count, 1, "\(listed)")
        let track = try XCTUnwrap(listed.first)
        XCTAssertEqual(track["score"] as? String, "Janáček – Dobrú noc.pdf")
        XCTAssertEqual(track["file"] as? String, "Dobrú noc – Firkušný 2.wav")
        XCTAssertEqual(track["title"] as? String, "Rudolf Firkušný")
        XCTAssertEqual(track["loopStart"] as? Double, 1.5)
        XCTAssertEqual(track["loopEnd"] as? Double, 3)
        XCTAssertEqual(track["missing"] as? Bool, false)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: library + "/Dobrú noc – Firkušný 2.wav")),
                       try Data(contentsOf: URL(fileURLWithPath: carried)))

        // Unlinked, it stays unlinked though the score's XMP still names it, and the score is read again.
        try invoke(["tracks", "unlink", "Janáček – Dobrú noc.pdf", "--track", String(try XCTUnwrap(track["id"] as? Int)),
                    "--library", library])
        // `meta set` goes through the library's edit path, which reads the score again at once:
        // the scan after it finds nothing changed.
        try invoke(["meta", "set", library + "/Janáček – Dobrú noc.pdf", "--rating", "4"])
        XCTAssertEqual(try tracks().count, 0)
        let scan = try invoke(["library", "scan", library])
        XCTAssertTrue(scan.err.contains("0 changed"), scan.err)
        XCTAssertEqual(try tracks().count, 0)
    }
}
