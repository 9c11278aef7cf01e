import FolioTestSupport
import Foundation
import XCTest

/// `folio` killed with SIGKILL at every stage of each save path, on copies of corpus files:
/// after the next `folio` run the file is its old or its new version (Poppler reads the new
/// title back), `qpdf --check` says nothing new, and nothing is left beside it. The clone
/// path runs on an XFS image with reflink mounted on a loop device. Writers in several
/// processes on one file all land, in turn. These drive the binary, so they live with the
/// command line's end-to-end tests; the engine's own tests call the saver in process.
final class SaveCrashCommandTests: XCTestCase {
    private var directory: URL!

    static let files = [TestEnvironment.annotatedScore, "pypdf/fontsampler.pdf", "qpdf/c-object-streams.pdf"]

    /// Per method, each stage (`FOLIO_TEST_KILL_AT`, the engine's `SaveStage` names) and
    /// whether the new version is what the next run finds.
    static let stages: [(method: String, stages: [(stage: String, new: Bool)])] = [
        ("copy", [("created", false), ("copied", false), ("appended-half", false), ("appended", false), ("synced", false),
                  ("renamed", true)]),
        // Killing a process loses nothing it wrote: once the whole update is written its
        // hash matches and it stays; before that it is cut off.
        ("journal", [("journal-written", false), ("appended-half", false), ("appended", true), ("synced", true),
                     ("journal-removed", true)]),
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
            print("SaveCrashCommandTests: no reflink volume (\(reason)); testing the clone call where the tests run")
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
        let run = try folio(["set-info", path, "--entry", "Title=Cloned – Клон", "--verbose"])
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        XCTAssertTrue(String(decoding: run.stderr, as: UTF8.self).contains("saved by clone and rename,"),
                      String(decoding: run.stderr, as: UTF8.self))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(original.count), original)
        XCTAssertEqual(try pdfinfoTitle(path), "Cloned – Клон")
        try FileManager.default.removeItem(atPath: path)
        try crashEveryStage(method: "clone", stages: Self.stages[0].stages, in: volume.directory)
    }

    /// Several processes on one file, each method: every edit lands, in turn, each its own
    /// update (pikepdf reads every key; the file has one cross-reference section per save).
    func testConcurrentWritersOnEveryPathAllLand() throws {
        for (file, methods) in [(Self.files[0], ["journal", "copy", "auto", "journal", "copy", "auto"]),
                                ("qpdf/minimal.pdf", ["auto", "auto", "auto", "auto"])] {
            let path = try copy(file, into: directory)
            let sections = try startxrefs(path)
            let folio = try TestEnvironment.folioBinary()
            let processes = methods.enumerated().map { index, method -> Process in
                let process = Process()
                process.executableURL = folio
                process.arguments = ["set-info", path, "--entry", "Key\(index)=Значение \(index)", "--save-method", method]
                return process
            }
            for process in processes { try process.run() }
            for process in processes { process.waitUntilExit() }
            XCTAssertEqual(processes.map(\.terminationStatus), methods.map { _ in 0 }, file)
            let keys = try python("import pikepdf,sys; pdf=pikepdf.open(sys.argv[1]); i=pdf.docinfo; "
                + "print('\\n'.join(f'{k[1:]}={i[k]}' for k in sorted(i.keys()) if k.startswith('/Key')))", path)
            XCTAssertEqual(keys.split(separator: "\n").map(String.init), methods.indices.map { "Key\($0)=Значение \($0)" }, file)
            XCTAssertEqual(try startxrefs(path), sections + methods.count, "\(file): one incremental update per writer")
            XCTAssertEqual(try leftovers(in: directory), [(path as NSString).lastPathComponent])
            XCTAssertEqual(try qpdfCheck(path).status, 0)
            try FileManager.default.removeItem(atPath: path)
        }
    }

    /// A writer killed at random moments leaves the old file or the new one, never a mix.
    func testKilledRewriteLeavesOldOrNewFile() throws {
        let path = try copy("pypdf/fontsampler.pdf", into: directory)
        let source = try Data(contentsOf: URL(fileURLWithPath: path))
        let pages = try pageCount(path)
        let folio = try TestEnvironment.folioBinary()
        var sizes: Set<Int> = []
        var outcomes = (old: 0, new: 0)
        for round in 0..<12 {
            let process = Process()
            process.executableURL = folio
            process.arguments = ["rewrite", path, path]
            try process.run()
            usleep(useconds_t(1_000 * (round * 7 % 60)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Data(contentsOf: URL(fileURLWithPath: path))
            if now == source {
                outcomes.old += 1
            } else {
                // Not the old file: it must be a complete new one.
                XCTAssertEqual(try pageCount(path), pages, "round \(round)")
                XCTAssertEqual(try qpdfCheck(path).status, 0, "round \(round): a complete file")
                XCTAssertEqual(try qpdfCheck(path).warnings, [], "round \(round): nothing to reconstruct")
                sizes.insert(now.count)
                outcomes.new += 1
                try source.write(to: URL(fileURLWithPath: path))
            }
        }
        XCTAssertEqual(outcomes.old + outcomes.new, 12)
        XCTAssertLessThanOrEqual(sizes.count, 1, "every new file is the same complete rewrite")
    }

    // MARK: Helpers

    private func crashEveryStage(method: String, stages: [(stage: String, new: Bool)], in folder: URL) throws {
        for file in Self.files {
            let baseline = try qpdfCheck(try TestEnvironment.corpusFile(file))
            for (stage, expectNew) in stages {
                let label = "\(method) \(stage) \(file)"
                let path = try copy(file, into: folder)
                let original = try Data(contentsOf: URL(fileURLWithPath: path))
                let title = "Crash \(stage) — Сбой"
                let killed = try folio(["set-info", path, "--entry", "Title=\(title)", "--save-method", method],
                                       environment: ["FOLIO_TEST_KILL_AT": stage])
                XCTAssertEqual(killed.status, SIGKILL, "\(label): killed at its stage")
                let journal = folder.appendingPathComponent(".\((path as NSString).lastPathComponent).folio-journal").path
                let journalLeft = FileManager.default.fileExists(atPath: journal)
                XCTAssertEqual(journalLeft, method == "journal" && stage != "journal-removed", label)
                // The next run: `check` reports the journal, then settles it.
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

    private func python(_ code: String, _ arguments: String...) throws -> String {
        let run = try TestEnvironment.runTool("python3", ["-W", "ignore", "-c", code] + arguments)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        return String(decoding: run.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func pageCount(_ path: String) throws -> Int {
        Int(try python("import pikepdf,sys; print(len(pikepdf.open(sys.argv[1]).pages))", path)) ?? -1
    }

    /// How many cross-reference sections the file has (one per save, counting the first).
    private func startxrefs(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let word = Array("startxref".utf8)
        guard bytes.count >= word.count else { return 0 }
        return (0...(bytes.count - word.count)).reduce(0) { count, start in
            bytes[start..<(start + word.count)].elementsEqual(word) ? count + 1 : count
        }
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
