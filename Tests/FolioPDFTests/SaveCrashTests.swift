import FolioTestSupport
import Foundation
import XCTest

@testable import FolioPDF

/// `folio` killed with SIGKILL at every stage of each save path, on copies of corpus
/// files: after the next Folio open the file is its old or its new version (Poppler reads
/// the new title back), `qpdf --check` says nothing new, and nothing is left beside it.
/// The clone path runs on an XFS image with reflink mounted on a loop device.
final class SaveCrashTests: XCTestCase {
    private var directory: URL!

    static let files = [TestEnvironment.annotatedScore, "pypdf/fontsampler.pdf", "qpdf/c-object-streams.pdf"]

    /// Per method, each stage and whether the new version is what the next open finds.
    static let stages: [(method: String, stages: [(SaveStage, new: Bool)])] = [
        ("copy", [(.created, false), (.copied, false), (.appendedHalf, false), (.appended, false), (.synced, false),
                  (.renamed, true)]),
        // Killing a process loses nothing it wrote: once the whole update is written its
        // hash matches and it stays; before that it is cut off.
        ("journal", [(.journalWritten, false), (.appendedHalf, false), (.appended, true), (.synced, true),
                     (.journalRemoved, true)]),
    ]

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testKilledAtEveryStageOfCopyAndJournalIsOldOrNew() throws {
        for (method, stages) in Self.stages {
            try crashEveryStage(method: method, stages: stages, in: directory)
        }
    }

    func testCloneOnAReflinkFilesystem() throws {
        let volume: ReflinkVolume
        switch ReflinkVolume.mount() {
        case .failure(let reason):
            print("SaveCrashTests: no reflink volume (\(reason)); testing the clone call where the tests run")
            // Then whatever this filesystem does: clone, or a refusal the report gives.
            let path = try copy(Self.files[0], into: directory)
            let run = try folio(["set-info", path, "--entry", "Title=Here", "--verbose"])
            XCTAssertEqual(run.status, 0)
            let said = String(decoding: run.stderr, as: UTF8.self)
            XCTAssertTrue(said.contains("clone and rename") || said.contains("no block sharing here"), said)
            return
        case .success(let mounted):
            volume = mounted
        }
        defer { volume.unmount() }
        let path = try copy(Self.files[1], into: volume.directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let run = try folio(["set-info", path, "--entry", "Title=Cloned", "--verbose"])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        XCTAssertTrue(String(decoding: run.stderr, as: UTF8.self).contains("saved by clone and rename,"),
                      String(decoding: run.stderr, as: UTF8.self))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(original.count), original)
        XCTAssertEqual(try pdfinfoTitle(path), "Cloned")
        try FileManager.default.removeItem(atPath: path)
        try crashEveryStage(method: "clone", stages: Self.stages[0].stages, in: volume.directory)
    }

    /// Several processes on one file, each method: every edit lands, in turn.
    func testConcurrentWritersOnEveryPathAllLand() throws {
        let path = try copy(Self.files[0], into: directory)
        let folio = try TestEnvironment.folioBinary()
        let methods = ["journal", "copy", "auto", "journal", "copy", "auto"]
        let processes = methods.enumerated().map { index, method -> Process in
            let process = Process()
            process.executableURL = folio
            process.arguments = ["set-info", path, "--entry", "Key\(index)=Value \(index)", "--save-method", method]
            return process
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        XCTAssertEqual(processes.map(\.terminationStatus), methods.map { _ in 0 })
        let document = try PDFDocument(path: path)
        for index in methods.indices { XCTAssertEqual(document.info.entries["Key\(index)"], "Value \(index)") }
        XCTAssertEqual(try leftovers(in: directory), [(path as NSString).lastPathComponent])
        XCTAssertEqual(try qpdfCheck(path).status, 0)
    }

    // MARK: Helpers

    private func crashEveryStage(method: String, stages: [(SaveStage, new: Bool)], in folder: URL) throws {
        for file in Self.files {
            let baseline = try qpdfCheck(try TestEnvironment.corpusFile(file))
            for (stage, expectNew) in stages {
                let label = "\(method) \(stage.rawValue) \(file)"
                let path = try copy(file, into: folder)
                let original = try Data(contentsOf: URL(fileURLWithPath: path))
                let title = "Crash \(stage.rawValue)"
                let killed = try folio(["set-info", path, "--entry", "Title=\(title)", "--save-method", method],
                                       environment: ["FOLIO_TEST_KILL_AT": stage.rawValue])
                XCTAssertEqual(killed.status, SIGKILL, "\(label): killed at its stage")
                let journalLeft = SaveJournal.pending(for: path) != nil
                XCTAssertEqual(journalLeft, method == "journal" && stage != .journalRemoved, label)
                // The next Folio open: `check` reports the journal, then settles it.
                let check = try folio(["check", path])
                let report = String(decoding: check.stdout, as: UTF8.self)
                if journalLeft {
                    XCTAssertTrue(report.contains("pending save journal"), "\(label): \(report)")
                    XCTAssertTrue(report.contains(expectNew ? "kept" : "rolled back"), "\(label): \(report)")
                }
                let after = try Data(contentsOf: URL(fileURLWithPath: path))
                if expectNew {
                    XCTAssertGreaterThan(after.count, original.count, label)
                    XCTAssertEqual(after.prefix(original.count), original, "\(label): the original is a prefix")
                    XCTAssertEqual(try pdfinfoTitle(path), title, label)
                } else {
                    XCTAssertEqual(after, original, "\(label): byte-identical to the old version")
                }
                let checked = try qpdfCheck(path)
                XCTAssertEqual(checked.status, baseline.status, label)
                XCTAssertEqual(checked.warnings, baseline.warnings, "\(label): qpdf --check has nothing new")
                XCTAssertEqual(try leftovers(in: folder), [path.split(separator: "/").last.map(String.init) ?? ""],
                               "\(label): no journal or temporary file left")
                try FileManager.default.removeItem(atPath: path)
            }
        }
    }

    private func copy(_ file: String, into folder: URL) throws -> String {
        let path = folder.appendingPathComponent((file as NSString).lastPathComponent).path
        try? FileManager.default.removeItem(atPath: path)
        try TestEnvironment.copy(atPath: try TestEnvironment.corpusFile(file), toPath: path)
        chmod(path, 0o644)
        return path
    }

    private func folio(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: Data, stderr: Data)
    {
        try TestEnvironment.run(try TestEnvironment.folioBinary(), arguments, environment: environment)
    }

    private func leftovers(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "lost+found" }.sorted()
    }

    private func pdfinfoTitle(_ path: String) throws -> String? {
        let run = try TestEnvironment.runTool("pdfinfo", [path])
        return String(decoding: run.stdout, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("Title:") }
            .map { $0.dropFirst("Title:".count).trimmingCharacters(in: .whitespaces) }
    }

    /// qpdf's verdict and its warnings without the file name, which differs per copy.
    private func qpdfCheck(_ path: String) throws -> (status: Int32, warnings: [String]) {
        let run = try TestEnvironment.runTool("qpdf", ["--check", path])
        let text = String(decoding: run.stdout + run.stderr, as: UTF8.self)
        return (run.status, text.split(separator: "\n").filter { $0.contains("WARNING") }
                    .map { $0.replacingOccurrences(of: path, with: "FILE") })
    }
}

/// A small XFS filesystem with reflink in an image file, mounted on a loop device; the
/// reason it could not be when mounting is not permitted here.
struct ReflinkVolume {
    let image: URL
    let directory: URL

    static func mount() -> Result<ReflinkVolume, TestFailure> {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("folio-xfs-\(UUID().uuidString)")
        let image = base.appendingPathExtension("img")
        do {
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
            // XFS wants at least 300 MB; the image is sparse, so this costs what is written.
            _ = FileManager.default.createFile(atPath: image.path, contents: nil)
            let handle = try FileHandle(forWritingTo: image)
            try handle.truncate(atOffset: 320 << 20)
            try handle.close()
            for (tool, arguments) in [("mkfs.xfs", ["-q", "-m", "reflink=1", image.path]),
                                      ("mount", ["-o", "loop", image.path, base.path])] {
                let run = try TestEnvironment.runTool(tool, arguments, timeout: 120)
                guard run.status == 0 else {
                    throw TestFailure("\(tool) failed: \(String(decoding: run.stderr, as: UTF8.self).prefix(200))")
                }
            }
            return .success(ReflinkVolume(image: image, directory: base))
        } catch {
            try? FileManager.default.removeItem(at: base)
            try? FileManager.default.removeItem(at: image)
            return .failure(error as? TestFailure ?? TestFailure("\(error)"))
        }
    }

    func unmount() {
        _ = try? TestEnvironment.runTool("umount", [directory.path], timeout: 120)
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: image)
    }
}
