import FolioLibrary
import FolioPDF
import FolioScore
import FolioTestSupport
import Foundation
import XCTest

/// `LibraryCatalog.backup(to:)`: a copy taken while another thread edits is the library as it
/// stood at one moment (SQLite's own integrity check, Python's sqlite3 reading it), its files are
/// the library's, and it opens as a library; a refused or failed backup leaves nothing behind.
final class LibraryBackupTests: XCTestCase {
    private var work: URL!
    private var library: URL { work.appendingPathComponent("Ноты – 楽譜") }
    private let score = "Brahms-Cancion_de_Cuna.pdf"

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("folio-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: library.appendingPathComponent("Dvořák"), withIntermediateDirectories: true)
        let scores = try SharedCorpus.folder().appendingPathComponent("scores")
        try TestEnvironment.copy(at: scores.appendingPathComponent(score), to: library.appendingPathComponent(score))
        try TestEnvironment.copy(at: scores.appendingPathComponent("Chopin-Prelude_Op_28_No_15.pdf"),
                                         to: library.appendingPathComponent("Dvořák/Humoreska – 練習曲.pdf"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// What a moment of the catalog holds: setlists, members, and the history of changes.
    private struct Moment: Equatable, CustomStringConvertible {
        var setlists: [String]
        var members: [String]
        var history: [String]
        var description: String { "\(setlists.count) setlists, \(members.count) members, \(history.count) changes" }
    }

    private static func moment(_ catalog: LibraryCatalog, score: String = "Brahms-Cancion_de_Cuna.pdf") throws -> Moment {
        Moment(setlists: try catalog.setlists().map(\.name).sorted(),
               members: try catalog.members().map(\.name).sorted(),
               history: try catalog.changes(score: score).map(\.change))
    }

    func testACopyUnderConcurrentEditsIsOneMomentOfTheLibrary() throws {
        let catalog = try LibraryCatalog(folder: library.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        // The writer records the state after each of its steps; the copy must equal one of them.
        let writer = try LibraryCatalog(folder: library.path, create: false)
        let moments = LockedList<Moment>()
        moments.append(try Self.moment(writer))
        let started = DispatchSemaphore(value: 0)
        let steps = 24
        let done = DispatchSemaphore(value: 0)
        let failure = LockedList<String>()
        let scoreName = score
        Thread.detachNewThread {
            defer { done.signal() }
            do {
                for step in 0..<steps {
                    try writer.createSetlist("Koncert \(step) – Концерт")
                    moments.append(try Self.moment(writer))
                    _ = try writer.addMember(MemberSetting(name: "Hráč \(step) 奏者"))
                    moments.append(try Self.moment(writer))
                    _ = try writer.edit(score: scoreName, expected: nil, change: "Hodnocení \(step % 5 + 1)") { document in
                        var change = ScoreChange()
                        change.edit.rating = step % 5 + 1
                        _ = try change.apply(to: document)
                    }
                    moments.append(try Self.moment(writer))
                    if step == steps / 3 { started.signal() }
                }
            } catch {
                failure.append("\(error)")
                started.signal()
            }
        }
        // What a save and an import write while they run is not the library's: never copied.
        let inFlight = [".Humoreska – 練習曲.pdf.folio-k3x9.tmp", ".folio-import-5f2a/Příloha.pdf"]
        for name in inFlight {
            let url = library.appendingPathComponent("Dvořák").appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("%PDF-1.7 half written".utf8).write(to: url)
        }
        started.wait()
        let destination = work.appendingPathComponent("záloha – バックアップ")
        let summary = try catalog.backup(to: destination.path)
        done.wait()
        XCTAssertEqual(failure.items, [])
        XCTAssertEqual(summary.destination, destination.path)
        // The two scores and what .folio holds besides the catalog (none of its pictures).
        let folioFiles = try FileManager.default.subpathsOfDirectory(atPath: destination.appendingPathComponent(".folio").path)
            .filter { !$0.hasPrefix("library.sqlite") && !$0.hasSuffix("/") }
            .filter { (try? FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent(".folio/" + $0).path)[.type] as? FileAttributeType) == .typeRegular }
        XCTAssertEqual(summary.files, 2 + folioFiles.count, "\(folioFiles)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination.appendingPathComponent("Dvořák").path),
                       ["Humoreska – 練習曲.pdf"], "no temporary copy, no staging folder")

        // SQLite's integrity check, by Python's sqlite3 (not GRDB), on the copy's one file.
        let copyDatabase = destination.appendingPathComponent(".folio/library.sqlite").path
        XCTAssertFalse(FileManager.default.fileExists(atPath: copyDatabase + "-wal") && ((try? FileManager.default.attributesOfItem(
            atPath: copyDatabase + "-wal")[.size] as? Int) ?? 0) ?? 0 > 0, "the copy is one file")
        let check = try TestEnvironment.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute("PRAGMA integrity_check").fetchone()[0])
            print(db.execute("SELECT count(*) FROM setlist").fetchone()[0])
            """, copyDatabase)
        let lines = check.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "ok")

        let copy = try LibraryCatalog(folder: destination.path, create: false)
        let copied = try Self.moment(copy)
        XCTAssertEqual(lines.last, String(copied.setlists.count))
        XCTAssertTrue(moments.items.contains(copied), "the copy (\(copied)) is a moment the library went through")
        XCTAssertGreaterThan(copied.setlists.count, steps / 3, "taken while the writer was at work")

        // The files are the library's (the one edited may be newer than its catalog row: the copy's scan reads it).
        let other = "Dvořák/Humoreska – 練習曲.pdf"
        XCTAssertEqual(try Data(contentsOf: destination.appendingPathComponent(other)), try Data(contentsOf: library.appendingPathComponent(other)))
        _ = try LibraryScanner(catalog: copy).scan()
        XCTAssertEqual(try copy.search(LibraryQuery(text: "humoreska")).map(\.path), [other])
        XCTAssertNil(try? FileManager.default.contentsOfDirectory(atPath: destination.appendingPathComponent(".folio/covers").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted(), ["záloha – バックアップ", "Ноты – 楽譜"].sorted(),
                       "no staging folder left")
    }

    func testARefusedBackupLeavesNothing() throws {
        let catalog = try LibraryCatalog(folder: library.path)
        _ = try LibraryScanner(catalog: catalog).scan()
        let before = try FileManager.default.contentsOfDirectory(atPath: work.path).sorted()
        for (destination, code) in [(library.appendingPathComponent("inside").path, LibraryErrorCode.invalidArgument),
                                    (library.path, .invalidArgument),
                                    (work.appendingPathComponent("missing/child").path, .notFound)] {
            XCTAssertThrowsError(try catalog.backup(to: destination)) { error in
                XCTAssertEqual((error as? LibraryError)?.code, code, destination)
            }
        }
        // A file that cannot be read (as a user other than root): the half copy is removed.
        let locked = library.appendingPathComponent("Dvořák/Humoreska – 練習曲.pdf")
        if getuid() != 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: locked.path) }
            XCTAssertThrowsError(try catalog.backup(to: work.appendingPathComponent("b").path)) { error in
                XCTAssertEqual((error as? LibraryError)?.code, .io)
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted(), before)
    }
}

/// A list several threads append to.
private final class LockedList<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [T] = []
    func append(_ item: T) { lock.withLock { list.append(item) } }
    var items: [T] { lock.withLock { list } }
}
